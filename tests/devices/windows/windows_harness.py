"""Helpers for Windows-device tests: skip without Wine, mingw or the GUI stack (fail with DEVICESWORLD_REQUIRE_SYSTEM=1)."""

from __future__ import annotations

import os
import shutil
from functools import cache

import pytest

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
