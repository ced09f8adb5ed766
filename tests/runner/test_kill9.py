"""``kill -9`` of ``devicesworld run --workers 2`` mid-episode leaves no process and no folder.

The run has a Linux episode (bubblewrap sandbox running ``sleep``, and the browser
when Chromium is installed) and a toy episode whose agent sleeps. Once both are under
way the driver is killed with SIGKILL; its workers must die on their own (parent-death
signal / watchdog) and take their sandboxes and browsers along, and after the next
``devicesworld clean`` no work folder may be left. Every wait polls with a generous
deadline, so a busy machine makes the test slower, never wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from devicesworld.devices.linux.browser.chromium import chromium_path
from devicesworld.devices.linux.sandbox import bwrap_usable
from devicesworld.runner.lifeline import descendants
from devicesworld.tasks.suites import load_suite
from tests.toykind import toy_task

ROOT = Path(__file__).resolve().parents[2]
"""The repository root: on ``PYTHONPATH`` a child process imports the ``tests`` package."""
DEADLINE_S = 180.0


def _require_bwrap() -> None:
    if bwrap_usable():
        return
    if os.environ.get("DEVICESWORLD_REQUIRE_SYSTEM") == "1":
        pytest.fail("a working bubblewrap (bwrap) is required (DEVICESWORLD_REQUIRE_SYSTEM=1) but missing")
    pytest.skip("a working bubblewrap (bwrap) is not installed")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, start time) of a process, or None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[19])


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _run_processes(tag: str, driver: int) -> dict[int, int]:
    """Processes of the run: the driver's descendants and whatever carries ``tag`` (pid -> start)."""
    pids = set(descendants(driver))
    needle = tag.encode()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                blob = Path(f"/proc/{name}/cmdline").read_bytes() + Path(f"/proc/{name}/environ").read_bytes()
            except OSError:
                continue
            if needle in blob:
                pids.add(int(name))
    found = {pid: _stat(pid) for pid in pids}
    return {pid: st[1] for pid, st in found.items() if st is not None}


def _still_alive(processes: dict[int, int]) -> list[str]:
    """The processes of ``processes`` that still run (a zombie nobody reaps has ended)."""
    alive = []
    for pid, start in processes.items():
        st = _stat(pid)
        if st is not None and st[1] == start and st[0] not in ("Z", "X"):
            alive.append(f"{pid}: {_cmdline(pid)[:120]}")
    return alive


def _poll(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up after {DEADLINE_S:g} s waiting until {what}")
        time.sleep(0.2)


def _owned_folders(*roots: Path) -> list[str]:
    return sorted(
        str(p) for root in roots if root.is_dir() for p in root.iterdir() if p.name.startswith("dw-")
    )


def test_kill_9_of_a_two_worker_run_leaves_no_process_and_no_folder(tmp_path: Path) -> None:
    _require_bwrap()
    tag = f"dwtag-{uuid.uuid4().hex}"
    work, markers = tmp_path / "work", tmp_path / "markers"
    for folder in (work, markers):
        folder.mkdir()
    # A short TMPDIR of its own: Chromium's sockets need a short path, and the check
    # below must not see other processes' folders.
    tmp = Path(tempfile.mkdtemp(prefix="dwk", dir="/tmp" if Path("/tmp").is_dir() else None))
    try:
        _kill_and_check(tmp_path, tag, work, tmp, markers)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _kill_and_check(tmp_path: Path, tag: str, work: Path, tmp: Path, markers: Path) -> None:
    linux = load_suite("smoke")
    linux_doc = next(t for t in linux if t.device_combo == "linux").model_dump(mode="json")
    linux_doc["id"] = "lx-linger"
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(json.dumps(linux_doc) + "\n" + json.dumps(toy_task(id="toy-linger")) + "\n")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DEVICESWORLD_PLUGINS": "tests.toykind",
        "DEVICESWORLD_TMPDIR": str(work),
        "TMPDIR": str(tmp),
        "DW_LINGER_MARKERS": str(markers),
        "DW_LINGER_TAG": tag,
    }
    cmd = [sys.executable, "-m", "devicesworld", "run", "--tasks", str(tasks_file), "--workers", "2"]
    cmd += ["--agent", "tests.runner.scale_helpers:LingerAgent", "--out", str(tmp_path / "run")]
    driver = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _poll(
            lambda: (
                {p.name for p in markers.iterdir()} == {"lx-linger", "toy-linger"}
                or driver.poll() is not None
            ),
            "both episodes are under way",
        )
        assert driver.poll() is None, driver.stderr.read().decode() if driver.stderr else ""
        _poll(
            lambda: any("sleep 290" in _cmdline(pid) for pid in _run_processes(tag, driver.pid)),
            "the sandbox runs the long command",
        )
        run = _run_processes(tag, driver.pid)
        workers = [pid for pid in run if "spawn_main" in _cmdline(pid)]
        assert len(workers) == 2, [_cmdline(pid)[:100] for pid in run]
        if chromium_path() is not None:
            assert any("chromium" in _cmdline(pid) for pid in run), "the Linux episode's browser runs"
        assert _owned_folders(work), "the running episodes have work folders"
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=60)
        _poll(lambda: not _still_alive(run), "no process of the killed run is left")
        # a process started while the kill landed (a home pool's holder) must also go
        _poll(lambda: not _still_alive(_run_processes(tag, driver.pid)), "no late process of the run is left")
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    # A dying worker may still be removing its own folders (holding their locks) when the
    # first clean runs; cleaning again until none is left (or the deadline) is the contract.
    outputs: list[str] = []

    def cleaned() -> bool:
        clean = subprocess.run(
            [sys.executable, "-m", "devicesworld", "clean"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert clean.returncode == 0, clean.stderr
        outputs.append(clean.stdout)
        return _owned_folders(work, tmp) == []

    _poll(cleaned, "no folder of the killed run is left after cleaning")
    assert _owned_folders(work, tmp) == [], outputs[-1]
