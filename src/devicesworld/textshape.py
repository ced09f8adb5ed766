"""Values that look alike: digit runs of the same lengths with the same separators.

A careless reader takes the first number "of the right shape" it sees (a six-digit
code, an ``HH:MM`` time). Two places need the same notion: the ``first-match``
baseline agent, which reads that way, and the difficulty measurement of scenario
tasks, which counts how many look-alike values stand before the one a task needs
(``tasks/scenarios/placement.py``). Keeping it here keeps the two in step.
"""

from __future__ import annotations

import re

TOKEN = re.compile(r"\+?\d[\d:.]*\d|\d")
"""A number-like token: digits with ``:`` or ``.`` inside, an optional leading ``+``."""


def shape(token: str) -> re.Pattern[str]:
    """A pattern for values that look like ``token``: digit runs of the same lengths, same separators."""
    parts = re.split(r"(\d+)", token)
    body = "".join(rf"\d{{{len(p)}}}" if p.isdigit() else re.escape(p) for p in parts if p)
    return re.compile(rf"(?<![\d.:]){body}(?![\d:]|\.\d)")


def candidates(token: str, texts: list[str]) -> list[str]:
    """Every distinct value shaped like ``token`` in ``texts``, in reading order."""
    pattern = shape(token)
    return list(dict.fromkeys(m.group(0) for text in texts for m in pattern.finditer(text)))


FIRST_SCREEN_CHARS = 1_200
"""How much of a device's first screen a reader takes in (about one phone screen)."""
