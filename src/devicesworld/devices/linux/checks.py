"""Verifier checks of the ``linux`` kind; each reads the device only through its getters.

Getters return ``None`` for a missing file and raise for a file in the wrong format,
so every check can say precisely what went wrong: missing, unreadable, or different.
Every value the agent wrote is compared by meaning through
:mod:`devicesworld.spec.values` (a date in any spelling, a number with thousands
separators, ...); tables are looked up by a key column, documents by paragraph, and
the latest draft or form submission is the answer. Checks taking ``distractors``
fail when the answer also gives one of them (a hedged answer).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, model_validator

from devicesworld.devices.base import Args, CheckOutcome, DeviceError, GetterFn
from devicesworld.devices.declare import CheckTable
from devicesworld.spec import statements, values
from devicesworld.spec.statements import Fact
from devicesworld.spec.values import Expected, TypedValue, ValueType, resolve_path, values_match

CHECKS = CheckTable("linux")
"""The kind's checks, each declared on its function; they read the device only through ``get``."""

_VALUE_TYPE: Any = Field(
    default=None, description="How values compare (date, time, phone, money, ...); inferred if unset."
)
_DISTRACTORS: Any = Field(
    default_factory=list, description="Values that must not appear: an answer giving one fails (hedging)."
)


def _ok(passed: bool, detail: str) -> CheckOutcome:
    return CheckOutcome(passed=passed, detail=detail)


def _norm(text: str, case_sensitive: bool) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if case_sensitive else text.casefold()


def _fetch(get: GetterFn, getter: str, args: dict[str, Any]) -> tuple[Any, CheckOutcome | None]:
    """The getter's value, or a failed outcome when the file is missing or unreadable."""
    try:
        value = get(getter, args)
    except DeviceError as exc:
        return None, _ok(False, f"{args.get('path', getter)}: {exc.message}")
    if value is None:
        return None, _ok(False, f"{args.get('path', getter)} does not exist")
    return value, None


# --- files -----------------------------------------------------------------------------


class FileExistsArgs(Args):
    path: str
    exists: bool = True


@CHECKS.register(
    "file_exists", doc="A file or folder exists (or, with exists=false, does not).", args=FileExistsArgs
)
def _file_exists(get: GetterFn, a: FileExistsArgs) -> CheckOutcome:
    info = get("file_info", {"path": a.path})
    there = bool(info and info.get("exists"))
    return _ok(there == a.exists, f"{a.path} {'exists' if there else 'does not exist'}")


class TextContainsArgs(Args):
    path: str
    contains: list[Expected] = Field(default_factory=list, description="All must appear (by meaning).")
    absent: list[str] = Field(default_factory=list, description="None may appear (normalised text).")
    case_sensitive: bool = Field(default=False, description="Compare `contains` as exact-case literals.")
    value_type: ValueType | None = _VALUE_TYPE
    distractors: list[Expected] = _DISTRACTORS
    facts: list[Fact] = Field(
        default_factory=list,
        description="What is true of named entities: a statement giving one another value fails (issue 32).",
    )


def _text_contains(text: str, a: TextContainsArgs, label: str) -> CheckOutcome:
    # A whole file is not read as a conversation: its other lines (a board's other days, a
    # table's other times) are not corrections of the value asked for — reading it so failed
    # correct answers (families' `file_contains` on boards and notes). Facts a task declares
    # about named entities are still judged clause by clause (issue 32).
    hedges: list[str] = []
    if a.case_sensitive:
        hay = _norm(text, True)
        missing = [values.shown(s) for s in a.contains if _norm(values.shown(s), True) not in hay]
        distractors = values.judge_text(text, [], a.distractors, a.value_type).distractors
    else:
        plain = values.judge_text(text, a.contains, a.distractors, a.value_type)
        missing, distractors = plain.missing, plain.distractors
        if not missing:  # a hedge only where the value is stated, judged in its own sentence
            hedges += statements.hedges_in_text(text, a.contains, a.value_type)
    if a.facts:
        verdict = statements.judge_conversation([text], [], [], a.value_type, facts=a.facts)
        hedges += [f"false: {f}" for f in verdict.false]
    said = _norm(text, a.case_sensitive)
    present = [s for s in a.absent if _norm(s, a.case_sensitive) in said]
    if missing or present or distractors or hedges:
        parts = []
        if missing:
            parts.append(f"missing {missing}")
        if distractors:
            parts.append(f"also gives distractor value(s) {distractors}")
        if hedges:
            parts.append(f"not a firm answer: {hedges}")
        if present:
            parts.append(f"should not contain {present}")
        return _ok(False, f"{label}: {'; '.join(parts)}")
    shown = [values.shown(c) for c in a.contains]
    return _ok(True, f"{label} contains {shown}" + (f" and none of {a.absent}" if a.absent else ""))


