"""The shared readings of :mod:`devicesworld.textshape` (first-match agent and placement measurement)."""

from __future__ import annotations

from devicesworld.textshape import FIRST_SCREEN_CHARS, first_screen, forms


def test_first_screen_reads_screen_then_message_then_data() -> None:
    assert first_screen(["Inbox"], "opened", {"n": 2}) == "Inbox\nopened\n{'n': 2}"


def test_first_screen_is_empty_for_nothing_or_a_bare_ok() -> None:
    assert first_screen([]) == ""
    assert first_screen([], "ok") == ""
    assert first_screen([" "], "", None) == ""


def test_first_screen_is_cut_to_one_screen() -> None:
    assert len(first_screen(["x" * (FIRST_SCREEN_CHARS + 50)])) == FIRST_SCREEN_CHARS


def test_forms_of_a_value() -> None:
    assert forms(21.5) == ["21.5"]
    assert forms(21.0) == ["21.0", "21"]
    assert forms("+1 555 0100") == ["+1 555 0100", "1 555 0100"]
    assert forms("") == []
