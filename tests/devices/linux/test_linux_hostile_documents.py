"""Crafted documents and huge files: every harness-side read fails fast with a clear error and bounded memory.

The files are generated here and are small on disk (sparse or highly compressed).
"""

from __future__ import annotations

import io
import json
import os
import random
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from devicesworld.devices.base import DeviceError
from devicesworld.devices.linux.limits import Limits
from devicesworld.devices.linux.resources import isolate, writers
from devicesworld.devices.linux.resources.readers import MAX_CELLS, Blob
from devicesworld.devices.safefs import FsError
from tests.devices.linux.linux_harness import Desktop

GENEROUS_S = 30.0
"""The documented bound is Limits.parse_s (8 s) plus start-up; the assertion leaves room for a loaded machine."""


def _xlsx(tmp_path: Path, sheet_xml: bytes | None = None, strings_xml: bytes | None = None) -> bytes:
    """A valid workbook whose first sheet (and shared strings) are replaced by the given XML."""
    base = tmp_path / "base.xlsx"
    writers.write_xlsx(base, {"Sheet1": [["a", 1]]})
    out = io.BytesIO()
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml" and sheet_xml is not None:
                data = sheet_xml
            dst.writestr(info.filename, data)
        if strings_xml is not None:
            dst.writestr("xl/sharedStrings.xml", strings_xml)
    return out.getvalue()


def _sheet(rows: str, dimension: str = "A1") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="{dimension}"/><sheetData>{rows}</sheetData></worksheet>'
    ).encode()


def _timed_failure(desk: Desktop, path: str) -> tuple[str | None, str, float]:
    t0 = time.monotonic()
    result = desk.act("read_document", path=path)
    elapsed = time.monotonic() - t0
    assert not result.ok
    return result.error_code, result.message, elapsed


def test_a_sheet_claiming_a_million_rows_fails_fast(desk: Desktop, tmp_path: Path) -> None:
    rows = '<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>'
    data = _xlsx(tmp_path, _sheet(rows, "A1:XFD1048576"))
    assert len(data) < 20_000
    (desk.device.sandbox.paths.home / "claims.xlsx").write_bytes(data)
    code, message, elapsed = _timed_failure(desk, "~/claims.xlsx")
    assert code == "RESOURCE_LIMIT" and f"{MAX_CELLS:,} cells" in message
    assert elapsed < GENEROUS_S


def test_a_3_mb_workbook_of_many_cells_fails_in_the_subprocess(desk: Desktop, tmp_path: Path) -> None:
    noise = random.Random(18).randbytes(8400 * 30 * 8).hex()  # incompressible cell texts
    cell = '<c t="str"><v>{}</v></c>'
    cells = "".join(
        f'<row r="{r}">'
        + "".join(cell.format(noise[(r * 30 + c) * 16 : (r * 30 + c + 1) * 16]) for c in range(30))
        + "</row>"
        for r in range(8_400)
    )
    data = _xlsx(tmp_path, _sheet(cells, "A1:AD8400"))
    assert 1_500_000 < len(data) < 4_500_000  # over the in-harness size: parsed in a subprocess
    (desk.device.sandbox.paths.home / "cells.xlsx").write_bytes(data)
    code, message, elapsed = _timed_failure(desk, "~/cells.xlsx")
    assert code == "RESOURCE_LIMIT" and ("cells" in message or "longer than" in message), message
    assert elapsed < GENEROUS_S


def test_a_zip_bomb_is_refused_before_it_is_unpacked(desk: Desktop, tmp_path: Path) -> None:
    desk.device.sandbox.limits = Limits(
        expanded_mb=48
    )  # the default is 256 MiB; a smaller bomb keeps the test fast
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(_xlsx(tmp_path))) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for info in src.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                dst.writestr(info.filename, src.read(info))
        with dst.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh:
            chunk = b" " * (1 << 20)
            for _ in range(50):
                fh.write(chunk)
    data = out.getvalue()
    assert len(data) < 500_000
    (desk.device.sandbox.paths.home / "bomb.xlsx").write_bytes(data)
    code, message, elapsed = _timed_failure(desk, "~/bomb.xlsx")
    assert code == "RESOURCE_LIMIT" and "unpacks to" in message
    assert elapsed < GENEROUS_S
    with pytest.raises(DeviceError) as err:
        desk.get("xlsx", {"path": "~/bomb.xlsx"})
    assert err.value.code == "RESOURCE_LIMIT"


