"""A Windows PC runs on the task's clock: cmd's ``date /t`` and ``time /t`` show the task's date and
time, not the host's, and follow an advance of the task's clock (docs/gui.md, issue #33)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import VirtualClock
from devicesworld.devices.windows.device import WindowsDevice
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


SAVED = r"C:\Users\user\Documents\new.txt"


def _pick(obs: dict[str, Any], role: str, name: str | None = None) -> int:
    found = [e["index"] for e in obs["elements"] if e["role"] == role and (name is None or e["name"] == name)]
    assert found, [(e["role"], e["name"]) for e in obs["elements"]]
    return int(found[0])


def test_a_file_notepad_saves_is_dated_on_the_task_day_and_a_seeded_one_keeps_its_own(tmp_path: Path) -> None:
    """Notepad saves a file (the host's kernel dates it): cmd's ``dir`` shows the task's day, and so
    does the file on disk once the action is over (checks read that); a seeded file keeps its date."""
    require_windows_stack()
    require_faketime()
    kind, dev = windows_pc(tmp_path, {"desktop": "hybrid"})
    assert isinstance(dev, WindowsDevice)

    def act(action: str, **args: Any) -> Any:
        result = dev.act(action, kind.actions_for({"desktop": "hybrid"})[action].parse_args(args))
        assert result.ok, (action, result.message)
        return result

    seeded = int(datetime(2026, 2, 20, 10, tzinfo=UTC).timestamp() * 1e9)
    try:
        dev.files.write_dated(r"C:\Users\user\Documents\old.txt", b"seeded\r\n", seeded)
        act("launch_app", app="notepad")
        act("type_text", text="saved in the task")
        act("hotkey", keys=["ctrl", "s"])
        act("wait", seconds=1.0)
        act("click", element=_pick(dev.observe(), "Edit"))
        act("hotkey", keys=["ctrl", "a"])
        act("type_text", text=SAVED)
        act("click", element=_pick(dev.observe(), "Button", "&Save"))
        act("wait", seconds=1.0)
        listing = act("run_command", command=r"dir C:\Users\user\Documents").data["stdout"]
        assert re.search(r"3/2/2026.*new\.txt", listing) or re.search(r"03/02/2026.*new\.txt", listing), (
            listing
        )
        assert re.search(r"0?2/20/2026.*old\.txt", listing), listing
        # written and listed in one command: Wine reads the date before the harness moves it
        listing = act(
            "run_command", command=r"echo x> C:\Users\user\Documents\echo.txt & dir C:\Users\user\Documents"
        ).data["stdout"]
        assert re.search(r"0?3/0?2/2026.*echo\.txt", listing), listing
        text = dev.get("text", kind.getters["text"].parse_args({"path": SAVED}))
        assert text == "saved in the task"
        home = dev.home / "Documents"
        days = {
            n: datetime.fromtimestamp((home / n).stat().st_mtime, UTC).date() for n in ("new.txt", "old.txt")
        }
        assert days == {"new.txt": date(2026, 3, 2), "old.txt": date(2026, 2, 20)}
    finally:
        dev.close()