@CHECKS.register(
    "file_contains",
    doc="A text file contains every given string (whitespace/case-normalised).",
    args=TextContainsArgs,
)
def _file_contains(get: GetterFn, a: TextContainsArgs) -> CheckOutcome:
    text, bad = _fetch(get, "text", {"path": a.path})
    return bad or _text_contains(text, a, a.path)


class FileEqualsArgs(Args):
    path: str
    text: str
    strip: bool = Field(default=True, description="Ignore leading/trailing whitespace.")
    value_type: ValueType = Field(
        default="auto",
        description="Compare the whole content as this type ('09:40' is a time: '9:40 AM' matches).",
    )
    exact: bool = Field(default=False, description="Compare the content literally instead.")


@CHECKS.register("file_equals", doc="A text file's content equals the text.", args=FileEqualsArgs)
def _file_equals(get: GetterFn, a: FileEqualsArgs) -> CheckOutcome:
    text, bad = _fetch(get, "text", {"path": a.path})
    if bad:
        return bad
    actual, expected = (text.strip(), a.text.strip()) if a.strip else (text, a.text)
    ok = actual == expected if a.exact else values.same(actual, expected, a.value_type)
    return _ok(ok, f"{a.path} = {actual[:200]!r}, expected {expected[:200]!r}")


class FileUnchangedArgs(Args):
    path: str
    content: str


@CHECKS.register(
    "file_unchanged", doc="A text file still has exactly its original content.", args=FileUnchangedArgs
)
def _file_unchanged(get: GetterFn, a: FileUnchangedArgs) -> CheckOutcome:
    text, bad = _fetch(get, "text", {"path": a.path})
    if bad:
        return bad
    return _ok(text == a.content, f"{a.path} {'is unchanged' if text == a.content else 'was modified'}")


class JsonFieldArgs(Args):
    path: str
    field: str = Field(description="Dotted path into the JSON value, e.g. `order.items.0.qty`.")
    equals: Any
    tolerance: float = 0.0
    value_type: ValueType | None = _VALUE_TYPE
    distractors: list[Expected] = _DISTRACTORS


@CHECKS.register(
    "json_field_equals", doc="A JSON file's field (dotted path) equals a value.", args=JsonFieldArgs
)
def _json_field_equals(get: GetterFn, a: JsonFieldArgs) -> CheckOutcome:
    data, bad = _fetch(get, "json", {"path": a.path})
    if bad:
        return bad
    try:
        actual = resolve_path(data, a.field)
    except KeyError as exc:
        return _ok(False, f"{a.path}: {exc.args[0]}")
    if isinstance(a.equals, str | int | float) and not isinstance(a.equals, bool):
        ok = values.judge_field(actual, a.equals, a.distractors, a.value_type, tolerance=a.tolerance)
    else:  # booleans, lists and objects: exact structure
        ok = values_match(actual, a.equals, a.tolerance)
    return _ok(ok, f"{a.path}:{a.field} = {actual!r}, expected {a.equals!r}")


class TableCellArgs(Args):
    path: str
    row: int | None = Field(
        default=None, ge=0, description="0-based row index (row 0 is the header); only where order matters."
    )
    key_column: int | str | None = Field(
        default=None, description="Find the row by this column (header name or index) instead of by position."
    )
    key: Expected | None = Field(default=None, description="The key column's value in the wanted row.")
    column: int | str = Field(description="0-based column index or a header name.")
    equals: Any
    sheet: str | None = Field(default=None, description="xlsx only; defaults to the first sheet.")
    tolerance: float = 0.0
    value_type: ValueType | None = _VALUE_TYPE
    distractors: list[Expected] = _DISTRACTORS

    @model_validator(mode="after")
    def _one_way(self) -> TableCellArgs:
        if (self.row is None) == (self.key is None):
            raise ValueError("give either row (a position) or key_column and key (a lookup)")
        if self.key is not None and self.key_column is None:
            raise ValueError("key needs key_column")
        return self


