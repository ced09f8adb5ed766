"""Device kinds: each a plugin registered in :mod:`devicesworld.devices.base`.

Nothing is imported at package import: a subprocess that only needs one small module
(the document parser of :mod:`devicesworld.devices.linux.resources.isolate`) must not
pay for pydantic and every kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from devicesworld.devices.base import DeviceKind


def builtin_kinds() -> list[DeviceKind]:
    """The kinds shipped with the package, imported lazily so start-up stays cheap."""
    from devicesworld.devices.android import KIND as ANDROID
    from devicesworld.devices.linux import KIND as LINUX
    from devicesworld.devices.smarthome import KIND as SMARTHOME
    from devicesworld.devices.windows import KIND as WINDOWS

    return [SMARTHOME, LINUX, ANDROID, WINDOWS]
