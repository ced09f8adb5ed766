"""The ``windows`` device kind: a Wine desktop (Notepad, WordPad, Explorer, cmd) per device.

``KIND`` is imported on first use (PEP 562), so the prefix and helper builders can be
used without loading the whole kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devicesworld.devices.windows.kind import KIND

__all__ = ["KIND"]


def __getattr__(name: str) -> Any:
    if name == "KIND":
        from devicesworld.devices.windows import macros as _macros  # noqa: F401  (registers the task-file macros)
        from devicesworld.devices.windows.kind import KIND

        return KIND
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
