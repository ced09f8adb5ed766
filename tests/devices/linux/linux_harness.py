"""Helpers for Linux device tests: a desktop driven through the kind's declared models.

``requires_bwrap``/``requires_chromium`` skip when the system tool is missing, but
fail instead when ``DEVICESWORLD_REQUIRE_SYSTEM=1`` (as CI sets it).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import ActionResult, CheckOutcome, DeviceContext, VirtualClock
from devicesworld.devices.linux import KIND
from devicesworld.devices.linux.browser.chromium import chromium_path
from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.devices.linux.sandbox import bwrap_usable

REQUIRE_SYSTEM = os.environ.get("DEVICESWORLD_REQUIRE_SYSTEM") == "1"


def _need(found: bool, what: str) -> None:
    if found:
        return
    if REQUIRE_SYSTEM:
        pytest.fail(f"{what} is required (DEVICESWORLD_REQUIRE_SYSTEM=1) but missing")
    pytest.skip(f"{what} is not installed")


def require_bwrap() -> None:
    _need(bwrap_usable(), "a working bubblewrap (bwrap)")


def require_chromium() -> None:
    _need(chromium_path() is not None, "Chromium (/usr/bin/chromium) with playwright")


class Desktop:
    """A Linux device plus typed helpers; ``shared`` lets several desktops form one task."""

    def __init__(
        self,
        root: Path,
        device_id: str = "linux_0",
        shared: dict[str, Any] | None = None,
        profile: dict[str, Any] | None = None,
    ) -> None:
        self.context = DeviceContext(
            "test",
            VirtualClock(datetime(2026, 3, 2, 9)),
            root / device_id,
            shared=shared if shared is not None else {},
        )
        self.context.workdir.mkdir(parents=True, exist_ok=True)
        device = KIND.factory(device_id, profile or {}, self.context)
        assert isinstance(device, LinuxDevice)
        self.device = device

    def setup(self, op: str, **args: Any) -> None:
        self.device.setup(op, KIND.setup_ops[op].parse_args(args))

    def act(self, action: str, **args: Any) -> ActionResult:
        return self.device.act(action, KIND.actions[action].parse_args(args))

    def ok(self, action: str, **args: Any) -> Any:
        result = self.act(action, **args)
        assert result.ok, result.message
        return result.data

    def sh(self, command: str, **kw: Any) -> dict[str, Any]:
        data: dict[str, Any] = self.ok("run_command", command=command, **kw)
        return data

    def get(self, getter: str, args: Any = None) -> Any:
        return self.device.get(getter, KIND.getters[getter].parse_args(dict(args or {})))

    def check(self, name: str, **args: Any) -> CheckOutcome:
        spec = KIND.checks[name]
        return spec.fn(self.get, spec.parse_args(args))

    def close(self) -> None:
        self.device.close()
