"""Bounded echoes of user input in error messages.

An error message that repeats what it rejects helps, until the input is a 3 MB
string: then one message fills the terminal and the log. Every message that quotes
input from a task file, a step or a request quotes it through :func:`clip`, so what
is shown is at most ``limit`` characters plus a note of how long the original was.
"""

from __future__ import annotations

from typing import Final

ECHO_LIMIT: Final = 200
"""Characters of an input value an error message shows."""


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with ``… (N chars)`` when it was longer."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} chars)"


def clip_repr(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)``, bounded like :func:`clip` (the count is of the repr's characters)."""
    return clip(repr(value), limit)
