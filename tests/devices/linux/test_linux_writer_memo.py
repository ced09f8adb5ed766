"""Office files kept per process by their arguments: the same bytes a fresh render gives."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from devicesworld.devices.linux.resources import writers

WRITES: dict[str, Callable[[Path], None]] = {
    "xlsx": lambda p: writers.write_xlsx(p, {"S": [["k", "v"], ["x", 1]]}),
    "docx": lambda p: writers.write_docx(p, ["hello"], "T", [["a", "b"]]),
    "pdf": lambda p: writers.write_pdf(p, ["hello"], "T"),
}


@pytest.mark.parametrize("fmt", sorted(WRITES))
def test_a_kept_file_is_the_rendered_one(tmp_path: Path, fmt: str) -> None:
    write = WRITES[fmt]
    writers._RENDERED.clear()
    write(tmp_path / f"a.{fmt}")  # rendered
    assert len(writers._RENDERED) == 1
    write(tmp_path / f"b.{fmt}")  # kept
    assert len(writers._RENDERED) == 1
    writers._RENDERED.clear()
    write(tmp_path / f"c.{fmt}")  # rendered again
    data = {(tmp_path / f"{n}.{fmt}").read_bytes() for n in "abc"}
    assert len(data) == 1


def test_values_of_other_types_are_other_files(tmp_path: Path) -> None:
    writers._RENDERED.clear()
    cells: list[object] = [1, 1.0, True, "1", datetime(2026, 1, 1)]
    for i, cell in enumerate(cells):
        writers.write_xlsx(tmp_path / f"{i}.xlsx", {"S": [[cell]]})
    assert len(writers._RENDERED) == len(cells)
    assert (tmp_path / "0.xlsx").read_bytes() != (tmp_path / "3.xlsx").read_bytes()  # 1 is no "1"
    assert (tmp_path / "0.xlsx").read_bytes() != (tmp_path / "2.xlsx").read_bytes()  # nor True
