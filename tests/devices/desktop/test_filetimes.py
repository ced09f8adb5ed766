"""Files written during a task are dated on the task's clock: the rule, the harness's walk and the
preloaded library agree (docs/gui.md, issue #33)."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from devicesworld.devices.desktop import filetimes
from devicesworld.devices.desktop.clock import DesktopClock, clock_env
from tests.devices.desktop.test_desktop_clock import require_faketime

NS = 1_000_000_000
OFFSET = -24_105_600  # the task's 2026-03-02 seen from a host on 2026-12-07


def _ns(when: datetime) -> int:
    return int(when.replace(tzinfo=UTC).timestamp()) * NS


def test_a_host_date_is_one_in_the_tasks_future_and_a_small_offset_moves_nothing() -> None:
    """Task behind the host (March in December): every date after the task's now is the host's."""
    now = _ns(datetime(2026, 12, 7, 21))
    assert filetimes.host_written(now - 5 * NS, now, OFFSET)
    assert filetimes.host_written(now + 30 * NS, now, OFFSET)  # a moment ahead (another clock read)
    assert filetimes.host_written(now - 2 * 86_400 * NS, now, OFFSET)  # a template copied days ago
    assert not filetimes.host_written(now + OFFSET * NS, now, OFFSET)  # already moved: never twice
    assert not filetimes.host_written(now + (OFFSET + 30) * NS, now, OFFSET)  # the task's now (touch)
    assert not filetimes.host_written(_ns(datetime(2026, 2, 20)), now, OFFSET)  # a seeded date
    assert not filetimes.host_written(now + 3600 * NS, now, OFFSET)  # the host's future: not its now
    assert not filetimes.host_written(now, now, 60)  # a minute off: left alone


def test_with_the_task_ahead_of_the_host_only_its_last_day_counts() -> None:
    now = _ns(datetime(2026, 12, 7, 21))
    ahead = 90 * 86_400  # a task set in March 2027
    assert filetimes.host_written(now - 3600 * NS, now, ahead)
    assert not filetimes.host_written(now - 2 * 86_400 * NS, now, ahead)  # a seeded date, weeks before
    assert not filetimes.host_written(now + ahead * NS, now, ahead)  # already moved
    assert filetimes.window_s(600) == 300 and filetimes.window_s(ahead) == 86_400


def test_the_walk_moves_host_dates_once_and_keeps_seeded_ones(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    saved, seeded = tmp_path / "Documents" / "saved.txt", tmp_path / "old.txt"
    saved.write_text("new")
    seeded.write_text("old")
    own = _ns(datetime(2026, 2, 20, 10))
    os.utime(seeded, ns=(own, own))
    (tmp_path / "link").symlink_to("/nonexistent")
    written = saved.stat().st_mtime_ns
    moved = filetimes.redate_tree(tmp_path, OFFSET)
    assert moved >= 2  # the file, its folder (and the link and the root, written now too)
    assert saved.stat().st_mtime_ns == written + OFFSET * NS
    assert seeded.stat().st_mtime_ns == own
    assert filetimes.redate_tree(tmp_path, OFFSET) == 0  # nothing is moved twice
    assert filetimes.redate_tree(tmp_path, 30) == 0


def test_settle_files_walks_the_watched_folders_and_the_clock_settles_before_an_advance(
    tmp_path: Path,
) -> None:
    host_now = datetime.now(UTC).timestamp()
    clock = DesktopClock(tmp_path / "clock", datetime(2026, 3, 2, 9), library="/lib.so")
    home = tmp_path / "home"
    home.mkdir()
    clock.watch(home)
    first = home / "a.txt"
    first.write_text("a")
    offset = int(clock.offset_s or 0)
    clock.on_advance(datetime(2026, 3, 2, 9), datetime(2026, 3, 2, 12))  # a.txt keeps the old offset
    day = datetime.fromtimestamp(first.stat().st_mtime, UTC)
    assert abs(day.timestamp() - (host_now + offset)) < 120
    assert day.date().isoformat() == datetime.fromtimestamp(host_now + offset, UTC).date().isoformat()
    assert DesktopClock(tmp_path / "off", datetime(2026, 3, 2, 9), library="").settle_files() == 0


def _shim_env(tmp_path: Path, library: str, offset: int) -> dict[str, str]:
    lib = filetimes.shim_library()
    if lib is None:
        pytest.skip("no C compiler to build the file dates' library")
    (tmp_path / "faketime").write_text(f"{offset:+d}\n")
    env = clock_env(library)
    env["LD_PRELOAD"] = f"{lib}:{library}"
    return {**env, "FAKETIME_TIMESTAMP_FILE": str(tmp_path / "faketime"), "PATH": "/usr/bin:/bin"}


def test_the_library_shows_a_fresh_file_on_the_task_day_and_a_seeded_one_as_it_is(tmp_path: Path) -> None:
    library = require_faketime()
    host = datetime.now(UTC)
    task = datetime(2026, 3, 2, 9, tzinfo=UTC)
    offset = int(task.timestamp() - host.timestamp())
    env = _shim_env(tmp_path, library, offset)
    seeded = tmp_path / "old.txt"
    seeded.write_text("old")
    own = _ns(datetime(2026, 2, 20, 10))
    os.utime(seeded, ns=(own, own))
    script = f"echo x > {tmp_path}/new.txt; ls -l --time-style=+%Y-%m-%d {tmp_path}/new.txt {seeded};"
    script += f" python3 -c 'import os,sys; print(int(os.stat(sys.argv[1]).st_mtime))' {tmp_path}/new.txt"
    out = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert " 2026-03-02 " in lines[0] and " 2026-02-20 " in lines[1], out
    seen = int(lines[2])
    on_disk = (tmp_path / "new.txt").stat().st_mtime_ns
    assert abs(seen - (on_disk // NS + offset)) <= 1  # shown moved; on disk still the host's
    filetimes.redate_tree(tmp_path, offset)
    again = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert int(again.splitlines()[2]) == seen  # after the harness moved it, the same date


def test_env_preloads_the_library_before_libfaketime_and_turns_its_stat_shift_off() -> None:
    env = clock_env("/x/libfaketimeMT.so.1")
    assert env["NO_FAKE_STAT"] == "1"
    first, *rest = env["LD_PRELOAD"].split(":")
    if filetimes.shim_library() is not None:
        assert first == f"/run/dw-clock/{filetimes.SHIM_NAME}" and rest == ["/x/libfaketimeMT.so.1"]
    else:
        assert first == "/x/libfaketimeMT.so.1"