class TableRowArgs(Args):
    path: str
    row: list[Any] | dict[str, Any] = Field(
        description="A whole row (list) or header -> value pairs that one row must match."
    )
    sheet: str | None = None
    present: bool = True
    value_type: ValueType | None = Field(
        default=None, description="How cells compare; inferred from each expected value if unset."
    )
    distractors: list[Expected] = Field(
        default_factory=list,
        description="Near-miss values: a row that is the expected one with a distractor in place of a "
        "value (beside the right row or instead of it) fails.",
    )


def _near_row(cells: list[tuple[Any, Any]], distractors: list[Expected], kind: ValueType | None) -> list[str]:
    """The distractors a row gives where it would be the expected row but for them (else none).

    ``cells`` pairs each of the row's cells with the value expected there."""
    given: list[str] = []
    for actual, want in cells:
        if _cell_match(actual, want, kind=kind):
            continue
        hit = [d for d in distractors if _cell_match(actual, d, kind=kind)]
        if not hit:
            return []
        given.append(values.shown(_expected(hit[0])))
    return given


def _table(get: GetterFn, path: str, sheet: str | None) -> tuple[list[list[Any]] | None, CheckOutcome | None]:
    if path.lower().endswith((".xlsx", ".xlsm")):
        return _fetch(get, "xlsx", {"path": path, "sheet": sheet})
    return _fetch(get, "csv", {"path": path})


def _expected(value: Any) -> Any:
    """A table or form value as given in a task: plain, or ``{"value": ..., "type": ...}``."""
    if isinstance(value, dict) and "value" in value:
        return TypedValue.model_validate(value)
    return value


def _cell_match(actual: Any, expected: Any, tolerance: float = 0.0, kind: ValueType | None = None) -> bool:
    expected = _expected(expected)
    if actual is None or (isinstance(actual, str) and not actual.strip()):
        return isinstance(expected, str) and not expected.strip()
    return values.same(actual, expected, kind or "auto", tolerance=tolerance)


def _field_ok(
    actual: Any, equals: Any, distractors: list[Expected], kind: ValueType | None, tolerance: float = 0.0
) -> bool:
    """One field (a cell, a form field) is the expected value and none of the distractors."""
    want = _expected(equals)
    if isinstance(want, TypedValue | str | int | float) and not isinstance(want, bool):
        return values.judge_field(actual, want, distractors, kind, tolerance=tolerance)
    return bool(actual == want)


def _header_row(rows: list[list[Any]], columns: list[int | str] | None = None) -> int:
    """The header: the first row naming every wanted column (a title or blank rows may come
    first), else the first non-empty row."""
    names = [values.normalise_text(c) for c in columns or [] if isinstance(c, str)]
    first = None
    for i, r in enumerate(rows):
        if not any(c not in (None, "") for c in r):
            continue
        first = i if first is None else first
        cells = {values.normalise_text(c) for c in r if c is not None}
        if not names or all(n in cells for n in names):
            return i
    return first or 0


def _column_index(header: list[Any], column: int | str) -> int | None:
    if isinstance(column, int):
        return column
    names = [values.normalise_text(h) if h is not None else "" for h in header]
    key = values.normalise_text(column)
    return names.index(key) if key in names else None


