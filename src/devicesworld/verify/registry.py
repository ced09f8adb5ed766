"""Where a condition's check is looked up: the device kind first, then the generic checks."""

from __future__ import annotations

from devicesworld.devices.base import CheckSpec, get_kind
from devicesworld.spec.models import GLOBAL_DEVICE
from devicesworld.verify.checks import EPISODE_CHECKS, GENERIC_CHECKS


def find_check(kind: str, name: str) -> CheckSpec | None:
    """The check ``name`` for a device of ``kind`` (``env`` for episode checks), or ``None``."""
    if kind == GLOBAL_DEVICE:
        return EPISODE_CHECKS.get(name)
    device_kind = get_kind(kind)
    if device_kind is not None and name in device_kind.checks:
        return device_kind.checks[name]
    return GENERIC_CHECKS.get(name)


def check_names(kind: str) -> list[str]:
    if kind == GLOBAL_DEVICE:
        return sorted(EPISODE_CHECKS)
    device_kind = get_kind(kind)
    own = set(device_kind.checks) if device_kind else set()
    return sorted(own | set(GENERIC_CHECKS))
