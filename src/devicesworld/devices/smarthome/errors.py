"""Typed error codes of the SmartHome simulator.

Agents learn from failures, so every expected failure carries one code from a small,
documented set and a message that says what was wrong and what would be accepted.
The codes are plain strings (a ``StrEnum``) so they travel unchanged into
``ActionResult.error_code`` and run records.
"""

from __future__ import annotations

from enum import StrEnum

from devicesworld.devices.base import DeviceError


class ErrorCode(StrEnum):
    NOT_FOUND = "NOT_FOUND"
    """Unknown device, room, attribute-less entity or schedule."""
    UNSUPPORTED = "UNSUPPORTED"
    """The device exists but has no such command or attribute."""
    OUT_OF_RANGE = "OUT_OF_RANGE"
    """A value outside the declared range, step or set of choices."""
    READ_ONLY = "READ_ONLY"
    """A write to an attribute that only the device itself changes (a sensor, a countdown)."""
    POWER_OFF = "POWER_OFF"
    """The command needs the device to be switched on."""
    INVALID_IN_STATE = "INVALID_IN_STATE"
    """The command is not valid in the appliance's current operational state."""
    INVALID_ARGS = "INVALID_ARGS"
    """Missing, unknown or wrongly typed parameters, or a malformed time."""
    CONFLICT = "CONFLICT"
    """The entity already exists or is in a final state (e.g. cancelling a fired schedule)."""


class SmartHomeError(DeviceError):
    """An expected failure inside the home; ``code`` is an :class:`ErrorCode`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(str(code), message)
        self.error = code
