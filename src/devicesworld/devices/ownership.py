"""Scratch folders that name their owner, so folders of a process that died can be removed.

Why: an episode's work folder (in ``/dev/shm`` or the temp folder) is removed when the
episode closes, and a process's shared ``/etc`` for sandboxes and its browser's temp
files at exit — none of which happens after ``kill -9`` or a machine-level OOM kill.
Left alone they fill RAM-backed ``/dev/shm`` run after run.

How: every such folder (``dw-*``) holds a lock file, :data:`LOCK_NAME`, with the owner's
pid, process start time and creation time (JSON), and the owner keeps an exclusive
``flock`` on it for as long as the folder is in use. The kernel drops the lock when
the process dies, however it dies, so "the lock can be taken" means "the owner is
gone" — no pid guessing, no clock, safe across pid reuse. :func:`reap` (run at the
start of every ``devicesworld run`` and by ``devicesworld clean``) removes each folder
whose lock it can take. Folders without a lock file are never touched: they may be
being created right now (the lock file appears already locked, by rename) or belong
to something else.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel

LOCK_NAME = ".dw-owner"
PREFIX = "dw-"
"""Only folders whose names start with this are considered by :func:`reap`."""

_HELD: dict[str, int] = {}
_HELD_LOCK = threading.Lock()


class Owner(BaseModel):
    """What a lock file says about the process that made the folder."""

    pid: int
    process_start: int | None = None
    """The owner's start time in clock ticks since boot (``/proc/<pid>/stat``), to tell pids apart."""
    created: float
    """When the folder was made (seconds since the epoch)."""


class Reaped(BaseModel):
    """A folder :func:`reap` removed (or would remove, in a dry run)."""

    path: str
    owner: Owner | None = None
    removed: bool


def process_start(pid: int) -> int | None:
    """The start time of ``pid`` in clock ticks since boot, or ``None`` off Linux."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat.rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def claim(folder: Path) -> None:
    """Make this process the owner of ``folder`` (freshly made, empty or not) until :func:`release`."""
    pending = folder / (LOCK_NAME + ".new")
    fd = os.open(pending, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        me = os.getpid()
        owner = Owner(pid=me, process_start=process_start(me), created=time.time())
        os.write(fd, owner.model_dump_json().encode("utf-8"))
        os.rename(pending, folder / LOCK_NAME)  # appears already locked: a reaper never sees it free
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            pending.unlink()
        raise
    with _HELD_LOCK:
        _HELD[str(folder)] = fd


def make_owned_dir(prefix: str, parent: str | None = None) -> Path:
    """A new folder ``parent/<prefix>XXXX`` owned by this process (see :func:`claim`)."""
    if not prefix.startswith(PREFIX):
        raise ValueError(f"owned folders are named {PREFIX}*; got the prefix {prefix!r}")
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    try:
        claim(folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def release(folder: Path) -> None:
    """Give up ownership of ``folder`` (after removing it, or to leave it to :func:`reap`)."""
    with _HELD_LOCK:
        fd = _HELD.pop(str(folder), None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def remove_owned(folder: Path) -> bool:
    """Remove an owned folder and release it; True when it is gone.

    The lock file goes last: a removal cut short (the process killed mid-way) leaves a
    folder that still names its owner, so the next :func:`reap` finishes the job.
    """
    _remove_contents_then_lock(folder)
    release(folder)
    return not folder.exists()


def _remove_contents_then_lock(folder: Path) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name == LOCK_NAME:
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
    shutil.rmtree(folder, ignore_errors=True)


def held() -> list[Path]:
    """The folders this process owns right now."""
    with _HELD_LOCK:
        return [Path(p) for p in _HELD]


def remove_all_held() -> None:
    """Remove every folder this process owns (a worker whose parent died, on its way out)."""
    for folder in held():
        remove_owned(folder)


def default_roots() -> list[Path]:
    """Where owned folders are made: the work-folder root and the system temp folder."""
    from devicesworld.devices.workspace import work_root

    roots = [Path(work_root() or tempfile.gettempdir()), Path(tempfile.gettempdir())]
    return list(dict.fromkeys(roots))


def reap(roots: Iterable[Path] | None = None, *, dry_run: bool = False) -> list[Reaped]:
    """Remove every ``dw-*`` folder under ``roots`` whose owner has died; returns what it found.

    Never raises for one folder's sake: a folder that cannot be inspected is skipped.
    """
    found: list[Reaped] = []
    me = os.getuid()
    for root in default_roots() if roots is None else roots:
        try:
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in entries:
            try:
                if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
                    continue
                if entry.stat(follow_symlinks=False).st_uid != me:
                    continue
            except OSError:
                continue
            reaped = _reap_one(Path(entry.path), dry_run=dry_run)
            if reaped is not None:
                found.append(reaped)
    return found


def _reap_one(folder: Path, *, dry_run: bool) -> Reaped | None:
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None  # no lock file: being made right now, or not ours to judge
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None  # held (also by this process: flock conflicts across open files): alive
        owner = _read_owner(fd)
        if dry_run:
            return Reaped(path=str(folder), owner=owner, removed=False)
        _remove_contents_then_lock(folder)
        return Reaped(path=str(folder), owner=owner, removed=not folder.exists())
    finally:
        os.close(fd)


def _read_owner(fd: int) -> Owner | None:
    try:
        raw = os.pread(fd, 4096, 0)
        return Owner.model_validate(json.loads(raw))
    except (OSError, ValueError):
        return None
