"""Where episodes keep their files: memory-backed when the machine allows it.

An episode's devices write homes, app databases and documents into one work folder
that is deleted at close. On a disk with online discard (common on cloud VMs)
removing thousands of small folders costs milliseconds each, which dominated
quality control of the full suite; a RAM-backed ``/dev/shm`` makes it free. It is
used only when it exists, is writable and has room (containers often give it
64 MiB); ``DEVICESWORLD_TMPDIR`` overrides the choice.

Each work folder is owned (:mod:`devicesworld.devices.ownership`): it holds a lock file
naming its process, so the folder of a process killed with ``kill -9`` is removed by
the next run.
"""

from __future__ import annotations

import os
import shutil
from functools import cache
from pathlib import Path

from devicesworld.devices.ownership import make_owned_dir, remove_owned

SHM = Path("/dev/shm")
MIN_FREE_BYTES = 512 * 1024 * 1024


@cache
def work_root() -> str | None:
    """The folder new work folders go into (``None``: the system's temp folder)."""
    override = os.environ.get("DEVICESWORLD_TMPDIR")
    if override:
        return override
    try:
        if SHM.is_dir() and os.access(SHM, os.W_OK) and shutil.disk_usage(SHM).free >= MIN_FREE_BYTES:
            return str(SHM)
    except OSError:
        return None
    return None


def make_workdir(prefix: str) -> Path:
    """A new work folder, owned by this process until :func:`remove_workdir`."""
    return make_owned_dir(prefix, work_root())


def remove_workdir(folder: Path) -> bool:
    """Remove a work folder made by :func:`make_workdir`; True when it is gone."""
    return remove_owned(folder)
