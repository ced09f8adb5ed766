"""A Linux desktop's programs read the task's clock, not the host's (tool mode and GUI mode)."""

from __future__ import annotations

from datetime import datetime, timedelta
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
