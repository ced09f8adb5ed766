"""Content hashes of a folder's files for the collateral guard, re-read only when a file changed.

A lived-in device holds hundreds of files, and the guard snapshots them after setup
and again at evaluation: reading and hashing every file each time was most of a
world's reset. A file's hash is kept with its inode, size, modification and
status-change times, and it is trusted only for a file last modified well before it
was hashed (``TRUST_AFTER_NS``): any write moves the modification time to "now", past
the hash, so a rewritten file is re-read even when its size and (coarse-grained)
timestamps would not tell; setting the modification time back (``touch -d``) moves the
status-change time, which no process can set. Files a task's setup just wrote are
therefore re-read at every snapshot; files with older times (a persona world's, written
with their own dates) are read once. Whoever writes a file whose content it knows (a
world materialiser) can :func:`remember` its hash, and the first snapshot does not
read it either.

The walk uses ``os.scandir`` and never follows a link.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections import OrderedDict
from pathlib import Path

Key = tuple[int, int, int, int]
Entry = tuple[Key, str, int]
"""(inode, size, mtime, ctime), hash, when it was hashed (ns)."""
_CACHES: OrderedDict[str, dict[str, Entry]] = OrderedDict()
TRUST_AFTER_NS = 2_000_000_000
"""A cached hash counts only for a file modified at least this long before it was hashed."""
MAX_ROOTS = 256
"""Folders whose hashes are kept (the least recently used go first)."""


def content_hash(data: bytes) -> str:
    """The guard's hash of a file's bytes (first 16 hex digits of SHA-256)."""
    return hashlib.sha256(data).hexdigest()[:16]


def _key(st: os.stat_result) -> Key:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _cache(root: Path) -> dict[str, Entry]:
    name = str(root)
    found = _CACHES.get(name)
    if found is None:
        found = _CACHES[name] = {}
        while len(_CACHES) > MAX_ROOTS:
            _CACHES.popitem(last=False)
    else:
        _CACHES.move_to_end(name)
    return found


def remember(root: Path, rel: str, data: bytes) -> None:
    """Record the hash of a file just written under ``root`` (``rel`` with ``/``), from its bytes."""
    try:
        st = os.lstat(root / rel)
    except OSError:
        return
    _cache(root)[rel] = (_key(st), content_hash(data), time.time_ns())


def remember_stat(root: Path, rel: str, st: os.stat_result, digest: str) -> None:
    """:func:`remember` for a writer that has the file's status and hash already (no extra system call)."""
    _cache(root)[rel] = (_key(st), digest, time.time_ns())


def forget(root: Path) -> None:
    """Drop a folder's hashes (its device closed)."""
    _CACHES.pop(str(root), None)


def hash_files(root: Path, prefix: str, out: dict[str, str], skip: str | None = None) -> None:
    """``out[prefix/rel] = hash`` for every regular file under ``root``, in sorted order.

    ``skip`` is a top-level entry name left out (a mount point seen elsewhere).
    """
    cache = _cache(root)
    found: dict[str, str] = {}
    seen: set[str] = set()
    stack: list[tuple[str, str]] = [(str(root), "")]
    while stack:
        folder, rel_folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            rel = f"{rel_folder}{entry.name}"
            if not rel_folder and entry.name == skip:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                stack.append((entry.path, rel + "/"))
            elif stat.S_ISREG(st.st_mode):
                key = _key(st)
                known = cache.get(rel)
                if known is not None and known[0] == key and st.st_mtime_ns < known[2] - TRUST_AFTER_NS:
                    digest = known[1]
                else:
                    try:
                        with open(entry.path, "rb") as fh:
                            digest = content_hash(fh.read())
                    except OSError:
                        continue
                    cache[rel] = (key, digest, time.time_ns())
                found[rel] = digest
                seen.add(rel)
    for rel in [r for r in cache if r not in seen]:
        del cache[rel]
    for rel in sorted(found):
        out[f"{prefix}/{rel}"] = found[rel]