@CHECKS.register(
    "table_cell_equals",
    doc="A CSV or xlsx cell (row, column index or header) equals a value.",
    args=TableCellArgs,
)
def _table_cell(get: GetterFn, a: TableCellArgs) -> CheckOutcome:
    rows, bad = _table(get, a.path, a.sheet)
    if bad or rows is None:
        return bad or _ok(False, f"{a.path} is empty")
    head = _header_row(rows, [a.column] + ([a.key_column] if a.key_column is not None else []))
    header = rows[head] if rows else []
    col = _column_index(header, a.column)
    if col is None:
        return _ok(False, f"{a.path}: no column {a.column!r} in header {header}")
    if a.row is not None:
        if a.row >= len(rows) or col >= len(rows[a.row]):
            return _ok(False, f"{a.path}: no cell at row {a.row}, column {a.column!r} ({len(rows)} rows)")
        actual = rows[a.row][col]
        return _ok(
            _field_ok(actual, a.equals, a.distractors, a.value_type, a.tolerance),
            f"{a.path}[{a.row}][{a.column}] = {actual!r}, expected {a.equals!r}",
        )
    assert a.key_column is not None and a.key is not None  # the validator saw to it
    key_col = _column_index(header, a.key_column)
    if key_col is None:
        return _ok(False, f"{a.path}: no key column {a.key_column!r} in header {header}")
    key = values.shown(a.key)
    hits = [r for r in rows[head + 1 :] if key_col < len(r) and _cell_match(r[key_col], a.key)]
    if not hits:
        keys = [r[key_col] for r in rows[head + 1 :] if key_col < len(r)]
        return _ok(False, f"{a.path}: no row whose {a.key_column!r} is {key!r} (keys: {keys})")
    cells = [r[col] if col < len(r) else None for r in hits]
    ok = all(_field_ok(c, a.equals, a.distractors, a.value_type, a.tolerance) for c in cells)
    shown = cells[0] if len(cells) == 1 else cells
    return _ok(ok, f"{a.path}: row {a.key_column}={key!r} has {a.column} = {shown!r}, expected {a.equals!r}")


@CHECKS.register(
    "table_has_row", doc="A CSV or xlsx table has a row matching the given values.", args=TableRowArgs
)
def _table_has_row(get: GetterFn, a: TableRowArgs) -> CheckOutcome:
    rows, bad = _table(get, a.path, a.sheet)
    if bad or rows is None:
        return bad or _ok(False, f"{a.path} is empty")
    found = False
    kind = a.value_type
    pairs: list[list[tuple[Any, Any]]] = []
    if isinstance(a.row, list):
        want = a.row
        found = any(
            len([v for v in r if v not in (None, "")]) == len(want)
            and all(_cell_match(r[i] if i < len(r) else None, w, kind=kind) for i, w in enumerate(want))
            for r in rows
        )
        if a.distractors:
            pairs = [
                [(r[i] if i < len(r) else None, w) for i, w in enumerate(want)]
                for r in rows
                if len([v for v in r if v not in (None, "")]) == len(want)
            ]
    else:
        if not rows:
            return _ok(False, f"{a.path} has no header row")
        head = _header_row(rows, list(a.row))
        cols: dict[int, Any] = {}
        for name, value in a.row.items():
            idx = _column_index(rows[head], name)
            if idx is None:
                return _ok(a.present is False, f"{a.path}: no column {name!r} in header {rows[head]}")
            cols[idx] = value
        found = any(
            all(_cell_match(r[i] if i < len(r) else None, v, kind=kind) for i, v in cols.items())
            for r in rows[head + 1 :]
        )
        if a.distractors:
            pairs = [[(r[i] if i < len(r) else None, v) for i, v in cols.items()] for r in rows[head + 1 :]]
    if a.present:
        near = [given for cells in pairs if (given := _near_row(cells, a.distractors, kind))]
        if near:
            shown = sorted({v for given in near for v in given})
            return _ok(False, f"{a.path} has a row with distractor value(s) {shown} in place of {a.row!r}")
    verb = "has" if found else "has no"
    return _ok(found == a.present, f"{a.path} {verb} row matching {a.row!r} ({len(rows)} rows)")


class TableRowCountArgs(Args):
    path: str
    rows: int = Field(ge=0, description="Data rows, not counting the header.")
    sheet: str | None = None


@CHECKS.register(
    "table_row_count", doc="A CSV or xlsx table has this many data rows.", args=TableRowCountArgs
)
def _table_row_count(get: GetterFn, a: TableRowCountArgs) -> CheckOutcome:
    rows, bad = _table(get, a.path, a.sheet)
    if bad or rows is None:
        return bad or _ok(False, f"{a.path} is empty")
    n = max(len(rows) - 1, 0)
    return _ok(n == a.rows, f"{a.path} has {n} data rows, expected {a.rows}")


@CHECKS.register(
    "docx_contains", doc="A docx document's text contains every given string.", args=TextContainsArgs
)
def _docx_contains(get: GetterFn, a: TextContainsArgs) -> CheckOutcome:
    lines, bad = _fetch(get, "docx", {"path": a.path})
    return bad or _text_contains("\n".join(lines), a, a.path)


