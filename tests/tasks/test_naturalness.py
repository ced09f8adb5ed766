"""Naturalness gates: instructions that differ only in values mask equal; repeated clauses are found."""

from __future__ import annotations

from devicesworld.tasks.naturalness import masked, repeated_clauses


def test_instructions_differing_only_in_values_mask_equal() -> None:
    a = 'Copy the code 482913 into ~/Documents/a.txt and set the heater to 21.5 °C at 18:30 for "Ann".'
    b = 'Copy the code 120034 into ~/Desktop/notes.txt and set the heater to 19 °C at 07:15 for "Bo Li".'
    assert masked(a) == masked(b)
    assert masked(a) != masked("Copy the code 482913 into ~/Documents/a.txt and then text it to Ann.")


def test_a_clause_said_twice_is_reported() -> None:
    text = "On the phone, open the note; then, on the phone, open the note. Finally reply."
    assert repeated_clauses(text) == ["on the phone", "open the note"]
    assert repeated_clauses("Dim the lamp to 40%, then close the curtains to 20%.") == []
