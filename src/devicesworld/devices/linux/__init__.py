"""The ``linux`` device kind: real sandboxed desktops (bubblewrap) with shell, files, documents and a browser.

``KIND`` is imported on first use (PEP 562), so importing a submodule — the document
parser's subprocess does — does not load the whole kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from devicesworld.devices import lazy_kind

if TYPE_CHECKING:
    from devicesworld.devices.linux.kind import KIND

__all__ = ["KIND"]


__getattr__ = lazy_kind(__name__)
