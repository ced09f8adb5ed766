"""More SmartHome atomic tasks: reads of device states and controls of every category.

Reads: a heater's or an AC's target, a lamp's brightness, a curtain's position, a
purifier's PM2.5 reading, the minutes left in a washer's cycle, a robot vacuum's
battery, a humidifier's target, the time lights are scheduled to go off. Writes: a
heater's target, a curtain's position, a dehumidifier's target, a device scheduled at
a time or after a delay, a fan speed, a device switched on or off, an appliance
programme started, a dryer chained after the washer, and two two-input schedules (a
heater target at a time, a lamp brightness at a time).

The home models no locks, colour temperature or energy meters, so there are no such
tasks. Values only change when virtual time passes (``wait``/``advance_time``), which
no reference solution does, so a value read is the value the verifier expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from devicesworld.devices.smarthome.catalog import CATEGORIES
from devicesworld.spec.models import DEFAULT_START_TIME, Condition, DeviceOp, Step
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.phrasing import say
from devicesworld.tasks.composition.library.smarthome_common import KIND, next_due, room, room_label

Phrases = tuple[str, ...]


def _device(
    ctx: InstanceContext, category: str, state: dict[str, Any] | None = None
) -> tuple[str, str, list[DeviceOp]]:
    """A new room with one device of ``category``: (room, device id, setup ops)."""
    name = room(ctx)
    dev = ctx.unique(f"{name}_{category}")
    ops = [
        ctx.op("add_room", name=name),
        ctx.op("add_device", device_id=dev, category=category, room=name, state=state or {}),
    ]
    return name, dev, ops


def _control(ctx: InstanceContext, dev: str, command: str, **params: Any) -> Step:
    return ctx.step("control_device", device_id=dev, command=command, params=params)


def _attr(ctx: InstanceContext, cid: str, dev: str, attribute: str, value: Any) -> Condition:
    return ctx.cond(cid, "device_attribute", device_id=dev, attribute=attribute, equals=value)


# ======================================================================== reads
@dataclass(frozen=True)
class ReadAttribute:
    """A stored or measured attribute of one device, read with ``get_device_state``."""

    name: str
    category: str
    attribute: str
    slot_type: str
    values: tuple[Any, ...]
    mentions: Phrases
    state: tuple[tuple[str, Any], ...] = ()
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()

    @property
    def outputs(self) -> tuple[Slot, ...]:
        return (Slot("value", self.slot_type),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        value = ctx.rng.choice(self.values)
        name, dev, setup = _device(ctx, self.category, {**dict(self.state), self.attribute: value})
        return Fragment(
            instruction="",
            setup=setup,
            solution=[ctx.step("get_device_state", device_id=dev)],
            outputs={
                "value": SlotValue(
                    self.slot_type, value, say(ctx, self.mentions, r=room_label(name)), True, ctx.device_id
                )
            },
        )


HALF_DEGREES = tuple(x / 2 for x in range(36, 54))

READ_ATTRIBUTES = (
    ReadAttribute(
        "sh_read_heater_target",
        "heater",
        "target_temperature",
        "temperature",
        HALF_DEGREES,
        (
            "the target temperature of the {r} heater",
            "the temperature the {r} heater is set to",
            "what the heater in the {r} is set to hold (in °C)",
        ),
    ),
    ReadAttribute(
        "sh_read_ac_target",
        "air_conditioner",
        "target_temperature",
        "temperature",
        HALF_DEGREES,
        (
            "the target temperature of the {r} air conditioner",
            "the temperature the {r} AC is set to",
            "the set point of the air conditioner in the {r} (in °C)",
        ),
        (("power", True),),
    ),
    ReadAttribute(
        "sh_read_lamp_brightness",
        "dimmable_light",
        "brightness",
        "percentage",
        tuple(range(30, 85, 5)),
        (
            "the brightness (in %) of the {r} lamp",
            "how bright the {r} dimmable lamp is set, in percent",
            "the {r} lamp's brightness level",
        ),
        (("power", True),),
    ),
    ReadAttribute(
        "sh_read_curtain_position",
        "curtain",
        "position",
        "percentage",
        tuple(range(30, 85, 5)),
        (
            "how far open the {r} curtain is (in %)",
            "the position of the {r} curtain, in percent open",
            "the {r} curtain's opening percentage",
        ),
    ),
    ReadAttribute(
        "sh_read_humidifier_target",
        "humidifier",
        "target_humidity",
        "humidity",
        tuple(range(35, 70, 5)),
        (
            "the target humidity of the {r} humidifier",
            "the humidity (in %) the {r} humidifier is set to reach",
            "what the humidifier in the {r} is set to, in %",
        ),
    ),
)


@dataclass(frozen=True)
class ReadPm25:
    name: str = "sh_read_pm25"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("pm25", "concentration"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        name = room(ctx)
        dev = ctx.unique(f"{name}_purifier")
        value = ctx.rng.randrange(8, 60)
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_room", name=name, pm25=float(value)),
                ctx.op("add_device", device_id=dev, category="air_purifier", room=name),
            ],
            solution=[ctx.step("get_device_state", device_id=dev)],
            outputs={
                "pm25": SlotValue(
                    "concentration",
                    value,
                    say(
                        ctx,
                        (
                            "the PM2.5 reading (µg/m³) of the {r} air purifier",
                            "the fine-dust level (PM2.5) the purifier measures in the {r}",
                            "the {r}'s PM2.5 value as its air purifier reports it",
                        ),
                        r=room_label(name),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadWasherRemaining:
    name: str = "sh_read_washer_remaining"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("minutes", "duration"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        name = ctx.unique(ctx.rng.choice(("utility_room", "laundry", "basement")))
        washer = ctx.unique("washer")
        program = ctx.rng.choice(("cotton", "synthetics", "delicate"))
        total = CATEGORIES["washing_machine"].programs[program]
        elapsed = ctx.rng.randrange(5, total - 10)
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_room", name=name),
                ctx.op(
                    "add_device",
                    device_id=washer,
                    category="washing_machine",
                    room=name,
                    state={"power": True, "program": program},
                ),
                ctx.op("start_cycle", device_id=washer, program=program, elapsed_minutes=elapsed),
            ],
            solution=[ctx.step("get_device_state", device_id=washer)],
            outputs={
                "minutes": SlotValue(
                    "duration",
                    total - elapsed,
                    say(
                        ctx,
                        (
                            "the number of minutes left on the {r} washing machine's cycle",
                            "how many minutes the washer in the {r} still needs",
                            "the remaining time (in minutes) of the {r} washer's programme",
                        ),
                        r=room_label(name),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadVacuumBattery:
    name: str = "sh_read_vacuum_battery"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("battery", "percentage"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        name = room(ctx)
        robot = ctx.unique("robot_vacuum")
        value = ctx.rng.choice(range(30, 85, 5))  # also a valid humidity target
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_room", name=name),
                ctx.op("add_device", device_id=robot, category="robot_vacuum", room=name),
                ctx.op("set_state", device_id=robot, attributes={"battery": value}),
            ],
            solution=[ctx.step("get_device_state", device_id=robot)],
            outputs={
                "battery": SlotValue(
                    "percentage",
                    value,
                    say(
                        ctx,
                        (
                            "the battery level (in %) of the robot vacuum docked in the {r}",
                            "how charged the robot vacuum in the {r} is, in percent",
                            "the {r} robot vacuum's battery percentage",
                        ),
                        r=room_label(name),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadLightsOffTime:
    name: str = "sh_read_lights_off_time"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        name, lamp, setup = _device(ctx, "light", {"power": True})
        at = f"{ctx.rng.randrange(18, 24):02d}:{ctx.rng.choice([0, 15, 30, 45]):02d}"
        return Fragment(
            instruction="",
            setup=[*setup, ctx.op("add_schedule", device_id=lamp, command="turn_off", at=at)],
            solution=[ctx.step("list_schedules")],
            outputs={
                "time": SlotValue(
                    "time_of_day",
                    at,
                    say(
                        ctx,
                        (
                            "the time the {r} light is scheduled to switch off",
                            "when the home will turn off the {r} light",
                            "the scheduled switch-off time of the {r} light",
                        ),
                        r=room_label(name),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


# ======================================================================= writes
@dataclass(frozen=True)
class SetHeaterTarget:
    name: str = "sh_set_heater_target"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        target = float(inputs["temperature"].value)
        start = 16.0 if target != 16.0 else 17.0
        name, dev, setup = _device(ctx, "heater", {"mode": "eco", "target_temperature": start})
        return Fragment(
            instruction=say(
                ctx,
                (
                    "turn on the {r} heater in heat mode with the target at {v}",
                    "heat the {r}: switch its heater on (heat mode) and set it to {v}",
                    "set the {r} heater to heat mode at {v} and make sure it is on",
                ),
                r=room_label(name),
                v=inputs["temperature"].mention,
            ),
            setup=setup,
            conditions=[
                ctx.cond("on", "device_power", device_id=dev, on=True),
                _attr(ctx, "mode", dev, "mode", "heat"),
                _attr(ctx, "target", dev, "target_temperature", target),
            ],
            solution=[
                _control(ctx, dev, "turn_on"),
                _control(ctx, dev, "set_mode", mode="heat"),
                _control(ctx, dev, "set_target_temperature", temperature=target),
            ],
        )


@dataclass(frozen=True)
class SetCurtainPosition:
    name: str = "sh_set_curtain_position"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("position", "percentage"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        position = int(inputs["position"].value)
        name, dev, setup = _device(ctx, "curtain", {"position": 0 if position else 100})
        return Fragment(
            instruction=say(
                ctx,
                (
                    "open the {r} curtain to {v}",
                    "set the {r} curtain's position (% open) to {v}",
                    "move the curtain in the {r} to an opening of {v}",
                ),
                r=room_label(name),
                v=inputs["position"].mention,
            ),
            setup=setup,
            conditions=[_attr(ctx, "position", dev, "position", position)],
            solution=[_control(ctx, dev, "set_position", position=position)],
        )


@dataclass(frozen=True)
class SetDehumidifierTarget:
    name: str = "sh_set_dehumidifier_target"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("humidity", "humidity"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        target = int(inputs["humidity"].value)
        name, dev, setup = _device(ctx, "dehumidifier", {"target_humidity": 75 if target != 75 else 70})
        return Fragment(
            instruction=say(
                ctx,
                (
                    "switch on the {r} dehumidifier with its target humidity at {v}",
                    "dry the {r} air: dehumidifier on, target {v}",
                    "have the dehumidifier in the {r} bring the humidity down to {v}",
                ),
                r=room_label(name),
                v=inputs["humidity"].mention,
            ),
            setup=setup,
            conditions=[
                ctx.cond("on", "device_power", device_id=dev, on=True),
                _attr(ctx, "target", dev, "target_humidity", target),
            ],
            solution=[
                _control(ctx, dev, "turn_on"),
                _control(ctx, dev, "set_target_humidity", humidity=target),
            ],
        )


SCHEDULABLE: tuple[tuple[str, str, dict[str, Any], Phrases], ...] = (
    (
        "light",
        "turn_on",
        {"power": False},
        ("switch on the {r} light", "turn the {r} light on", "put the {r} light on"),
    ),
    (
        "heater",
        "turn_on",
        {"power": False},
        ("turn on the {r} heater", "start heating the {r}", "switch the {r} heater on"),
    ),
    (
        "air_purifier",
        "turn_off",
        {"power": True},
        ("switch off the {r} air purifier", "turn the {r} purifier off", "stop the air purifier in the {r}"),
    ),
    (
        "curtain",
        "close",
        {"position": 100},
        ("close the {r} curtain", "draw the {r} curtain shut", "close the curtain in the {r}"),
    ),
)


@dataclass(frozen=True)
class ScheduleDeviceAt:
    name: str = "sh_schedule_device_at"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        category, command, state, actions = ctx.rng.choice(SCHEDULABLE)
        name, dev, setup = _device(ctx, category, state)
        at = str(inputs["time"].value)
        action = say(ctx, actions, r=room_label(name))
        return Fragment(
            instruction=say(
                ctx,
                (
                    "schedule the home to {a} at {v}",
                    "set up a schedule to {a} at {v}",
                    "make the home {a} automatically at {v}",
                ),
                a=action,
                v=inputs["time"].mention,
            ),
            setup=setup,
            conditions=[
                ctx.cond(
                    "scheduled",
                    "schedule_exists",
                    device_id=dev,
                    command=command,
                    due_at=next_due(at).isoformat(),
                )
            ],
            solution=[ctx.step("create_schedule", device_id=dev, command=command, at=at)],
        )


DELAY_STATED = (
    "schedule the home to {a} in {v} minutes",
    "{a} {v} minutes from now, with a schedule",
    "set a delayed schedule to {a} after {v} minutes",
)
DELAY_MENTIONED = (
    "schedule the home to {a} after a delay, in minutes, equal to {v}",
    "set a delayed schedule to {a}; the delay in minutes is {v}",
    "{a} later, with a schedule whose delay (in minutes) is {v}",
)


@dataclass(frozen=True)
class ScheduleAfterDelay:
    name: str = "sh_schedule_after_delay"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("minutes", "duration"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        category, command, state, actions = ctx.rng.choice(SCHEDULABLE)
        name, dev, setup = _device(ctx, category, state)
        minutes = float(inputs["minutes"].value)
        action = say(ctx, actions, r=room_label(name))
        return Fragment(
            instruction=say(
                ctx,
                DELAY_MENTIONED if inputs["minutes"].hidden else DELAY_STATED,
                a=action,
                v=inputs["minutes"].mention,
            ),
            setup=setup,
            conditions=[
                ctx.cond(
                    "scheduled",
                    "schedule_exists",
                    device_id=dev,
                    command=command,
                    due_at=(DEFAULT_START_TIME + timedelta(minutes=minutes)).isoformat(),
                )
            ],
            solution=[ctx.step("create_schedule", device_id=dev, command=command, delay_minutes=minutes)],
        )


@dataclass(frozen=True)
class SetFanSpeed:
    name: str = "sh_set_fan_speed"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        category, what = ctx.rng.choice(
            (("air_purifier", "air purifier"), ("air_conditioner", "air conditioner"))
        )
        speed = ctx.rng.choice(("low", "medium", "high"))
        name, dev, setup = _device(ctx, category, {"fan_speed": "auto"})
        return Fragment(
            instruction=say(
                ctx,
                (
                    "turn on the {r} {w} with the fan on {s}",
                    "run the {w} in the {r} at {s} fan speed",
                    "switch the {r} {w} on and set its fan to {s}",
                ),
                r=room_label(name),
                w=what,
                s=speed,
            ),
            setup=setup,
            conditions=[
                ctx.cond("on", "device_power", device_id=dev, on=True),
                _attr(ctx, "fan", dev, "fan_speed", speed),
            ],
            solution=[_control(ctx, dev, "turn_on"), _control(ctx, dev, "set_fan_speed", speed=speed)],
        )


SWITCHABLE: tuple[tuple[str, str], ...] = (
    ("light", "light"),
    ("heater", "heater"),
    ("air_purifier", "air purifier"),
    ("humidifier", "humidifier"),
    ("air_conditioner", "air conditioner"),
)


@dataclass(frozen=True)
class SwitchDevice:
    name: str = "sh_switch_device"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        category, what = ctx.rng.choice(SWITCHABLE)
        on = ctx.rng.random() < 0.5
        name, dev, setup = _device(ctx, category, {"power": not on})
        phrasings = (
            ("turn on the {w} in the {r}", "switch the {r} {w} on", "power up the {r} {w}")
            if on
            else ("turn off the {w} in the {r}", "switch the {r} {w} off", "shut the {r} {w} down")
        )
        return Fragment(
            instruction=say(ctx, phrasings, r=room_label(name), w=what),
            setup=setup,
            conditions=[ctx.cond("power", "device_power", device_id=dev, on=on)],
            solution=[_control(ctx, dev, "turn_on" if on else "turn_off")],
        )


@dataclass(frozen=True)
class StartAppliance:
    name: str = "sh_start_appliance"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        category, what = ctx.rng.choice((("washing_machine", "washing machine"), ("dryer", "dryer")))
        programs = list(CATEGORIES[category].programs)
        default = str(CATEGORIES[category].defaults["program"])
        program = ctx.rng.choice([p for p in programs if p != default])
        name = ctx.unique(ctx.rng.choice(("utility_room", "laundry", "basement")))
        dev = ctx.unique(category)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "start the {w} in the {r} on its {p} programme",
                    "run a {p} cycle on the {r} {w}",
                    "switch on the {r} {w}, pick the {p} programme and start it",
                ),
                w=what,
                r=room_label(name),
                p=program,
            ),
            setup=[
                ctx.op("add_room", name=name),
                ctx.op("add_device", device_id=dev, category=category, room=name),
            ],
            conditions=[
                _attr(ctx, "program", dev, "program", program),
                ctx.cond("running", "appliance_phase", device_id=dev, operational_state="running"),
            ],
            solution=[
                _control(ctx, dev, "turn_on"),
                _control(ctx, dev, "set_program", program=program),
                _control(ctx, dev, "start"),
            ],
        )


@dataclass(frozen=True)
class DryerAfterWasher:
    name: str = "sh_dryer_after_washer"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        name = ctx.unique(ctx.rng.choice(("utility_room", "laundry", "basement")))
        washer, dryer = ctx.unique("washer"), ctx.unique("dryer")
        delay = ctx.rng.choice((0, 5, 10, 15))
        when = "as soon as" if delay == 0 else f"{delay} minutes after"
        return Fragment(
            instruction=say(
                ctx,
                (
                    "make the {r} dryer start {d} the washing machine there completes",
                    "schedule the dryer in the {r} to start {d} the washer finishes its cycle",
                    "chain the laundry in the {r}: dryer starts {d} the washer is done",
                ),
                r=room_label(name),
                d=when,
            ),
            setup=[
                ctx.op("add_room", name=name),
                ctx.op(
                    "add_device",
                    device_id=washer,
                    category="washing_machine",
                    room=name,
                    state={"power": True},
                ),
                ctx.op("add_device", device_id=dryer, category="dryer", room=name, state={"power": True}),
                ctx.op("start_cycle", device_id=washer, elapsed_minutes=ctx.rng.randrange(5, 40)),
            ],
            conditions=[
                ctx.cond(
                    "chained",
                    "schedule_exists",
                    device_id=dryer,
                    command="start",
                    trigger="after_event",
                    event_device=washer,
                    event="completed",
                    delay_minutes=float(delay),
                )
            ],
            solution=[
                ctx.step(
                    "create_schedule",
                    device_id=dryer,
                    command="start",
                    after_event={"device_id": washer, "event": "completed", "delay_minutes": delay},
                )
            ],
        )


@dataclass(frozen=True)
class StartVacuum:
    name: str = "sh_start_vacuum"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        name = room(ctx)
        robot = ctx.unique("robot_vacuum")
        mode, said = ctx.rng.choice((("mop", "mop"), ("vacuum_and_mop", "vacuum and mop")))
        return Fragment(
            instruction=say(
                ctx,
                (
                    "set the robot vacuum (docked in the {r}) to {m} and start it",
                    "start a {m} run with the robot vacuum from the {r}",
                    "send the robot vacuum in the {r} out to {m} the home",
                ),
                r=room_label(name),
                m=said,
            ),
            setup=[
                ctx.op("add_room", name=name),
                ctx.op("add_device", device_id=robot, category="robot_vacuum", room=name),
                ctx.op("set_state", device_id=robot, attributes={"battery": 100}),
            ],
            conditions=[
                _attr(ctx, "mode", robot, "clean_mode", mode),
                ctx.cond("cleaning", "appliance_phase", device_id=robot, operational_state="cleaning"),
            ],
            solution=[_control(ctx, robot, "set_clean_mode", mode=mode), _control(ctx, robot, "start")],
        )


@dataclass(frozen=True)
class ScheduleHeaterTarget:
    """Two inputs: at time T, set the heater to temperature V."""

    name: str = "sh_schedule_heater_target"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"), Slot("temperature", "temperature"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        target = float(inputs["temperature"].value)
        at = str(inputs["time"].value)
        name, dev, setup = _device(ctx, "heater", {"power": True, "target_temperature": 16.0})
        return Fragment(
            instruction=say(
                ctx,
                (
                    "schedule the {r} heater to change its target to {v} at {t}",
                    "at {t}, the {r} heater should switch to {v}: set up that schedule",
                    "plan a schedule that sets the heater in the {r} to {v} at {t}",
                ),
                r=room_label(name),
                v=inputs["temperature"].mention,
                t=inputs["time"].mention,
            ),
            setup=setup,
            conditions=[
                ctx.cond(
                    "scheduled",
                    "schedule_exists",
                    device_id=dev,
                    command="set_target_temperature",
                    params={"temperature": target},
                    due_at=next_due(at).isoformat(),
                )
            ],
            solution=[
                ctx.step(
                    "create_schedule",
                    device_id=dev,
                    command="set_target_temperature",
                    params={"temperature": target},
                    at=at,
                )
            ],
        )


@dataclass(frozen=True)
class ScheduleLampBrightness:
    """Two inputs: at time T, dim the lamp to brightness V."""

    name: str = "sh_schedule_lamp_brightness"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"), Slot("level", "percentage"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        level = int(inputs["level"].value)
        at = str(inputs["time"].value)
        name, dev, setup = _device(ctx, "dimmable_light", {"power": True, "brightness": 100})
        return Fragment(
            instruction=say(
                ctx,
                (
                    "schedule the {r} lamp to dim to {v} at {t}",
                    "at {t}, the {r} lamp should go to {v} brightness: schedule it",
                    "set up a schedule that changes the {r} lamp's brightness to {v} at {t}",
                ),
                r=room_label(name),
                v=inputs["level"].mention,
                t=inputs["time"].mention,
            ),
            setup=setup,
            conditions=[
                ctx.cond(
                    "scheduled",
                    "schedule_exists",
                    device_id=dev,
                    command="set_brightness",
                    params={"brightness": level},
                    due_at=next_due(at).isoformat(),
                )
            ],
            solution=[
                ctx.step(
                    "create_schedule",
                    device_id=dev,
                    command="set_brightness",
                    params={"brightness": level},
                    at=at,
                )
            ],
        )


LIBRARY = (
    *READ_ATTRIBUTES,
    ReadPm25(),
    ReadWasherRemaining(),
    ReadVacuumBattery(),
    ReadLightsOffTime(),
    SetHeaterTarget(),
    SetCurtainPosition(),
    SetDehumidifierTarget(),
    ScheduleDeviceAt(),
    ScheduleAfterDelay(),
    SetFanSpeed(),
    SwitchDevice(),
    StartAppliance(),
    DryerAfterWasher(),
    StartVacuum(),
    ScheduleHeaterTarget(),
    ScheduleLampBrightness(),
)
