"""SmartHome: a simulated home with 11 device categories, room physics, appliances and schedules.

The package exports :data:`KIND`, the device kind the registry loads; everything else
is internal. See ``docs/smarthome.md`` for the model.
"""

from __future__ import annotations

from devicesworld.devices.smarthome.kind import KIND

__all__ = ["KIND"]
