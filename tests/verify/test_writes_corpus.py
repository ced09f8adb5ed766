"""The write-set corpus (issue 32): tables judged per row, documents per paragraph.

Each file in ``corpus/writes`` names a check, its args, the file before the agent worked
(``before``) and cases, each the file after (``after``). A passing case must pass both the
check and the collateral guard (the right row changed, the file reformatted, rows reordered,
a cell re-spelled); a near miss must fail one of them (a wrong extra row, another row changed,
an extra paragraph, a heading made bold). The guard runs on the linux kind's own snapshot
parts (:func:`devicesworld.devices.linux.grain.parts`) and its real permit, without a desktop.

A table is CSV text (``file: x.csv``) or ``{sheet: rows}`` (xlsx); a document is a list of
paragraphs, each a string or ``{text, bold, style}``, with ``table: rows`` optional.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml

from devicesworld.devices.linux.grain import parts
from devicesworld.devices.linux.resources import readers
from devicesworld.devices.linux.resources.readers import Blob
from devicesworld.devices.linux.state import STATE, WRITES, state_path
from devicesworld.devices.state import PART, Snapshot
from devicesworld.verify.collateral import Permit, diff
from devicesworld.verify.registry import find_check

CORPUS = Path(__file__).parent / "corpus" / "writes"
MIN_CASES = 10


def _bytes(name: str, content: Any) -> bytes:
    if name.endswith(".csv"):
        return str(content).encode()
    if name.endswith(".xlsx"):
        from openpyxl import Workbook

        wb = Workbook()
        wb.remove(wb.active)
        for sheet, rows in content.items():
            ws = wb.create_sheet(sheet)
            for row in rows:
                ws.append(row)
        buf = io.BytesIO()
        wb.save(buf)
        return buf.getvalue()
    from docx import Document

    doc = Document()
    body = content["paragraphs"] if isinstance(content, dict) else content
    for p in body:
        p = {"text": p} if isinstance(p, str) else p
        para = doc.add_paragraph(style=p.get("style"))
        para.add_run(p["text"]).bold = p.get("bold")
    for row in content.get("table", []) if isinstance(content, dict) else []:
        cells = doc.add_table(rows=1, cols=len(row)).rows[0].cells
        for cell, text in zip(cells, row, strict=True):
            cell.text = text
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def _snapshot(where: str, name: str, data: bytes) -> Snapshot:
    found = parts(name, data)
    if not found:
        return {where: "whole"}
    return {f"{where}{PART}{k}": d for k, d in found.items()}


def _getter(name: str, data: bytes) -> Any:
    blob = Blob(name, data)

    def get(getter: str, args: Any) -> Any:
        if getter == "csv":
            return readers.read_csv(blob)
        if getter == "xlsx":
            return readers.read_xlsx(blob, args.get("sheet"))
        if getter == "docx":
            return readers.read_docx(blob)
        if getter == "docx_runs":
            return readers.read_docx_runs(blob)
        raise KeyError(getter)

    return get


def judge(check: str, args: dict[str, Any], file: str, before: Any, after: Any) -> tuple[bool, bool, str]:
    """(the check passed, the guard passed, details) for one file before and after."""
    spec = find_check("linux", check)
    assert spec is not None
    parsed = spec.parse_args({"path": f"~/{file}", **args})
    name = Path(file).name
    old, new = _bytes(name, before), _bytes(name, after)
    get = _getter(name, new)
    outcome = spec.fn(get, parsed)
    where = state_path(f"~/{file}")
    assert where is not None
    own = tuple(WRITES[check](parsed, get))
    bad = Permit(STATE, own, ()).forbidden(diff(_snapshot(where, name, old), _snapshot(where, name, new)))
    return outcome.passed, not bad, f"{outcome.detail}; guard: {[str(c) for c in bad]}"


def _cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        for want, key in ((True, "passing"), (False, "failing")):
            for i, case in enumerate(spec[key]):
                out.append(pytest.param(spec, case, want, id=f"{path.stem}-{key}-{i}-{case['name'][:40]}"))
    return out


@pytest.mark.parametrize(("spec", "case", "want"), _cases())
def test_writes_corpus_case(spec: dict[str, Any], case: dict[str, Any], want: bool) -> None:
    args = {**spec["args"], **case.get("args", {})}
    ok, guard, detail = judge(
        spec["check"], args, spec["file"], case.get("before", spec["before"]), case["after"]
    )
    assert (ok and guard) is want, f"{case['name']}: check {ok}, guard {guard}: {detail}"


def test_every_writes_corpus_file_has_ten_cases_each_way() -> None:
    files = sorted(CORPUS.glob("*.yaml"))
    assert files
    for path in files:
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert len(spec["passing"]) >= MIN_CASES and len(spec["failing"]) >= MIN_CASES, path.name


def test_a_file_not_yet_readable_as_a_table_and_then_filled_is_one_change_of_the_file() -> None:
    before = {"files/Documents/t.csv": "empty"}
    after = {"files/Documents/t.csv/#row/| a | b |": "1", "files/Documents/t.csv/#row/| 1 | 2 |": "2"}
    assert [str(c) for c in diff(before, after)] == ["files/Documents/t.csv changed"]


def test_a_row_deleted_beside_an_edit_does_not_pair_with_it() -> None:
    passed, guard, detail = judge(
        "table_cell_equals",
        {"key_column": "Item", "key": "Rent", "column": "Amount", "equals": 1250},
        "Documents/b.csv",
        "Item,Amount\nRent,1200\nPower,85\n",
        "Item,Amount\nRent,1250\n",
    )
    assert passed and not guard and "Power" in detail
