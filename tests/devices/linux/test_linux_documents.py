"""Documents: generated files are format-valid, readable by getters, and verified by checks."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest

from devicesworld.devices.base import DeviceError
from devicesworld.devices.linux import KIND
from devicesworld.devices.linux.gui.mail_client import ACCOUNT
from devicesworld.devices.linux.resources import readers, writers
from tests.devices.linux.linux_harness import Desktop


def test_xlsx_roundtrip_and_checks(desk: Desktop) -> None:
    desk.setup(
        "write_xlsx",
        path="~/budget.xlsx",
        sheets={"Q1": [["item", "cost"], ["rent", 1200], ["food", 310.5]], "Q2": [["item"]]},
    )
    assert desk.get("xlsx", {"path": "~/budget.xlsx"}) == [["item", "cost"], ["rent", 1200], ["food", 310.5]]
    assert desk.get("xlsx", {"path": "~/budget.xlsx", "sheet": "Q2"}) == [["item"]]
    assert desk.check("table_cell_equals", path="~/budget.xlsx", row=2, column="cost", equals=310.5).passed
    assert desk.check("table_has_row", path="~/budget.xlsx", row={"item": "rent", "cost": 1200}).passed
    bad = desk.check("table_cell_equals", path="~/budget.xlsx", sheet="Q9", row=0, column=0, equals="x")
    assert not bad.passed and "no sheet" in bad.detail
    opened = desk.ok("read_document", path="~/budget.xlsx")
    assert opened["Q1"][1] == ["rent", 1200]
    host = desk.device.sandbox.to_host("~/budget.xlsx")
    assert zipfile.is_zipfile(host) and "xl/workbook.xml" in zipfile.ZipFile(host).namelist()


def test_docx_pdf_and_written_documents(desk: Desktop) -> None:
    desk.setup(
        "write_docx",
        path="~/memo.docx",
        title="Memo",
        paragraphs=["Meeting moved to Friday."],
        table=[["who", "room"], ["Ann", "B2"]],
    )
    assert desk.check("docx_contains", path="~/memo.docx", contains=["moved to friday", "Ann\tB2"]).passed
    desk.setup(
        "write_pdf",
        path="~/policy.pdf",
        title="Energy policy",
        paragraphs=["Heating must not exceed 21 degrees."],
    )
    assert desk.check("pdf_contains", path="~/policy.pdf", contains=["exceed 21 degrees"]).passed
    assert "Energy policy" in desk.ok("read_document", path="~/policy.pdf")
    assert not desk.check(
        "pdf_contains", path="~/memo.docx", contains=["x"]
    ).passed  # wrong format -> clear failure

    desk.ok("write_document", path="~/out/report.docx", title="Report", paragraphs=["Total: 42"])
    desk.ok("write_document", path="~/out/report.pdf", paragraphs=["Total: 42"])
    desk.ok("write_document", path="~/out/table.xlsx", rows=[["a", "b"], [1, 2]])
    assert desk.check("docx_contains", path="~/out/report.docx", contains=["Total: 42"]).passed
    assert desk.check("pdf_contains", path="~/out/report.pdf", contains=["Total: 42"]).passed
    assert desk.check("table_cell_equals", path="~/out/table.xlsx", row=1, column="b", equals=2).passed
    assert not desk.act("write_document", path="~/x.odt", paragraphs=["x"]).ok


def test_image_wav_archives(desk: Desktop) -> None:
    desk.setup("write_image", path="~/Pictures/logo.png", width=320, height=200, text="ACME")
    desk.setup("write_image", path="~/Pictures/photo.jpg", width=64, height=48, color="#ff0000")
    assert desk.check("image_size", path="~/Pictures/logo.png", width=320, height=200, format="png").passed
    assert desk.get("image", {"path": "~/Pictures/photo.jpg"})["format"] == "JPEG"
    desk.sh("python3 -c \"print('noop')\"")
    desk.setup("write_wav", path="~/Music/tone.wav", seconds=1.5, sample_rate=8000)
    assert desk.get("wav", {"path": "~/Music/tone.wav"}) == {
        "channels": 1,
        "sample_rate": 8000,
        "frames": 12000,
        "seconds": 1.5,
    }
    assert desk.check(
        "wav_matches", path="~/Music/tone.wav", min_seconds=1, max_seconds=2, sample_rate=8000
    ).passed
    for name in ("bundle.zip", "bundle.tar", "bundle.tar.gz"):
        desk.setup("write_archive", path=f"~/{name}", files={"docs/a.txt": "A", "b.txt": "B"})
        assert desk.get("archive", {"path": f"~/{name}"}) == ["b.txt", "docs/a.txt"]
        assert desk.check(
            "archive_contains", path=f"~/{name}", contains=["a.txt", "b.txt"], exact=True
        ).passed
    # The sandbox's own tools open them: the files are format-valid.
    out = desk.sh(
        "mkdir x && cd x && tar xzf ../bundle.tar.gz && cat docs/a.txt && python3 -m zipfile -l ../bundle.zip | wc -l"
    )
    assert out["stdout"].startswith("A")
    desk.sh("cd ~ && mkdir -p pack && echo 1 > pack/one.txt && cd pack && tar czf ../made.tgz one.txt")
    assert desk.check("archive_contains", path="~/made.tgz", contains=["one.txt"]).passed
    assert not desk.check("archive_contains", path="~/Music/tone.wav", contains=["x"]).passed


def test_code_project_tests_run_in_the_sandbox(desk: Desktop) -> None:
    files = {
        "calc/__init__.py": "",
        "calc/ops.py": "def add(a, b):\n    return a - b\n",
        "tests/__init__.py": "",
        "tests/test_ops.py": "import unittest\nfrom calc.ops import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    }
    desk.setup("write_project", path="~/projects/calc", files=files)
    failing = desk.check("project_tests_pass", path="~/projects/calc")
    assert not failing.passed and "exited 1" in failing.detail
    desk.ok("write_file", path="~/projects/calc/calc/ops.py", content="def add(a, b):\n    return a + b\n")
    assert desk.check("project_tests_pass", path="~/projects/calc").passed
    assert not any(Path(desk.device.sandbox.to_host("~/projects/calc")).rglob("__pycache__"))


def test_email_drafts(desk: Desktop) -> None:
    desk.setup("write_eml", to=["boss@example.com"], subject="Old draft", body="Hello")
    desk.ok(
        "write_email_draft",
        to=["Ann <ann@example.com>"],
        subject="Trip plan",
        body="We leave at 08:15 from gate B.",
        cc=["bob@example.com"],
    )
    drafts = desk.get("email_drafts")
    assert [d["file"] for d in drafts] == ["Old_draft.eml", "Trip_plan.eml"]
    assert drafts[1]["to"] == ["ann@example.com"] and drafts[1]["cc"] == ["bob@example.com"]
    assert desk.check(
        "email_draft", to="ann@example.com", subject="trip plan", body_contains=["08:15", "gate b"]
    ).passed
    assert not desk.check("email_draft", to="ann@example.com", body_contains=["09:00"]).passed
    assert desk.check("email_draft", to="carl@example.com", present=False).passed
    opened = desk.ok("read_document", path="~/Mail/Drafts/Trip_plan.eml")
    assert opened["subject"] == "Trip plan"
    raw = desk.sh("cat ~/Mail/Drafts/Trip_plan.eml")["stdout"]
    assert "Subject: Trip plan" in raw and "X-Unsent: 1" in raw
    # the user's mail is from their own address (the mail client's account without a world), never
    # a placeholder of no one (issue #33)
    assert f"From: {ACCOUNT}" in raw
    assert f"From: {ACCOUNT}" in desk.sh("cat ~/Mail/Drafts/Old_draft.eml")["stdout"]
    desk.device.owner_address = "ava.lind@gmail.com"  # what a persona world's apply sets
    desk.ok("write_email_draft", to=["ann@example.org"], subject="Again", body="Hi")
    assert "From: ava.lind@gmail.com" in desk.sh("cat ~/Mail/Drafts/Again.eml")["stdout"]


def test_writers_are_deterministic(tmp_path: Path) -> None:
    for i in (1, 2):
        if i == 2:
            time.sleep(2.1)  # zip entry times have 2 s resolution: a wall-clock stamp would now differ
        writers.write_xlsx(tmp_path / f"{i}.xlsx", {"S": [["a", 1]]})
        writers.write_docx(tmp_path / f"{i}.docx", ["hello"], "T")
        writers.write_pdf(tmp_path / f"{i}.pdf", ["hello"], "T")
        writers.write_archive(tmp_path / f"{i}.zip", {"a.txt": "A"})
        writers.write_wav(tmp_path / f"{i}.wav", 0.1)
    for ext in ("xlsx", "docx", "pdf", "zip", "wav"):
        assert (tmp_path / f"1.{ext}").read_bytes() == (tmp_path / f"2.{ext}").read_bytes(), ext
    assert readers.read_xlsx(tmp_path / "2.xlsx") == [["a", 1]]


FORMAT_PROBE = r"""
import email, struct, sys, tarfile, wave, zipfile
from email import policy
ok = []
for name in ("book.xlsx", "doc.docx", "a.zip"):
    with zipfile.ZipFile(name) as z:
        assert z.testzip() is None, name
        if name.endswith(("xlsx", "docx")):
            assert "[Content_Types].xml" in z.namelist(), name
    ok.append(name)
