"""A worker process dies with the process that started it, and takes its own children along.

Why: ``kill -9`` of ``devicesworld run --workers N`` gives the driver no chance to stop
its workers; they would go on running their episodes (and their sandboxes and
browsers) with nobody to read the results. Two mechanisms, because each alone has a gap:

* **Parent-death signal.** On Linux, ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` makes the
  kernel signal the worker the moment its parent dies. Python runs the handler in the
  main thread between bytecodes, so an episode stuck in C code would delay it. (The
  signal is tied to the parent *thread* that started the worker; the pool starts
  workers from the thread that runs the whole run, so that is the run's lifetime.)
* **Watchdog.** A daemon thread checks every :data:`POLL_S` seconds whether the
  parent pid changed (a dead parent's children are re-parented); it works off Linux
  and whatever the main thread is doing.

Either one calls :func:`die`: kill every descendant (sandbox commands, the Playwright
driver and its browser — found through ``/proc``, so also those in their own
sessions), remove the work folders this process owns, and exit at once. bubblewrap
sandboxes additionally run with ``--die-with-parent``.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType

from devicesworld.devices.ownership import remove_all_held

PR_SET_PDEATHSIG = 1
POLL_S = 0.5
EXIT_STATUS = 70
"""The status a worker exits with when its parent died (``EX_SOFTWARE``)."""

_DYING = threading.Lock()


def install(parent_pid: int, *, poll_s: float = POLL_S) -> None:
    """Make this process die (with its descendants) when ``parent_pid`` is no longer its parent.

    Call it first thing in a freshly started worker, from its main thread.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_signal)
    set_parent_death_signal(signal.SIGTERM)
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        die()
    watchdog = threading.Thread(target=_watch, args=(parent_pid, poll_s), name="dw-lifeline", daemon=True)
    watchdog.start()


def set_parent_death_signal(sig: int) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _on_signal(signum: int, frame: FrameType | None) -> None:
    # Not inline: the main thread may hold a lock that die() needs (the owned-folder list).
    threading.Thread(target=die, name="dw-lifeline-exit", daemon=True).start()


def _watch(parent_pid: int, poll_s: float) -> None:
    while True:
        time.sleep(poll_s)
        if os.getppid() != parent_pid:
            die()


def die() -> None:
    """Kill every descendant, remove this process's work folders and exit now (never returns)."""
    if not _DYING.acquire(blocking=False):
        while True:  # another thread is already doing it
            time.sleep(1)
    try:
        kill_descendants()
        remove_all_held()
    finally:
        os._exit(EXIT_STATUS)


def kill_descendants(root: int | None = None) -> list[int]:
    """SIGKILL every process below ``root`` (default: this one); returns the pids signalled.

    Walks ``/proc`` twice, so a child forked while the first round was being killed is
    caught too; a process already gone is skipped.
    """
    root = os.getpid() if root is None else root
    killed: list[int] = []
    for _ in range(2):
        found = descendants(root)
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        if not found:
            break
    return killed


def descendants(root: int) -> list[int]:
    """Pids of every process below ``root``, from ``/proc`` (empty where there is no ``/proc``)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(name))
    out: list[int] = []
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            out.append(child)
            stack.append(child)
    return out
