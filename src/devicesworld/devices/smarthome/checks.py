"""Verifier checks for SmartHome tasks, reading the home only through its getters.

Each check is a pure function of ``get`` (so it also runs on recorded snapshots) and
returns a detail a person can read in a report, e.g.
``ac_bedroom.target_temperature = 24.0, expected 22``.

The checks that compare a value (``device_attribute``, ``schedule_exists``) take optional
``distractors``, as the other kinds' value checks do: the near-miss twins of the value the
task reads (the other room's temperature, the other arrival time). A device or schedule
holding one fails with a detail naming it as a distractor, so analysis tells "took the
twin" from "wrong value".
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal

from pydantic import Field, model_validator

from devicesworld.devices.base import Args, CheckOutcome, DeviceError, GetterFn, WritesFn
from devicesworld.devices.declare import CheckTable
from devicesworld.devices.smarthome.args import ScheduleStatusName, Value
from devicesworld.devices.state import literal
from devicesworld.spec import values
from devicesworld.spec.values import Expected

CHECKS = CheckTable("smarthome")
"""The kind's checks, each declared on its function; they read the device only through ``get``."""

_NUM_EPS = 1e-6


def _num(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _same(actual: Any, expected: Any, tolerance: float = 0.0) -> bool:
    if _num(actual) and _num(expected):
        return bool(abs(actual - expected) <= tolerance + _NUM_EPS)
    return bool(actual == expected)


_DISTRACTORS: Any = Field(
    default_factory=list,
    description="Near-miss values the device must not hold: holding one fails as a distractor.",
)


def _distractors_in(candidates: list[Any], distractors: list[Expected], tolerance: float = 0.0) -> list[str]:
    """The declared distractors that one of ``candidates`` (whole values) is."""
    hits: list[str] = []
    for d in distractors:
        raw, kind = values.unpack(d)
        if any(
            not isinstance(c, bool) and values.same(c, raw, kind, tolerance=tolerance) for c in candidates
        ):
            hits.append(values.shown(d))
    return hits


def _subset(actual: dict[str, Any], expected: dict[str, Any]) -> bool:
    return all(k in actual and _same(actual[k], v) for k, v in expected.items())


def _give_one(args: Args, *fields: str) -> None:
    """An args model whose every one of ``fields`` is unset asks nothing: a clear error instead."""
    if all(getattr(args, f) is None for f in fields):
        raise ValueError("give " + ", ".join(fields[:-1]) + (" or " if len(fields) > 1 else "") + fields[-1])


def _guard(fn: Callable[[GetterFn, Any], CheckOutcome]) -> Callable[[GetterFn, Any], CheckOutcome]:
    """A missing device or room is a failed check with a detail, not a crash."""

    def wrapped(get: GetterFn, args: Any) -> CheckOutcome:
        try:
            return fn(get, args)
        except DeviceError as err:
            return CheckOutcome(passed=False, detail=err.message)

    wrapped.__doc__ = fn.__doc__
    return wrapped


# --- device state ------------------------------------------------------------------------


class DeviceAttributeArgs(Args):
    device_id: str
    attribute: str
    equals: Value | None = None
    min: float | None = None
    max: float | None = None
    tolerance: float = Field(default=0.0, ge=0)
    distractors: list[Expected] = _DISTRACTORS

    @model_validator(mode="after")
    def _something(self) -> DeviceAttributeArgs:
        _give_one(self, "equals", "min", "max")
        return self


@CHECKS.register(
    "device_attribute",
    doc="A device attribute equals a value (±tolerance) and/or lies within min/max.",
    args=DeviceAttributeArgs,
)
@_guard
def device_attribute(get: GetterFn, args: DeviceAttributeArgs) -> CheckOutcome:
    attrs = get("device", {"device_id": args.device_id})["attributes"]
    subject = f"{args.device_id}.{args.attribute}"
    if args.attribute not in attrs:
        return CheckOutcome(passed=False, detail=f"{subject} does not exist")
    value = attrs[args.attribute]
    wants: list[str] = []
    ok = True
    if args.equals is not None:
        tol = f" ±{args.tolerance:g}" if args.tolerance else ""
        wants.append(f"{args.equals}{tol}")
        ok = ok and _same(value, args.equals, args.tolerance)
    if args.min is not None:
        wants.append(f">= {args.min:g}")
        ok = ok and _num(value) and value >= args.min - _NUM_EPS
    if args.max is not None:
        wants.append(f"<= {args.max:g}")
        ok = ok and _num(value) and value <= args.max + _NUM_EPS
    expected = " and ".join(wants)
    taken = _distractors_in([value], args.distractors, args.tolerance)
    if taken:
        return CheckOutcome(
            passed=False, detail=f"{subject} = {value}, the distractor value {taken[0]} (expected {expected})"
        )
    if not ok:
        held = _held_until_the_plan(get, args.device_id, args.attribute, lambda v: _value_ok(v, args))
        if held is not None:
            return CheckOutcome(passed=True, detail=f"{subject} = {value} now; {held}")
        planned = _set_before_start(get, args)
        if planned is not None:
            return CheckOutcome(
                passed=True,
                detail=f"{subject} = {value} now; the agent's plan sets it before the run at {planned}",
            )
        return CheckOutcome(passed=False, detail=f"{subject} = {value}, expected {expected}")
    idle = _switched_off_by_agent(get, args, attrs)
    if idle is not None:
        return CheckOutcome(passed=False, detail=f"{subject} = {value}, but {idle}")
    return CheckOutcome(passed=True, detail=f"{subject} = {value}, expected {expected}")


def _value_ok(value: Any, args: DeviceAttributeArgs) -> bool:
    ok = args.equals is None or _same(value, args.equals, args.tolerance)
    ok = ok and (args.min is None or (_num(value) and value >= args.min - _NUM_EPS))
    return ok and (args.max is None or (_num(value) and value <= args.max + _NUM_EPS))


def _agent_made(entry: dict[str, Any]) -> bool:
    """A command of the agent's plan: run by the agent, or by a schedule the agent made."""
    return bool(entry["ok"]) and entry["source"] != "setup" and entry["created_by"] == "agent"


def _held_until_the_plan(
    get: GetterFn, device_id: str, attribute: str, ok: Callable[[Any], bool]
) -> str | None:
    """State read after the agent let time pass is judged against the plan's effect (issue 32): when
    the value does not hold now only because a schedule the agent made has since run on the device,
    the value it held right before that run counts ("the lamp stays on until 09:45" checked at 10:00)."""
    plan: dict[str, Any] = get("timeline", {})
    past = [e for e in plan["entries"] if not e["simulated"] and e["device_id"] == device_id and e["ok"]]
    by_hand = [i for i, e in enumerate(past) if e["source"] == "agent"]
    start = by_hand[-1] + 1 if by_hand else 0  # what the agent left by hand, then its schedules ran
    for e in past[start:]:
        if e["source"] == "schedule" and e["created_by"] == "agent":
            before = e.get("before") or {}
            if attribute in before and ok(before[attribute]):
                return f"it held {before[attribute]!r} until the agent's schedule ran at {e['time']}"
            return None
    return None


def _set_before_start(get: GetterFn, args: DeviceAttributeArgs) -> str | None:
    """When the value is not held now: the time of the device's next run (``start``) by the agent's
    plan, if the agent's plan has set the attribute by then (a programme chosen by a schedule that
    runs before the dryer starts is the programme the dryer runs — issue 32, outcomes over time)."""
    plan: dict[str, Any] = get("timeline", {})
    for e in plan["entries"]:
        if e["device_id"] != args.device_id or not _agent_made(e) or e["command"] != "start":
            continue
        after = e.get("after") or {}
        if args.attribute in after and _value_ok(after[args.attribute], args):
            return str(e["time"])
        return None
    return None


def _switched_off_by_agent(get: GetterFn, args: DeviceAttributeArgs, attrs: dict[str, Any]) -> str | None:
    """An operating value (a target temperature, a brightness) on a device the agent commanded and
    left switched off, with nothing in its plan switching it on: an AC "set to 22 °C" and then
    switched off does not hold 22 °C (issue 32). Devices the agent never touched are not judged
    (a guard that another AC keeps its setting is about the setting)."""
    if attrs.get("power") is not False:
        return None
    plan: dict[str, Any] = get("timeline", {})
    if args.attribute not in plan["needs_power"].get(args.device_id, []):
        return None
    mine = [e for e in plan["entries"] if e["device_id"] == args.device_id and _agent_made(e)]
    if not mine:
        return None
    later_on = [e for e in mine if e["simulated"] and (e.get("after") or {}).get("power") is True]
    if later_on:
        return None
    return f"{args.device_id} is switched off, so its {args.attribute} has no effect"


class DevicePowerArgs(Args):
    device_id: str
    on: bool


@CHECKS.register("device_power", doc="A device is switched on or off.", args=DevicePowerArgs)
@_guard
def device_power(get: GetterFn, args: DevicePowerArgs) -> CheckOutcome:
    attrs = get("device", {"device_id": args.device_id})["attributes"]
    power = attrs.get("power")
    want = "on" if args.on else "off"
    if power is None:
        return CheckOutcome(passed=False, detail=f"{args.device_id} has no power switch")
    have = "on" if power else "off"
    if power is not args.on:
        held = _held_until_the_plan(get, args.device_id, "power", lambda v: v is args.on)
        if held is not None:
            return CheckOutcome(passed=True, detail=f"{args.device_id} is {have} now; {held}")
    return CheckOutcome(passed=power is args.on, detail=f"{args.device_id} is {have}, expected {want}")


class AppliancePhaseArgs(Args):
    device_id: str
    phase: str | None = None
    operational_state: str | None = None

    @model_validator(mode="after")
    def _something(self) -> AppliancePhaseArgs:
        _give_one(self, "phase", "operational_state")
        return self


@CHECKS.register(
    "appliance_phase",
    doc="A washer/dryer/vacuum is in the given phase and/or operational state.",
    args=AppliancePhaseArgs,
)
@_guard
def appliance_phase(get: GetterFn, args: AppliancePhaseArgs) -> CheckOutcome:
    attrs = get("device", {"device_id": args.device_id})["attributes"]
    parts: list[str] = []
    ok = True
    for key, want in (("operational_state", args.operational_state), ("phase", args.phase)):
        if want is None:
            continue
        have = attrs.get(key)
        ok = ok and have == want
        parts.append(f"{args.device_id}.{key} = {have}, expected {want}")
    return CheckOutcome(passed=ok, detail="; ".join(parts))


# --- rooms -------------------------------------------------------------------------------


class RoomConditionArgs(Args):
    room: str
    variable: Literal["temperature", "humidity", "pm25", "illuminance"]
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _bound(self) -> RoomConditionArgs:
        _give_one(self, "min", "max")
        return self


@CHECKS.register(
    "room_condition",
    doc="A room's temperature, humidity, PM2.5 or illuminance lies within min/max now.",
    args=RoomConditionArgs,
)
@_guard
def room_condition(get: GetterFn, args: RoomConditionArgs) -> CheckOutcome:
    value = get("room", {"room": args.room})[args.variable]
    ok = (args.min is None or value >= args.min) and (args.max is None or value <= args.max)
    bounds = " and ".join(
        b
        for b in (
            f">= {args.min:g}" if args.min is not None else "",
            f"<= {args.max:g}" if args.max is not None else "",
        )
        if b
    )
    return CheckOutcome(passed=ok, detail=f"{args.room}.{args.variable} = {value}, expected {bounds}")


# --- schedules ---------------------------------------------------------------------------


class ScheduleExistsArgs(Args):
    device_id: str
    command: str
    params: dict[str, Any] = Field(default_factory=dict, description="Must be a subset of the schedule's.")
    trigger: Literal["at", "delay", "after_event"] | None = None
    due_at: datetime | None = Field(default=None, description="Due time (at or now+delay), within tolerance.")
    delay_minutes: float | None = None
    event_device: str | None = None
    event: str | None = None
    tolerance_minutes: float = Field(default=1.0, ge=0)
    status: ScheduleStatusName | None = "pending"
    created_by: Literal["agent", "setup"] | None = "agent"
    distractors: list[Expected] = Field(
        default_factory=list,
        description="Near-miss params or due times: a schedule of this device and command using one fails.",
    )
    window_hours: float = Field(
        default=24.0,
        ge=0,
        le=24 * 7,
        description="How far ahead the outcome is judged: a copy of the home runs forward this long.",
    )


def _params_hold(entry: dict[str, Any], params: dict[str, Any]) -> bool:
    """Each asked param is the command's, or the device's attribute of that name after it ran."""
    after = entry.get("after") or {}
    return all(
        (k in entry["params"] and _same(entry["params"][k], v)) or (k in after and _same(after[k], v))
        for k, v in params.items()
    )


def _runs_as_planned(plan: dict[str, Any], a: ScheduleExistsArgs) -> str | None:
    """The outcome the schedule stands for, in the timeline (what ran and what a copy of the home
    runs next): the command, with its params, at the asked time or the asked delay after the asked
    event — by any encoding (clock time, delay, after-event trigger, the agent running it after
    letting time pass). ``None`` when nothing of the agent's plan does it. A bare delay with no due
    time names no moment and is judged by the schedule only."""
    if a.trigger == "delay" and a.due_at is None:
        return None
    tol = (a.tolerance_minutes + _NUM_EPS) * 60.0
    events = [
        datetime.fromisoformat(ev["time"])
        for ev in plan["events"]
        if ev["device_id"] == a.event_device and ev["event"] == a.event
    ]
    for e in plan["entries"]:
        if e["device_id"] != a.device_id or e["command"] != a.command or not _agent_made(e):
            continue
        if not _params_hold(e, a.params):
            continue
        at = datetime.fromisoformat(e["time"])
        if a.due_at is not None and abs((at - a.due_at).total_seconds()) > tol:
            continue
        if a.event_device is not None or a.event is not None:
            delay = (a.delay_minutes or 0.0) * 60.0
            if not any(abs((at - t).total_seconds() - delay) <= tol for t in events):
                continue
        how = f"schedule {e['schedule_id']}" if e["schedule_id"] else "the agent"
        when = "will run" if e["simulated"] else "ran"
        return f"the plan's outcome: {a.device_id}.{a.command}({e['params']}) {when} at {e['time']} ({how})"
    return None


def _schedule_matches(s: dict[str, Any], a: ScheduleExistsArgs) -> bool:
    trig = s["trigger"]
    if s["device_id"] != a.device_id or s["command"] != a.command or not _subset(s["params"], a.params):
        return False
    if a.status is not None and s["status"] != a.status:
        return False
    if a.created_by is not None and s["created_by"] != a.created_by:
        return False
    if a.trigger is not None and trig["type"] != a.trigger:
        return False
    if a.due_at is not None:
        if s["due_at"] is None:
            return False
        gap = abs((datetime.fromisoformat(s["due_at"]) - a.due_at).total_seconds()) / 60.0
        if gap > a.tolerance_minutes + _NUM_EPS:
            return False
    if a.delay_minutes is not None:
        delay = trig.get("delay_minutes")
        if delay is None or abs(delay - a.delay_minutes) > a.tolerance_minutes + _NUM_EPS:
            return False
    if a.event_device is not None and trig.get("device_id") != a.event_device:
        return False
    return not (a.event is not None and trig.get("event") != a.event)


def _describe_schedule(s: dict[str, Any]) -> str:
    trig = s["trigger"]
    when = {
        "at": f"at {trig.get('at')}",
        "delay": f"after {trig.get('delay_minutes')} min (due {s['due_at']})",
        "after_event": f"{trig.get('delay_minutes')} min after {trig.get('device_id')} {trig.get('event')}",
    }[trig["type"]]
    return f"{s['schedule_id']} {s['device_id']}.{s['command']}({s['params']}) {when} [{s['status']}]"


@CHECKS.register(
    "schedule_exists",
    doc="A schedule with this device, command, params subset and trigger exists (pending by default).",
    args=ScheduleExistsArgs,
)
@_guard
def schedule_exists(get: GetterFn, args: ScheduleExistsArgs) -> CheckOutcome:
    schedules: list[dict[str, Any]] = get("schedules", {})
    for s in schedules:
        if s["device_id"] != args.device_id or s["command"] != args.command:
            continue
        if args.created_by is not None and s["created_by"] != args.created_by:
            continue
        taken = _distractors_in([*s["params"].values(), s["due_at"]], args.distractors)
        if taken:
            return CheckOutcome(
                passed=False,
                detail=f"{_describe_schedule(s)} uses the distractor value {taken[0]}",
            )
    for s in schedules:
        if _schedule_matches(s, args):
            return CheckOutcome(passed=True, detail=f"found {_describe_schedule(s)}")
    if args.status == "pending" and args.created_by in ("agent", None):
        ran = _runs_as_planned(get("timeline", {"hours": args.window_hours}), args)
        if ran is not None:
            return CheckOutcome(passed=True, detail=ran)
    on_device = [_describe_schedule(s) for s in schedules if s["device_id"] == args.device_id]
    seen = "; ".join(on_device) if on_device else "none"
    return CheckOutcome(
        passed=False,
        detail=f"no matching schedule for {args.device_id}.{args.command}; schedules on that device: {seen}",
    )


class NoScheduleArgs(Args):
    device_id: str | None = None
    command: str | None = None
    status: ScheduleStatusName | None = "pending"
    created_by: Literal["agent", "setup"] | None = "agent"


@CHECKS.register(
    "no_schedule",
    doc="No schedule matches (by default: no pending schedule created by the agent).",
    args=NoScheduleArgs,
)
@_guard
def no_schedule(get: GetterFn, args: NoScheduleArgs) -> CheckOutcome:
    hits = [
        s
        for s in get("schedules", {})
        if (args.device_id is None or s["device_id"] == args.device_id)
        and (args.command is None or s["command"] == args.command)
        and (args.status is None or s["status"] == args.status)
        and (args.created_by is None or s["created_by"] == args.created_by)
    ]
    if hits:
        return CheckOutcome(
            passed=False, detail="unexpected: " + "; ".join(_describe_schedule(s) for s in hits)
        )
    return CheckOutcome(passed=True, detail="no matching schedule")


# --- history -----------------------------------------------------------------------------


class CommandIssuedArgs(Args):
    device_id: str
    command: str
    params: dict[str, Any] = Field(default_factory=dict)
    source: Literal["agent", "schedule", "setup"] = "agent"
    ok: bool = True
    min_count: int = Field(default=1, ge=1)


@CHECKS.register(
    "command_issued",
    doc="The history holds a command with these params (by default a successful agent command).",
    args=CommandIssuedArgs,
)
@_guard
def command_issued(get: GetterFn, args: CommandIssuedArgs) -> CheckOutcome:
    hits = [
        h
        for h in get("history", {})
        if h["device_id"] == args.device_id
        and h["command"] == args.command
        and h["source"] == args.source
        and h["ok"] == args.ok
        and _subset(h["params"], args.params)
    ]
    what = f"{args.source} {args.device_id}.{args.command}({args.params or ''}) ok={args.ok}"
    return CheckOutcome(
        passed=len(hits) >= args.min_count,
        detail=f"{what}: issued {len(hits)}x, expected >= {args.min_count}",
    )


class NoAgentCommandsArgs(Args):
    device_id: str | None = Field(default=None, description="Only this device; all devices when omitted.")


@CHECKS.register(
    "no_agent_commands",
    doc="The agent made no successful control command and created no schedule (optionally per device).",
    args=NoAgentCommandsArgs,
)
@_guard
def no_agent_commands(get: GetterFn, args: NoAgentCommandsArgs) -> CheckOutcome:
    done = [
        f"{h['device_id']}.{h['command']}"
        for h in get("history", {})
        if h["source"] == "agent" and h["ok"] and (args.device_id is None or h["device_id"] == args.device_id)
    ]
    made = [
        s["schedule_id"]
        for s in get("schedules", {})
        if s["created_by"] == "agent" and (args.device_id is None or s["device_id"] == args.device_id)
    ]
    scope = args.device_id or "the home"
    if done or made:
        return CheckOutcome(
            passed=False,
            detail=f"agent changed {scope}: commands {done or 'none'}, schedules {made or 'none'}",
        )
    return CheckOutcome(passed=True, detail=f"no successful agent command or schedule on {scope}")


# --- write sets --------------------------------------------------------------------------
# ``device_attribute`` and ``device_power`` name their attribute, the power switch and the
# device's commands (turning an AC on in order to set its temperature is part of the job);
# the other checks on a device (a phase, a schedule, a command) name its stored attributes
# and commands. None names schedules of its own accord: a schedule that puts the heater back to 22.5 °C at 22:00, or switches the
# lamp off a minute after it comes on, undoes the output and is collateral (issue 32).
# ``schedule_exists`` licenses the schedules on its device that run its command with its
# params, whatever their trigger. A room's climate names every device in the room.


def _attribute_writes(device_id: str, get: GetterFn) -> list[str]:
    dev = literal(device_id)
    attrs = get("device", {"device_id": device_id})["attributes"]
    return [*(f"devices/{dev}/{literal(a)}" for a in attrs), f"devices/{dev}/commands/*"]


def _device_writes(args: Any, get: GetterFn) -> list[str]:
    return _attribute_writes(args.device_id, get)


def _one_attribute_writes(device_id: str, attribute: str) -> list[str]:
    """The asked attribute, the power switch (an AC must be on to take a temperature) and the
    device's commands (switching it on to set it): another attribute of the device changed beside
    the asked one (the mode, the fan speed) is collateral — the write set's grain is the attribute."""
    dev = literal(device_id)
    return [f"devices/{dev}/{literal(attribute)}", f"devices/{dev}/power", f"devices/{dev}/commands/*"]


def _power_writes(args: DevicePowerArgs, get: GetterFn) -> list[str]:
    return _one_attribute_writes(args.device_id, "power")


def _attribute_value_writes(args: DeviceAttributeArgs, get: GetterFn) -> list[str]:
    """The asked attribute (with power and commands), and the schedules that set it to the asked
    value (a programme chosen by a schedule before the run); a schedule setting it to anything
    else later undoes the outcome and stays collateral."""
    attrs = get("device", {"device_id": args.device_id})["attributes"]
    if args.attribute in attrs and _value_ok(attrs[args.attribute], args):
        return _one_attribute_writes(args.device_id, args.attribute)  # held now: no schedule needed
    schedules: list[dict[str, Any]] = get("schedules", {})
    own = [
        f"devices/{literal(args.device_id)}/schedules/{literal(s['schedule_id'])}"
        for s in schedules
        if s["device_id"] == args.device_id
        and s["command"] == f"set_{args.attribute}"
        and args.equals is not None
        and any(_same(v, args.equals, args.tolerance) for v in s["params"].values())
    ]
    return [*_one_attribute_writes(args.device_id, args.attribute), *own]


def _schedule_writes(args: ScheduleExistsArgs, get: GetterFn) -> list[str]:
    schedules: list[dict[str, Any]] = get("schedules", {})
    own = [
        f"devices/{literal(args.device_id)}/schedules/{literal(s['schedule_id'])}"
        for s in schedules
        if s["device_id"] == args.device_id
        and s["command"] == args.command
        and _subset(s["params"], args.params)
    ]
    return [*_attribute_writes(args.device_id, get), *own]


def _room_writes(args: RoomConditionArgs, get: GetterFn) -> list[str]:
    return [p for d in get("room", {"room": args.room})["devices"] for p in _attribute_writes(d, get)]


WRITES: dict[str, WritesFn] = {
    "device_attribute": _attribute_value_writes,
    "device_power": _power_writes,
    "appliance_phase": _device_writes,
    "room_condition": _room_writes,
    "schedule_exists": _schedule_writes,
    "command_issued": _device_writes,
}
"""What each check names as the task's output; guards (``no_schedule``, ``no_agent_commands``) name nothing."""
