"""The ``linux`` device kind: real sandboxed desktops (bubblewrap) with shell, files, documents and a browser.

``KIND`` is imported on first use (PEP 562), so importing a submodule — the document
parser's subprocess does — does not load the whole kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devicesworld.devices.linux.kind import KIND

__all__ = ["KIND"]


def __getattr__(name: str) -> Any:
    if name == "KIND":
        from devicesworld.devices.linux import macros as _macros  # noqa: F401  (registers the task-file macros)
        from devicesworld.devices.linux.kind import KIND

        return KIND
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
