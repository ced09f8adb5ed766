from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from devicesworld.devices.base import DeviceContext, VirtualClock
from devicesworld.devices.drive import get_drive


def test_devices_of_a_task_share_one_drive(tmp_path: Path) -> None:
    shared: dict[str, object] = {}
    clock = VirtualClock(datetime(2026, 1, 1))
    a = DeviceContext("t", clock, tmp_path / "linux_0", shared=shared)
    b = DeviceContext("t", clock, tmp_path / "android_0", shared=shared)
    drive = get_drive(a)
    assert get_drive(b) is drive
    drive.resolve("docs/report.txt").parent.mkdir(parents=True)
    drive.resolve("docs/report.txt").write_text("hi")
    assert drive.listing() == ["docs/report.txt"]
    other = get_drive(DeviceContext("u", clock, tmp_path / "x" / "linux_0", shared={}))
    assert other.root != drive.root


def test_paths_cannot_escape_the_drive(tmp_path: Path) -> None:
    drive = get_drive(DeviceContext("t", VirtualClock(datetime(2026, 1, 1)), tmp_path / "d0"))
    with pytest.raises(ValueError, match="outside the drive"):
        drive.resolve("../../etc/passwd")