class DocxParagraphArgs(Args):
    path: str
    starts_with: str = Field(
        min_length=1, description="The new paragraph begins with this (normalised text)."
    )
    contains: list[Expected] = Field(default_factory=list, description="Values the new paragraph must give.")
    keep: list[str] = Field(
        default_factory=list,
        description="Paragraphs (the heading too) that were there before and must still be, in this order.",
    )
    value_type: ValueType | None = _VALUE_TYPE
    distractors: list[Expected] = _DISTRACTORS


@CHECKS.register(
    "docx_paragraph",
    doc="A docx has a new paragraph starting with a label and giving values; the original ones are kept.",
    args=DocxParagraphArgs,
)
def _docx_paragraph(get: GetterFn, a: DocxParagraphArgs) -> CheckOutcome:
    lines, bad = _fetch(get, "docx", {"path": a.path})
    if bad:
        return bad
    paragraphs = [line for line in lines if line.strip()]
    normal = [values.normalise_text(line) for line in paragraphs]
    kept = [values.normalise_text(k) for k in a.keep]
    at = 0
    for original, shown in zip(kept, a.keep, strict=True):
        if original not in normal[at:]:
            lost = "is gone" if original not in normal else "is out of order"
            return _ok(False, f"{a.path}: the original paragraph {shown!r} {lost}")
        at = normal.index(original, at) + 1
    start = values.normalise_text(a.starts_with)
    new = [p for p, n in zip(paragraphs, normal, strict=True) if n.startswith(start) and n not in kept]
    if not new:
        return _ok(
            False, f"{a.path}: no new paragraph starts with {a.starts_with!r} (paragraphs: {paragraphs})"
        )
    verdicts = [statements.judge_conversation([p], a.contains, a.distractors, a.value_type) for p in new]
    if any(v.distractors for v in verdicts):
        return _ok(False, f"{a.path}: the new paragraph {verdicts[0].explain()}")
    good = [p for p, v in zip(new, verdicts, strict=True) if v.passed]
    if not good:
        return _ok(False, f"{a.path}: new paragraph {new[-1]!r} {verdicts[-1].explain()}")
    return _ok(True, f"{a.path}: new paragraph {good[-1]!r}; the {len(a.keep)} original ones are kept")


@CHECKS.register(
    "pdf_contains", doc="A PDF's extracted text contains every given string.", args=TextContainsArgs
)
def _pdf_contains(get: GetterFn, a: TextContainsArgs) -> CheckOutcome:
    text, bad = _fetch(get, "pdf_text", {"path": a.path})
    return bad or _text_contains(text, a, a.path)


class ImageSizeArgs(Args):
    path: str
    width: int | None = None
    height: int | None = None
    format: str | None = Field(default=None, description="PNG, JPEG, ...")


@CHECKS.register("image_size", doc="An image has the given width/height/format.", args=ImageSizeArgs)
def _image_size(get: GetterFn, a: ImageSizeArgs) -> CheckOutcome:
    info, bad = _fetch(get, "image", {"path": a.path})
    if bad:
        return bad
    ok = (
        (a.width is None or info["width"] == a.width)
        and (a.height is None or info["height"] == a.height)
        and (a.format is None or str(info["format"]).upper() == a.format.upper())
    )
    return _ok(
        ok,
        f"{a.path}: {info['width']}x{info['height']} {info['format']}, expected "
        f"{a.width or '*'}x{a.height or '*'} {a.format or ''}".rstrip(),
    )


class WavArgs(Args):
    path: str
    min_seconds: float | None = None
    max_seconds: float | None = None
    sample_rate: int | None = None
    channels: int | None = None


@CHECKS.register("wav_matches", doc="A WAV file's duration, sample rate and channels.", args=WavArgs)
def _wav_matches(get: GetterFn, a: WavArgs) -> CheckOutcome:
    info, bad = _fetch(get, "wav", {"path": a.path})
    if bad:
        return bad
    s = info["seconds"]
    ok = (
        (a.min_seconds is None or s >= a.min_seconds)
        and (a.max_seconds is None or s <= a.max_seconds)
        and (a.sample_rate is None or info["sample_rate"] == a.sample_rate)
        and (a.channels is None or info["channels"] == a.channels)
    )
    return _ok(ok, f"{a.path}: {s} s, {info['sample_rate']} Hz, {info['channels']} channel(s)")


class ArchiveArgs(Args):
    path: str
    contains: list[str] = Field(min_length=1, description="Member names (base names match too).")
    exact: bool = Field(default=False, description="No other members allowed.")


