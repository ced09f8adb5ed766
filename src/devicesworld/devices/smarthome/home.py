"""The Home: rooms, devices, schedules, history, and the event loop that moves time.

This is the simulator proper, free of the device protocol (see :mod:`device`) and
of pydantic: plain dataclasses on the hot path. Every state change goes through
:meth:`Home.execute`, which validates against the catalog, re-anchors the room's
climate around the change and records the attempt in the history, so agent
commands, schedule firings and setup share one code path and one audit trail.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from devicesworld.devices.smarthome import physics
from devicesworld.devices.smarthome.appliances import Cycle, Rvc
from devicesworld.devices.smarthome.capabilities import Attribute
from devicesworld.devices.smarthome.catalog import CATEGORIES, CATEGORY_NAMES, Category
from devicesworld.devices.smarthome.commands import HANDLERS
from devicesworld.devices.smarthome.errors import ErrorCode, SmartHomeError
from devicesworld.devices.smarthome.scheduler import EventQueue, Schedule, TriggerKind

DEFAULT_OUTDOOR = {"temperature": 15.0, "humidity": 60.0, "pm25": 25.0}
_RANGES = {"temperature": (-30.0, 50.0, "°C"), "humidity": (0.0, 100.0, "%"), "pm25": (0.0, 1000.0, "µg/m³")}


@dataclass(slots=True)
class Room:
    name: str
    has_window: bool
    climate: dict[str, physics.Trajectory]
    device_ids: list[str] = field(default_factory=list)
    gen: int = 0


@dataclass(slots=True)
class HomeDevice:
    id: str
    name: str
    category: Category
    room: str
    attrs: dict[str, Any]
    cycle: Cycle | None = None
    rvc: Rvc | None = None

    def unsupported(self, lack: str, offer: str) -> SmartHomeError:
        """UNSUPPORTED: ``<id> (<category>) <lack>; <offer>`` (what it lacks, then what it has instead)."""
        return SmartHomeError(ErrorCode.UNSUPPORTED, f"{self.id} ({self.category.name}) {lack}; {offer}")

    def attribute(self, name: str) -> Attribute:
        """The category's attribute ``name``; UNSUPPORTED, naming the ones it has, otherwise."""
        attr = self.category.attributes.get(name)
        if attr is None:
            raise self.unsupported(
                f"has no attribute {name!r}", f"it has: {', '.join(self.category.attributes)}"
            )
        return attr


@dataclass(slots=True)
class HistoryEntry:
    time: float
    device_id: str
    command: str
    params: dict[str, Any]
    ok: bool
    source: str
    error_code: str | None = None
    message: str = ""
    schedule_id: str | None = None
    changed: bool = True
    """Whether the command changed the device's stored attributes (a no-op — turning off a light
    that is off — leaves no trace in the collateral guard's snapshot)."""
    before: dict[str, Any] | None = None
    """The device's stored attributes right before a successful command (what undoing it restores)."""
    after: dict[str, Any] | None = None
    """The device's stored attributes right after a successful command: what the command's outcome
    was (a dryer started with its programme set earlier still ran that programme)."""


T = TypeVar("T")


def _found(value: T | None, missing: Callable[[], str]) -> T:
    """``value`` looked up by a name, or NOT_FOUND with the message ``missing`` builds (only then)."""
    if value is None:
        raise SmartHomeError(ErrorCode.NOT_FOUND, missing())
    return value


def check_climate(variable: str, value: float) -> float:
    lo, hi, unit = _RANGES[variable]
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise SmartHomeError(
            ErrorCode.OUT_OF_RANGE, f"{variable} {value!r} must be within {lo:g}-{hi:g} {unit}"
        )
    return float(value)


