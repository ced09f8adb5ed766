"""Helpers for Windows-device tests: skip without Wine, mingw or the GUI stack (fail with DEVICESWORLD_REQUIRE_SYSTEM=1)."""

from __future__ import annotations

import os
import shutil
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import Device, DeviceContext, DeviceKind, VirtualClock, get_kind
from devicesworld.devices.desktop.client import missing_stack
from devicesworld.devices.windows.helper.build import COMPILER
from devicesworld.devices.windows.prefix import wine_missing

REQUIRE_SYSTEM = os.environ.get("DEVICESWORLD_REQUIRE_SYSTEM") == "1"


def _skip(why: str) -> None:
    if REQUIRE_SYSTEM:
        pytest.fail(f"required system tool missing (DEVICESWORLD_REQUIRE_SYSTEM=1): {why}")
    pytest.skip(why)


def require_mingw() -> None:
    if shutil.which(COMPILER) is None:
        _skip(f"{COMPILER} is not installed (apt-get install gcc-mingw-w64-x86-64-win32)")


@cache
def _missing_windows() -> str | None:
    return wine_missing() or missing_stack()


def require_windows_stack() -> None:
    why = _missing_windows()
    if why is not None:
        _skip(f"no Windows desktop stack: {why}")
    require_mingw()


def windows_pc(
    tmp_path: Path, profile: dict[str, Any] | None = None, clock: VirtualClock | None = None
) -> tuple[DeviceKind, Device]:
    """A live Windows PC in ``tmp_path`` on ``clock`` (the task's 2026-03-02 09:00 by default): the
    kind and the device. The sandbox's user must traverse the folders above its work folder."""
    kind = get_kind("windows")
    assert kind is not None
    for folder in (tmp_path, *tmp_path.parents):
        if folder.stat().st_uid == 0:
            folder.chmod(folder.stat().st_mode | 0o001)
    ctx = DeviceContext(
        task_id="t", clock=clock or VirtualClock(datetime(2026, 3, 2, 9)), workdir=tmp_path / "windows_0"
    )
    return kind, kind.factory("windows_0", profile or {}, ctx)
