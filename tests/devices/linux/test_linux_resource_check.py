"""Resource QC: ``check_resources`` opens every document setup wrote and names the ones that fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld import diskcache
from devicesworld.devices.linux.resources import check, readers
from tests.devices.linux.linux_harness import Desktop


def _write_everything(desk: Desktop) -> None:
    desk.setup("write_xlsx", path="~/Documents/a.xlsx", sheets={"S": [["k", "v"], ["x", 1]]})
    desk.setup("write_docx", path="~/Documents/b.docx", paragraphs=["hello"], table=[["a", "b"]])
    desk.setup("write_pdf", path="~/Documents/c.pdf", paragraphs=["hello"])
    desk.setup("write_image", path="~/Pictures/d.png", width=40, height=20, text="42")
    desk.setup("write_image", path="~/Pictures/e.jpg", width=40, height=20)
    desk.setup("write_wav", path="~/Music/f.wav", seconds=0.5)
    desk.setup("write_archive", path="~/Downloads/g.zip", files={"a.txt": "x"})
    desk.setup("write_archive", path="~/Downloads/h.tar.gz", files={"a.txt": "x"})
    desk.setup("write_json", path="~/i.json", data={"a": 1})
    desk.setup("write_csv", path="~/j.csv", rows=[["a"], ["1"]])
    desk.setup("write_eml", to=["a@example.org"], subject="Hi", body="Hello")
    desk.setup("write_project", path="~/proj", files={"pkg/m.py": "X = 1\n"})


def test_valid_documents_have_no_problems(desk: Desktop) -> None:
    _write_everything(desk)
    assert desk.device.check_resources() == []


def test_each_corrupt_document_is_reported_once(desk: Desktop) -> None:
    _write_everything(desk)
    home = desk.device.sandbox.to_host("~")
    (home / "Documents/a.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    (home / "Pictures/d.png").write_bytes((home / "Pictures/d.png").read_bytes()[:60])  # truncated
    wav = home / "Music/f.wav"
    wav.write_bytes(wav.read_bytes()[:-1000])
    (home / "Downloads/h.tar.gz").write_bytes(b"\x1f\x8b garbage")
    (home / "i.json").write_text("{not json", encoding="utf-8")
    (home / "Documents/c.pdf").write_bytes(b"%PDF-1.4 broken")
    problems = desk.device.check_resources()
    assert len(problems) == 6, problems
    for name in ("a.xlsx", "d.png", "f.wav", "h.tar.gz", "i.json", "c.pdf"):
        assert sum(name in p for p in problems) == 1, (name, problems)
    assert all(p.startswith("/home/user/") for p in problems), problems
    assert not any(str(home) in p for p in problems), "host paths must not leak"


def test_the_shared_drive_is_left_to_the_drive(desk: Desktop) -> None:
    (desk.device.drive.root / "broken.xlsx").write_bytes(b"nope")
    assert desk.device.check_resources() == []


def test_verdicts_are_kept_by_content_and_the_same_on_a_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(diskcache.SWITCH_ENV, raising=False)
    check._VERDICTS.clear()
    good = b"{}"
    bad = b"{not json"
    miss_good = check.verdict(readers.read_json, "a.json", good)
    miss_bad = check.verdict(readers.read_json, "a.json", bad)
    assert miss_good is None and miss_bad and "a.json" in miss_bad
    assert len(list((tmp_path / "cache" / "proven-files").rglob("*/*"))) == 2
    check._VERDICTS.clear()  # a new process: read back from disk
    opened: list[str] = []

    def counted(*args: object) -> str:
        opened.append("x")
        return ""

    monkeypatch.setattr(check, "_open", counted)
    assert check.verdict(readers.read_json, "a.json", good) is None
    assert check.verdict(readers.read_json, "a.json", bad) == miss_bad
    assert opened == []
    assert check.verdict(readers.read_json, "b.json", bad) is None  # another name: opened (stubbed here)
    assert opened == ["x"]