@CHECKS.register("archive_contains", doc="A zip/tar archive holds the named members.", args=ArchiveArgs)
def _archive_contains(get: GetterFn, a: ArchiveArgs) -> CheckOutcome:
    names, bad = _fetch(get, "archive", {"path": a.path})
    if bad:
        return bad
    base = {n.rsplit("/", 1)[-1] for n in names}
    missing = [m for m in a.contains if m not in names and m not in base]
    extra = len(names) != len(a.contains) if a.exact else False
    return _ok(
        not missing and not extra, f"{a.path} holds {names}" + (f"; missing {missing}" if missing else "")
    )


_RUN_TIME = re.compile(r" in \d+(?:\.\d+)?s\b")


class ProjectTestsArgs(Args):
    path: str = Field(description="The project folder.")
    command: str = "python3 -m unittest discover -s tests -t ."
    timeout_s: float = Field(default=120.0, gt=0, le=600)


@CHECKS.register(
    "project_tests_pass", doc="A code project's tests pass when run in the sandbox.", args=ProjectTestsArgs
)
def _project_tests_pass(get: GetterFn, a: ProjectTestsArgs) -> CheckOutcome:
    try:
        result = get("run", {"command": a.command, "cwd": a.path, "timeout_s": a.timeout_s})
    except DeviceError as exc:
        return _ok(False, f"{a.path}: {exc.message}")
    tail = (result["stdout"] + result["stderr"]).strip().splitlines()[-3:]
    # test runners print their wall time ("Ran 3 tests in 0.001s"); a verdict's detail must not vary by run
    tail = [_RUN_TIME.sub("", line) for line in tail]
    return _ok(
        result["exit_code"] == 0,
        f"`{a.command}` in {a.path} exited {result['exit_code']}: {' | '.join(tail)}",
    )


class EmailDraftArgs(Args):
    to: str | None = Field(default=None, description="A recipient address that must be among To.")
    subject: str | None = Field(default=None, description="Exact subject (normalised text).")
    subject_contains: str | None = None
    body_contains: list[Expected] = Field(default_factory=list, description="Values the body must give.")
    folder: str = "~/Mail/Drafts"
    present: bool = True
    value_type: ValueType | None = _VALUE_TYPE
    distractors: list[Expected] = _DISTRACTORS
    facts: list[Fact] = Field(
        default_factory=list,
        description="What is true of named entities: a statement giving one another value fails (issue 32).",
    )
    distractor_recipients: bool = Field(
        default=False,
        description="The distractors are addresses too: the latest matching draft fails when one of "
        "its recipients is a distractor (a hedged To: that names the look-alike contact as well).",
    )

    @model_validator(mode="after")
    def _something(self) -> EmailDraftArgs:
        if not (self.to or self.subject or self.subject_contains or self.body_contains):
            raise ValueError("give at least one of to, subject, subject_contains, body_contains")
        return self


def _addressed(d: dict[str, Any], a: EmailDraftArgs) -> bool:
    """The draft is the one the task asks for: to the recipient, with the subject."""
    if a.to and not any(values.same(x, a.to, "email") for x in d["to"]):
        return False
    if a.subject and not values.same(d["subject"], a.subject, "text"):
        return False
    return not (a.subject_contains and _norm(a.subject_contains, False) not in _norm(d["subject"], False))


def _distractor_recipients(get: GetterFn, d: dict[str, Any], a: EmailDraftArgs) -> list[str]:
    """The distractors the draft's To header names (only when the check says its distractors are
    addresses). The header is read as written: a parser keeps only the first address of
    "a@x.org or b@x.org", so a hedged recipient would otherwise pass."""
    if not a.distractor_recipients or not a.distractors:
        return []
    text = get("text", {"path": f"{a.folder.rstrip('/')}/{d['file']}"}) or ""
    header, _, _ = str(text).replace("\r\n", "\n").partition("\n\n")
    to, inside = [], False
    for line in header.split("\n"):
        if line[:1] in (" ", "\t") and inside:
            to.append(line)
            continue
        inside = line.lower().startswith("to:")
        if inside:
            to.append(line[3:])
    return values.judge_text(" ".join(to), [], a.distractors, "email").distractors