class Home:
    """One simulated home. Time is ``now`` seconds since ``epoch`` (the virtual clock at creation)."""

    def __init__(self, epoch: datetime) -> None:
        self.epoch = epoch
        self.now = 0.0
        self.name = "Home"
        self.outdoor = dict(DEFAULT_OUTDOOR)
        self.rooms: dict[str, Room] = {}
        self.devices: dict[str, HomeDevice] = {}
        self.schedules: dict[str, Schedule] = {}
        self._schedules_made = 0
        self.history: list[HistoryEntry] = []
        self.events: list[tuple[float, str, str]] = []
        self.queue = EventQueue()
        self._epoch_hour = epoch.hour + epoch.minute / 60.0 + epoch.second / 3600.0

    # --- building ------------------------------------------------------------------------

    def configure(self, name: str, outdoor: dict[str, float]) -> None:
        self.name = name
        for variable, value in outdoor.items():
            self.outdoor[variable] = check_climate(variable, value)
        for room in self.rooms.values():
            self.reanchor(room)

    def add_room(self, name: str, climate: dict[str, float], has_window: bool = True) -> Room:
        if name in self.rooms:
            raise SmartHomeError(ErrorCode.CONFLICT, f"room {name!r} already exists")
        values = {v: check_climate(v, climate.get(v, self.outdoor[v])) for v in physics.VARIABLES}
        room = Room(name, has_window, {v: physics.Trajectory(values[v], self.now) for v in physics.VARIABLES})
        self.rooms[name] = room
        self.reanchor(room)
        return room

    def add_device(self, device_id: str, category: str, room: str, name: str | None) -> HomeDevice:
        if device_id in self.devices:
            raise SmartHomeError(ErrorCode.CONFLICT, f"device {device_id!r} already exists")
        cat = CATEGORIES.get(category)
        if cat is None:
            raise SmartHomeError(
                ErrorCode.NOT_FOUND, f"unknown category {category!r}; known: {', '.join(CATEGORY_NAMES)}"
            )
        target_room = self.room(room)
        dev = HomeDevice(device_id, name or device_id.replace("_", " "), cat, room, dict(cat.defaults))
        if cat.phases:
            dev.cycle = Cycle()
        if cat.name == "robot_vacuum":
            dev.rvc = Rvc(t0=self.now)
            dev.rvc.dock(self.now)
        self.devices[device_id] = dev
        target_room.device_ids.append(device_id)
        return dev

    def remove_device(self, device_id: str) -> None:
        """Setup only: take a device out of the home, with every schedule that runs it or waits on it."""
        dev = self.device(device_id)
        room = self.rooms[dev.room]
        self.freeze(room)
        room.device_ids.remove(device_id)
        del self.devices[device_id]
        for sid in [s.id for s in self.schedules.values() if device_id in (s.device_id, s.event_device)]:
            del self.schedules[sid]
        self.reanchor(room)

    def remove_room(self, name: str) -> None:
        """Setup only: take a room out of the home, with its devices (and their schedules)."""
        room = self.room(name)
        for device_id in list(room.device_ids):
            self.remove_device(device_id)
        del self.rooms[name]

    def set_stored(self, device_id: str, attributes: dict[str, Any]) -> None:
        """Setup only: write stored attributes directly (and the vacuum's battery), with range checks."""
        dev = self.device(device_id)
        room = self.rooms[dev.room]
        self.freeze(room)
        for name, value in attributes.items():
            attr = dev.attribute(name)
            if name == "battery" and dev.rvc is not None:
                dev.rvc.set_battery(self.now, float(attr.spec.validate(value, f"{device_id}.battery")))
                continue
            if attr.derived:
                raise SmartHomeError(ErrorCode.READ_ONLY, f"{device_id}.{name} is computed by the simulation")
            dev.attrs[name] = attr.spec.validate(value, f"{device_id}.{name}")
        self.reanchor(room)

    # --- lookups -------------------------------------------------------------------------

    def device(self, device_id: str) -> HomeDevice:
        return _found(
            self.devices.get(device_id),
            lambda: f"no device {device_id!r} in this home; use list_devices to see the device ids",
        )

    def room(self, name: str) -> Room:
        return _found(
            self.rooms.get(name), lambda: f"no room {name!r}; rooms are: {', '.join(self.rooms) or '(none)'}"
        )

    def schedule(self, schedule_id: str) -> Schedule:
        return _found(
            self.schedules.get(schedule_id),
            lambda: f"no schedule {schedule_id!r}; use list_schedules to see the ids",
        )

    def climate(self, room: Room, variable: str) -> float:
        return room.climate[variable].at(self.now)

    def illuminance(self, room: Room) -> float:
        lamps = 0.0
        covers: list[float] = []
        for device_id in room.device_ids:
            dev = self.devices[device_id]
            if dev.category.name == "curtain":
                covers.append(dev.attrs["position"] / 100.0)
            else:
                lamps += physics.lamp_lux(dev.category.name, dev.attrs)
        daylight = 0.0
        if room.has_window:
            hour = (self._epoch_hour + self.now / 3600.0) % 24.0
            opening = sum(covers) / len(covers) if covers else 1.0
            daylight = physics.WINDOW_PEAK_LUX * physics.sun_factor(hour) * opening
        return daylight + lamps

    # --- climate -------------------------------------------------------------------------

    def freeze(self, room: Room) -> None:
        """Anchor every variable at its current value, before the room's devices change."""
        now = self.now
        for traj in room.climate.values():
            traj.x0 = traj.at(now)
            traj.t0 = now

    def reanchor(self, room: Room) -> None:
        """Recompute the pulls from the room's devices and queue the next thermostat crossing."""
        self.freeze(room)
        pulls: dict[str, list[physics.Pull]] = {v: [] for v in physics.VARIABLES}
        for variable, pull in physics.outdoor_pulls(self.outdoor):
            pulls[variable].append(pull)
        for device_id in room.device_ids:
            dev = self.devices[device_id]
            for variable, pull in physics.device_pulls(dev.category.name, dev.attrs):
                pulls[variable].append(pull)
        room.gen += 1
        soonest: float | None = None
        for variable, traj in room.climate.items():
            dt = physics.solve(traj, pulls[variable])
            if dt is not None and (soonest is None or dt < soonest):
                soonest = dt
        if soonest is not None:
            self.queue.push(self.now + soonest, "room", room.name, room.gen)

    # --- commands ------------------------------------------------------------------------

    def execute(
        self,
        device_id: str,
        command: str,
        params: dict[str, Any],
        source: str,
        schedule_id: str | None = None,
    ) -> str:
        """Run one command; returns a message or raises :class:`SmartHomeError` (recorded either way)."""
        try:
            dev = self.device(device_id)
            clean = self.validate_command(dev, command, params)
            cmd = dev.category.commands[command]
            if cmd.needs_power and dev.category.has_power and not dev.attrs["power"]:
                raise SmartHomeError(
                    ErrorCode.POWER_OFF, f"{device_id} is switched off; turn it on before {command}"
                )
            room = self.rooms[dev.room]
            self.freeze(room)
            before = dict(dev.attrs)
            try:
                message = HANDLERS[command](self, dev, clean)
            finally:
                self.reanchor(room)
            changed = dict(dev.attrs) != before
        except SmartHomeError as err:
            self.history.append(
                HistoryEntry(
                    self.now,
                    device_id,
                    command,
                    dict(params),
                    False,
                    source,
                    err.code,
                    err.message,
                    schedule_id,
                )
            )
            raise
        self.history.append(
            HistoryEntry(
                self.now,
                device_id,
                command,
                clean,
                True,
                source,
                None,
                message,
                schedule_id,
                changed,
                before,
                dict(dev.attrs),
            )
        )
        return message

    def validate_command(self, dev: HomeDevice, command: str, params: dict[str, Any]) -> dict[str, Any]:
        cmd = dev.category.commands.get(command)
        if cmd is None:
            raise dev.unsupported(
                f"does not support {command!r}", f"its commands are: {', '.join(dev.category.commands)}"
            )
        return cmd.validate(params, dev.id)

    def emit(self, device_id: str, event: str) -> None:
        """Record a device event and arm the after-event schedules waiting for it."""
        self.events.append((self.now, device_id, event))
        for sched in self.schedules.values():
            if (
                sched.status == "pending"
                and sched.due_at is None
                and sched.event_device == device_id
                and sched.event == event
            ):
                sched.due_at = self.now + (sched.delay_minutes or 0.0) * 60.0
                self.queue.push(sched.due_at, "schedule", sched.id)

    # --- schedules -----------------------------------------------------------------------

    def create_schedule(
        self,
        device_id: str,
        command: str,
        params: dict[str, Any],
        trigger: TriggerKind,
        created_by: str,
        at: float | None = None,
        delay_minutes: float | None = None,
        event_device: str | None = None,
        event: str | None = None,
    ) -> Schedule:
        dev = self.device(device_id)
        clean = self.validate_command(dev, command, params)
        due: float | None
        if trigger == "at":
            assert at is not None
            if at <= self.now:
                raise SmartHomeError(ErrorCode.INVALID_ARGS, "the schedule time must be in the future")
            due = at
        elif trigger == "delay":
            assert delay_minutes is not None
            due = self.now + delay_minutes * 60.0
        else:
            source = self.device(event_device or "")
            if event not in source.category.events:
                events = ", ".join(source.category.events) or "(none)"
                raise source.unsupported(f"has no event {event!r}", f"its events are: {events}")
            due = None
        sched = Schedule(
            id=self._next_schedule_id(),
            device_id=device_id,
            command=command,
            params=clean,
            trigger=trigger,
            created_at=self.now,
            created_by=created_by,
            due_at=due,
            delay_minutes=delay_minutes,
            event_device=event_device,
            event=event,
        )
        self.schedules[sched.id] = sched
        if due is not None:
            self.queue.push(due, "schedule", sched.id)
        return sched

    def _next_schedule_id(self) -> str:
        """``sched_<n>``: numbered in creation order, never reused (setup may remove schedules)."""
        self._schedules_made += 1
        return f"sched_{self._schedules_made}"

    def cancel_schedule(self, schedule_id: str) -> Schedule:
        sched = self.schedule(schedule_id)
        if sched.status != "pending":
            raise SmartHomeError(ErrorCode.CONFLICT, f"schedule {schedule_id} is already {sched.status}")
        sched.status = "cancelled"
        return sched

    def _fire(self, sched: Schedule) -> None:
        sched.fired_at = self.now
        try:
            self.execute(sched.device_id, sched.command, sched.params, "schedule", sched.id)
        except SmartHomeError as err:
            sched.status = "failed"
            sched.error_code = err.code
            sched.error = err.message
            return
        sched.status = "fired"

    # --- time ----------------------------------------------------------------------------

    def forecast(self, seconds: float) -> Home:
        """A copy of the home run ``seconds`` forward: what the schedules and cycles will do.

        The copy shares the (immutable) catalog categories and leaves this home untouched, so
        a verifier can judge an outcome over time without moving the episode's clock.
        """
        memo: dict[int, Any] = {id(cat): cat for cat in CATEGORIES.values()}
        memo[id(self.epoch)] = self.epoch
        twin: Home = copy.deepcopy(self, memo)
        twin.advance_to(self.now + max(0.0, seconds))
        return twin

    def advance_to(self, target: float) -> None:
        """Run every queued event up to ``target`` in time order, then stand at ``target``."""
        queue = self.queue
        while (entry := queue.pop_due(target)) is not None:
            if entry.time > self.now:
                self.now = entry.time
            if entry.kind == "room":
                room = self.rooms.get(entry.key)
                if room is not None and room.gen == entry.gen:
                    self.reanchor(room)
            elif entry.kind == "cycle":
                self._appliance_event(entry.key, entry.gen, entry.time)
            else:
                sched = self.schedules.get(entry.key)
                if sched is not None and sched.status == "pending" and sched.due_at == entry.time:
                    self._fire(sched)
        if target > self.now:
            self.now = target

    def _appliance_event(self, device_id: str, gen: int, at: float) -> None:
        """A queued transition of an appliance; ``at`` is when it was due (setup may run it late)."""
        dev = self.devices.get(device_id)
        if dev is None:
            return
        if dev.cycle is not None and dev.cycle.gen == gen:
            nxt = dev.cycle.advance_phase(at)
            if nxt is None:
                self.emit(device_id, "completed")
            else:
                self.queue.push(nxt, "cycle", device_id, dev.cycle.gen)
        elif dev.rvc is not None and dev.rvc.gen == gen:
            rvc = dev.rvc
            if rvc.state == "cleaning":
                finished = rvc.cleaning_done(self.now)
                if finished:
                    self.emit(device_id, "cleaning_finished")
                nxt = rvc.go_home(self.now)
                self.queue.push(nxt, "cycle", device_id, rvc.gen)
                self.emit(device_id, "returning")
            elif rvc.state == "returning":
                rvc.dock(self.now)
                self.emit(device_id, "docked")
