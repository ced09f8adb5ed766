"""JSON views of the home at the current virtual time: what agents and verifiers read.

Derived attributes (room sensors, countdowns, battery) are computed here on read,
rounded to what a real app would display, so a view is always consistent with the
closed-form simulation without any per-minute bookkeeping.
"""

from __future__ import annotations

import math
from typing import Any

from devicesworld.devices.smarthome.home import HistoryEntry, Home, HomeDevice, Room
from devicesworld.devices.smarthome.scheduler import Schedule
from devicesworld.devices.smarthome.timefmt import to_iso


def _derived(home: Home, dev: HomeDevice, name: str) -> Any:
    room = home.rooms[dev.room]
    if name == "current_temperature":
        return round(home.climate(room, "temperature"), 1)
    if name == "current_humidity":
        return round(home.climate(room, "humidity"), 1)
    if name == "pm25":
        return round(home.climate(room, "pm25"), 1)
    if dev.cycle is not None:
        if name == "operational_state":
            return dev.cycle.state
        if name == "phase":
            return dev.cycle.phase()
        if name == "remaining_minutes":
            return math.ceil(dev.cycle.remaining_s(home.now) / 60.0 - 1e-9)
    if dev.rvc is not None:
        if name == "operational_state":
            return dev.rvc.state
        if name == "battery":
            return math.floor(dev.rvc.battery(home.now) + 1e-9)
        if name == "remaining_minutes":
            return math.ceil(dev.rvc.remaining_clean_s(home.now) / 60.0 - 1e-9)
        if name == "charging":
            return dev.rvc.state == "docked" and dev.rvc.battery(home.now) < 100.0
    raise KeyError(name)


def device_attributes(home: Home, dev: HomeDevice) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, attr in dev.category.attributes.items():
        out[name] = _derived(home, dev, name) if attr.derived else dev.attrs[name]
    return out


def device_summary(dev: HomeDevice) -> dict[str, Any]:
    return {"device_id": dev.id, "name": dev.name, "category": dev.category.name, "room": dev.room}


def device_view(home: Home, dev: HomeDevice) -> dict[str, Any]:
    out = device_summary(dev)
    out["attributes"] = device_attributes(home, dev)
    return out


def room_view(home: Home, room: Room) -> dict[str, Any]:
    return {
        "room": room.name,
        "time": to_iso(home.epoch, home.now),
        "temperature": round(home.climate(room, "temperature"), 1),
        "humidity": round(home.climate(room, "humidity"), 1),
        "pm25": round(home.climate(room, "pm25"), 1),
        "illuminance": round(home.illuminance(room)),
        "devices": list(room.device_ids),
    }


def schedule_view(home: Home, s: Schedule) -> dict[str, Any]:
    trigger: dict[str, Any] = {"type": s.trigger}
    if s.trigger == "at":
        trigger["at"] = to_iso(home.epoch, s.due_at or 0.0)
    elif s.trigger == "delay":
        trigger["delay_minutes"] = s.delay_minutes
    else:
        trigger.update(device_id=s.event_device, event=s.event, delay_minutes=s.delay_minutes or 0.0)
    return {
        "schedule_id": s.id,
        "device_id": s.device_id,
        "command": s.command,
        "params": dict(s.params),
        "trigger": trigger,
        "due_at": None if s.due_at is None else to_iso(home.epoch, s.due_at),
        "status": s.status,
        "created_at": to_iso(home.epoch, s.created_at),
        "created_by": s.created_by,
        "fired_at": None if s.fired_at is None else to_iso(home.epoch, s.fired_at),
        "error_code": s.error_code,
        "error": s.error,
    }


def command_run(home: Home, h: HistoryEntry) -> dict[str, Any]:
    """What every view of a run command starts with: when, which device, what, and whether it worked."""
    return {
        "time": to_iso(home.epoch, h.time),
        "device_id": h.device_id,
        "command": h.command,
        "params": dict(h.params),
        "ok": h.ok,
    }


def history_view(home: Home, h: HistoryEntry) -> dict[str, Any]:
    return {
        **command_run(home, h),
        "error_code": h.error_code,
        "source": h.source,
        "schedule_id": h.schedule_id,
        "message": h.message,
    }


def state_view(home: Home) -> dict[str, Any]:
    return {
        "home": home.name,
        "time": to_iso(home.epoch, home.now),
        "outdoor": dict(home.outdoor),
        "rooms": {name: room_view(home, room) for name, room in home.rooms.items()},
        "devices": {d.id: device_view(home, d) for d in home.devices.values()},
        "schedules": [schedule_view(home, s) for s in home.schedules.values()],
        "history": [history_view(home, h) for h in home.history],
        "events": [{"time": to_iso(home.epoch, t), "device_id": d, "event": e} for t, d, e in home.events],
    }