def test_huge_shared_strings_are_bounded(desk: Desktop, tmp_path: Path) -> None:
    n = 120_000
    strings = "".join(f"<si><t>s{i}</t></si>" for i in range(n))
    sst = f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{n}" uniqueCount="{n}">{strings}</sst>'
    rows = "".join(f'<row r="{r}"><c t="s"><v>{r}</v></c></row>' for r in range(1, n))
    data = _xlsx(tmp_path, _sheet(rows), sst.encode())
    (desk.device.sandbox.paths.home / "strings.xlsx").write_bytes(data)
    code, _, elapsed = _timed_failure(desk, "~/strings.xlsx")
    assert code in ("RESOURCE_LIMIT", "INVALID_FORMAT")
    assert elapsed < GENEROUS_S


def test_a_parse_over_its_time_is_killed() -> None:
    doc = Blob("slow.docx", b"PK" + os.urandom(2 * 1024 * 1024))
    with pytest.raises(FsError) as err:
        isolate.parse("docx", doc, limits=Limits(parse_s=0.01))
    assert err.value.code == "RESOURCE_LIMIT" and "longer than" in err.value.message


def test_a_corrupt_document_in_the_subprocess_is_a_format_error() -> None:
    from devicesworld.devices.linux.resources.readers import FormatError

    with pytest.raises(FormatError, match=r"not a valid PDF|cannot be opened"):
        isolate.parse("pdf", Blob("x.pdf", b"%PDF-1.7\n" + b"\x00" * 70_000))


def test_read_file_of_300_mb_reads_only_its_ends(desk: Desktop) -> None:
    big = desk.device.sandbox.paths.home / "huge.log"
    with big.open("wb") as fh:
        fh.write(b"first line\n")
        fh.truncate(300 * 1024 * 1024)  # sparse: nothing on disk
        fh.seek(-10, os.SEEK_END)
        fh.write(b"last line\n")
    tracemalloc.start()
    try:
        result = desk.act("read_file", path="~/huge.log", max_chars=2000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.ok and "(truncated)" in result.message and "314,572,800 bytes" in result.message
    assert str(result.data).startswith("first line") and str(result.data).endswith("last line\n")
    assert peak < 32 * 1024 * 1024, f"read_file allocated {peak:,} bytes"


def test_a_document_over_the_read_size_is_refused(desk: Desktop) -> None:
    with (desk.device.sandbox.paths.home / "big.json").open("wb") as fh:
        fh.truncate(Limits().read_bytes + 1)
    result = desk.act("read_document", path="~/big.json")
    assert not result.ok and result.error_code == "RESOURCE_LIMIT" and "limit" in result.message
    with pytest.raises(DeviceError) as err:
        desk.get("json", {"path": "~/big.json"})
    assert err.value.code == "RESOURCE_LIMIT"


def test_deeply_nested_json_is_a_format_error(desk: Desktop) -> None:
    (desk.device.sandbox.paths.home / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    result = desk.act("read_document", path="~/deep.json")
    assert not result.ok and result.error_code in ("INVALID_FORMAT", "RESOURCE_LIMIT"), result
    assert "Traceback" not in result.message


def test_a_fifo_named_like_a_document_does_not_hang(desk: Desktop) -> None:
    os.mkfifo(desk.device.sandbox.paths.home / "pipe.txt")
    for action in ("read_file", "read_document"):
        result = desk.act(action, path="~/pipe.txt")
        assert not result.ok, result
    assert json.dumps(desk.get("file_info", {"path": "~/pipe.txt"}))
