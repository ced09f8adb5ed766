"""The home as the collateral-damage guard sees it: one path per thing a person can change.

Paths (all under the device they belong to; a check licenses the device's attributes and
commands, and only ``schedule_exists`` licenses schedules — the ones that run its command):

- ``devices/<id>/<attribute>``: every stored attribute (power, target temperature, mode…);
- ``devices/<id>/commands/<n>``: the n-th successful agent command to the device that
  changed a stored attribute, so switching a light on and off again is seen even when
  no stored value ends different, while a no-op (turning off a light that is off) is not;
- ``devices/<id>/schedules/<schedule id>``: a schedule's command, trigger, author and
  whether it was cancelled (a schedule that fires on time is not a change; one the agent
  made and cancelled again had no effect and is left out);
- ``devices/<id>/sensors/<attribute>``, ``rooms/<room>/<variable>`` and ``clock``:
  readings that drift with the virtual clock and the room physics — harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from devicesworld.devices.smarthome import args as a
from devicesworld.devices.smarthome import views
from devicesworld.devices.smarthome.timefmt import to_iso
from devicesworld.devices.state import OutputChange, Snapshot, StateSpec, StrayKind, digest

if TYPE_CHECKING:
    from devicesworld.devices.smarthome.device import SmartHomeDevice
    from devicesworld.devices.smarthome.home import HomeDevice


def snapshot(device: SmartHomeDevice) -> Snapshot:
    home = device.home
    out: Snapshot = {"clock": digest(home.now)}
    for dev in home.devices.values():
        derived = views.device_attributes(home, dev)
        for name, attr in dev.category.attributes.items():
            if attr.derived:
                out[f"devices/{dev.id}/sensors/{name}"] = digest(derived[name])
            else:
                out[f"devices/{dev.id}/{name}"] = digest(dev.attrs.get(name))
    counts: dict[str, int] = {}
    for h in home.history:
        if h.source == "agent" and h.ok and h.changed:
            n = counts.get(h.device_id, 0)
            counts[h.device_id] = n + 1
            out[f"devices/{h.device_id}/commands/{n}"] = digest([h.command, h.params])
    for s in home.schedules.values():
        if s.created_by == "agent" and s.status == "cancelled":
            continue  # made and withdrawn: no effect on the home
        out[f"devices/{s.device_id}/schedules/{s.id}"] = digest(
            [
                *(s.command, s.params, s.trigger, s.delay_minutes, s.event_device, s.event, s.created_by),
                s.status == "cancelled",
                s.due_at if s.trigger != "after_event" else None,
            ]
        )
    for room in home.rooms.values():
        for variable, value in views.room_view(home, room).items():
            if variable not in ("room", "time", "devices"):
                out[f"rooms/{room.name}/{variable}"] = digest(value)
    return out


def stray(device: SmartHomeDevice, allowed: Callable[[str], bool], kind: StrayKind) -> str | None:
    """Switch a device the task never mentions (``remove``), or schedule it to switch (``add``).

    A device without a power switch (a curtain, a robot vacuum) gets its first command
    that needs no parameters and works now (``open``, ``start``).
    """
    home = device.home
    for dev in sorted(home.devices.values(), key=lambda d: d.id):
        if allowed(f"devices/{dev.id}/commands/0"):
            continue
        on = bool(dev.attrs.get("power"))
        if dev.category.has_power:
            commands = ["turn_off" if on else "turn_on"]
        else:
            commands = [c.name for c in dev.category.commands.values() if not c.params]
        for command in commands:
            if kind == "remove":
                result = device.act("control_device", a.ControlArgs(device_id=dev.id, command=command))
                what = f"ran {dev.id}.{command}"
            else:
                args = a.CreateScheduleArgs(device_id=dev.id, command=command, delay_minutes=90)
                result = device.act("create_schedule", args)
                what = f"scheduled {dev.id}.{command} in 90 minutes"
            if result.ok:
                return what
    return None


INVERSE = {
    "turn_on": "turn_off",
    "turn_off": "turn_on",
    "open": "close",
    "close": "open",
    "start": "stop",
    "resume": "pause",
}
"""The command that reverses each command without parameters."""


def output_change(device: SmartHomeDevice, allowed: Callable[[str], bool], how: OutputChange) -> str | None:
    """Spoil an output the task licenses (quality control's near misses, issue 32).

    ``undo``: a schedule the agent made for an output gets its reverse a minute after it fires
    (the lamp on at 13:30 and off at 13:31); failing that, an output the agent set now is set
    back half an hour later (the heater at 17 °C, then back to 22.5 °C). ``beside``: another
    stored attribute of an output device, one the task does not license, gets another value.
    ``day`` is ``None``: the home's schedules are judged by the moment they fire, not a day field.
    """
    if how == "undo":
        return _undo(device, allowed)
    return _beside(device, allowed) if how == "beside" else None


def _undo(device: SmartHomeDevice, allowed: Callable[[str], bool]) -> str | None:
    home = device.home
    for sched in sorted(home.schedules.values(), key=lambda x: x.id):
        if sched.created_by != "agent" or sched.status != "pending":
            continue
        if not allowed(f"devices/{sched.device_id}/schedules/{sched.id}"):
            continue
        command, params = _reverse(home.devices[sched.device_id], sched.command, sched.params)
        if command is None:
            continue
        if sched.due_at is not None:
            made = a.CreateScheduleArgs(
                device_id=sched.device_id,
                command=command,
                params=params,
                at=to_iso(home.epoch, sched.due_at + 60.0),
            )
        else:
            after = a.AfterEventArgs(
                device_id=sched.event_device or "",
                event=sched.event or "",
                delay_minutes=(sched.delay_minutes or 0.0) + 1.0,
            )
            made = a.CreateScheduleArgs(
                device_id=sched.device_id, command=command, params=params, after_event=after
            )
        if device.act("create_schedule", made).ok:
            return f"scheduled {sched.device_id}.{command}({params}) a minute after {sched.id}"
    for h in reversed(home.history):
        if h.source != "agent" or not h.ok or not h.changed or h.before is None or h.after is None:
            continue
        dev = home.devices.get(h.device_id)
        if dev is None:
            continue
        for name, old in h.before.items():
            if h.after.get(name) == old or not allowed(f"devices/{dev.id}/{name}"):
                continue
            setter = dev.category.attributes[name].setter if name in dev.category.attributes else None
            if name == "power":
                command, params = ("turn_on" if old else "turn_off"), {}
            elif setter in dev.category.commands:
                command, params = setter, {dev.category.commands[setter].params[0].name: old}
            else:
                continue
            args = a.CreateScheduleArgs(device_id=dev.id, command=command, params=params, delay_minutes=30)
            if device.act("create_schedule", args).ok:
                return f"scheduled {dev.id}.{command}({params}) in 30 minutes, back to {old!r}"
    return None


def _reverse(dev: HomeDevice, command: str, params: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    if command in INVERSE and INVERSE[command] in dev.category.commands:
        return INVERSE[command], {}
    cmd = dev.category.commands.get(command)
    if cmd is None or len(cmd.params) != 1:
        return None, {}
    attr = next((n for n, at in dev.category.attributes.items() if at.setter == command), None)
    if attr is None or dev.attrs.get(attr) == params.get(cmd.params[0].name):
        return None, {}
    return command, {cmd.params[0].name: dev.attrs[attr]}


def _beside(device: SmartHomeDevice, allowed: Callable[[str], bool]) -> str | None:
    home = device.home
    for dev in sorted(home.devices.values(), key=lambda d: d.id):
        stored = [n for n, at in dev.category.attributes.items() if not at.derived]
        if not any(allowed(f"devices/{dev.id}/{n}") for n in stored if n != "power"):
            continue
        for name in stored:
            attr = dev.category.attributes[name]
            if (
                name == "power"
                or allowed(f"devices/{dev.id}/{name}")
                or attr.setter not in dev.category.commands
            ):
                continue
            cmd = dev.category.commands[attr.setter]
            if len(cmd.params) != 1 or (
                cmd.needs_power and dev.category.has_power and not dev.attrs.get("power")
            ):
                continue
            value = _another(attr.spec, dev.attrs.get(name))
            if value is None:
                continue
            args = a.ControlArgs(device_id=dev.id, command=attr.setter, params={cmd.params[0].name: value})
            if device.act("control_device", args).ok:
                return f"set {dev.id}.{name} to {value!r} beside the asked change"
    return None


def _another(spec: Any, current: Any) -> Any:
    if spec.type == "enum":
        return next((v for v in spec.values if v != current), None)
    if spec.type in ("integer", "number") and isinstance(current, int | float):
        step = spec.step or 1
        up = current + step
        return up if spec.max is None or up <= spec.max else current - step
    return None


STATE = StateSpec(
    snapshot=snapshot,
    stray=stray,
    output_change=output_change,
    harmless=("clock", "rooms/*", "devices/*/sensors/*"),
    doc="Stored device attributes, agent commands and schedules per device; sensors and rooms drift.",
)
