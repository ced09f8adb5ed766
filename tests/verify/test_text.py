from __future__ import annotations

import pytest

from devicesworld.verify.text import contains_value


@pytest.mark.parametrize(
    ("text", "expected", "found"),
    [
        ("meet at 07:20 sharp", "07:20", True),
        ("meet at 7:20 am", "07:20", True),
        ("meet at 7:20AM", "07:20", True),
        ("meet at 7:20 a.m.", "07:20", True),
        ("meet at 7:20", "07:20", True),
        ("meet at 7:20 pm", "07:20", False),
        ("meet at 17:20", "07:20", False),
        ("meet at 19:20", "19:20", True),
        ("meet at 7:20 PM", "19:20", True),
        ("meet at 7:20", "19:20", False),
        ("meet at 7:20 am", "19:20", False),
        ("at 12:05 pm", "12:05", True),
        ("at 12:05 am", "12:05", False),
        ("at 12:05 am", "00:05", True),
        ("at 00:05", "00:05", True),
        ("code 482913 here", "482913", True),
        ("code 482913 here", "482914", False),
        ("at 07:200", "07:20", False),
    ],
)
def test_times_are_found_in_every_spelling_of_the_right_half_of_the_day(
    text: str, expected: str, found: bool
) -> None:
    assert contains_value(text, expected) is found


def test_phone_and_desktop_checks_accept_the_time_as_the_phone_shows_it() -> None:
    from devicesworld.devices.android.checks import _text_ok
    from devicesworld.devices.linux.checks import TextContainsArgs, _text_contains

    assert _text_ok("Pickup moved to 7:20 AM", None, ["07:20"])
    assert not _text_ok("Pickup moved to 7:20 PM", None, ["07:20"])
    args = TextContainsArgs(path="~/notes.txt", contains=["19:45"])
    assert _text_contains("Standup at 7:45 pm", args, "notes").passed
    assert not _text_contains("Standup at 9:45", args, "notes").passed
