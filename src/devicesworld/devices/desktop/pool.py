"""A per-process pool of ready desktops, started in the background, that a reset adopts.

Why: starting a desktop (bubblewrap, Xvfb, openbox, the buses) costs 0.3 s on a quiet
machine and over a second under load, and it is on the path of every GUI reset. The
pool keeps ``size`` spare desktops per key (a kind's description of what a device
needs: screen size, host name, home size ...) ready: a device being created takes one
(:meth:`WarmPool.take`) and the pool starts the next one at once, in a background
thread, while the episode runs. It is kind-agnostic: each kind says how to make a spare
(``make``) and what a spare is (anything with ``alive()`` and ``close()``).

* Lazily: nothing starts until a device of a kind asks for the first time (that device
  starts its own desktop cold, as without a pool); only the keys asked for are filled.
* Bounded: at most ``size`` spares per key (``DEVICESWORLD_DESKTOP_POOL``, default 1;
  ``0`` turns the pool off), plus the one being started.
* A spare that died while waiting is closed and skipped; a key whose spare could not be
  started is not tried again in this process (the device's cold start reports why).
* Spares are closed at exit; on ``kill -9`` each dies with the process (desktops are
  spawned with ``--die-with-parent`` from the one spawner thread, a kind's other
  processes by its own rules) and its folders are owned (:mod:`..ownership`) and reaped.
* A forked child never takes its parent's spares.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from devicesworld.devices.desktop.client import Desktop, DesktopConfig
from devicesworld.devices.homefs import HomeMount
from devicesworld.devices.ownership import remove_owned

ENV_SIZE = "DEVICESWORLD_DESKTOP_POOL"
DEFAULT_SIZE = 1
MAX_SIZE = 4
SPARE_NICE = 10
"""How much lower than the pooling process a spare's processes run until a device takes it
(:func:`spare_wrapper`, :meth:`ReadySpare.claim`): a spare is started the moment the last one is
taken, and on two cores its desktop and warm apps (LibreOffice's start is seconds of CPU) took the
CPU from the reset that had just taken the last one, measured; niced, it has what the episode
leaves over."""


class Spare(Protocol):
    def alive(self) -> bool: ...

    def close(self) -> None: ...


K = TypeVar("K", bound=Hashable)
S = TypeVar("S", bound=Spare)


def pool_size() -> int:
    """Spares kept per key, from ``DEVICESWORLD_DESKTOP_POOL`` (default 1, 0 = off)."""
    raw = os.environ.get(ENV_SIZE, "").strip()
    if not raw:
        return DEFAULT_SIZE
    try:
        size = int(raw)
    except ValueError:
        size = -1
    if not 0 <= size <= MAX_SIZE:
        raise ValueError(
            f"{ENV_SIZE} must be a whole number from 0 to {MAX_SIZE} (0 turns the pool off), not {raw!r}"
        )
    return size


class WarmPool(Generic[K, S]):
    """Spare desktops per key; see the module docstring."""

    def __init__(self, name: str, size: Callable[[], int] = pool_size) -> None:
        self.name = name
        self._size = size
        self._cond = threading.Condition()
        self._owner = os.getpid()
        self._ready: dict[K, list[S]] = {}
        self._filling: set[K] = set()
        self._failed: dict[K, str] = {}
        self._generation = 0
        """Bumped by :meth:`close_all`: a spare started before it is closed, never handed out."""
        self._exit_hook = False
        self.taken = 0
        """Spares handed out (for benchmarks and tests)."""

    # ------------------------------------------------------------------ use
    def take(
        self,
        key: K,
        make: Callable[[K], S],
        *,
        wait_s: float = 120.0,
        hurry: Callable[[K], None] | None = None,
    ) -> S | None:
        """A ready spare for ``key`` (waiting, up to ``wait_s``, for one being started), or ``None``.

        Either way a refill for ``key`` starts in the background. ``None`` when the pool
        is off, nothing was started for ``key`` yet, or starting one failed. ``hurry(key)`` is
        called once before waiting for a spare being started (a niced one: see
        :data:`SPARE_NICE`, which would otherwise get only the CPU the waiting device leaves).
        """
        size = self._size()
        stale: list[S] = []
        got: S | None = None
        with self._cond:
            self._forked_check()
            if size <= 0:
                return None
            end = time.monotonic() + wait_s
            while True:
                ready = self._ready.get(key, [])
                while ready and got is None:
                    candidate = ready.pop(0)
                    if candidate.alive():
                        got = candidate
                    else:
                        stale.append(candidate)
                if got is not None:
                    break
                if stale:  # a spare died: its replacement is ready no later than a cold start
                    self._refill(key, make, size)
                if key not in self._filling:
                    break
                left = end - time.monotonic()
                if left <= 0:
                    break
                if hurry is not None:
                    hurry(key)
                    hurry = None
                self._cond.wait(left)  # one is being started: it is ready sooner than a cold start
            if got is not None:
                self.taken += 1
            self._refill(key, make, size)
        for s in stale:
            with contextlib.suppress(Exception):
                s.close()
        return got

    def ready_count(self, key: K) -> int:
        with self._cond:
            return len(self._ready.get(key, []))

    def wait_ready(self, key: K, timeout_s: float = 120.0) -> bool:
        """Block until a spare for ``key`` is ready (True) or none is being started (False)."""
        end = time.monotonic() + timeout_s
        with self._cond:
            while not self._ready.get(key):
                left = end - time.monotonic()
                if key not in self._filling or left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def failure(self, key: K) -> str | None:
        """Why a spare for ``key`` could not be started, if it could not."""
        with self._cond:
            return self._failed.get(key)

    # ------------------------------------------------------------------ filling
    def _forked_check(self) -> None:
        if os.getpid() != self._owner:  # inherited by fork: the spares are the parent's
            self._owner = os.getpid()
            self._ready, self._filling, self._failed = {}, set(), {}
            self._exit_hook = False

    def _refill(self, key: K, make: Callable[[K], S], size: int) -> None:
        if key in self._filling or key in self._failed or len(self._ready.get(key, [])) >= size:
            return
        self._filling.add(key)
        if not self._exit_hook:
            atexit.register(self.close_all)
            self._exit_hook = True
        threading.Thread(
            target=self._fill,
            args=(key, make, size, self._generation),
            name=f"{self.name}-pool",
            daemon=True,
        ).start()

    def _fill(self, key: K, make: Callable[[K], S], size: int, generation: int) -> None:
        try:
            while True:
                with self._cond:
                    if (
                        len(self._ready.get(key, [])) >= size
                        or os.getpid() != self._owner
                        or generation != self._generation
                    ):
                        return
                try:
                    spare = make(key)
                except Exception as exc:
                    with self._cond:
                        self._failed[key] = f"{type(exc).__name__}: {exc}"
                    return
                with self._cond:
                    if os.getpid() != self._owner or generation != self._generation:
                        closing = True  # the pool was closed meanwhile (and maybe filled again since)
                    else:
                        closing = False
                        self._ready.setdefault(key, []).append(spare)
                        self._cond.notify_all()
                if closing:
                    spare.close()
                    return
        finally:
            with self._cond:
                if generation == self._generation:  # else the key's filling is a newer thread's
                    self._filling.discard(key)
                self._cond.notify_all()

    def close_all(self) -> None:
        """Close every ready spare (at exit; a spare being started is closed when it is ready)."""
        with self._cond:
            if os.getpid() != self._owner:
                return
            spares = [s for ss in self._ready.values() for s in ss]
            self._ready.clear()
            self._filling.clear()
            self._generation += 1
            self._cond.notify_all()
        for s in spares:
            with contextlib.suppress(Exception):
                s.close()


def spare_wrapper() -> list[str]:
    """The argv prefix that starts a spare's desktop :data:`SPARE_NICE` lower than this process."""
    found = shutil.which("nice")
    return [found, "-n", str(SPARE_NICE)] if found else []


def renice_tree(root: int, nice: int) -> int:
    """Set the nice value of every thread of ``root`` and of every process below it (read from
    ``/proc``); how many processes."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    done = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:  # a nice value is per thread on Linux: every thread of the process (LibreOffice has dozens)
            threads = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            threads = [pid]
        for tid in threads:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, tid, nice)
        done += 1
    return done


class ReadySpare:
    """A started spare of a desktop kind: its owned folder, its sized home and the desktop on it.

    The kinds' spares (Linux GUI, Windows) differ in how they fill the home and warm the
    desktop, not in how a spare is held or let go, which lives here.
    """

    def __init__(self, folder: Path, mount: HomeMount, desktop: Desktop) -> None:
        self.folder = folder
        self.mount = mount
        self.desktop = desktop

    def alive(self) -> bool:
        return self.mount.alive() and self.desktop.alive()

    def claim(self) -> None:
        """A device takes the spare: its processes run at this process's priority again (a spare is
        started :data:`SPARE_NICE` lower, :func:`spare_wrapper`)."""
        proc = self.desktop.proc
        if proc is not None:
            renice_tree(proc.pid, os.getpriority(os.PRIO_PROCESS, 0))

    def close(self) -> None:
        """Stop the desktop, let the home's holder go (the tmpfs with it), remove the folder."""
        with contextlib.suppress(Exception):
            self.desktop.close()
        self.mount.close(wait=True)
        remove_owned(self.folder)


@contextlib.contextmanager
def discarded_on_failure(folder: Path, mount: HomeMount) -> Iterator[None]:
    """While a spare is being made: on any failure let its home go and remove its folder, then re-raise."""
    try:
        yield
    except BaseException:
        mount.close(wait=True)
        remove_owned(folder)
        raise


def start_desktop(cfg: DesktopConfig, warm: Callable[[Desktop], None]) -> Desktop:
    """A started desktop, warmed by ``warm``; closed again if either fails."""
    desk = Desktop(cfg)
    try:
        desk.start()
        warm(desk)
    except BaseException:
        desk.close()
        raise
    return desk
