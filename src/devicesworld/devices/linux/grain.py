"""Tables by row and documents by paragraph, as the collateral guard sees them (issue 32).

A whole-file hash licenses too much: when a check on a spreadsheet licensed the file, a wrong
extra row, another row changed or a heading made bold passed beside the right cell. So a
table (CSV, xlsx) is snapshotted as one part per row and a document (docx) as one part per
paragraph (and per table row):

- ``files/<path>/#row/<cells>`` (CSV) and ``files/<path>/#row/<sheet>/<cells>`` (xlsx), where
  ``<cells>`` is the row as ``| a | b | c |`` — each cell with its whitespace collapsed, plain
  numbers in one spelling (``7.50`` = ``7.5``), trailing empty cells and empty rows left out;
- ``files/<path>/#p/<text>`` for each non-empty paragraph, its digest the paragraph's
  formatting (heading style, bold/italic/underline of its characters), and
  ``files/<path>/#t/<cells>`` for each row of a table in the document.

A part is named by its content, so reordering rows, re-saving, quoting cells or adding blank
paragraphs changes nothing, while an edit is one part gone and one come (the guard pairs
the two when the new one is licensed: :attr:`~devicesworld.devices.state.StateSpec.edits`).
A repeated row gets ``~2``, ``~3``…

Each check licenses what it asks for, read from the final file with the check's own value
semantics: ``table_cell_equals`` the rows with its key (both versions of the row: the key
stays), ``table_has_row`` the rows that match, ``docx_paragraph`` the new paragraph,
``docx_contains`` the paragraphs giving a value, ``docx_text_format`` the paragraphs holding
the text. Order-dependent checks (a cell by position, a row count, a formula) license the file.
"""

from __future__ import annotations

import re
from typing import Any

from devicesworld.devices.base import DeviceError, GetterFn
from devicesworld.devices.linux.resources import isolate
from devicesworld.devices.linux.resources.readers import Blob, FormatError
from devicesworld.devices.safefs import FsError
from devicesworld.devices.state import PART, Snapshot, digest, literal
from devicesworld.spec import values

ROW = "row/"
PARAGRAPH = "p/"
DOC_TABLE = "t/"
MAX_KEY = 200
"""Characters of a row's or paragraph's text kept in its path (the digest holds the rest)."""
MAX_BYTES = isolate.INLINE_BYTES
"""Larger files are parsed in a subprocess by the checks; the guard keeps their whole hash."""
TABLES = (".csv", ".xlsx", ".xlsm")
DOCUMENTS = (".docx",)
EDITS = tuple(f"files/*{PART}{kind}*" for kind in (ROW, PARAGRAPH, DOC_TABLE))
"""Parts edited in place: a removed one is paired with a licensed one that replaced it."""

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_CACHE: dict[tuple[str, str], Snapshot | None] = {}
_CACHE_MAX = 512


def cell_text(value: Any) -> str:
    """A cell as one canonical string: whitespace collapsed, a plain number in one spelling."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return _number(float(value))
    text = " ".join(str(value).split())
    return _number(float(text)) if _NUMBER.fullmatch(text) else text


def _number(x: float) -> str:
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def row_cells(row: list[Any]) -> list[str]:
    """The row's cells as :func:`cell_text`, trailing empty cells left out."""
    cells = [cell_text(c) for c in row]
    while cells and not cells[-1]:
        cells.pop()
    return cells


def row_text(row: list[Any]) -> str:
    """``| a | b |`` (trailing empty cells left out); ``""`` for an empty row."""
    cells = row_cells(row)
    return "| " + " | ".join(cells) + " |" if cells else ""


def paragraph_text(text: str) -> str:
    return " ".join(text.split())


def _key(text: str) -> str:
    return text if len(text) <= MAX_KEY else text[:MAX_KEY] + "…"


