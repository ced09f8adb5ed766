"""Six GUI episodes through the runner in one process leave no extra thread, file descriptor or socket.

Harness level (the relay-level test is ``test_linux_gui_relay.py``): real GUI desktop
episodes run by :func:`execute_run` with the oracle agent — a launched app, a terminal
command, a check on the window — one after another in this process. A warm-up run first
lets what lives for the whole process start (the desktop pool's spare, its holder, the
shared browser's thread if any); the six episodes after it must end with the same threads
and the same open descriptors, sockets among them.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from devicesworld.devices.linux.gui import pool
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from tests.devices.desktop.desktop_harness import require_app, require_gui_stack


def _task(n: int) -> Task:
    dev = "linux_0"
    return Task.model_validate(
        {
            "id": f"gui-leak-{n}",
            "instruction": "Open the text editor and list the home folder.",
            "devices": [{"id": dev, "kind": "linux", "profile": {"desktop": "gui"}}],
            "setup": [{"device": dev, "op": "write_text", "args": {"path": "~/notes.txt", "content": "x\n"}}],
            "solution": [
                {"device": dev, "action": "launch_app", "args": {"app": "text_editor"}},
                {"device": dev, "action": "run_command", "args": {"command": "ls ~"}},
                {"device": None, "action": "finish"},
            ],
            "evaluation": {
                "conditions": [
                    {"id": "ed", "device": dev, "check": "window_title", "args": {"contains": "Mousepad"}}
                ]
            },
        }
    )


def _fds() -> Counter[str]:
    """Open descriptors of this process by kind (``socket``, ``pipe``, ``anon_inode``, ``file``)."""
    kinds: Counter[str] = Counter()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        kinds[target.split(":", 1)[0] if ":" in target else "file"] += 1
    return kinds


def _threads() -> Counter[str]:
    return Counter(t.name.rstrip("0123456789-_") for t in threading.enumerate())


def _settled(baseline: tuple[Counter[str], Counter[str]], timeout_s: float = 120.0) -> tuple[Any, Any]:
    """Threads and descriptors once background work (a pool refilling its spare) is done, or as they are."""
    end = time.monotonic() + timeout_s
    now = (_threads(), _fds())
    while time.monotonic() < end:
        key = pool.spare_key("linux-0", 1280, 800)
        if key is not None:
            pool.POOL.wait_ready(key, timeout_s=max(1.0, end - time.monotonic()))
        now = (_threads(), _fds())
        if now == baseline:
            break
        time.sleep(0.5)
    return now


def _stable(timeout_s: float = 60.0) -> tuple[Counter[str], Counter[str]]:
    """Threads and descriptors once two looks a second apart agree (background refills done)."""
    end = time.monotonic() + timeout_s
    last = (_threads(), _fds())
    while time.monotonic() < end:
        time.sleep(1.0)
        now = (_threads(), _fds())
        if now == last:
            return now
        last = now
    return last


def test_six_gui_episodes_in_one_process_leave_no_thread_or_socket(tmp_path: Path) -> None:
    require_gui_stack()
    require_app("mousepad")
    warm = execute_run([_task(0)], RunConfig(agent="oracle", source="t", workers=1), tmp_path / "warm")
    assert [r.success for r in warm.results] == [True], [r.error for r in warm.results]
    baseline = _stable()
    tasks = [_task(n) for n in range(1, 7)]
    outcome = execute_run(tasks, RunConfig(agent="oracle", source="t", workers=1), tmp_path / "six")
    assert [r.success for r in outcome.results] == [True] * 6, [r.error for r in outcome.results]
    assert list(outcome.worker_peak_rss_kb) == [os.getpid()]  # the episodes ran in this process
    threads, fds = _settled(baseline)
    assert threads == baseline[0], (threads, baseline[0])
    assert fds == baseline[1], (fds, baseline[1])
