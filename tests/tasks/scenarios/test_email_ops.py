"""A person's e-mail is derived from their own name (issue #33: no other person's name in it)."""

from __future__ import annotations

import pytest

from devicesworld.tasks.scenarios.ops import email_of, email_of_namesake


def test_the_address_is_the_persons_own_name() -> None:
    assert email_of("Amy Rojas") == "amy.rojas@example.org"
    assert email_of("Mary-Kate O'Neil") == "marykate.oneil@example.org"
    assert email_of("Cher") == "cher@example.org"
    assert email_of_namesake("Amy Rojas", "Tanaka") == "amy.tanaka@example.org"


def test_a_name_without_letters_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="person's name"):
        email_of("42")
