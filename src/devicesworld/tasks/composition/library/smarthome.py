"""SmartHome atomic tasks: reads that produce values and controls that consume them.

Reads hide their value (the agent must query the home; the instruction only names
it); controls take a value and verify the resulting device state or schedule.
Every control starts from a state that differs from its goal, so setup alone never
satisfies it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from devicesworld.spec.models import DeviceOp
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library import smarthome_devices
from devicesworld.tasks.composition.library.phrasing import say
from devicesworld.tasks.composition.library.smarthome_common import KIND, ROOMS, next_due
from devicesworld.tasks.composition.library.smarthome_common import room as _room
from devicesworld.tasks.composition.library.smarthome_common import room_label as _label

__all__ = ["KIND", "LIBRARY", "ROOMS", "scaffold"]


def scaffold(device_id: str, rng: random.Random) -> list[DeviceOp]:
    """Every composed home starts as an empty home with mild outdoor weather."""
    return [
        DeviceOp(
            device=device_id,
            op="configure_home",
            args={
                "name": rng.choice(["Maple House", "Cedar Flat", "Birch Loft"]),
                "outdoor_temperature": 15.0,
            },
        )
    ]


@dataclass(frozen=True)
class ReadRoomTemperature:
    name: str = "sh_read_room_temperature"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = _room(ctx)
        value = ctx.rng.choice([x / 2 for x in range(36, 54)])
        return Fragment(
            instruction="",
            setup=[ctx.op("add_room", name=room, temperature=value)],
            solution=[ctx.step("get_room_status", room=room)],
            outputs={
                "temperature": SlotValue(
                    "temperature",
                    value,
                    say(
                        ctx,
                        (
                            "the current temperature of the {r}",
                            "the temperature the {r} is at right now",
                            "how warm the {r} currently is (in °C)",
                        ),
                        r=_label(room),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadRoomHumidity:
    name: str = "sh_read_room_humidity"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("humidity", "humidity"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = _room(ctx)
        value = ctx.rng.choice(range(35, 70, 5))
        return Fragment(
            instruction="",
            setup=[ctx.op("add_room", name=room, humidity=float(value))],
            solution=[ctx.step("get_room_status", room=room)],
            outputs={
                "humidity": SlotValue(
                    "humidity",
                    value,
                    say(
                        ctx,
                        (
                            "the current humidity (in %) of the {r}",
                            "the relative humidity measured in the {r}",
                            "how humid the {r} is right now (in %)",
                        ),
                        r=_label(room),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadScheduledTime:
    name: str = "sh_read_scheduled_time"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = _room(ctx)
        heater = ctx.unique("heater")
        at = f"{ctx.rng.randrange(12, 22):02d}:{ctx.rng.choice([0, 30]):02d}"
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_room", name=room),
                ctx.op("add_device", device_id=heater, category="heater", room=room),
                ctx.op("add_schedule", device_id=heater, command="turn_on", at=at),
            ],
            solution=[ctx.step("list_schedules")],
            outputs={
                "time": SlotValue(
                    "time_of_day",
                    at,
                    say(
                        ctx,
                        (
                            "the time the {r} heater is scheduled to switch on",
                            "when the {r} heater's scheduled start is",
                            "the time of day the home will turn on the {r} heater",
                        ),
                        r=_label(room),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class SetAcTarget:
    name: str = "sh_set_ac_target"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = _room(ctx)
        ac = ctx.unique("ac")
        target = float(inputs["temperature"].value)
        start = 26.0 if target != 26.0 else 25.0
        return Fragment(
            instruction=say(
                ctx,
                (
                    "switch on the {r} air conditioner in cool mode set to {v}",
                    "cool the {r}: turn its AC on, cool mode, target {v}",
                    "run the {r} air conditioner on cooling with the target at {v}",
                ),
                r=_label(room),
                v=inputs["temperature"].mention,
            ),
            setup=[
                ctx.op("add_room", name=room),
                ctx.op(
                    "add_device",
                    device_id=ac,
                    category="air_conditioner",
                    room=room,
                    state={"mode": "heat", "target_temperature": start},
                ),
            ],
            conditions=[
                ctx.cond("ac_on", "device_power", device_id=ac, on=True),
                ctx.cond("ac_cool", "device_attribute", device_id=ac, attribute="mode", equals="cool"),
                ctx.cond(
                    "ac_target",
                    "device_attribute",
                    device_id=ac,
                    attribute="target_temperature",
                    equals=target,
                ),
            ],
            solution=[
                ctx.step("control_device", device_id=ac, command="turn_on", params={}),
                ctx.step("control_device", device_id=ac, command="set_mode", params={"mode": "cool"}),
                ctx.step(
                    "control_device",
                    device_id=ac,
                    command="set_target_temperature",
                    params={"temperature": target},
                ),
            ],
        )


@dataclass(frozen=True)
class SetHumidifierTarget:
    name: str = "sh_set_humidifier_target"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("humidity", "humidity"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = _room(ctx)
        dev = ctx.unique("humidifier")
        target = int(inputs["humidity"].value)
        start = 75 if target != 75 else 70
        return Fragment(
            instruction=say(
                ctx,
                (
                    "run the {r} humidifier with its target humidity at {v}",
                    "turn on the humidifier in the {r} and set it to {v}",
                    "have the {r} humidifier keep the humidity at {v}",
                ),
                r=_label(room),
                v=inputs["humidity"].mention,
            ),
            setup=[
                ctx.op("add_room", name=room),
                ctx.op(
                    "add_device",
                    device_id=dev,
                    category="humidifier",
                    room=room,
                    state={"target_humidity": start},
                ),
            ],
            conditions=[
                ctx.cond("on", "device_power", device_id=dev, on=True),
                ctx.cond(
                    "target",
                    "device_attribute",
                    device_id=dev,
                    attribute="target_humidity",
                    equals=target,
                ),
            ],
            solution=[
                ctx.step("control_device", device_id=dev, command="turn_on", params={}),
                ctx.step(
                    "control_device",
                    device_id=dev,
                    command="set_target_humidity",
                    params={"humidity": target},
                ),
            ],
        )


@dataclass(frozen=True)
class SetLampBrightness:
    name: str = "sh_set_lamp_brightness"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("level", "percentage"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = _room(ctx)
        lamp = ctx.unique("lamp")
        level = int(inputs["level"].value)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "turn on the {r} dimmable lamp with its brightness (in %) set to {v}",
                    "switch the {r} lamp on and dim it to {v}",
                    "light the {r} lamp at a brightness of {v}",
                ),
                r=_label(room),
                v=inputs["level"].mention,
            ),
            setup=[
                ctx.op("add_room", name=room),
                ctx.op(
                    "add_device",
                    device_id=lamp,
                    category="dimmable_light",
                    room=room,
                    state={"brightness": 100 if level != 100 else 90},
                ),
            ],
            conditions=[
                ctx.cond("on", "device_power", device_id=lamp, on=True),
                ctx.cond("level", "device_attribute", device_id=lamp, attribute="brightness", equals=level),
            ],
            solution=[
                ctx.step("control_device", device_id=lamp, command="turn_on", params={}),
                ctx.step(
                    "control_device",
                    device_id=lamp,
                    command="set_brightness",
                    params={"brightness": level},
                ),
            ],
        )


@dataclass(frozen=True)
class ScheduleWasherStart:
    name: str = "sh_schedule_washer_start"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        room = ctx.unique(ctx.rng.choice(("utility_room", "laundry", "basement")))
        washer = ctx.unique("washer")
        at = str(inputs["time"].value)
        due = next_due(at)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "schedule the washing machine in the {r} to start at {v}",
                    "set the {r} washer to begin its cycle at {v}",
                    "have the washing machine in the {r} start automatically at {v}",
                ),
                r=_label(room),
                v=inputs["time"].mention,
            ),
            setup=[
                ctx.op("add_room", name=room),
                ctx.op(
                    "add_device",
                    device_id=washer,
                    category="washing_machine",
                    room=room,
                    state={"power": True},
                ),
            ],
            conditions=[
                ctx.cond(
                    "scheduled",
                    "schedule_exists",
                    device_id=washer,
                    command="start",
                    trigger="at",
                    due_at=due.isoformat(),
                ),
            ],
            solution=[ctx.step("create_schedule", device_id=washer, command="start", at=at)],
        )


LIBRARY = (
    ReadRoomTemperature(),
    ReadRoomHumidity(),
    ReadScheduledTime(),
    SetAcTarget(),
    SetHumidifierTarget(),
    SetLampBrightness(),
    ScheduleWasherStart(),
    *smarthome_devices.LIBRARY,
)