def _add(out: Snapshot, prefix: str, text: str, value: Any) -> None:
    """One part per text, a repeat numbered ``~2``, ``~3``…"""
    base = prefix + _key(text)
    path, n = base, 1
    while path in out:
        n += 1
        path = f"{base}~{n}"
    out[path] = digest(value)


def _runs_signature(paragraph: dict[str, Any]) -> list[Any]:
    """The paragraph's heading style and its characters' formatting as merged segments (a
    re-save that splits runs differently is the same)."""
    style = str(paragraph.get("style") or "")
    heading = style if style.lower().startswith(("heading", "title")) else ""
    segments: list[list[Any]] = []
    for run in paragraph.get("runs", []):
        chars = len("".join(str(run.get("text", "")).split()))
        if not chars:
            continue
        fmt = [bool(run.get("bold")), bool(run.get("italic")), bool(run.get("underline"))]
        if segments and segments[-1][:3] == fmt:
            segments[-1][3] += chars
        else:
            segments.append([*fmt, chars])
    return [heading, segments]


def parts(name: str, data: bytes) -> Snapshot | None:
    """The parts of one table or document file (``row/…``, ``p/…``, ``t/…``: a state path is
    the file's, then :data:`PART`, then the part), or ``None`` to keep the file's whole hash (another format, too big, unreadable,
    empty)."""
    lower = name.lower()
    if not lower.endswith(TABLES + DOCUMENTS) or len(data) > MAX_BYTES:
        return None
    key = (lower.rsplit(".", 1)[-1], digest(data))
    if key in _CACHE:
        return _CACHE[key]
    try:
        found = _parts(lower, Blob(name, data))
    except (FormatError, FsError, ValueError, KeyError, TypeError, OSError):
        found = None
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = found or None
    return found or None


def _parts(lower: str, blob: Blob) -> Snapshot:
    out: Snapshot = {}
    if lower.endswith(".csv"):
        for row in isolate.parse("csv", blob):
            if text := row_text(row):
                _add(out, ROW, text, row_cells(row))
    elif lower.endswith(TABLES):
        for sheet in isolate.parse("sheets", blob):
            # formulas as written, not their cached values: a sheet re-saved by an office app
            # gains cached values its generator never wrote (the same sheet, not a change)
            for row in isolate.parse("xlsx_formulas", blob, sheet):
                if text := row_text(row):
                    _add(out, f"{ROW}{sheet}/", text, row_cells(row))
    else:
        paragraphs = isolate.parse("docx_runs", blob)
        for p in paragraphs:
            if text := paragraph_text(str(p.get("text", ""))):
                _add(out, PARAGRAPH, text, [text, _runs_signature(p)])
        for line in isolate.parse("docx", blob)[len(paragraphs) :]:
            if text := row_text(str(line).split("\t")):
                _add(out, DOC_TABLE, text, text)
    return out


# --- what each check licenses ------------------------------------------------------------


def _read(get: GetterFn, getter: str, args: dict[str, Any]) -> Any:
    try:
        return get(getter, args)
    except (DeviceError, KeyError, TypeError, ValueError):
        return None


def _table_rows(get: GetterFn, a: Any) -> list[list[Any]]:
    path = str(a.path)
    if path.lower().endswith((".xlsx", ".xlsm")):
        rows = _read(get, "xlsx", {"path": path, "sheet": getattr(a, "sheet", None)})
    else:
        rows = _read(get, "csv", {"path": path})
    return rows if isinstance(rows, list) else []


def _exact(where: str, kind: str, text: str) -> list[str]:
    """A part by its whole text, and its repeats; xlsx rows under any sheet."""
    lit = literal(_key(text))
    inner = f"{kind}*/" if kind == ROW else kind
    heads = [f"{where}{PART}{kind}{lit}", f"{where}{PART}{inner}{lit}"]
    return [p for head in dict.fromkeys(heads) for p in (head, head + "~*")]


