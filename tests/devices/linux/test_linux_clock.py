"""A Linux desktop's programs read the task's clock, not the host's (tool mode and GUI mode)."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.devices.desktop.desktop_harness import require_gui_stack
from tests.devices.desktop.test_desktop_clock import require_faketime
from tests.devices.linux.linux_harness import Desktop, require_bwrap
from tests.devices.linux.test_linux_gui import GuiDesk

DATE = "date '+%Y-%m-%d %H:%M'"


def _near_start(shown: str, extra_minutes: int = 0) -> None:
    when = datetime.strptime(shown.strip(), "%Y-%m-%d %H:%M")
    start = datetime(2026, 3, 2, 9) + timedelta(minutes=extra_minutes)
    assert 0 <= (when - start).total_seconds() <= 600, shown  # real time ticks on from the start


def test_a_command_reads_the_task_clock_and_follows_an_advance(tmp_path: Path) -> None:
    require_bwrap()
    require_faketime()
    desk = Desktop(tmp_path)
    try:
        _near_start(desk.sh(DATE)["stdout"])
        today = desk.sh("python3 -c 'import datetime; print(datetime.date.today())'")["stdout"]
        assert today.strip() == "2026-03-02"
        desk.context.clock.advance(3 * 3600)
        _near_start(desk.sh(DATE)["stdout"], extra_minutes=180)
        desk.sh("touch ~/made.txt")
        listing = desk.sh("ls -l --time-style=+%Y-%m-%d ~/made.txt")["stdout"]
        assert "2026-03-02" in listing
    finally:
        desk.close()


def test_the_gui_terminal_reads_the_task_clock(tmp_path: Path) -> None:
    require_gui_stack()
    require_faketime()
    desk = GuiDesk(tmp_path)
    try:
        result = desk.ok("run_command", command=DATE)
        _near_start(str((result.data or {}).get("stdout", "")))
    finally:
        desk.device.close()


PAGE = "<html><head><script>document.title = 'now ' + new Date().toISOString().slice(0, 16);</script></head></html>"


@pytest.mark.xfail(
    strict=False,
    reason="intermittent: with two test workers the desktop's controller exited while Chromium started on "
    "a pinned clock (passes alone and in this file's order; under investigation, see the stop-43 note)",
)
def test_chromium_pages_read_the_task_clock(tmp_path: Path) -> None:
    """``new Date()`` in a page is the task's time (Chromium's renderers run under libfaketime too)."""
    require_gui_stack()
    require_faketime()
    desk = GuiDesk(tmp_path)
    try:
        desk.setup("write_text", path="~/now.html", content=PAGE)
        desk.ok("launch_app", app="browser", path="~/now.html")
        titles = [w["title"] for w in desk.get("windows")]
        shown = next((t for t in titles if t.startswith("now ")), None)
        assert shown is not None, titles
        _near_start(shown.removeprefix("now ").split(" - ")[0].replace("T", " "))
    finally:
        desk.device.close()


def test_an_x_client_started_on_the_task_clock_connects(tmp_path: Path) -> None:
    """The clock's preload does not break X clients (python3-xlib connects; docs/gui.md)."""
    require_gui_stack()
    require_faketime()
    desk = GuiDesk(tmp_path)
    try:
        probe = "python3 -c 'from Xlib import display; display.Display().close(); print(\"connected\")'"
        result = desk.ok("run_command", command=probe)
        assert "connected" in str((result.data or {}).get("stdout", "")), result.data
    finally:
        desk.device.close()


def _seed_dated(home: Path, rel: str, when: datetime) -> None:
    """A world's file with its own date (as a world's setup writes it)."""
    path = home / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("seeded\n")
    stamp = int(when.replace(tzinfo=UTC).timestamp() * 1e9)
    os.utime(path, ns=(stamp, stamp))


def _day(home: Path, rel: str) -> str:
    return datetime.fromtimestamp((home / rel).stat().st_mtime, UTC).strftime("%Y-%m-%d")


