"""Does a text contain an expected value? Times count in every spelling a person uses.

A task built from a 24-hour time (``07:20``) is shown on the phone as "7:20 AM";
an agent that copies what it sees must not fail because of the spelling. An
expected ``HH:MM`` is therefore found as ``07:20``, ``7:20`` or ``7:20 AM``
(``7:20am``, ``7:20 a.m.``) — but never inside another time (``17:20``) and never
with the wrong half of the day (``7:20 PM``). Every other value is a plain
substring.
"""

from __future__ import annotations

import re
from functools import cache

_TIME = re.compile(r"(\d{1,2}):(\d{2})")


def contains_value(text: str, expected: str) -> bool:
    """``expected`` appears in ``text`` (both already normalised the caller's way)."""
    match = _TIME.fullmatch(expected.strip())
    if match is None:
        return expected in text
    hour, minute = int(match.group(1)), match.group(2)
    if hour > 23 or int(minute) > 59:
        return expected in text
    return _time_pattern(hour, minute).search(text) is not None


@cache
def _time_pattern(hour: int, minute: str) -> re.Pattern[str]:
    half = "a" if hour < 12 else "p"
    h12 = hour % 12 or 12
    leading = "0?" if hour < 10 else ""
    day = rf"(?<![\d:]){leading}{hour}:{minute}(?![\d:])"
    not_twelve_hour = r"(?!\s*[ap]\.?\s*m\b)"
    twelve = rf"(?<![\d:]){h12}:{minute}\s*{half}\.?\s*m\b"
    return re.compile(rf"{day}{not_twelve_hour}|{twelve}", re.IGNORECASE)
