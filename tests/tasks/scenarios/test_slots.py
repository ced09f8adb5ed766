"""Semantic slot types: a value flows only into a slot of its meaning."""

from __future__ import annotations

import pytest

from devicesworld.spec.values import VALUE_TYPES
from devicesworld.tasks.scenarios.ops import check_signature
from devicesworld.tasks.scenarios.slots import MEANINGS, SlotTypeError, check_flow, check_value, meaning


def test_every_meaning_the_issue_names_exists_with_units() -> None:
    for name in (
        "temperature", "duration", "clock_time", "date", "money", "percentage", "count",
        "person", "phone_number", "address", "code", "file", "url", "free_text",
    ):  # fmt: skip
        assert name in MEANINGS
    assert meaning("temperature").say(21.5) == "21.5 °C"
    assert meaning("duration").say(45) == "45 minutes"
    assert meaning("money").say(1240.5) == "$1,240.50"
    assert meaning("percentage").say(40) == "40%"
    assert meaning("date").say("2026-03-03") == "Tuesday 3 March"


def test_a_value_fills_only_a_slot_of_its_meaning() -> None:
    check_flow("duration", "duration", "here")
    with pytest.raises(SlotTypeError, match="a percentage cannot fill a duration slot"):
        check_flow("percentage", "duration", "here")
    with pytest.raises(SlotTypeError, match="unknown slot type"):
        check_flow("pm25", "duration", "here")


def test_stored_values_are_checked_against_their_meaning() -> None:
    check_value("duration", 45, "x")
    with pytest.raises(SlotTypeError, match="not a duration"):
        check_value("duration", 4.5, "x")
    with pytest.raises(SlotTypeError, match="not a count"):
        check_value("count", True, "x")


def test_operations_refuse_inputs_of_another_meaning() -> None:
    check_signature("before", ["clock_time", "duration"], "clock_time", "d")
    check_signature("total", ["money", "money"], "money", "d")
    with pytest.raises(SlotTypeError, match="percentage cannot fill a duration"):
        check_signature("before", ["clock_time", "percentage"], "clock_time", "d")
    with pytest.raises(SlotTypeError, match="mixes a money and a count"):
        check_signature("total", ["money", "count"], "money", "d")
    with pytest.raises(SlotTypeError, match="cannot take a temperature"):
        check_signature("total", ["temperature", "temperature"], "temperature", "d")
    with pytest.raises(SlotTypeError, match="result of higher"):
        check_signature("higher", ["temperature", "temperature"], "percentage", "d")


def test_every_meaning_is_compared_by_a_verifier_value_type() -> None:
    for m in MEANINGS.values():
        assert m.verify_as in VALUE_TYPES, m.name
