"""The SmartHome device: adapts :class:`Home` to the framework's device protocol.

It owns one home per device instance (no module state, so any number of homes can
live in one process), follows the task's shared virtual clock, turns simulator
errors into failed :class:`ActionResult` s for agents and into :class:`DeviceError`
for setup and getters, and keeps the home's state out of the observation: the agent
must query it, as the paper specifies.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from devicesworld.devices.base import ActionResult, Args, DeviceContext, NoArgs
from devicesworld.devices.declare import ActionTable, GetterTable, OpTable
from devicesworld.devices.listing import cut_note
from devicesworld.devices.smarthome import args as a
from devicesworld.devices.smarthome import outcomes, views
from devicesworld.devices.smarthome.errors import ErrorCode, SmartHomeError
from devicesworld.devices.smarthome.home import Home
from devicesworld.devices.smarthome.scheduler import Schedule
from devicesworld.devices.smarthome.timefmt import parse_at, to_iso, to_seconds

_STATE_HINT = "No state shown here: query it (list_devices, get_device_state, get_room_status, ...)."


ACTIONS: ActionTable[SmartHomeDevice] = ActionTable("smarthome")
SETUP_OPS: OpTable[SmartHomeDevice] = OpTable("smarthome")
GETTERS: GetterTable[SmartHomeDevice] = GetterTable("smarthome")


class SmartHomeDevice:
    """One ``smarthome_<n>`` instance of a task."""

    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self._clock = context.clock
        self.home = Home(context.clock.now)
        self._closed = False
        p = a.HomeProfile.model_validate(dict(profile))
        self.home.configure(
            p.name,
            {"temperature": p.outdoor_temperature, "humidity": p.outdoor_humidity, "pm25": p.outdoor_pm25},
        )
        context.clock.subscribe(self._on_clock)

    # --- protocol ------------------------------------------------------------------------

    def setup(self, op: str, args: Args) -> None:
        self._sync()
        SETUP_OPS.call(self, op, args)

    def act(self, action: str, args: Args) -> ActionResult:
        if self._closed:
            return ActionResult.failure(str(ErrorCode.INVALID_IN_STATE), "this home has been closed")
        self._sync()
        try:
            return ACTIONS.act(self, action, args)
        except SmartHomeError as err:
            return ActionResult.failure(err.code, err.message)

    def observe(self) -> dict[str, Any]:
        return {"home": self.home.name, "time": self._now_iso(), "note": _STATE_HINT}

    def get(self, getter: str, args: Args) -> object:
        self._sync()
        return GETTERS.call(self, getter, args)

    def close(self) -> None:
        self._closed = True
        h = self.home
        h.queue.clear()
        h.rooms.clear()
        h.devices.clear()
        h.schedules.clear()
        h.history.clear()
        h.events.clear()

    # --- time ----------------------------------------------------------------------------

    def _on_clock(self, old: datetime, new: datetime) -> None:
        if not self._closed:
            self.home.advance_to(to_seconds(self.home.epoch, new))

    def _sync(self) -> None:
        target = to_seconds(self.home.epoch, self._clock.now)
        if target > self.home.now:
            self.home.advance_to(target)

    def _now_iso(self) -> str:
        return to_iso(self.home.epoch, self.home.now)

    # --- agent actions -------------------------------------------------------------------

    @ACTIONS.register("list_rooms", doc="List the rooms of the home.")
    def _list_rooms(self, args: NoArgs) -> ActionResult:
        rooms = [{"room": r.name, "devices": len(r.device_ids)} for r in self.home.rooms.values()]
        return ActionResult.success(f"{len(rooms)} room(s)", rooms)

    @ACTIONS.register(
        "list_devices",
        doc=f"List devices (id, name, category, room), filtered, {a.DEVICE_PAGE} a page; no state.",
        args=a.ListDevicesArgs,
    )
    def _list_devices(self, args: a.ListDevicesArgs) -> ActionResult:
        if args.room is not None:
            room = self.home.room(args.room)
            devs = [self.home.devices[d] for d in room.device_ids]
        else:
            devs = list(self.home.devices.values())
        if args.category is not None:
            devs = [d for d in devs if d.category.name == args.category]
        if args.contains:
            word = args.contains.casefold()
            devs = [d for d in devs if word in d.id.casefold() or word in d.name.casefold()]
        return _page(
            "device(s)", "list_devices", [views.device_summary(d) for d in devs], args.start, a.DEVICE_PAGE
        )

    @ACTIONS.register("get_device_state", doc="Read all attributes of a device now.", args=a.DeviceIdArgs)
    def _get_device_state(self, args: a.DeviceIdArgs) -> ActionResult:
        dev = self.home.device(args.device_id)
        return ActionResult.success(f"state of {dev.id}", views.device_view(self.home, dev))

    @ACTIONS.register(
        "get_capabilities",
        doc="A device's attributes (unit, range, step, writable), commands with params, and events.",
        args=a.DeviceIdArgs,
    )
    def _get_capabilities(self, args: a.DeviceIdArgs) -> ActionResult:
        dev = self.home.device(args.device_id)
        data = {"device_id": dev.id, **dev.category.describe()}
        return ActionResult.success(f"capabilities of {dev.id}", data)

    @ACTIONS.register(
        "get_room_status",
        doc="A room's sensors now: temperature °C, humidity %, PM2.5 µg/m³, illuminance lux.",
        args=a.RoomArgs,
    )
    def _get_room_status(self, args: a.RoomArgs) -> ActionResult:
        room = self.home.room(args.room)
        return ActionResult.success(f"sensors of {room.name}", views.room_view(self.home, room))

    @ACTIONS.register(
        "control_device",
        doc="Run a device command now, e.g. 'set_target_temperature' with params {'temperature': 22}.",
        args=a.ControlArgs,
    )
    def _control_device(self, args: a.ControlArgs) -> ActionResult:
        message = self.home.execute(args.device_id, args.command, dict(args.params), "agent")
        return ActionResult.success(message, views.device_view(self.home, self.home.devices[args.device_id]))

    @ACTIONS.register(
        "set_device_attribute",
        doc="Write one writable attribute (uses the matching command), e.g. attribute='power', value=true.",
        args=a.SetAttributeArgs,
    )
    def _set_device_attribute(self, args: a.SetAttributeArgs) -> ActionResult:
        dev = self.home.device(args.device_id)
        attr = dev.attribute(args.attribute)
        if attr.setter is None:
            raise SmartHomeError(
                ErrorCode.READ_ONLY,
                f"{dev.id}.{args.attribute} is read-only (measured or computed by the device)",
            )
        if args.attribute == "power":
            if not isinstance(args.value, bool):
                raise SmartHomeError(ErrorCode.INVALID_ARGS, f"{dev.id}.power must be true or false")
            command, params = ("turn_on" if args.value else "turn_off"), {}
        else:
            command = attr.setter
            param = dev.category.commands[command].params[0].name
            params = {param: args.value}
        return self._control_device(a.ControlArgs(device_id=dev.id, command=command, params=params))

    def _schedule(self, args: a.CreateScheduleArgs, created_by: str) -> Schedule:
        home = self.home
        if args.at is not None:
            due = parse_at(args.at, home.epoch, home.now)
            return home.create_schedule(
                args.device_id, args.command, dict(args.params), "at", created_by, at=due
            )
        if args.delay_minutes is not None:
            return home.create_schedule(
                args.device_id,
                args.command,
                dict(args.params),
                "delay",
                created_by,
                delay_minutes=args.delay_minutes,
            )
        ev = args.after_event
        assert ev is not None
        return home.create_schedule(
            args.device_id,
            args.command,
            dict(args.params),
            "after_event",
            created_by,
            delay_minutes=ev.delay_minutes,
            event_device=ev.device_id,
            event=ev.event,
        )

    @ACTIONS.register(
        "create_schedule",
        doc="Run a command later: give exactly one of at, delay_minutes, after_event.",
        args=a.CreateScheduleArgs,
    )
    def _create_schedule(self, args: a.CreateScheduleArgs) -> ActionResult:
        sched = self._schedule(args, "agent")
        view = views.schedule_view(self.home, sched)
        if view["due_at"] is not None:
            when = f"at {view['due_at']}"
        else:
            when = f"{sched.delay_minutes or 0:g} min after {sched.event_device} {sched.event}"
        return ActionResult.success(f"created {sched.id}: {sched.device_id}.{sched.command} {when}", view)

    @ACTIONS.register(
        "list_schedules",
        doc=f"List schedules with their status, filtered, {a.SCHEDULE_PAGE} a page.",
        args=a.ListSchedulesArgs,
    )
    def _list_schedules(self, args: a.ListSchedulesArgs) -> ActionResult:
        items = [
            views.schedule_view(self.home, s)
            for s in self.home.schedules.values()
            if (args.status is None or s.status == args.status)
            and (args.device_id is None or s.device_id == args.device_id)
        ]
        return _page("schedule(s)", "list_schedules", items, args.start, a.SCHEDULE_PAGE)

    @ACTIONS.register("cancel_schedule", doc="Cancel a pending schedule.", args=a.ScheduleIdArgs)
    def _cancel_schedule(self, args: a.ScheduleIdArgs) -> ActionResult:
        sched = self.home.cancel_schedule(args.schedule_id)
        return ActionResult.success(f"{sched.id} cancelled", views.schedule_view(self.home, sched))

    @ACTIONS.register("wait", doc="Same as advance_time.", args=a.AdvanceArgs)
    @ACTIONS.register(
        "advance_time",
        doc="Let virtual time pass; appliances and schedules run meanwhile.",
        args=a.AdvanceArgs,
    )
    def _advance_time(self, args: a.AdvanceArgs) -> ActionResult:
        fired_before = len(self.home.history)
        self._clock.advance(args.minutes * 60.0)
        self._sync()
        happened = [views.history_view(self.home, h) for h in self.home.history[fired_before:]]
        return ActionResult.success(
            f"advanced {args.minutes:g} min; it is now {self._now_iso()}",
            {"time": self._now_iso(), "scheduled_commands_run": happened},
        )

    @ACTIONS.register("get_time", doc="The current virtual date and time.")
    def _get_time(self, args: NoArgs) -> ActionResult:
        return ActionResult.success(f"it is {self._now_iso()}", {"time": self._now_iso()})

    # --- setup ops -----------------------------------------------------------------------

    @SETUP_OPS.register(
        "configure_home", doc="Name the home and set outdoor conditions.", args=a.ConfigureHomeArgs
    )
    def _configure_home(self, args: a.ConfigureHomeArgs) -> None:
        self.home.configure(
            args.name,
            {
                "temperature": args.outdoor_temperature,
                "humidity": args.outdoor_humidity,
                "pm25": args.outdoor_pm25,
            },
        )

    @SETUP_OPS.register("add_room", doc="Add a room with its initial climate.", args=a.AddRoomArgs)
    def _add_room(self, args: a.AddRoomArgs) -> None:
        climate = {"temperature": args.temperature, "humidity": args.humidity, "pm25": args.pm25}
        self.home.add_room(args.name, climate, args.has_window)

    @SETUP_OPS.register("add_device", doc="Add a device of a category to a room.", args=a.AddDeviceArgs)
    def _add_device(self, args: a.AddDeviceArgs) -> None:
        self.home.add_device(args.device_id, args.category, args.room, args.name)
        if args.state:
            self.home.set_stored(args.device_id, dict(args.state))

    @SETUP_OPS.register(
        "set_state", doc="Write stored attributes directly (and a vacuum's battery).", args=a.SetStateArgs
    )
    def _set_state(self, args: a.SetStateArgs) -> None:
        self.home.set_stored(args.device_id, dict(args.attributes))

    @SETUP_OPS.register("add_schedule", doc="Add a pre-existing schedule.", args=a.CreateScheduleArgs)
    def _add_schedule(self, args: a.CreateScheduleArgs) -> None:
        self._schedule(args, "setup")

    @SETUP_OPS.register(
        "start_cycle",
        doc="Start a washer/dryer (optionally elapsed_minutes ago) or a robot vacuum.",
        args=a.StartCycleArgs,
    )
    def _start_cycle(self, args: a.StartCycleArgs) -> None:
        home = self.home
        dev = home.device(args.device_id)
        if dev.cycle is None and dev.rvc is None:
            raise SmartHomeError(
                ErrorCode.UNSUPPORTED, f"{dev.id} ({dev.category.name}) has no cycle to start"
            )
        if dev.category.has_power and not dev.attrs["power"]:
            home.execute(dev.id, "turn_on", {}, "setup")
        if args.program is not None:
            home.execute(dev.id, "set_program", {"program": args.program}, "setup")
        home.execute(dev.id, "start", {}, "setup")
        if args.elapsed_minutes > 0:
            if dev.cycle is None:
                raise SmartHomeError(
                    ErrorCode.INVALID_ARGS, "elapsed_minutes applies to washers and dryers only"
                )
            shift = args.elapsed_minutes * 60.0
            cycle = dev.cycle
            cycle.seg_start -= shift
            cycle.gen += 1
            home.queue.push(cycle.seg_start + cycle.plan[0][1], "cycle", dev.id, cycle.gen)
            home.advance_to(home.now)

    @SETUP_OPS.register(
        "remove_device",
        doc="Take a device (and the schedules that use it) out of the home.",
        args=a.DeviceIdArgs,
    )
    def _remove_device(self, args: a.DeviceIdArgs) -> None:
        self.home.remove_device(args.device_id)

    @SETUP_OPS.register(
        "remove_room", doc="Take a room, its devices and their schedules out of the home.", args=a.RoomArgs
    )
    def _remove_room(self, args: a.RoomArgs) -> None:
        self.home.remove_room(args.room)

    # --- getters (what verifiers read) ---------------------------------------------------

    @GETTERS.register("state", doc="The whole home: rooms, devices, schedules, history, events.")
    def _state(self, args: NoArgs) -> object:
        return views.state_view(self.home)

    @GETTERS.register("device", doc="One device with all its attributes.", args=a.DeviceIdArgs)
    def _device(self, args: a.DeviceIdArgs) -> object:
        return views.device_view(self.home, self.home.device(args.device_id))

    @GETTERS.register("room", doc="One room's sensors at the current time.", args=a.RoomArgs)
    def _room(self, args: a.RoomArgs) -> object:
        return views.room_view(self.home, self.home.room(args.room))

    @GETTERS.register("schedules", doc="All schedules.")
    def _schedules(self, args: NoArgs) -> object:
        return [views.schedule_view(self.home, s) for s in self.home.schedules.values()]

    @GETTERS.register("history", doc="Every control attempt (agent, schedule, setup).")
    def _history(self, args: NoArgs) -> object:
        return [views.history_view(self.home, h) for h in self.home.history]

    @GETTERS.register(
        "timeline",
        doc="Every command run so far and those a copy of the home runs over the next `hours` "
        "(outcomes.py), with device events.",
        args=a.TimelineArgs,
    )
    def _timeline(self, args: a.TimelineArgs) -> object:
        return outcomes.timeline(self.home, args.hours)

    @GETTERS.register("time", doc="The home's current time (ISO).")
    def _time(self, args: NoArgs) -> object:
        return self._now_iso()


def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> SmartHomeDevice:
    return SmartHomeDevice(device_id, profile, context)


def _page(what: str, action: str, items: list[dict[str, Any]], start: int, size: int) -> ActionResult:
    """One page of a listing; the message says what is left and which call lists it."""
    page = items[start : start + size]
    if start == 0 and len(items) <= size:
        return ActionResult.success(f"{len(items)} {what}", page)
    shown = f"{start + 1}-{start + len(page)}" if page else "none"
    message = f"{len(items)} {what}, {shown} shown"
    if start + size < len(items):
        message += " " + cut_note(
            f"{len(items) - start - size} more",
            f'{action} {{"start": {start + size}}} (same filters) lists them',
        )
    return ActionResult.success(message, page)
