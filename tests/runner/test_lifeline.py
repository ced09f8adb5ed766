"""A process with a lifeline dies with its parent, taking its children and its folders along."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from devicesworld.runner import lifeline

DEADLINE_S = 120.0

# The middle process: arms a lifeline towards its parent, owns a folder, starts a
# grandchild in its own session (as sandboxes and browsers do), then waits forever.
MIDDLE = """
import os, subprocess, sys, time
from devicesworld.devices.ownership import make_owned_dir
from devicesworld.runner import lifeline
lifeline.install(int(sys.argv[1]), poll_s=float(sys.argv[3]))
if sys.argv[4] == "no-signal":
    lifeline.set_parent_death_signal(0)  # only the watchdog is left
folder = make_owned_dir("dw-life-", sys.argv[2])
child = subprocess.Popen(["sleep", "600"], start_new_session=True)
print(folder, child.pid, flush=True)
time.sleep(600)
"""

# The top process (the "driver"): starts the middle one, reports both pids, waits.
TOP = """
import subprocess, sys, os, time
mid = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid()), *sys.argv[2:]],
                       stdout=subprocess.PIPE, text=True)
print(mid.pid, mid.stdout.readline().strip(), flush=True)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def _poll(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up after {DEADLINE_S:g} s waiting until {what}")
        time.sleep(0.1)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize(("mode", "poll_s"), [("signal", "3600"), ("no-signal", "0.2")])
def test_killing_the_parent_kills_the_child_its_other_session_child_and_removes_its_folder(
    tmp_path: Path, mode: str, poll_s: str
) -> None:
    # "signal": only the parent-death signal can act (the watchdog sleeps an hour);
    # "no-signal": the signal is cleared, only the watchdog can act.
    top = subprocess.Popen(
        [sys.executable, "-c", TOP, MIDDLE, str(tmp_path), poll_s, mode], stdout=subprocess.PIPE, text=True
    )
    assert top.stdout is not None
    mid_pid, folder, grandchild = top.stdout.readline().split()
    try:
        assert Path(folder).is_dir() and not _gone(int(grandchild))
        top.send_signal(signal.SIGKILL)
        top.wait(timeout=60)
        _poll(lambda: _gone(int(mid_pid)), "the middle process died with its parent")
        _poll(lambda: _gone(int(grandchild)), "its child in another session died too")
        assert not Path(folder).exists()
    finally:
        for pid in (int(mid_pid), int(grandchild)):
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_descendants_finds_children_of_children() -> None:
    outer = subprocess.Popen(["bash", "-c", "sleep 600 & sleep 600 & wait"])
    try:
        _poll(lambda: len(lifeline.descendants(outer.pid)) >= 2, "bash started its two children")
        below_me = lifeline.descendants(os.getpid())
        assert outer.pid in below_me and set(lifeline.descendants(outer.pid)) <= set(below_me)
        killed = lifeline.kill_descendants(outer.pid)
        assert len(killed) >= 2
    finally:
        outer.kill()
        outer.wait(timeout=60)
