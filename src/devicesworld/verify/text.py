"""Does a text contain an expected value? A thin name kept for callers of the old helper.

The meaning of "contains" lives in :mod:`devicesworld.spec.values`: an expected
``HH:MM`` is found as ``07:20``, ``7:20`` or ``7:20 AM`` but never inside another time
(``17:20``) nor with the wrong half of the day; a date in any spelling; anything else
as whole words of the normalised text.
"""

from __future__ import annotations

from devicesworld.spec.values import find


def contains_value(text: str, expected: str) -> bool:
    """``expected`` appears in ``text``, by the value type inferred from ``expected``."""
    return find(text, expected) is not None
