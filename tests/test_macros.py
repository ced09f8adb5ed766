"""The shared check of a macro's mapping arguments: what a task author is told when they are off."""

from __future__ import annotations

import pytest

from devicesworld.macros import MacroError, mapping_args


def test_mapping_args_returns_a_copy_of_the_mapping() -> None:
    given = {"url": "http://a", "values": {}}
    got = mapping_args(given, "fill_form", ("url", "values"), ("submit",))
    assert got == given
    got["url"] = "http://b"
    assert given["url"] == "http://a"


def test_mapping_args_names_what_is_missing_and_unknown() -> None:
    with pytest.raises(MacroError) as err:
        mapping_args({"url": "http://a", "colour": "red"}, "fill_form", ("url", "values"), ("submit",))
    assert str(err.value) == "fill_form: missing values; unknown colour (takes url, values, submit)"


def test_mapping_args_refuses_a_non_mapping() -> None:
    with pytest.raises(MacroError, match="set_time takes a mapping with hour, minute"):
        mapping_args("19:15", "set_time", ("hour", "minute"))
