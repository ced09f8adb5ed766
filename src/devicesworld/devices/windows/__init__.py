"""The ``windows`` device kind: a Wine desktop (Notepad, WordPad, Explorer, cmd) per device.

``KIND`` is imported on first use (PEP 562), so the prefix and helper builders can be
used without loading the whole kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from devicesworld.devices import lazy_kind

if TYPE_CHECKING:
    from devicesworld.devices.windows.kind import KIND

__all__ = ["KIND"]


__getattr__ = lazy_kind(__name__)
