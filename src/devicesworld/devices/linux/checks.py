"""Verifier checks of the ``linux`` kind; each reads the device only through its getters.

Getters return ``None`` for a missing file and raise for a file in the wrong format,
so every check can say precisely what went wrong: missing, unreadable, or different.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, model_validator

from devicesworld.devices.base import Args, CheckOutcome, CheckSpec, DeviceError, GetterFn
from devicesworld.verify.checks import resolve_path, values_match
from devicesworld.verify.text import contains_value


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


def _file_exists(get: GetterFn, a: FileExistsArgs) -> CheckOutcome:
    info = get("file_info", {"path": a.path})
    there = bool(info and info.get("exists"))
    return _ok(there == a.exists, f"{a.path} {'exists' if there else 'does not exist'}")


class TextContainsArgs(Args):
    path: str
    contains: list[str] = Field(default_factory=list, description="All must appear.")
    absent: list[str] = Field(default_factory=list, description="None may appear.")
    case_sensitive: bool = False


def _text_contains(text: str, a: TextContainsArgs, label: str) -> CheckOutcome:
    hay = _norm(text, a.case_sensitive)
    missing = [s for s in a.contains if not contains_value(hay, _norm(s, a.case_sensitive))]
    present = [s for s in a.absent if _norm(s, a.case_sensitive) in hay]
    if missing or present:
        parts = []
        if missing:
            parts.append(f"missing {missing}")
        if present:
            parts.append(f"should not contain {present}")
        return _ok(False, f"{label}: {'; '.join(parts)}")
    return _ok(True, f"{label} contains {a.contains}" + (f" and none of {a.absent}" if a.absent else ""))


def _file_contains(get: GetterFn, a: TextContainsArgs) -> CheckOutcome:
    text, bad = _fetch(get, "text", {"path": a.path})
    return bad or _text_contains(text, a, a.path)


class FileEqualsArgs(Args):
    path: str
    text: str
    strip: bool = Field(default=True, description="Ignore leading/trailing whitespace.")


def _file_equals(get: GetterFn, a: FileEqualsArgs) -> CheckOutcome:
    text, bad = _fetch(get, "text", {"path": a.path})
    if bad:
        return bad
    actual, expected = (text.strip(), a.text.strip()) if a.strip else (text, a.text)
    return _ok(actual == expected, f"{a.path} = {actual[:200]!r}, expected {expected[:200]!r}")


class JsonFieldArgs(Args):
    path: str
    field: str = Field(description="Dotted path into the JSON value, e.g. `order.items.0.qty`.")
    equals: Any
    tolerance: float = 0.0


def _json_field_equals(get: GetterFn, a: JsonFieldArgs) -> CheckOutcome:
    data, bad = _fetch(get, "json", {"path": a.path})
    if bad:
        return bad
    try:
        actual = resolve_path(data, a.field)
    except KeyError as exc:
        return _ok(False, f"{a.path}: {exc.args[0]}")
    if isinstance(a.equals, str) and isinstance(actual, str):
        ok = actual.strip().casefold() == a.equals.strip().casefold()
    else:
        ok = values_match(actual, a.equals, a.tolerance)
    return _ok(ok, f"{a.path}:{a.field} = {actual!r}, expected {a.equals!r}")


class TableCellArgs(Args):
    path: str
    row: int = Field(ge=0, description="0-based row index; row 0 is usually the header.")
    column: int | str = Field(description="0-based column index or a header name.")
    equals: Any
    sheet: str | None = Field(default=None, description="xlsx only; defaults to the first sheet.")
    tolerance: float = 0.0


class TableRowArgs(Args):
    path: str
    row: list[Any] | dict[str, Any] = Field(
        description="A whole row (list) or header -> value pairs that one row must match."
    )
    sheet: str | None = None
    present: bool = True


def _table(get: GetterFn, path: str, sheet: str | None) -> tuple[list[list[Any]] | None, CheckOutcome | None]:
    if path.lower().endswith((".xlsx", ".xlsm")):
        return _fetch(get, "xlsx", {"path": path, "sheet": sheet})
    return _fetch(get, "csv", {"path": path})


def _cell_match(actual: Any, expected: Any, tolerance: float = 0.0) -> bool:
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        try:
            return values_match(float(actual), expected, tolerance)
        except (TypeError, ValueError):
            return False
    return str(actual if actual is not None else "").strip().casefold() == str(expected).strip().casefold()


def _column_index(header: list[Any], column: int | str) -> int | None:
    if isinstance(column, int):
        return column
    names = [str(h).strip().casefold() if h is not None else "" for h in header]
    key = column.strip().casefold()
    return names.index(key) if key in names else None


def _table_cell(get: GetterFn, a: TableCellArgs) -> CheckOutcome:
    rows, bad = _table(get, a.path, a.sheet)
    if bad or rows is None:
        return bad or _ok(False, f"{a.path} is empty")
    col = _column_index(rows[0] if rows else [], a.column)
    if col is None:
        return _ok(False, f"{a.path}: no column {a.column!r} in header {rows[0] if rows else []}")
    if a.row >= len(rows) or col >= len(rows[a.row]):
        return _ok(False, f"{a.path}: no cell at row {a.row}, column {a.column!r} ({len(rows)} rows)")
    actual = rows[a.row][col]
    return _ok(
        _cell_match(actual, a.equals, a.tolerance),
        f"{a.path}[{a.row}][{a.column}] = {actual!r}, expected {a.equals!r}",
    )


def _table_has_row(get: GetterFn, a: TableRowArgs) -> CheckOutcome:
    rows, bad = _table(get, a.path, a.sheet)
    if bad or rows is None:
        return bad or _ok(False, f"{a.path} is empty")
    found = False
    if isinstance(a.row, list):
        want = a.row
        found = any(
            len([v for v in r if v not in (None, "")]) == len(want)
            and all(_cell_match(r[i] if i < len(r) else None, w) for i, w in enumerate(want))
            for r in rows
        )
    else:
        if not rows:
            return _ok(False, f"{a.path} has no header row")
        cols: dict[int, Any] = {}
        for name, value in a.row.items():
            idx = _column_index(rows[0], name)
            if idx is None:
                return _ok(a.present is False, f"{a.path}: no column {name!r} in header {rows[0]}")
            cols[idx] = value
        found = any(
            all(_cell_match(r[i] if i < len(r) else None, v) for i, v in cols.items()) for r in rows[1:]
        )
    verb = "has" if found else "has no"
    return _ok(found == a.present, f"{a.path} {verb} row matching {a.row!r} ({len(rows)} rows)")


class TableRowCountArgs(Args):
    path: str
    rows: int = Field(ge=0, description="Data rows, not counting the header.")
    sheet: str | None = None


def _table_row_count(get: GetterFn, a: TableRowCountArgs) -> CheckOutcome:
    rows, bad = _table(get, a.path, a.sheet)
    if bad or rows is None:
        return bad or _ok(False, f"{a.path} is empty")
    n = max(len(rows) - 1, 0)
    return _ok(n == a.rows, f"{a.path} has {n} data rows, expected {a.rows}")


def _docx_contains(get: GetterFn, a: TextContainsArgs) -> CheckOutcome:
    lines, bad = _fetch(get, "docx", {"path": a.path})
    return bad or _text_contains("\n".join(lines), a, a.path)


def _pdf_contains(get: GetterFn, a: TextContainsArgs) -> CheckOutcome:
    text, bad = _fetch(get, "pdf_text", {"path": a.path})
    return bad or _text_contains(text, a, a.path)


class ImageSizeArgs(Args):
    path: str
    width: int | None = None
    height: int | None = None
    format: str | None = Field(default=None, description="PNG, JPEG, ...")


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
    subject: str | None = Field(default=None, description="Exact subject (case-insensitive).")
    subject_contains: str | None = None
    body_contains: list[str] = Field(default_factory=list)
    folder: str = "~/Mail/Drafts"
    present: bool = True

    @model_validator(mode="after")
    def _something(self) -> EmailDraftArgs:
        if not (self.to or self.subject or self.subject_contains or self.body_contains):
            raise ValueError("give at least one of to, subject, subject_contains, body_contains")
        return self


def _draft_matches(d: dict[str, Any], a: EmailDraftArgs) -> bool:
    if a.to and a.to.lower() not in d["to"]:
        return False
    if a.subject and d["subject"].strip().casefold() != a.subject.strip().casefold():
        return False
    if a.subject_contains and a.subject_contains.casefold() not in d["subject"].casefold():
        return False
    body = _norm(d["body"], False)
    return all(_norm(s, False) in body for s in a.body_contains)


def _email_draft(get: GetterFn, a: EmailDraftArgs) -> CheckOutcome:
    drafts = get("email_drafts", {"folder": a.folder})
    match = [d for d in drafts if "error" not in d and _draft_matches(d, a)]
    seen = [f"{d.get('file')}: to={d.get('to')} subject={d.get('subject')!r}" for d in drafts]
    found = bool(match)
    return _ok(
        found == a.present, f"{'a' if found else 'no'} matching draft in {a.folder}; drafts: {seen or 'none'}"
    )


# --- web -------------------------------------------------------------------------------


class FormSubmittedArgs(Args):
    host: str
    form: str
    fields: dict[str, str] = Field(
        default_factory=dict, description="Field -> expected value (case-insensitive)."
    )
    accepted: bool = Field(default=True, description="Only count submissions the site accepted.")
    present: bool = True


def _form_submitted(get: GetterFn, a: FormSubmittedArgs) -> CheckOutcome:
    subs = get("site_submissions", {"host": a.host, "form": a.form})
    if a.accepted:
        subs = [s for s in subs if s["accepted"]]

    def fits(s: dict[str, Any]) -> bool:
        return all(_cell_match(s["fields"].get(k, ""), v) for k, v in a.fields.items())

    found = any(fits(s) for s in subs)
    last = subs[-1]["fields"] if subs else None
    return _ok(
        found == a.present,
        f"{a.host} form {a.form}: {len(subs)} submission(s); "
        + ("one matches" if found else f"none matches {a.fields}; last: {last}"),
    )


class PageVisitedArgs(Args):
    host: str
    path: str = "/"
    visited: bool = True


def _page_visited(get: GetterFn, a: PageVisitedArgs) -> CheckOutcome:
    visits = get("site_visits", {"host": a.host, "path": a.path})
    seen = len(visits) > 0
    return _ok(seen == a.visited, f"http://{a.host}{a.path} opened {len(visits)} time(s)")


class FileUnchangedArgs(Args):
    path: str
    content: str


def _file_unchanged(get: GetterFn, a: FileUnchangedArgs) -> CheckOutcome:
    text, bad = _fetch(get, "text", {"path": a.path})
    if bad:
        return bad
    return _ok(text == a.content, f"{a.path} {'is unchanged' if text == a.content else 'was modified'}")


CHECKS = [
    CheckSpec(
        name="file_exists",
        doc="A file or folder exists (or, with exists=false, does not).",
        args_model=FileExistsArgs,
        fn=_file_exists,
    ),
    CheckSpec(
        name="file_contains",
        doc="A text file contains every given string (whitespace/case-normalised).",
        args_model=TextContainsArgs,
        fn=_file_contains,
    ),
    CheckSpec(
        name="file_equals",
        doc="A text file's content equals the text.",
        args_model=FileEqualsArgs,
        fn=_file_equals,
    ),
    CheckSpec(
        name="file_unchanged",
        doc="A text file still has exactly its original content.",
        args_model=FileUnchangedArgs,
        fn=_file_unchanged,
    ),
    CheckSpec(
        name="json_field_equals",
        doc="A JSON file's field (dotted path) equals a value.",
        args_model=JsonFieldArgs,
        fn=_json_field_equals,
    ),
    CheckSpec(
        name="table_cell_equals",
        doc="A CSV or xlsx cell (row, column index or header) equals a value.",
        args_model=TableCellArgs,
        fn=_table_cell,
    ),
    CheckSpec(
        name="table_has_row",
        doc="A CSV or xlsx table has a row matching the given values.",
        args_model=TableRowArgs,
        fn=_table_has_row,
    ),
    CheckSpec(
        name="table_row_count",
        doc="A CSV or xlsx table has this many data rows.",
        args_model=TableRowCountArgs,
        fn=_table_row_count,
    ),
    CheckSpec(
        name="docx_contains",
        doc="A docx document's text contains every given string.",
        args_model=TextContainsArgs,
        fn=_docx_contains,
    ),
    CheckSpec(
        name="pdf_contains",
        doc="A PDF's extracted text contains every given string.",
        args_model=TextContainsArgs,
        fn=_pdf_contains,
    ),
    CheckSpec(
        name="image_size",
        doc="An image has the given width/height/format.",
        args_model=ImageSizeArgs,
        fn=_image_size,
    ),
    CheckSpec(
        name="wav_matches",
        doc="A WAV file's duration, sample rate and channels.",
        args_model=WavArgs,
        fn=_wav_matches,
    ),
    CheckSpec(
        name="archive_contains",
        doc="A zip/tar archive holds the named members.",
        args_model=ArchiveArgs,
        fn=_archive_contains,
    ),
    CheckSpec(
        name="project_tests_pass",
        doc="A code project's tests pass when run in the sandbox.",
        args_model=ProjectTestsArgs,
        fn=_project_tests_pass,
    ),
    CheckSpec(
        name="email_draft",
        doc="A draft .eml in ~/Mail/Drafts matches to/subject/body.",
        args_model=EmailDraftArgs,
        fn=_email_draft,
    ),
    CheckSpec(
        name="form_submitted",
        doc="A local site's form was submitted (and accepted) with the given fields.",
        args_model=FormSubmittedArgs,
        fn=_form_submitted,
    ),
    CheckSpec(
        name="page_visited",
        doc="A local site's page was opened in a browser.",
        args_model=PageVisitedArgs,
        fn=_page_visited,
    ),
]
