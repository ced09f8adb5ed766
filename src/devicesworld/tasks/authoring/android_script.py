"""Phone scripts by meaning, recorded as index-based steps: now :mod:`devicesworld.tasks.handwritten.recording`.

The handwritten suites import it from here (the ``authoring`` layer of the import
contract); the recorder itself lives beside the task compiler that uses it, so
``tasks.handwritten`` imports nothing from ``tasks.suites``.
"""

from __future__ import annotations

from devicesworld.tasks.handwritten.recording import (
    On,
    ScriptError,
    ScriptItem,
    Target,
    UiStep,
    act,
    long_press,
    record,
    tap,
    tap_at,
    type_into,
)

__all__ = [
    "On",
    "ScriptError",
    "ScriptItem",
    "Target",
    "UiStep",
    "act",
    "long_press",
    "record",
    "tap",
    "tap_at",
    "type_into",
]
