"""The shared network drive: one folder that every device of a task sees.

Like JarvisGUI's network drive, it is how files cross devices: a Linux desktop sees
it as ``~/Drive``, a phone as the Drive location of its Files app. Any device kind
reaches it through :func:`get_drive`, which creates it on first use in the task's
shared services, so a task without a drive pays nothing and the controller needs no
knowledge of it.

Agents on a desktop can plant links in the drive, so the devices reach it only
through :attr:`SharedDrive.fs` (:mod:`devicesworld.devices.safefs`): a link is
listed as a link and skipped, never followed — a dangling one included.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from devicesworld.devices.base import DeviceContext
from devicesworld.devices.safefs import SafeRoot, sandbox_host_ids

DRIVE_KEY = "drive"


@dataclass(frozen=True)
class SharedDrive:
    root: Path

    @property
    def fs(self) -> SafeRoot:
        """The drive for harness-side access (new files belong to the sandboxes' host user)."""
        return SafeRoot(self.root, "Drive", owner=sandbox_host_ids())

    def resolve(self, relative: str) -> Path:
        """A path inside the drive; refuses paths that would leave it."""
        path = (self.root / relative.lstrip("/")).resolve()
        if path != self.root.resolve() and self.root.resolve() not in path.parents:
            raise ValueError(f"{relative!r} is outside the drive")
        return path

    def listing(self) -> list[str]:
        """Every regular file on the drive, relative to its root, sorted (links are skipped)."""
        return self.fs.walk_files()


def get_drive(context: DeviceContext) -> SharedDrive:
    """The task's drive, created on first use beside the devices' work folders."""
    drive = context.shared.get(DRIVE_KEY)
    if drive is None:
        root = context.workdir.parent / "_shared_drive"
        root.mkdir(parents=True, exist_ok=True)
        drive = SharedDrive(root)
        context.shared[DRIVE_KEY] = drive
    assert isinstance(drive, SharedDrive)
    return drive
