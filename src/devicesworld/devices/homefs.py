"""A sized tmpfs for a device's home and ``/tmp`` that outlives each command's sandbox.

Kind-agnostic (the ``linux`` kind's sandbox uses it for every device; the desktop pools
of the ``linux`` and ``windows`` kinds for their spares, as a shared mount a task's
drive can be bound into after a desktop started).

Why: commands run in a fresh ``bwrap`` each, so a ``bwrap --size … --tmpfs`` would vanish
after every command. Instead one small *holder* process per device owns a user and
mount namespace in which a tmpfs of ``Limits.home_mb`` is mounted over the device's
``store/`` folder (holding ``home/`` and ``tmp/``); each command's ``bwrap`` is started
inside that namespace with ``nsenter`` and binds those folders as usual, and the
harness reaches them through ``/proc/<holder>/root/…`` (always via
:mod:`devicesworld.devices.safefs`). The kernel then refuses any write past the size
(``ENOSPC``), whoever writes. The holder waits on a pipe: when the device closes — or
the harness dies, even by ``kill -9`` — the pipe closes, the holder exits, and the
tmpfs is gone with its namespace; nothing is left in RAM.

It needs a root harness (it writes the namespace's uid map so that both the harness,
root, and the sandbox's unprivileged host user exist in it) and ``unshare``/``nsenter``
from util-linux. Where that is not available :func:`start_home` returns ``None`` with
the reason, and the sandbox falls back to measuring the home while a command runs.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from devicesworld.devices.ownership import make_owned_dir, remove_owned

START_TIMEOUT_S = 20.0


@dataclass
class HomeMount:
    """A running holder: the namespace in which ``store`` is a sized tmpfs."""

    proc: subprocess.Popen[bytes]
    store: Path
    size: int
    owns_store: bool = False
    """True for a pooled holder: its mount point folder is removed when it closes."""

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def view(self) -> Path:
        """``store`` as the harness reaches it (inside the holder's mount namespace)."""
        return Path(f"/proc/{self.pid}/root{self.store}")

    def nsenter(self, ids: tuple[int, int]) -> list[str]:
        """The argv prefix that runs a program in the holder's namespaces as host user ``ids``."""
        tool = shutil.which("nsenter") or "nsenter"
        return [
            tool,
            f"--target={self.pid}",
            "--user",
            "--mount",
            "--preserve-credentials",
            f"--setuid={ids[0]}",
            f"--setgid={ids[1]}",
            "--",
        ]

    def bind(self, source: Path, rel: str) -> None:
        """Bind host folder ``source`` over ``store/rel`` inside the holder's namespace.

        For a holder started with ``shared=True`` the new mount propagates into sandboxes
        already running over the store (their binds are slaves of it): this is how a
        pre-started desktop is given a task's ``~/Drive`` after it started.
        """
        tool = shutil.which("nsenter") or "nsenter"
        mount = shutil.which("mount") or "/bin/mount"
        done = subprocess.run(
            [
                tool,
                f"--target={self.pid}",
                "--user",
                "--mount",
                "--",
                mount,
                "--bind",
                str(source),
                str(self.store / rel),
            ],
            capture_output=True,
            text=True,
            timeout=30,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        )
        if done.returncode != 0:
            raise OSError(f"cannot bind {source} into the home: {done.stderr.strip()[-300:]}")

    def free_bytes(self) -> int | None:
        try:
            st = os.statvfs(self.view)
        except OSError:
            return None
        return st.f_bavail * st.f_frsize

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, *, wait: bool = False) -> None:
        """Let the holder go: it exits when its pipe closes, and the tmpfs with it.

        Not waited for by default (a device's close stays cheap); :mod:`subprocess`
        reaps the exited holder later.
        """
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if wait:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        else:
            self.proc.poll()
        if self.owns_store:
            with contextlib.suppress(OSError):
                self.store.rmdir()


_PROBLEM: list[str | None] = []


