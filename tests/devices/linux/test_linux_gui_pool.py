"""Pooled GUI desktops: a device that adopts a spare is the device a cold start makes, runs give the same results, kill -9 leaks nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.desktop.pool import ENV_SIZE, SPARE_NICE
from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.devices.linux.gui import pool, shell, warm_office
from devicesworld.devices.ownership import reap
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.tasks.suites import load_suite
from tests.devices.desktop.desktop_harness import require_gui_stack
from tests.devices.desktop.test_desktop_clock import require_faketime
from tests.devices.linux.test_linux_gui_shell import require_shell

ROOT = Path(__file__).resolve().parents[3]
GUI = {"desktop": "hybrid"}  # its commands read the home (run_command)


def _require_pool() -> pool.SpareKey:
    require_gui_stack()
    key = pool.spare_key("linux-0", 1280, 800)
    if key is None:
        pytest.skip("GUI desktops are pooled only under a root harness with a sized home")
    return key


def _open(root: Path) -> LinuxDevice:
    kind = get_kind("linux")
    assert kind is not None
    root.mkdir(parents=True, exist_ok=True)
    for folder in (root, *root.parents):
        if folder.stat().st_uid == os.geteuid():
            folder.chmod(folder.stat().st_mode | 0o001)
    ctx = DeviceContext(task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "linux_0")
    dev = kind.factory("linux_0", GUI, ctx)
    assert isinstance(dev, LinuxDevice)
    return dev


def _listing(dev: LinuxDevice) -> list[str]:
    home = dev.sandbox.paths.home
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if "Drive" not in p.parts)


def _in_desktop(dev: LinuxDevice, command: str) -> Any:
    kind = get_kind("linux")
    assert kind is not None
    return dev.act("run_command", kind.actions_for(GUI)["run_command"].parse_args({"command": command}))


@pytest.fixture
def pool_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[pool.SpareKey]:
    key = _require_pool()
    monkeypatch.setenv(ENV_SIZE, "1")
    yield key
    pool.POOL.close_all()


def test_a_pooled_device_is_the_device_a_cold_start_makes(tmp_path: Path, pool_on: pool.SpareKey) -> None:
    taken = pool.POOL.taken
    cold = _open(tmp_path / "a")
    try:
        cold_obs = cold.observe()
        cold_files = _listing(cold)
        cold_pooled = cold.gui is not None and cold.gui.ready is not None
    finally:
        cold.close()
    assert pool.POOL.wait_ready(pool_on, 180), pool.POOL.failure(pool_on)
    warm = _open(tmp_path / "b")
    try:
        assert warm.gui is not None and warm.gui.ready is not None  # it adopted the spare
        spare_folder = warm.gui.ready.folder
        assert pool.POOL.taken == taken + 1 + cold_pooled
        (warm.drive.root / "shared.txt").write_text("on the drive\n")
        kind = get_kind("linux")
        assert kind is not None
        warm.setup(
            "write_text",
            kind.setup_ops["write_text"].parse_args({"path": "~/notes.txt", "content": "mine\n"}),
        )
        obs = warm.observe()
        assert sorted(obs) == sorted(cold_obs)
        assert obs["hostname"] == cold_obs["hostname"] == "linux-0"
        assert obs["screen"] == cold_obs["screen"]
        assert _listing(warm) == sorted([*cold_files, "notes.txt"])
        # the drive, bound in after the desktop started, and the task's file are seen inside the desktop
        seen = _in_desktop(warm, "cat ~/Drive/shared.txt ~/notes.txt; hostname")
        assert seen.ok and seen.data["stdout"] == "on the drive\nmine\nlinux-0\n", seen
    finally:
        warm.close()
    assert not spare_folder.exists()
    assert not (tmp_path / "b" / "linux_0").exists()


def test_a_warm_office_the_task_does_not_take_leaves_the_home_a_cold_start_leaves(
    tmp_path: Path, pool_on: pool.SpareKey
) -> None:
    cold = _open(tmp_path / "a")
    try:
        cold.observe()
        cold_files = _listing(cold)
    finally:
        cold.close()
    warm_office.note(pool_on, "writer")
    try:
        pool.POOL.close_all()
        assert pool.POOL.take(pool_on, pool.make_ready) is None  # starts a spare with Writer warm
        assert pool.POOL.wait_ready(pool_on, 300), pool.POOL.failure(pool_on)
        dev = _open(tmp_path / "b")
        try:
            assert dev.gui is not None and dev.gui.ready is not None and dev.gui.ready.warm is not None
            dev.observe()  # the task opened no office: the warm one is stopped with what it left
            assert _listing(dev) == cold_files  # its font cache too (~/.cache/fontconfig)
        finally:
            dev.close()
    finally:
        warm_office.note(pool_on, None)


def _clock_name(dev: LinuxDevice) -> str | None:
    """The panel clock's name (its date) in the device's first observation."""
    found = [
        e["name"]
        for e in dev.observe()["elements"]
        if e.get("app") == "xfce4-panel" and e["role"] == "toggle button" and e["name"].startswith("20")
    ]
    return found[0] if found else None


def test_a_spare_runs_niced_until_a_device_takes_it_and_its_panel_shows_the_task_clock(
    tmp_path: Path, pool_on: pool.SpareKey
) -> None:
    require_shell()
    require_faketime()
    first = _open(tmp_path / "a")  # starts the pool
    first.close()
    assert pool.POOL.wait_ready(pool_on, 180), pool.POOL.failure(pool_on)
    spare = pool.POOL._ready[pool_on][0]
    assert spare.desktop.proc is not None
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    # the spare (its desktop, panel and every process below) yields the CPU to the running episode
    assert os.getpriority(os.PRIO_PROCESS, spare.desktop.proc.pid) == min(mine + SPARE_NICE, 19)
    dev = _open(tmp_path / "b")
    try:
        assert dev.gui is not None and dev.gui.ready is spare  # it adopted the spare
        assert os.getpriority(os.PRIO_PROCESS, spare.desktop.proc.pid) == mine
        # its panel was started before the task's clock was written (on the host's date), and shows
        # the task's date in the first observation
        assert _clock_name(dev) == "2026-03-02"
        # an advance of the task's clock reaches the panel at once, not at its next minute
        dev.context.clock.advance(86400)
        assert shell.show_clock(dev.gui.session.desktop, dev.sandbox.paths.tmp, dev.clock.path)
        assert _clock_name(dev) == "2026-03-03"
    finally:
        dev.close()


def _results(tasks: list[Any], out: Path, size: str, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setenv(ENV_SIZE, size)
    outcome = execute_run(tasks, RunConfig(agent="oracle", source="t", workers=1), out)
    rows = []
    for r in sorted(outcome.results, key=lambda r: r.task_id):
        rows.append(
            {
                "task": r.task_id,
                "success": r.success,
                "termination": r.termination,
                "steps": r.steps,
                "error": r.error,
                "conditions": [
                    c.model_dump(include={"id", "passed", "detail", "initial_passed"}) for c in r.conditions
                ],
            }
        )
    return rows


def test_a_run_gives_the_same_results_with_and_without_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool_on: pool.SpareKey
) -> None:
    by_id = {t.id: t for t in load_suite("smoke-gui")}
    tasks = [
        by_id["smoke-gui-lx-editor-append-1"],
        by_id["smoke-gui-lx-web-register-1"],
        by_id["smoke-gui-lx-files-rename-1"],
    ]  # editor, browser, files
    cold = _results(tasks, tmp_path / "cold", "0", monkeypatch)
    taken = pool.POOL.taken
    warm = _results(tasks, tmp_path / "warm", "1", monkeypatch)
    assert pool.POOL.taken - taken >= 1  # later episodes adopted spares (through the runner's pre-warming)
    assert warm == cold
    assert all(row["success"] for row in warm), warm


KILLED = """
import json, os, signal, sys, time
from datetime import datetime
from pathlib import Path
from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.linux.gui import pool, shell, warm_office
root = Path(sys.argv[1])
ctx = DeviceContext(task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "linux_0")
dev = get_kind("linux").factory("linux_0", {"desktop": "gui"}, ctx)
dev.observe()
key = pool.spare_key("linux-0", 1280, 800)
assert pool.POOL.wait_ready(key, 180), pool.POOL.failure(key)
spare = pool.POOL._ready[key][0]
pids = [dev.gui.ready.desktop.proc.pid if dev.gui.ready else dev.gui._desktop.proc.pid,
        spare.desktop.proc.pid, spare.mount.pid]
