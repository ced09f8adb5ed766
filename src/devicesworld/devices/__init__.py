"""Device kinds: each a plugin registered in :mod:`devicesworld.devices.base`.

Nothing is imported at package import: a subprocess that only needs one small module
(the document parser of :mod:`devicesworld.devices.linux.resources.isolate`) must not
pay for pydantic and every kind.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devicesworld.devices.base import DeviceKind

__all__ = ["BUILTIN_KIND_MODULES", "builtin_kinds", "check_kind"]

BUILTIN_KIND_MODULES = (
    "devicesworld.devices.smarthome",
    "devicesworld.devices.linux",
    "devicesworld.devices.android",
    "devicesworld.devices.windows",
)
"""The packages of the shipped kinds, each exporting ``KIND``; loaded by name, as plugins are.

By name, not by import statement, so that :mod:`devicesworld.devices.base` (which
calls :func:`builtin_kinds` when the registry is first read) depends on no kind: the
kinds sit above it (the import-linter contract in pyproject.toml says so).
"""


def builtin_kinds() -> list[DeviceKind]:
    """The kinds shipped with the package, imported lazily so start-up stays cheap."""
    return [importlib.import_module(module).KIND for module in BUILTIN_KIND_MODULES]


def check_kind(
    kind: DeviceKind | str, *, profile: Mapping[str, Any] | None = None, strict: bool = False
) -> list[str]:
    """Every way a kind breaks the device contract (``[]``: it conforms); see :mod:`.conformance`."""
    from devicesworld.devices.conformance import check_kind as check

    return check(kind, profile=profile, strict=strict)
