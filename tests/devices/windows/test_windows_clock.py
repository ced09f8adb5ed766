"""A Windows PC runs on the task's clock: cmd's ``date /t`` and ``time /t`` show the task's date and
time, not the host's, and follow an advance of the task's clock (docs/gui.md, issue #33)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import VirtualClock
from tests.devices.desktop.test_desktop_clock import require_faketime
from tests.devices.windows.windows_harness import require_windows_stack, windows_pc


def _shown(out: str) -> datetime:
    """``date /t`` then ``time /t`` in Wine's en-US forms (``Current Date is 3/2/2026``,
    ``Current Time is 9:00:10 AM``)."""
    day = re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", out)
    assert day is not None, out
    clock = re.search(r"(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([AP]M))?", out[day.end() :])
    assert clock is not None, out
    hour = int(clock.group(1))
    if clock.group(3):
        hour = hour % 12 + (12 if clock.group(3) == "PM" else 0)
    return datetime(int(day.group(3)), int(day.group(1)), int(day.group(2)), hour, int(clock.group(2)))


def test_cmd_shows_the_task_date_and_time_and_follows_an_advance(tmp_path: Path) -> None:
    require_windows_stack()
    require_faketime()
    clock = VirtualClock(datetime(2026, 3, 2, 9))
    kind, dev = windows_pc(tmp_path, {"desktop": "hybrid"}, clock)

    def act(action: str, **args: Any) -> Any:
        return dev.act(action, kind.actions_for({"desktop": "hybrid"})[action].parse_args(args))

    try:
        run = act("run_command", command="date /t & time /t")
        assert run.ok, run.message
        seconds = (_shown(run.data["stdout"]) - datetime(2026, 3, 2, 9)).total_seconds()
        assert 0 <= seconds <= 600, run.data["stdout"]  # ticks on in real time from the task's start
        clock.advance(3 * 3600)
        run = act("run_command", command="date /t & time /t")
        seconds = (_shown(run.data["stdout"]) - datetime(2026, 3, 2, 12)).total_seconds()
        assert 0 <= seconds <= 600, run.data["stdout"]
    finally:
        dev.close()