def start_home(
    store: Path, size: int, ids: tuple[int, int] | None, *, shared: bool = False
) -> tuple[HomeMount | None, str | None]:
    """Start a holder with a ``size``-byte tmpfs on ``store`` (``home/``, ``home/Drive``, ``tmp/``
    owned by ``ids``); ``(None, reason)`` when this host cannot.

    ``shared`` makes the tmpfs a shared mount in the holder's namespace, so a later
    :meth:`HomeMount.bind` reaches sandboxes already running over it.
    """
    if _PROBLEM and _PROBLEM[0] is not None:
        return None, _PROBLEM[0]
    if os.geteuid() != 0 or ids is None:
        return None, "a sized home needs a root harness (the namespace maps two users)"
    unshare, nsenter = shutil.which("unshare"), shutil.which("nsenter")
    if unshare is None or nsenter is None:
        return None, "util-linux unshare/nsenter are not installed"
    store.mkdir(parents=True, exist_ok=True)
    share = f"mount --make-shared {store} || exit 1\n" if shared else ""
    script = f"read go || exit 1\nmount -t tmpfs -o size={size},mode=0755 dw-home {store} || exit 1\n{share}echo ready\nread _\n"
    proc = subprocess.Popen(
        [unshare, "--user", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd="/",
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
    )
    try:
        problem = _map_and_wait(proc, ids)
    except OSError as exc:
        problem = f"cannot set up the home's namespace: {exc.strerror or exc}"
    if problem is not None:
        with contextlib.suppress(OSError):
            proc.kill()
        proc.wait()
        if not _PROBLEM:
            _PROBLEM.append(problem)
        return None, problem
    if not _PROBLEM:
        _PROBLEM.append(None)
    mount = HomeMount(proc, store, size)
    for rel in ("home", "home/Drive", "tmp"):  # made here, not by more processes in the holder
        folder = mount.view / rel
        folder.mkdir()
        os.chown(folder, *ids)
    return mount, None


def _map_and_wait(proc: subprocess.Popen[bytes], ids: tuple[int, int]) -> str | None:
    mine = os.readlink("/proc/self/ns/user")
    deadline = time.monotonic() + START_TIMEOUT_S
    while os.readlink(f"/proc/{proc.pid}/ns/user") == mine:
        if proc.poll() is not None or time.monotonic() > deadline:
            return "unshare could not create a user namespace"
        time.sleep(0.001)
    uid, gid = ids
    Path(f"/proc/{proc.pid}/uid_map").write_text(f"0 0 1\n{uid} {uid} 1\n")
    Path(f"/proc/{proc.pid}/gid_map").write_text(f"0 0 1\n{gid} {gid} 1\n" if gid != 0 else "0 0 1\n")
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"go\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if line.strip() != b"ready":
        err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
        return f"cannot mount the home's tmpfs: {err or 'no answer'}"
    return None


# ---------------------------------------------------------------------------- the pool
POOL_SIZE = 1
"""Ready holders kept per (size, user): a device takes one instead of starting it on its reset."""


class _Pool:
    """Holders started in the background, each with its own empty mount point folder.

    The tmpfs is private to its holder's namespace, so where it is mounted does not
    matter; pooled holders mount over folders of one temporary folder of this process.
    A forked child never takes its parent's holders (they would share a home).
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.owner = os.getpid()
        self.ready: dict[tuple[int, tuple[int, int]], list[HomeMount]] = {}
        self.filling: set[tuple[int, tuple[int, int]]] = set()
        self.folder: Path | None = None
        self.count = 0

    def _slot(self) -> Path:
        if self.folder is None:
            # owned (a lock file naming this process), so a run after a kill -9 reaps it
            self.folder = make_owned_dir("dw-homes-")
            self.folder.chmod(0o755)
            atexit.register(self.close_all)
        self.count += 1
        return self.folder / f"slot-{self.count}"

    def take(self, size: int, ids: tuple[int, int]) -> HomeMount | None:
        key = (size, ids)
        with self.lock:
            if os.getpid() != self.owner:  # inherited by fork: not ours to use
                self.__init__()  # type: ignore[misc]
            ready = self.ready.get(key, [])
            mount = None
            while ready and mount is None:
                candidate = ready.pop()
                if candidate.alive():
                    mount = candidate
            self._refill(key)
        return mount

    def _refill(self, key: tuple[int, tuple[int, int]]) -> None:
        if key in self.filling or _PROBLEM[:1] not in ([], [None]):
            return
        self.filling.add(key)
        threading.Thread(target=self._fill, args=(key,), name="dw-home-pool", daemon=True).start()

    def _fill(self, key: tuple[int, tuple[int, int]]) -> None:
        size, ids = key
        try:
            while True:
                with self.lock:
                    if len(self.ready.get(key, [])) >= POOL_SIZE or os.getpid() != self.owner:
                        return
                    slot = self._slot()
                mount, _ = start_home(slot, size, ids)
                if mount is None:
                    return
                mount.owns_store = True
                with self.lock:
                    self.ready.setdefault(key, []).append(mount)
        finally:
            with self.lock:
                self.filling.discard(key)

    def close_all(self) -> None:
        if os.getpid() != self.owner:
            return
        with self.lock:
            mounts = [m for ms in self.ready.values() for m in ms]
            self.ready.clear()
        for m in mounts:
            m.close(wait=True)
        if self.folder is not None:
            remove_owned(self.folder)


_POOL = _Pool()


def take_home(store: Path, size: int, ids: tuple[int, int] | None) -> tuple[HomeMount | None, str | None]:
    """A sized home: a ready one from the pool, else one started now on ``store``.

    Either way the pool refills in the background, so the next device's reset does not
    wait for a holder to start.
    """
    if ids is not None and os.geteuid() == 0:
        mount = _POOL.take(size, ids)
        if mount is not None:
            return mount, None
    return start_home(store, size, ids)
