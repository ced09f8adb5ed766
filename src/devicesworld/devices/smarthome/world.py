"""A persona world's home surface on a SmartHome device, and the home's census counters.

The world is applied through the kind's own setup ops (``configure_home``, ``add_room``,
``add_device``, ``add_schedule``), so a world home is exactly what a task could have
built by hand; the home lives in memory, so this costs well under a millisecond per
device.

``overlay`` lets a task's own home (a scenario family's ``add_room``/``add_device``) live
inside the world's home instead of replacing it; its rule, documented in docs/worlds.md:

1. **The task's rooms are the task's.** A room the task adds (or puts a device in) that the
   world also has is reused: the world's room is emptied (its devices and their schedules
   go), and the task's ``add_room`` keeps the world's climate for every value it does not
   set. So the task's room holds exactly what the task says - no second heater beside the
   task's, and a variant that drops its heater finds no world heater there.
2. **One-per-home appliances are the task's.** When the task adds a washing machine or a
   dryer, the world's washer and dryer both go; when it adds a robot vacuum, the world's
   vacuum goes (a laundry story that says "there is no dryer" stays true, "the washer"
   stays one device).
3. **Ids never collide.** A world device left in place whose id the task adds is renamed
   ``<id>_<n>`` (the first free n from 2), schedules and all.
4. ``configure_home`` merges: the world's outdoor values stay unless the task sets them,
   the world's home name unless the task names the home (other than the default "Home").

Every other world room, device and schedule stays: unmentioned items the task must not
touch (the collateral guard protects them), and near-miss twins in other rooms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from devicesworld.devices.base import Args, GetterFn, SetupCall, WorldSupport
from devicesworld.devices.smarthome import args as a
from devicesworld.worlds.model import World

if TYPE_CHECKING:
    from devicesworld.devices.smarthome.device import SmartHomeDevice


def apply(device: SmartHomeDevice, world: World) -> None:
    """Put the world's home surface on a freshly created home (before the task's own setup)."""
    home = world.home
    calls: list[tuple[str, BaseModel, type[Args]]] = [
        ("configure_home", home, a.ConfigureHomeArgs),
        *(("add_room", room, a.AddRoomArgs) for room in home.rooms),
        *(("add_device", d, a.AddDeviceArgs) for d in home.devices),
        *(("add_schedule", s, a.CreateScheduleArgs) for s in home.schedules),
    ]
    for op, item, model in calls:
        device.setup(op, model.model_validate(_op_args(item, model)))


ONE_PER_HOME = (frozenset({"washing_machine", "dryer"}), frozenset({"robot_vacuum"}))
"""Appliances a home has one of, in groups: a task that brings one of a group replaces the world's
whole group (rule 2: a washer in the task's story means the laundry is the task's)."""
DEFAULT_NAME = a.ConfigureHomeArgs.model_fields["name"].default


def overlay(world: World, ops: list[SetupCall], claims: list[SetupCall]) -> list[SetupCall]:
    """The task's home ops rewritten to apply on top of the world's home (the rule in the module doc)."""
    home = world.home
    world_rooms = {r.name: r for r in home.rooms}
    added_rooms = {str(args.get("name")) for op, args in claims if op == "add_room"}
    used_rooms = {str(args.get("room")) for op, args in claims if op == "add_device"}
    task_ids = {str(args.get("device_id")) for op, args in claims if op == "add_device"}
    brought = {args.get("category") for op, args in claims if op == "add_device"}
    replaced = frozenset().union(*(group for group in ONE_PER_HOME if group & brought))
    prefix: list[SetupCall] = []
    emptied = [r for r in world_rooms if r in added_rooms or r in used_rooms]
    for name in emptied:
        prefix.append(("remove_room", {"room": name}))
        if name not in added_rooms:  # the task puts devices in it without adding it: keep the world's room
            prefix.append(("add_room", _op_args(world_rooms[name], a.AddRoomArgs)))
    taken = {d.device_id for d in home.devices} | task_ids
    for d in home.devices:
        if d.room in emptied:
            continue
        if d.category in replaced:
            prefix.append(("remove_device", {"device_id": d.device_id}))
        elif d.device_id in task_ids:
            new_id = _free_id(d.device_id, taken)
            taken.add(new_id)
            prefix.append(("remove_device", {"device_id": d.device_id}))
            prefix.append(("add_device", _op_args(d, a.AddDeviceArgs, device_id=new_id)))
            prefix += [
                ("add_schedule", _op_args(s, a.CreateScheduleArgs, device_id=new_id))
                for s in home.schedules
                if s.device_id == d.device_id
            ]
    out = list(prefix)
    for op, args in ops:
        if op == "configure_home":
            merged = {**_op_args(home, a.ConfigureHomeArgs), **args}
            if args.get("name", DEFAULT_NAME) == DEFAULT_NAME:
                merged["name"] = home.name
            args = merged
        elif op == "add_room" and args.get("name") in world_rooms:
            args = {**_op_args(world_rooms[str(args["name"])], a.AddRoomArgs), **args}
        out.append((op, args))
    return out


def _op_args(item: BaseModel, model: type[Args], **given: Any) -> dict[str, Any]:
    """A world item (the home, a room, a device, a schedule) as the arguments of the setup op that
    makes it: its values for the op model's fields, in the item's field order; ``given`` overrides
    (a renamed device's new id)."""
    return {**item.model_dump(include=set(model.model_fields)), **given}


def _free_id(device_id: str, taken: set[str]) -> str:
    n = 2
    while f"{device_id}_{n}" in taken:
        n += 1
    return f"{device_id}_{n}"


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


def items(get: GetterFn) -> dict[str, list[str]]:
    """The home's devices, each spelled by its id and its name."""
    state: dict[str, Any] = get("state", {})
    devices = state.get("devices", [])
    devices = list(devices.values()) if isinstance(devices, dict) else list(devices)
    out: dict[str, list[str]] = {}
    for d in devices:
        if isinstance(d, dict) and d.get("device_id"):
            out[str(d["device_id"])] = [str(d["device_id"]), str(d.get("name") or "")]
    return out


WORLD = WorldSupport(apply=apply, census=census, overlay=overlay, items=items)

__all__ = ["ONE_PER_HOME", "WORLD", "apply", "census", "items", "overlay"]