def test_a_file_written_by_a_command_is_dated_on_the_task_day_and_a_seeded_one_keeps_its_own(
    tmp_path: Path,
) -> None:
    """Tool mode: ``echo``, ``cp`` and Python write files the host's kernel dates; ``ls`` shows them on
    the task's day at once, and on disk they are moved to it after the action (checks read that)."""
    require_bwrap()
    require_faketime()
    desk = Desktop(tmp_path)
    try:
        home = desk.device.sandbox.paths.home
        _seed_dated(home, "Documents/old.txt", datetime(2026, 2, 20, 10))
        out = desk.sh(
            "echo hi > ~/saved.txt; cp ~/Documents/old.txt ~/copy.txt;"
            ' python3 -c \'open("/home/user/py.txt", "w").write("x")\';'
            " ls -l --time-style=+%Y-%m-%d ~/saved.txt ~/copy.txt ~/py.txt ~/Documents/old.txt"
        )["stdout"]
        shown = {line.split()[-1].rsplit("/", 1)[-1]: line.split()[-2] for line in out.splitlines()}
        assert shown == {
            "saved.txt": "2026-03-02",
            "copy.txt": "2026-03-02",
            "py.txt": "2026-03-02",
            "old.txt": "2026-02-20",
        }, out
        assert {n: _day(home, n) for n in ("saved.txt", "copy.txt", "py.txt")} == dict.fromkeys(
            ("saved.txt", "copy.txt", "py.txt"), "2026-03-02"
        )
        assert _day(home, "Documents/old.txt") == "2026-02-20"
    finally:
        desk.close()


def test_a_file_saved_in_the_editor_is_dated_on_the_task_day_and_saves_again_without_a_question(
    tmp_path: Path,
) -> None:
    """GUI: Mousepad saves a file (the host's kernel dates it); ``ls`` in the desktop and the file on
    disk show the task's day, a seeded file its own; a second save after the harness moved the date is
    not refused as "modified by another program" (the preloaded library showed the moved date at once)."""
    require_gui_stack()
    require_faketime()
    desk = GuiDesk(tmp_path)
    try:
        home = desk.device.sandbox.paths.home
        _seed_dated(home, "Documents/old.txt", datetime(2026, 2, 20, 10))
        desk.setup("write_text", path="~/Documents/note.txt", content="")
        desk.ok("launch_app", app="text_editor", path="~/Documents/note.txt")
        desk.ok("type_text", text="first")
        desk.ok("hotkey", keys=["ctrl", "s"])
        desk.ok("wait", seconds=1.0)
        assert desk.get("text", path="~/Documents/note.txt") == "first"
        assert _day(home, "Documents/note.txt") == "2026-03-02"
        out = desk.ok("run_command", command="ls -l --time-style=+%Y-%m-%d ~/Documents").data["stdout"]
        assert re.search(r"2026-03-02 note\.txt", out) and re.search(r"2026-02-20 old\.txt", out), out
        desk.ok("type_text", text=" second")
        desk.ok("hotkey", keys=["ctrl", "s"])
        desk.ok("wait", seconds=1.0)
        assert desk.get("text", path="~/Documents/note.txt") == "first second"
        assert _day(home, "Documents/old.txt") == "2026-02-20"
    finally:
        desk.device.close()


def test_writer_saves_a_document_twice_on_the_task_day(tmp_path: Path) -> None:
    """LibreOffice compares a file's date with the one it read at its last save before it saves again:
    the harness moving the date between the two saves must not make it "changed by others"."""
    require_gui_stack()
    require_faketime()
    desk = GuiDesk(tmp_path)
    try:
        home = desk.device.sandbox.paths.home
        desk.setup("make_dir", path="~/Documents")
        desk.ok("launch_app", app="writer")
        desk.ok("type_text", text="First line\n")
        desk.ok("hotkey", keys=["ctrl", "shift", "s"])
        desk.ok("wait", seconds=1.5)
        desk.ok("type_text", text="/home/user/Documents/report.docx")
        desk.ok("wait", seconds=0.5)
        desk.ok("click", element={"role": "push button", "name": "Save", "window": "Save"})
        desk.ok("wait", seconds=1)
        assert desk.get("docx", path="~/Documents/report.docx") == ["First line", ""]
        assert _day(home, "Documents/report.docx") == "2026-03-02"
        desk.ok("type_text", text="Second line")
        desk.ok("hotkey", keys=["ctrl", "s"])
        desk.ok("wait", seconds=1.5)
        assert desk.get("docx", path="~/Documents/report.docx") == ["First line", "Second line"]
        assert _day(home, "Documents/report.docx") == "2026-03-02"
    finally:
        desk.device.close()
