"""The ``linux`` device kind: real sandboxed desktops (bubblewrap) with shell, files, documents and a browser."""

from devicesworld.devices.linux.kind import KIND

__all__ = ["KIND"]