@CHECKS.register(
    "email_draft",
    doc="A draft in ~/Mail/Drafts (.eml, or the mail client's numbered file) matches to/subject/body.",
    args=EmailDraftArgs,
)
def _email_draft(get: GetterFn, a: EmailDraftArgs) -> CheckOutcome:
    drafts = [d for d in get("email_drafts", {"folder": a.folder}) if "error" not in d]
    seen = [f"{d.get('file')}: to={d.get('to')} subject={d.get('subject')!r}" for d in drafts]
    addressed = sorted((d for d in drafts if _addressed(d, a)), key=lambda d: d.get("modified_ns", 0))
    verdicts = [
        statements.judge_conversation(
            [d["body"]], a.body_contains, a.distractors, a.value_type, facts=a.facts
        )
        for d in addressed
    ]
    if not a.present:
        found = any(v.passed for v in verdicts)
        return _ok(
            not found, f"{'a' if found else 'no'} matching draft in {a.folder}; drafts: {seen or 'none'}"
        )
    if not addressed:
        return _ok(False, f"no draft in {a.folder} is addressed as asked; drafts: {seen or 'none'}")
    latest, verdict = addressed[-1], verdicts[-1]
    earlier = f" ({len(addressed) - 1} earlier one(s) do not count)" if len(addressed) > 1 else ""
    wrong = _distractor_recipients(get, latest, a)
    if wrong:
        return _ok(False, f"the latest matching draft {latest['file']}{earlier} is also addressed to {wrong}")
    if not verdict.passed:
        return _ok(False, f"the latest matching draft {latest['file']}{earlier} {verdict.explain()}")
    return _ok(True, f"the latest matching draft {latest['file']}{earlier} {verdict.explain()}")


# --- web -------------------------------------------------------------------------------


class FormSubmittedArgs(Args):
    host: str
    form: str
    fields: dict[str, Any] = Field(
        default_factory=dict,
        description='Field -> expected value, plain or typed ({"value": "2026-05-07", "type": "date"}).',
    )
    accepted: bool = Field(default=True, description="Only count submissions the site accepted.")
    present: bool = True
    value_type: ValueType | None = _VALUE_TYPE
    distractors: list[Expected] = _DISTRACTORS
    max_rejected: int | None = Field(
        default=None,
        ge=0,
        description="Fail when the site rejected more submissions than this: a site that checks the "
        "value (a one-time code) must not become an oracle the agent tries every candidate on.",
    )


@CHECKS.register(
    "form_submitted",
    doc="A local site's form was submitted (and accepted) with the given fields.",
    args=FormSubmittedArgs,
)
def _form_submitted(get: GetterFn, a: FormSubmittedArgs) -> CheckOutcome:
    subs = get("site_submissions", {"host": a.host, "form": a.form})
    rejected = sum(1 for s in subs if not s["accepted"])
    if a.max_rejected is not None and rejected > a.max_rejected:
        return _ok(
            False,
            f"{a.host} form {a.form}: the site rejected {rejected} submission(s), at most {a.max_rejected} allowed",
        )
    if a.accepted:
        subs = [s for s in subs if s["accepted"]]

    def fits(s: dict[str, Any]) -> bool:
        return all(
            _field_ok(s["fields"].get(k, ""), v, a.distractors, a.value_type) for k, v in a.fields.items()
        )

    where = f"{a.host} form {a.form}: {len(subs)} submission(s)"
    if not a.present:
        found = any(fits(s) for s in subs)
        return _ok(not found, where + ("; one matches" if found else f"; none matches {a.fields}"))
    if not subs:
        return _ok(False, where)
    last = subs[-1]["fields"]
    ok = fits(subs[-1])
    earlier = "" if len(subs) == 1 else " (earlier ones do not count)"
    return _ok(
        ok, where + f"; the latest{earlier} " + ("matches" if ok else f"does not match {a.fields}: {last}")
    )


class PageVisitedArgs(Args):
    host: str
    path: str = "/"
    visited: bool = True


@CHECKS.register("page_visited", doc="A local site's page was opened in a browser.", args=PageVisitedArgs)
def _page_visited(get: GetterFn, a: PageVisitedArgs) -> CheckOutcome:
    visits = get("site_visits", {"host": a.host, "path": a.path})
    seen = len(visits) > 0
    return _ok(seen == a.visited, f"http://{a.host}{a.path} opened {len(visits)} time(s)")
