"""Checks that read what GUI work leaves behind: formatting in a saved document, formulas in
a saved sheet, and app state (window titles, element text) through getters.

They work on every Linux device (files are files); the app-state ones need a desktop and
fail with a clear detail on a device without one. They are declared on the kind's one
check table (:data:`devicesworld.devices.linux.checks.CHECKS`), which imports this module.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field

from devicesworld.devices.base import Args, CheckOutcome, GetterFn
from devicesworld.devices.linux.checks import CHECKS, _fetch, _ok


class DocxFormatArgs(Args):
    path: str
    text: str = Field(min_length=1, description="Text whose every character must carry the formatting.")
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None


@CHECKS.register(
    "docx_text_format",
    doc="Text in a saved docx carries the formatting (bold / italic / underline).",
    args=DocxFormatArgs,
)
def _docx_format(get: GetterFn, a: DocxFormatArgs) -> CheckOutcome:
    paras, bad = _fetch(get, "docx_runs", {"path": a.path})
    if bad:
        return bad
    wanted = {
        k: v for k, v in (("bold", a.bold), ("italic", a.italic), ("underline", a.underline)) if v is not None
    }
    for p in paras:
        text = p["text"]
        at = text.find(a.text)
        if at < 0:
            continue
        pos, covering = 0, []
        for run in p["runs"]:
            start, end = pos, pos + len(run["text"])
            pos = end
            if end > at and start < at + len(a.text) and run["text"].strip():
                covering.append(run)
        fails = [k for k, v in wanted.items() for r in covering if r[k] != v]
        if not fails:
            return _ok(True, f"{a.text!r} in {a.path} is {_fmt(wanted)}")
        return _ok(False, f"{a.text!r} in {a.path} is not {_fmt(wanted)} (runs: {covering})")
    return _ok(False, f"{a.path} has no paragraph containing {a.text!r}")


def _fmt(wanted: dict[str, bool]) -> str:
    return ", ".join(k if v else f"not {k}" for k, v in wanted.items()) or "as it is"


class FormulaArgs(Args):
    path: str
    cell: str = Field(pattern=r"^[A-Z]{1,3}[1-9][0-9]{0,5}$", description="A1-style cell, e.g. 'D5'.")
    formula: str = Field(
        description="The formula, e.g. '=SUM(B2:B4)'; compared without spaces, case-insensitively."
    )
    sheet: str | None = None


def _cell_index(cell: str) -> tuple[int, int]:
    m = re.match(r"^([A-Z]+)([0-9]+)$", cell)
    assert m is not None
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)) - 1, col - 1


def _norm_formula(f: Any) -> str:
    return re.sub(r"\s+", "", str(f)).upper().replace(";", ",")


@CHECKS.register(
    "xlsx_formula", doc="A cell of a saved xlsx holds a formula (not only its value).", args=FormulaArgs
)
def _formula(get: GetterFn, a: FormulaArgs) -> CheckOutcome:
    rows, bad = _fetch(get, "xlsx_formulas", {"path": a.path, "sheet": a.sheet})
    if bad:
        return bad
    r, c = _cell_index(a.cell)
    actual = rows[r][c] if r < len(rows) and c < len(rows[r]) else None
    return _ok(
        actual is not None and _norm_formula(actual) == _norm_formula(a.formula),
        f"{a.path}!{a.cell} holds {actual!r}, expected the formula {a.formula!r}",
    )


class WindowTitleArgs(Args):
    contains: str = Field(min_length=1)
    present: bool = True


@CHECKS.register(
    "window_title",
    doc="A window whose title contains the text is open (or, present=false, none is).",
    args=WindowTitleArgs,
)
def _window_title(get: GetterFn, a: WindowTitleArgs) -> CheckOutcome:
    titles, bad = _fetch(get, "windows", {})
    if bad:
        return bad
    found = [t["title"] for t in titles if a.contains in t["title"]]
    if a.present:
        return _ok(bool(found), f"windows: {[t['title'] for t in titles]}; wanted one with {a.contains!r}")
    return _ok(not found, f"windows: {[t['title'] for t in titles]}; none may contain {a.contains!r}")


class ElementTextArgs(Args):
    role: str | None = None
    name: str | None = None
    text_contains: str = Field(min_length=1)


@CHECKS.register(
    "element_text", doc="An element of the desktop's accessibility tree shows the text.", args=ElementTextArgs
)
def _element_text(get: GetterFn, a: ElementTextArgs) -> CheckOutcome:
    els, bad = _fetch(get, "elements", {})
    if bad:
        return bad
    for el in els:
        if a.role is not None and el.get("role") != a.role:
            continue
        if a.name is not None and el.get("name") != a.name:
            continue
        if a.text_contains in (el.get("text") or ""):
            return _ok(True, f"{el.get('role')} {el.get('name')!r} shows {a.text_contains!r}")
    return _ok(False, f"no element{' ' + repr(a.role) if a.role else ''} shows {a.text_contains!r}")
