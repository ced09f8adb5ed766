"""Device kinds: each a plugin registered in :mod:`devicesworld.devices.base`.

Nothing is imported at package import: a subprocess that only needs one small module
(the document parser of :mod:`devicesworld.devices.linux.resources.isolate`) must not
pay for pydantic and every kind.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devicesworld.devices.base import DeviceKind

__all__ = ["BUILTIN_KIND_MODULES", "builtin_kinds", "check_kind", "lazy_kind"]

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


def lazy_kind(package: str) -> Callable[[str], Any]:
    """The module ``__getattr__`` (PEP 562) of a kind's package that loads its ``KIND`` on first
    use, after the kind's task-file macros (``<package>.macros``) are registered.

    So a kind whose package holds modules used on their own (a document parser run in a
    subprocess, the Wine prefix builder) does not load the whole kind on their import.
    """

    def __getattr__(name: str) -> Any:
        if name == "KIND":
            importlib.import_module(f"{package}.macros")
            return importlib.import_module(f"{package}.kind").KIND
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def check_kind(
    kind: DeviceKind | str, *, profile: Mapping[str, Any] | None = None, strict: bool = False
) -> list[str]:
    """Every way a kind breaks the device contract (``[]``: it conforms); see :mod:`.conformance`."""
    from devicesworld.devices.conformance import check_kind as check

    return check(kind, profile=profile, strict=strict)
