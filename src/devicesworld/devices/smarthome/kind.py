"""The ``smarthome`` device kind: every action, setup op, getter and check, declared as data.

The environment, the spec validator and the prompt builders read these tables; the
simulator behind them lives in :mod:`home` and is reached through :mod:`device`.
"""

from __future__ import annotations

from devicesworld.devices.base import ActionSpec, DeviceKind, GetterSpec, OpSpec, by_name
from devicesworld.devices.smarthome import args as a
from devicesworld.devices.smarthome.checks import CHECKS
from devicesworld.devices.smarthome.device import factory
from devicesworld.devices.smarthome.state import STATE
from devicesworld.devices.smarthome.world import WORLD

ACTIONS = [
    ActionSpec(name="list_rooms", doc="List the rooms of the home."),
    ActionSpec(
        name="list_devices",
        doc="List devices (id, name, category, room), optionally in one room; no state.",
        args_model=a.ListDevicesArgs,
    ),
    ActionSpec(
        name="get_device_state", doc="Read all attributes of a device now.", args_model=a.DeviceIdArgs
    ),
    ActionSpec(
        name="get_capabilities",
        doc="A device's attributes (unit, range, step, writable), commands with params, and events.",
        args_model=a.DeviceIdArgs,
    ),
    ActionSpec(
        name="get_room_status",
        doc="A room's sensors now: temperature °C, humidity %, PM2.5 µg/m³, illuminance lux.",
        args_model=a.RoomArgs,
    ),
    ActionSpec(
        name="control_device",
        doc="Run a device command now, e.g. command='set_target_temperature', params={'temperature': 22}.",
        args_model=a.ControlArgs,
    ),
    ActionSpec(
        name="set_device_attribute",
        doc="Write one writable attribute (uses the matching command), e.g. attribute='power', value=true.",
        args_model=a.SetAttributeArgs,
    ),
    ActionSpec(
        name="create_schedule",
        doc="Run a command later: give exactly one of at ('HH:MM' or ISO), delay_minutes, or after_event.",
        args_model=a.CreateScheduleArgs,
    ),
    ActionSpec(
        name="list_schedules", doc="List schedules with their status.", args_model=a.ListSchedulesArgs
    ),
    ActionSpec(name="cancel_schedule", doc="Cancel a pending schedule.", args_model=a.ScheduleIdArgs),
    ActionSpec(
        name="advance_time",
        doc="Let virtual time pass; appliances and schedules run meanwhile.",
        args_model=a.AdvanceArgs,
    ),
    ActionSpec(name="wait", doc="Same as advance_time.", args_model=a.AdvanceArgs),
    ActionSpec(name="get_time", doc="The current virtual date and time."),
]

SETUP_OPS = [
    OpSpec(
        name="configure_home", doc="Name the home and set outdoor conditions.", args_model=a.ConfigureHomeArgs
    ),
    OpSpec(name="add_room", doc="Add a room with its initial climate.", args_model=a.AddRoomArgs),
    OpSpec(name="add_device", doc="Add a device of a category to a room.", args_model=a.AddDeviceArgs),
    OpSpec(
        name="set_state",
        doc="Write stored attributes directly (and a vacuum's battery).",
        args_model=a.SetStateArgs,
    ),
    OpSpec(name="add_schedule", doc="Add a pre-existing schedule.", args_model=a.CreateScheduleArgs),
    OpSpec(
        name="start_cycle",
        doc="Start a washer/dryer (optionally elapsed_minutes ago) or a robot vacuum.",
        args_model=a.StartCycleArgs,
    ),
]

GETTERS = [
    GetterSpec(name="state", doc="The whole home: rooms, devices, schedules, history, events."),
    GetterSpec(name="device", doc="One device with all its attributes.", args_model=a.DeviceIdArgs),
    GetterSpec(name="room", doc="One room's sensors at the current time.", args_model=a.RoomArgs),
    GetterSpec(name="schedules", doc="All schedules."),
    GetterSpec(name="history", doc="Every control attempt (agent, schedule, setup)."),
    GetterSpec(name="time", doc="The home's current time (ISO)."),
]

KIND = DeviceKind(
    name="smarthome",
    doc="A simulated home: 11 device categories, room climate, appliances, schedules, virtual clock.",
    factory=factory,
    actions=by_name(ACTIONS),
    setup_ops=by_name(SETUP_OPS),
    getters=by_name(GETTERS),
    checks=by_name(CHECKS),
    profile_model=a.HomeProfile,
    state=STATE,
    world=WORLD,
)