print(json.dumps({"pids": pids, "folder": str(spare.folder)}), flush=True)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def test_kill_9_leaves_no_desktop_and_reap_removes_the_spare_folder(
    tmp_path: Path, pool_on: pool.SpareKey
) -> None:
    root = tmp_path / "killed"
    root.mkdir()
    for folder in (root, *root.parents):
        if folder.stat().st_uid == os.geteuid():
            folder.chmod(folder.stat().st_mode | 0o001)
    env = {**os.environ, "PYTHONPATH": str(ROOT), ENV_SIZE: "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED, str(root)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, "the child did not report its desktops"
        info = json.loads(line)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 120
    while not all(_gone(p) for p in info["pids"]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert all(_gone(p) for p in info["pids"]), [p for p in info["pids"] if not _gone(p)]
    folder = Path(info["folder"])
    assert folder.exists()  # left behind by the kill: its owner's lock is free now
    reaped = reap([folder.parent])
    assert any(r.path == str(folder) and r.removed for r in reaped)
    assert not folder.exists()


def test_validation_gives_the_same_report_with_and_without_the_pool(
    monkeypatch: pytest.MonkeyPatch, pool_on: pool.SpareKey
) -> None:
    from devicesworld.tasks.validate import validate_task

    task = {t.id: t for t in load_suite("smoke-gui")}["smoke-gui-lx-files-rename-1"]
    monkeypatch.setenv(ENV_SIZE, "0")
    cold = validate_task(task)
    taken = pool.POOL.taken
    monkeypatch.setenv(ENV_SIZE, "1")
    warm = validate_task(task)  # its first device starts the pool; the later gates' devices adopt spares
    assert pool.POOL.taken - taken >= 1
    assert warm == cold and warm.ok, warm.problems
