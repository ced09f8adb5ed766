"""JSON Lines, written and read one way everywhere: task files, steps, results, demonstrations.

Why one module: a JSONL record is one line only if every reader agrees on what a
line is. ``json.dumps(..., ensure_ascii=False)`` and pydantic's ``model_dump_json``
leave U+2028, U+2029 and U+0085 raw inside strings; ``str.splitlines`` (and so any
reader built on it) treats them as line breaks and cuts the record in two. So the
writer escapes them (``\\u2028`` is the same JSON string), and the reader splits on
``b"\\n"`` only. Control characters that ``splitlines`` also breaks on (``\\x0b``,
``\\x0c``, ``\\x1c``-``\\x1e``, ``\\r``) can never appear raw in a JSON string, so
compact JSON text never holds them.

Readers get every non-blank line with its 1-based number and decide what a bad line
means for them (a task file rejects it, a step log counts and reports it); the
parsing errors come from here as :class:`LineError`, with a short reason.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any, Final

from pydantic import BaseModel

_ESCAPES: Final = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


class LineError(ValueError):
    """One line is not a JSON value (the message is a short reason, without the line's text)."""


def line(json_text: str) -> str:
    """``json_text`` (one compact JSON value) as one JSONL line, ending in ``\\n``.

    Raises ``ValueError`` for text that holds a raw newline (indented JSON is not a line).
    """
    if "\n" in json_text or "\r" in json_text:
        raise ValueError("a JSONL record must be compact JSON without raw newlines")
    return json_text.translate(_ESCAPES) + "\n"


def dumps_line(obj: Any, **kwargs: Any) -> str:
    """``json.dumps(obj, **kwargs)`` as one JSONL line (``indent`` is not allowed)."""
    if kwargs.get("indent") is not None:
        raise ValueError("a JSONL record cannot be indented")
    return line(json.dumps(obj, **kwargs))


def model_line(model: BaseModel, **kwargs: Any) -> str:
    """``model.model_dump_json(**kwargs)`` as one JSONL line."""
    return line(model.model_dump_json(**kwargs))


def split_lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """``(line number, raw line)`` for every non-blank line, split on ``b"\\n"`` only."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            yield number, raw


def last_line_number(data: bytes) -> int:
    """The number of the last non-blank line (0 when there is none)."""
    stripped = data.rstrip()
    return stripped.count(b"\n") + 1 if stripped else 0


def _no_constant(name: str) -> Any:
    raise LineError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise LineError(f"number {text[:40]} is out of range")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise LineError(f"duplicate key {key[:80]!r} in one object")
            seen.add(key)
    return out


def parse_text(text: str, *, strict: bool = False) -> Any:
    """Parse one JSON text; :class:`LineError` with a short reason when it is not valid.

    ``strict`` also rejects ``NaN``/``Infinity``, numbers that overflow to infinity
    (``1e400``) and an object with the same key twice (all accepted by Python's json
    module, and all silently lose or bend data).
    """
    hooks: dict[str, Any] = (
        {"parse_constant": _no_constant, "parse_float": _finite, "object_pairs_hook": _unique_keys}
        if strict
        else {}
    )
    try:
        return json.loads(text, **hooks)
    except LineError:
        raise
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        raise LineError(f"invalid JSON: {exc.msg} ({where})") from None
    except RecursionError:
        raise LineError("invalid JSON: nested too deeply to parse") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise LineError(f"invalid JSON: {str(exc).split(';')[0][:200]}") from None


def parse_line(raw: bytes, *, strict: bool = False) -> Any:
    """Decode (UTF-8) and parse one raw line; :class:`LineError` on failure."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise LineError("starts with a UTF-8 byte order mark (BOM); save the file as UTF-8 without BOM")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineError(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return parse_text(text, strict=strict)


MAX_BODY_DEPTH: Final = 64
"""Deepest nesting a server accepts in a request body. No request of any API we serve
nests beyond a handful of levels; a 100,000-deep body must be a clean 400, not a
``RecursionError`` in the parser or in whatever walks the value afterwards."""


class BodyError(ValueError):
    """A request body is not acceptable JSON; the message is a short reason for a 400 answer."""


def parse_body(data: bytes | str, *, max_depth: int = MAX_BODY_DEPTH, empty: Any = None) -> Any:
    """Parse a request body for a server; :class:`BodyError` (answer 400) when it is not usable.

    One parser for every server (the Home Assistant facade's REST and WebSocket, the
    test LLM server), so each refuses the same bodies the same way: not UTF-8, not
    JSON, or nested deeper than ``max_depth`` (the parser's own ``RecursionError`` on a
    100,000-deep body is caught; a body it can parse is measured afterwards, without
    recursion, so nothing downstream walks a value deeper than ``max_depth``). A blank
    body gives ``empty``.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BodyError(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    else:
        text = data
    if not text.strip():
        return empty
    try:
        value = parse_text(text)  # a body too deep for the parser itself is a LineError too
    except LineError as exc:
        raise BodyError(str(exc)) from None
    if _nesting(value) > max_depth:
        raise BodyError(f"invalid JSON: nested deeper than {max_depth} levels")
    return value


def _nesting(value: Any) -> int:
    """The deepest nesting of lists and objects in a parsed value, walked without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest
