"""A persona world's home surface on a SmartHome device, and the home's census counters.

The world is applied through the kind's own setup ops (``configure_home``, ``add_room``,
``add_device``, ``add_schedule``), so a world home is exactly what a task could have
built by hand; the home lives in memory, so this costs well under a millisecond per
device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devicesworld.devices.base import GetterFn, WorldSupport
from devicesworld.devices.smarthome import args as a
from devicesworld.worlds.model import World

if TYPE_CHECKING:
    from devicesworld.devices.smarthome.device import SmartHomeDevice


def apply(device: SmartHomeDevice, world: World) -> None:
    """Put the world's home surface on a freshly created home (before the task's own setup)."""
    home = world.home
    device.setup(
        "configure_home",
        a.ConfigureHomeArgs(
            name=home.name,
            outdoor_temperature=home.outdoor_temperature,
            outdoor_humidity=home.outdoor_humidity,
            outdoor_pm25=home.outdoor_pm25,
        ),
    )
    for room in home.rooms:
        device.setup(
            "add_room",
            a.AddRoomArgs(
                name=room.name,
                temperature=room.temperature,
                humidity=room.humidity,
                pm25=room.pm25,
                has_window=room.has_window,
            ),
        )
    for d in home.devices:
        device.setup(
            "add_device",
            a.AddDeviceArgs(
                device_id=d.device_id,
                category=d.category,
                room=d.room,
                name=d.name,
                state=dict(d.state),
            ),
        )
    for s in home.schedules:
        device.setup(
            "add_schedule",
            a.CreateScheduleArgs(device_id=s.device_id, command=s.command, params=dict(s.params), at=s.at),
        )


def census(get: GetterFn) -> dict[str, int]:
    """What a home holds, read through its ``state`` getter."""
    state: dict[str, Any] = get("state", {})
    devices = state.get("devices", [])
    devices = list(devices.values()) if isinstance(devices, dict) else list(devices)
    rooms = state.get("rooms", [])
    return {
        "rooms": len(rooms),
        "devices": len(devices),
        "categories": len({d.get("category") for d in devices if isinstance(d, dict)}),
        "schedules": len(state.get("schedules", [])),
    }


WORLD = WorldSupport(apply=apply, census=census)

__all__ = ["WORLD", "apply", "census"]
