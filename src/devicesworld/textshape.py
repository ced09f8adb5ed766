"""Values that look alike: digit runs of the same lengths with the same separators.

A careless reader takes the first number "of the right shape" it sees (a six-digit
code, an ``HH:MM`` time). Two places need the same notion: the ``first-match``
baseline agent, which reads that way, and the difficulty measurement of scenario
tasks, which counts how many look-alike values stand before the one a task needs
(``tasks/scenarios/placement.py``). Keeping it here keeps the two in step; so do
:func:`first_screen` (what such a reader takes in from a device after a step) and
:func:`forms` (how a stored value can be written on a screen).
"""

from __future__ import annotations

import re
from typing import Any

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


def first_screen(shown: list[str], message: str | None = None, data: Any = None) -> str:
    """What a reader takes in after a step on a device: what it shows, then the step's message and data.

    Cut to :data:`FIRST_SCREEN_CHARS`; ``""`` when that is nothing, or only a bare ``ok``.
    """
    parts = [*shown]
    if message:
        parts.append(message)
    if data is not None:
        parts.append(str(data))
    text = "\n".join(parts).strip()
    return text[:FIRST_SCREEN_CHARS] if text and text != "ok" else ""


def forms(value: Any) -> list[str]:
    """How a stored value can appear on a screen (``21.5`` and ``21.5``, ``+1555…`` and ``1555…``)."""
    out = [str(value)]
    if isinstance(value, float):
        out.append(f"{value:g}")
    if isinstance(value, str) and value.startswith("+"):
        out.append(value[1:])
    return [f for f in dict.fromkeys(out) if f]