with tarfile.open("a.tar.gz") as t:
    assert t.getnames()
ok.append("a.tar.gz")
with wave.open("s.wav") as w:
    assert w.getnframes() == 8000
ok.append("s.wav")
data = open("p.pdf", "rb").read()
assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
ok.append("p.pdf")
png = open("i.png", "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (33, 21)
ok.append("i.png")
assert open("i.jpg", "rb").read()[:2] == b"\xff\xd8"
ok.append("i.jpg")
msg = email.message_from_bytes(open("Mail/Drafts/Hi.eml", "rb").read(), policy=policy.default)
assert msg["To"] == "a@b.test" and msg.get_content().strip() == "body"
ok.append("eml")
print(" ".join(ok))
"""


def test_generated_files_open_with_the_desktops_own_tools(desk: Desktop) -> None:
    desk.setup("write_xlsx", path="~/book.xlsx", sheets={"S": [["a", 1]]})
    desk.setup("write_docx", path="~/doc.docx", paragraphs=["x"])
    desk.setup("write_archive", path="~/a.zip", files={"f.txt": "F"})
    desk.setup("write_archive", path="~/a.tar.gz", files={"f.txt": "F"})
    desk.setup("write_wav", path="~/s.wav", seconds=1.0, sample_rate=8000)
    desk.setup("write_pdf", path="~/p.pdf", paragraphs=["hello"])
    desk.setup("write_image", path="~/i.png", width=33, height=21)
    desk.setup("write_image", path="~/i.jpg", width=10, height=10)
    desk.setup("write_eml", to=["a@b.test"], subject="Hi", body="body")
    desk.setup("write_text", path="~/probe.py", content=FORMAT_PROBE)
    out = desk.sh("python3 probe.py")
    assert out["stdout"].split() == [
        "book.xlsx",
        "doc.docx",
        "a.zip",
        "a.tar.gz",
        "s.wav",
        "p.pdf",
        "i.png",
        "i.jpg",
        "eml",
    ], out


def test_image_descriptions_are_readable_metadata(desk: Desktop) -> None:
    """A description lives in the metadata (PNG text chunk / JPEG EXIF), so read_document shows it."""
    desk.setup("write_image", path="~/Pictures/a.png", width=30, height=20, description="Gate code 4821")
    desk.setup("write_image", path="~/Pictures/b.jpg", width=30, height=20, description="Room B-12")
    desk.setup("write_image", path="~/Pictures/c.png", width=30, height=20)
    assert desk.ok("read_document", path="~/Pictures/a.png")["description"] == "Gate code 4821"
    assert desk.get("image", {"path": "~/Pictures/b.jpg"})["description"] == "Room B-12"
    assert "description" not in desk.get("image", {"path": "~/Pictures/c.png"})
    first = desk.device.sandbox.to_host("~/Pictures/a.png").read_bytes()
    desk.setup("write_image", path="~/Pictures/a.png", width=30, height=20, description="Gate code 4821")
    assert desk.device.sandbox.to_host("~/Pictures/a.png").read_bytes() == first
    with pytest.raises(DeviceError, match="only PNG and JPEG"):
        desk.device.setup(
            "write_image",
            KIND.setup_ops["write_image"].parse_args(
                {"path": "~/x.bmp", "width": 2, "height": 2, "description": "x"}
            ),
        )


def test_a_seeded_mail_is_dated_by_the_task_clock(desk: Desktop) -> None:
    """An hour before the task starts (issue #33: every seeded .eml read 1 Jan 2026)."""
    desk.setup(
        "write_eml", path="~/Mail/Inbox/plumber.eml", to=["me@example.org"], subject="Quote", body="Hi"
    )
    out = desk.sh("grep '^Date:' ~/Mail/Inbox/plumber.eml")["stdout"]
    assert "02 Mar 2026 08:00:00" in out, out


@pytest.mark.parametrize(
    ("minutes_ago", "date"),
    [
        (0, "02 Mar 2026 09:00:00"),
        (31 * 24 * 60, "30 Jan 2026 09:00:00"),  # last month's booking
        (365 * 24 * 60 + 90, "02 Mar 2025 07:30:00"),  # last year's quote
    ],
)
def test_a_seeded_mail_is_dated_as_old_as_the_op_says(desk: Desktop, minutes_ago: int, date: str) -> None:
    """``minutes_ago`` dates the mail that long before the task's clock (issue #33: "last month's
    booking" listed as today's); the file's name and the rest of the mail are as without it."""
    desk.setup(
        "write_eml",
        path="~/Mail/Inbox/old.eml",
        to=["me@example.org"],
        subject="Booking (last month)",
        body="Hi",
        minutes_ago=minutes_ago,
    )
    out = desk.sh("grep '^Date:' ~/Mail/Inbox/old.eml")["stdout"]
    assert date in out, out


def test_a_mail_older_than_five_years_is_refused() -> None:
    with pytest.raises(ValueError, match="minutes_ago"):
        KIND.setup_ops["write_eml"].parse_args(
            {"to": ["a@b.test"], "subject": "s", "body": "b", "minutes_ago": 10**8}
        )