def table_cell_writes(where: str, a: Any, get: GetterFn) -> list[str]:
    """The rows whose key column holds the key (their key stays, so both versions match);
    a cell by position is about order: the whole table."""
    from devicesworld.devices.linux.checks import _cell_match, _column_index, _header_row

    if getattr(a, "row", None) is not None or a.key is None:
        return [where, f"{where}/*"]
    rows = _table_rows(get, a)
    if not rows:
        return [where]
    head = _header_row(rows, [a.column, a.key_column])
    col = _column_index(rows[head], a.key_column)
    if col is None:
        return [where]
    keys = {cell_text(r[col]) for r in rows[head + 1 :] if col < len(r) and _cell_match(r[col], a.key)}
    return [where, *(f"{where}{PART}{ROW}*| {literal(k)} |*" for k in sorted(keys) if k)]


def table_row_writes(where: str, a: Any, get: GetterFn) -> list[str]:
    """The rows that match the expected row (an edited row's old version pairs with it)."""
    from devicesworld.devices.linux.checks import _cell_match, _column_index, _header_row

    rows = _table_rows(get, a)
    out = [where]
    if not rows:
        return out
    if isinstance(a.row, list):
        want = list(a.row)
        hits = [
            r
            for r in rows
            if all(
                _cell_match(r[i] if i < len(r) else None, w, kind=a.value_type) for i, w in enumerate(want)
            )
        ]
    else:
        head = _header_row(rows, list(a.row))
        cols = {i: v for name, v in a.row.items() if (i := _column_index(rows[head], name)) is not None}
        hits = [
            r
            for r in rows[head + 1 :]
            if cols
            and all(_cell_match(r[i] if i < len(r) else None, v, kind=a.value_type) for i, v in cols.items())
        ]
    for r in hits:
        if text := row_text(r):
            out += _exact(where, ROW, text)
    return out


def _paragraphs(get: GetterFn, path: str) -> list[str]:
    lines = _read(get, "docx", {"path": path})
    return [str(line) for line in lines] if isinstance(lines, list) else []


def _doc_line_writes(where: str, line: str) -> list[str]:
    text = paragraph_text(line)
    out = _exact(where, PARAGRAPH, text) if text else []
    if "\t" in line:  # a table row of the document (or a paragraph holding a tab)
        out += _exact(where, DOC_TABLE, row_text(line.split("\t")))
    return out


def docx_paragraph_writes(where: str, a: Any, get: GetterFn) -> list[str]:
    """The new paragraph(s) the check accepts: starting with the label, not one of the kept
    ones, giving the values (a second labelled paragraph with another value is not licensed)."""
    start = values.normalise_text(a.starts_with)
    kept = {values.normalise_text(k) for k in a.keep}
    out = [where]
    for line in _paragraphs(get, a.path):
        norm = values.normalise_text(line)
        if (
            norm.startswith(start)
            and norm not in kept
            and values.judge_text(line, a.contains, a.distractors, a.value_type).passed
        ):
            out += _doc_line_writes(where, line)
    return out


def docx_contains_writes(where: str, a: Any, get: GetterFn) -> list[str]:
    """The paragraphs (and table rows) that give one of the values; ``absent`` strings removed
    are licensed through the paragraphs they were in only when those now give a value."""
    out = [where]
    for line in _paragraphs(get, a.path):
        if any(values.judge_text(line, [v], [], a.value_type).passed for v in a.contains):
            out += _doc_line_writes(where, line)
    return out


def docx_format_writes(where: str, a: Any, get: GetterFn) -> list[str]:
    """The paragraphs holding the text to format."""
    out = [where]
    for line in _paragraphs(get, a.path):
        if a.text in line:
            out += _doc_line_writes(where, line)
    return out


__all__ = [
    "EDITS",
    "cell_text",
    "docx_contains_writes",
    "docx_format_writes",
    "docx_paragraph_writes",
    "parts",
    "row_text",
    "table_cell_writes",
    "table_row_writes",
]
