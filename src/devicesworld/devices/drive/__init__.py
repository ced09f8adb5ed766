"""The shared network drive: one folder that every device of a task sees.

Like JarvisGUI's network drive, it is how files cross devices: a Linux desktop sees
it as ``~/Drive``, a phone as the Drive location of its Files app. Any device kind
reaches it through :func:`get_drive`, which creates it on first use in the task's
shared services, so a task without a drive pays nothing and the controller needs no
knowledge of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from devicesworld.devices.base import DeviceContext

DRIVE_KEY = "drive"


@dataclass(frozen=True)
class SharedDrive:
    root: Path

    def resolve(self, relative: str) -> Path:
        """A path inside the drive; refuses paths that would leave it."""
        path = (self.root / relative.lstrip("/")).resolve()
        if path != self.root.resolve() and self.root.resolve() not in path.parents:
            raise ValueError(f"{relative!r} is outside the drive")
        return path

    def listing(self) -> list[str]:
        """Every file on the drive, relative to its root, sorted."""
        return sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*") if p.is_file())


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
