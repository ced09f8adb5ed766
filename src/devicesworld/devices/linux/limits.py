"""The Linux device's limits: the shared policy of :mod:`devicesworld.devices.limits`.

Kept as a module so ``devicesworld.devices.linux.limits`` goes on naming the same
model; every sandbox (tool mode, GUI desktops, Windows) reads the one policy.
"""

from __future__ import annotations

from devicesworld.devices.limits import ENV_PREFIX, Limits, LimitsError, default_limits, limits_from_env

__all__ = ["ENV_PREFIX", "Limits", "LimitsError", "default_limits", "limits_from_env"]
