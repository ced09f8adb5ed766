"""Files written during a task are dated on the task's clock, not the host's.

libfaketime (:mod:`.clock`) moves a desktop's "now" to the task's time, but the kernel
dates every write by the host's clock: a file saved "today" in a task set on 2 March
would show 7 December in ``ls -l``, a file dialog or a check. Two parts keep the dates
on the task's clock, with one rule for a modification (or access) time: if the host's
clock gave it, its task date is that plus the clock's offset; any other date (a seeded
file's own, one already moved) is a task date as it stands. The host's dates are told
apart by where they fall. With the task's clock behind the host's (a task in March run in
December), every date after the task's now, up to the host's now, is the host's: no file
of the task can be dated in the task's future, and a date moved once falls before it.
With the task's clock ahead, the host's dates are the last ``W = min(1 day, offset / 2)``
of the host's clock (a minute ahead of either clock counts as now).

* **The harness moves the dates on disk** (:func:`redate_tree`), through
  :meth:`.clock.DesktopClock.settle_files`: after the setup, after every action, before
  a getter reads (checks and the collateral guard see task dates) and before the clock's
  offset changes. A walk of a home is a few thousand ``lstat`` calls (milliseconds).
* **The desktop's programs see them moved at once**: ``dwfiletimes.so``
  (``filetimes.c``), preloaded before libfaketime into every app and command, applies the
  same rule to what ``stat``/``statx`` return, so a date an app reads right after a save is
  the one it reads after the harness moved it. Without that, an editor or LibreOffice that
  compares a file's date before saving it again would find it "changed by another
  program". libfaketime's own file-date shift (applied to some programs' ``stat`` and not
  others') is turned off (``NO_FAKE_STAT``). Status-change and birth times, which no process
  can set, are shown moved by the offset too.

Why a rule and not a list of written files: it needs no state, so the library and the
harness agree without talking, a date moved once is never moved again, and a file the
setup dates itself (a world's) is left alone. It also moves what was written before the
task on the host's clock (a pooled desktop's template, copied days before) into the
task's past. It is wrong only for a file dated on purpose in the task's future (a task
behind the host's clock; the coherence gate's ``world_dates``/``file_dates`` keep seeded
files before the start) or within ``W`` of the host's now (a task ahead of it). Below two
minutes of offset nothing is moved.

The library is built from ``filetimes.c`` with the machine's C compiler, once per
source version, into the cache; without a compiler the desktops run without it (the
harness still moves the dates after each action).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from devicesworld.diskcache import cache_root

SOURCE = Path(__file__).with_name("filetimes.c")
SHIM_NAME = "dwfiletimes.so"
"""The library's name in a clock folder (bound read-only inside the sandbox)."""
FLAGS = ("-shared", "-fPIC", "-O2", "-Wall", "-s")
MIN_OFFSET_S = 120
"""Below this distance from the host's clock nothing is moved (the shim's ``MIN_OFFSET``)."""
MAX_WINDOW_S = 86_400
AHEAD_S = 60
_NS = 1_000_000_000


def window_s(offset_s: int) -> int:
    """How far back a date counts as the host's (``W``)."""
    return min(MAX_WINDOW_S, abs(offset_s) // 2)


def host_written(t_ns: int, now_ns: int, offset_s: int) -> bool:
    """``t_ns`` is a date the host's clock gave (the shim's ``host_written``, in whole seconds): with
    the task's clock behind the host's, a date after the task's now (no file of the task can be
    dated in its future) up to the host's now; with it ahead, one within the last ``W``."""
    if abs(offset_s) < MIN_OFFSET_S:
        return False
    sec, now = t_ns // _NS, now_ns // _NS
    if offset_s < 0:
        return now + offset_s + AHEAD_S < sec <= now + AHEAD_S
    return now - window_s(offset_s) <= sec <= now + AHEAD_S


def redate_tree(root: Path, offset_s: int, now_ns: int | None = None) -> int:
    """Move every host-given date under ``root`` (files, folders and links, never followed) by
    ``offset_s``; returns how many entries moved. Entries that vanish or refuse are skipped."""
    if abs(offset_s) < MIN_OFFSET_S:
        return 0
    now = time.time_ns() if now_ns is None else now_ns
    moved = 0
    stack = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                stack.append(entry.path)
            if _redate(entry.path, st, offset_s, now):
                moved += 1
    with contextlib.suppress(OSError):
        if _redate(str(root), os.lstat(root), offset_s, now):
            moved += 1
    return moved


def _redate(path: str, st: os.stat_result, offset_s: int, now_ns: int) -> bool:
    m_host = host_written(st.st_mtime_ns, now_ns, offset_s)
    a_host = host_written(st.st_atime_ns, now_ns, offset_s)
    if not m_host:
        return False  # an access alone (a read) is not worth a write; it moves with the next change
    shift = offset_s * _NS
    times = (st.st_atime_ns + shift if a_host else st.st_atime_ns, st.st_mtime_ns + shift)
    try:
        os.utime(path, ns=times, follow_symlinks=False)
    except (OSError, NotImplementedError):
        return False
    return True


# ---------------------------------------------------------------- the preloaded library
def source_hash() -> str:
    return hashlib.sha256(SOURCE.read_bytes() + " ".join(FLAGS).encode()).hexdigest()[:16]


@functools.cache
def shim_library() -> Path | None:
    """The built ``dwfiletimes.so`` (compiled on first use), or ``None`` without a C compiler."""
    return build(cache_root())


def build(cache: Path) -> Path | None:
    """Compile the library into ``cache`` unless it is there (concurrent builders rename atomically)."""
    folder = cache / "filetimes" / source_hash()
    lib = folder / SHIM_NAME
    if lib.is_file():
        return lib
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="dwfiletimes-", suffix=".so", dir=folder)
    os.close(fd)
    try:
        done = subprocess.run(
            [compiler, *FLAGS, "-o", tmp, str(SOURCE), "-ldl"],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        )
        if done.returncode != 0:
            return None
        Path(tmp).chmod(0o755)
        os.replace(tmp, lib)
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return lib


def install(folder: Path) -> bool:
    """Put the library into a clock folder (bound read-only into the sandbox); ``False`` without one."""
    lib = shim_library()
    if lib is None:
        return False
    target = folder / SHIM_NAME
    if not target.is_file():
        tmp = folder / f".{SHIM_NAME}.tmp"
        shutil.copyfile(lib, tmp)
        tmp.chmod(0o755)
        os.replace(tmp, target)
    return True
