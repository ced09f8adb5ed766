"""Size and nesting limits of task documents, checked before anything parses them.

Why limits: a task file comes from anyone. Without them a file nested 100,000 levels
deep stops Python's JSON parser with a ``RecursionError``, 300 levels in a setup
op's arguments validate but cannot be serialised again to reach a worker, and a
gigabyte file is read whole into memory. The limits are far above what any shipped
task needs (the deepest of the full suite nests 11 levels, its free-form arguments
8, its largest task is 8 KB, the whole suite 17 MB), and each error names the limit
and where it was crossed. The values are documented in ``docs/task-format.md``.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Final

MAX_FILE_MB: Final = 128
MAX_FILE_BYTES: Final = MAX_FILE_MB * 1024 * 1024
"""A task file (after gunzip) may hold at most this much."""
MAX_TASK_MB: Final = 1
MAX_TASK_BYTES: Final = MAX_TASK_MB * 1024 * 1024
"""One task document (one JSONL line, or one ``.json`` file) may hold at most this much."""
MAX_DEPTH: Final = 64
"""Levels of ``{}``/``[]`` nesting in one task file or document."""
MAX_VALUE_DEPTH: Final = 32
"""Levels of nesting inside a free-form value (op, action and check ``args``, a device ``profile``)."""

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def too_deep_at(text: str, limit: int = MAX_DEPTH) -> tuple[int, int] | None:
    """``(line, column)`` (1-based) where ``text`` first nests deeper than ``limit``, else ``None``.

    Strings are skipped, so brackets inside them do not count. The common case (within
    the limit) is decided by regular expressions and ``itertools`` without a Python
    loop per character; only a document that is too deep is walked to find the spot.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    brackets = _NOT_BRACKET.sub("", _STRING.sub('""', text))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= limit:
        return None
    return _locate(text, limit)


def _locate(text: str, limit: int) -> tuple[int, int]:
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                line = text.count("\n", 0, i) + 1
                return line, i - (text.rfind("\n", 0, i) + 1) + 1
        elif ch in "]}":
            depth -= 1
    return text.count("\n") + 1, 1  # unreachable when the fast check found too deep a nesting


def value_depth(value: Any, limit: int = MAX_VALUE_DEPTH) -> int:
    """Nesting levels of a JSON-like value, counted without recursion and only up to ``limit + 1``."""
    if not isinstance(value, dict | list | tuple):
        return 0
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if depth > limit:
                return depth
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list | tuple))
    return deepest


def check_value_depth(value: Any, limit: int = MAX_VALUE_DEPTH) -> Any:
    """``value`` unchanged, or ``ValueError`` naming the limit (for pydantic validators).

    Measured on the value's JSON text (written by the C encoder, scanned by
    :func:`too_deep_at`) rather than by walking it in Python: the free-form values of
    the full suite hold hundreds of thousands of items, and a walk over them would
    double the time to load it.
    """
    if not isinstance(value, dict | list | tuple) or (limit >= 1 and _flat(value)):
        return value
    try:
        text = json.dumps(value, default=_opaque, check_circular=False)
    except RecursionError:
        raise ValueError(f"nested deeper than {limit} levels") from None
    except (TypeError, ValueError):  # keys JSON cannot hold: count the slow way
        if value_depth(value, limit) > limit:
            raise ValueError(f"nested deeper than {limit} levels") from None
        return value
    if too_deep_at(text, limit) is not None:
        raise ValueError(f"nested deeper than {limit} levels")
    return value


def _flat(value: dict[Any, Any] | list[Any] | tuple[Any, ...]) -> bool:
    """One level only (most arguments are a few scalars): no need to measure further."""
    items = value.values() if isinstance(value, dict) else value
    return not any(isinstance(item, dict | list | tuple) for item in items)


def _opaque(obj: object) -> str:
    """Objects JSON has no form for count as leaves."""
    return ""


def mb(n_bytes: int) -> str:
    """A size for messages: ``3.2 MB``."""
    return f"{n_bytes / (1024 * 1024):.1f} MB"
