"""Device kinds: each a plugin registered in :mod:`devicesworld.devices.base`."""

from __future__ import annotations

from devicesworld.devices.base import DeviceKind


def builtin_kinds() -> list[DeviceKind]:
    """The kinds shipped with the package, imported lazily so start-up stays cheap."""
    from devicesworld.devices.android import KIND as ANDROID
    from devicesworld.devices.linux import KIND as LINUX
    from devicesworld.devices.smarthome import KIND as SMARTHOME

    return [SMARTHOME, LINUX, ANDROID]
