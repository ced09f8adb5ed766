"""Device kinds: each a plugin registered in :mod:`devicesworld.devices.base`.

Nothing is imported at package import: a subprocess that only needs one small module
(the document parser of :mod:`devicesworld.devices.linux.resources.isolate`) must not
pay for pydantic and every kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devicesworld.devices.base import DeviceKind

__all__ = ["builtin_kinds", "check_kind"]


def builtin_kinds() -> list[DeviceKind]:
    """The kinds shipped with the package, imported lazily so start-up stays cheap."""
    from devicesworld.devices.android import KIND as ANDROID
    from devicesworld.devices.linux import KIND as LINUX
    from devicesworld.devices.smarthome import KIND as SMARTHOME

    return [SMARTHOME, LINUX, ANDROID]


def check_kind(
    kind: DeviceKind | str, *, profile: Mapping[str, Any] | None = None, strict: bool = False
) -> list[str]:
    """Every way a kind breaks the device contract (``[]``: it conforms); see :mod:`.conformance`."""
    from devicesworld.devices.conformance import check_kind as check

    return check(kind, profile=profile, strict=strict)
