"""The system a bubblewrap sandbox sees: the host's ``/usr`` read-only, a made-up ``/etc``, and
the way from ``/`` to the folders bound into it.

Why one module: the shell sandbox of the ``linux`` kind, every GUI desktop and the builder of
the Windows prefix each start bubblewrap on the host's ``/usr`` with a synthetic ``/etc`` (the
sandbox's own user, group and host name, never the host's accounts) and the few host entries
binaries need bound over it, and each run as another uid when the harness is root. What they
do alike is written once here; what differs (the files, the host entries) is their data.
"""

from __future__ import annotations

import atexit
import contextlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypedDict

from devicesworld.devices.ownership import make_owned_dir, remove_owned

USR_SYMLINKS = ("bin", "lib", "lib32", "lib64", "libx32", "sbin")
"""The merged-``/usr`` links at the root (``/bin -> usr/bin``), each made when ``/usr`` has it."""

ACCOUNTS = {
    "passwd": "root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:User:/home/user:/bin/bash\n",
    "group": "root:x:0:\nuser:x:1000:\n",
}
"""``/etc/passwd`` and ``/etc/group`` of a Linux sandbox: root and the one user (uid 1000), no host account."""

NSSWITCH = "passwd: files\ngroup: files\nhosts: files\n"
"""``/etc/nsswitch.conf``: names come from the synthetic files, never from a host service."""


def usr_args() -> list[str]:
    """bwrap arguments: the host's ``/usr`` read-only, with its root links."""
    argv = ["--ro-bind", "/usr", "/usr"]
    for name in USR_SYMLINKS:
        if Path("/usr", name).exists():
            argv += ["--symlink", f"usr/{name}", f"/{name}"]
    return argv


def etc_args(etc: Path, host_entries: Iterable[str]) -> list[str]:
    """bwrap arguments: ``etc`` as the read-only ``/etc``, each host entry that exists bound over it."""
    argv = ["--ro-bind", str(etc), "/etc"]
    for name in host_entries:
        if Path("/etc", name).exists():
            argv += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    return argv


def write_etc(etc: Path, files: Mapping[str, str], host_entries: Iterable[str]) -> None:
    """A synthetic ``/etc`` in ``etc``: ``files`` (name -> text) and ``nsswitch.conf``, and a mount
    point for each host entry that exists (a folder for a folder), which :func:`etc_args` binds over."""
    for name, text in {**files, "nsswitch.conf": NSSWITCH}.items():
        (etc / name).write_text(text)
    for name in host_entries:
        host = Path("/etc") / name
        if host.is_dir():
            (etc / name).mkdir(exist_ok=True)
        elif host.exists():
            (etc / name).touch()


def owned_etc(prefix: str, files: Mapping[str, str], host_entries: Iterable[str]) -> Path:
    """A synthetic ``/etc`` (:func:`write_etc`) readable by any uid, in a folder this process owns
    (:mod:`devicesworld.devices.ownership`): removed at this process's exit, or by a later run's
    reaper if it is killed first. Forked workers inherit the path but do not remove it."""
    owned = make_owned_dir(prefix)
    etc = owned / "etc"
    etc.mkdir()
    write_etc(etc, files, host_entries)
    for p in (etc, *etc.rglob("*")):
        p.chmod(0o755 if p.is_dir() else 0o644)
    owned.chmod(0o711)  # a sandbox run as ``nobody`` (root harness) must reach the bound /etc
    owner = os.getpid()

    def _remove() -> None:
        if os.getpid() == owner:
            remove_owned(owned)

    atexit.register(_remove)
    return etc


def let_others_pass(tops: Iterable[Path]) -> None:
    """Give "others" search permission on each folder from every one of ``tops`` up to ``/`` that
    this process owns and that lacks it, so that a sandbox run as another uid (``nobody`` under a
    root harness) reaches the folders bound into it; a folder it cannot change is left alone."""
    for folder in {f for top in tops for f in (top, *top.parents)}:
        with contextlib.suppress(OSError):
            st = folder.stat()
            if st.st_uid == os.geteuid() and not st.st_mode & 0o001:
                folder.chmod((st.st_mode & 0o7777) | 0o001)


class RunAs(TypedDict, total=False):
    """``subprocess`` arguments that choose the user a process starts as."""

    user: int
    group: int
    extra_groups: list[int]


def run_as(ids: tuple[int, int] | None) -> RunAs:
    """The ``subprocess`` arguments that start a sandbox as its host user (``ids``, the uid and
    gid of :func:`~devicesworld.devices.safefs.sandbox_host_ids`) without the harness's
    supplementary groups; none when there is no such user (the harness is not root)."""
    return {"user": ids[0], "group": ids[1], "extra_groups": []} if ids else {}
