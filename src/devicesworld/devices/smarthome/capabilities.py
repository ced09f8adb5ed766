"""Capabilities: typed bundles of attributes and commands, modelled after Matter clusters.

A device category (see :mod:`catalog`) is nothing but a list of capabilities plus
defaults, so what an agent can read, write and call is declared once, as data, in
human units (°C, %, minutes). The same declarations validate commands, answer
``get_capabilities`` and drive the docs, so the three can never disagree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from devicesworld.devices.smarthome.errors import ErrorCode, SmartHomeError

ValueType = Literal["bool", "integer", "number", "enum", "string"]

_STEP_EPS = 1e-9


@dataclass(frozen=True)
class Param:
    """A typed command parameter (or the value of an attribute)."""

    name: str
    type: ValueType
    unit: str = ""
    min: float | None = None
    max: float | None = None
    step: float | None = None
    values: tuple[str, ...] = ()

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type}
        if self.unit:
            out["unit"] = self.unit
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.step is not None:
            out["step"] = self.step
        if self.values:
            out["values"] = list(self.values)
        return out

    def range_text(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.values:
            return "one of " + ", ".join(self.values)
        text = f"{_fmt(self.min)}-{_fmt(self.max)}{unit}"
        if self.step is not None and self.step != 1:
            text += f" in steps of {_fmt(self.step)}"
        return text

    def validate(self, value: Any, subject: str) -> Any:
        """Return the value in canonical form or raise INVALID_ARGS / OUT_OF_RANGE."""
        if self.type == "bool":
            if not isinstance(value, bool):
                raise SmartHomeError(
                    ErrorCode.INVALID_ARGS, f"{subject} must be true or false, got {value!r}"
                )
            return value
        if self.type == "enum":
            if not isinstance(value, str):
                raise SmartHomeError(ErrorCode.INVALID_ARGS, f"{subject} must be a string, got {value!r}")
            if value not in self.values:
                raise SmartHomeError(
                    ErrorCode.OUT_OF_RANGE,
                    f"{subject} {value!r} is not supported; choose one of: {', '.join(self.values)}",
                )
            return value
        if self.type == "string":
            if not isinstance(value, str):
                raise SmartHomeError(ErrorCode.INVALID_ARGS, f"{subject} must be a string, got {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise SmartHomeError(ErrorCode.INVALID_ARGS, f"{subject} must be a number, got {value!r}")
        if self.type == "integer":
            if value != int(value):
                raise SmartHomeError(ErrorCode.OUT_OF_RANGE, f"{subject} must be a whole number, got {value}")
            value = int(value)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise SmartHomeError(
                ErrorCode.OUT_OF_RANGE,
                f"{subject} {_fmt(value)}{' ' + self.unit if self.unit else ''} is out of range; "
                f"allowed {self.range_text()}",
            )
        if self.step is not None:
            base = self.min or 0.0
            n = (value - base) / self.step
            if abs(n - round(n)) > _STEP_EPS:
                raise SmartHomeError(
                    ErrorCode.OUT_OF_RANGE,
                    f"{subject} {_fmt(value)} is not allowed; "
                    f"use steps of {_fmt(self.step)} {self.unit}".rstrip(),
                )
        return float(value) if self.type == "number" else value


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class Attribute:
    """A readable attribute; ``setter`` names the command that writes it (None: read-only)."""

    spec: Param
    doc: str
    setter: str | None = None
    derived: bool = False
    """Computed by the simulation (sensor, countdown, battery): never stored, never writable."""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def writable(self) -> bool:
        return self.setter is not None

    def describe(self) -> dict[str, Any]:
        out = self.spec.describe()
        out["doc"] = self.doc
        out["writable"] = self.writable
        if self.setter:
            out["set_with"] = self.setter
        out.update(self.details)
        return out


@dataclass(frozen=True)
class Command:
    """A command with typed parameters; ``needs_power`` commands fail with POWER_OFF when off."""

    name: str
    doc: str
    params: tuple[Param, ...] = ()
    needs_power: bool = True

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "doc": self.doc,
            "params": [p.describe() for p in self.params],
            "needs_power": self.needs_power,
        }

    def validate(self, params: dict[str, Any], device_id: str) -> dict[str, Any]:
        known = {p.name: p for p in self.params}
        unknown = sorted(set(params) - set(known))
        if unknown:
            expected = ", ".join(known) or "no parameters"
            raise SmartHomeError(
                ErrorCode.INVALID_ARGS,
                f"{self.name} on {device_id}: unknown parameter(s) {', '.join(unknown)}; expected {expected}",
            )
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name not in params:
                raise SmartHomeError(
                    ErrorCode.INVALID_ARGS,
                    f"{self.name} on {device_id}: missing parameter {p.name!r} ({p.range_text()})",
                )
            out[p.name] = p.validate(params[p.name], f"{device_id}.{p.name}")
        return out


@dataclass(frozen=True)
class Capability:
    """A Matter-like cluster: a name, its attributes and its commands."""

    name: str
    attributes: tuple[Attribute, ...]
    commands: tuple[Command, ...]


# --- the capability constructors ---------------------------------------------------------

POWER = Param("power", "bool")


def _setting(
    cluster: str, attr: Param, doc: str, setter: Command, details: dict[str, Any] | None = None
) -> Capability:
    """A cluster of one writable attribute and the one command that sets it (its ``setter``)."""
    return Capability(cluster, (Attribute(attr, doc, setter=setter.name, details=details or {}),), (setter,))


def on_off() -> Capability:
    return Capability(
        "OnOff",
        (Attribute(POWER, "Whether the device is switched on.", setter="turn_on/turn_off"),),
        (
            Command("turn_on", "Switch the device on.", needs_power=False),
            Command("turn_off", "Switch the device off.", needs_power=False),
            Command("toggle", "Switch the device on if off, off if on.", needs_power=False),
        ),
    )


def level_control() -> Capability:
    level = Param("brightness", "integer", "%", 1, 100, 1)
    setter = Command("set_brightness", "Set the brightness (light must be on).", (level,))
    return _setting("LevelControl", level, "Brightness while on.", setter)


def window_covering() -> Capability:
    pos = Param("position", "integer", "% open", 0, 100, 1)
    return Capability(
        "WindowCovering",
        (Attribute(pos, "How far the curtain is open: 0 closed, 100 fully open.", setter="set_position"),),
        (
            Command("open", "Open fully (position 100).", needs_power=False),
            Command("close", "Close fully (position 0).", needs_power=False),
            Command("set_position", "Open to a given percentage.", (pos,), needs_power=False),
        ),
    )


def thermostat(modes: tuple[str, ...], t_min: float, t_max: float) -> Capability:
    mode = Param("mode", "enum", values=modes)
    target = Param("temperature", "number", "°C", t_min, t_max, 0.5)
    target_attr = Param("target_temperature", "number", "°C", t_min, t_max, 0.5)
    current = Param("current_temperature", "number", "°C")
    return Capability(
        "Thermostat",
        (
            Attribute(mode, "Operating mode.", setter="set_mode"),
            Attribute(target_attr, "Temperature the device regulates to.", setter="set_target_temperature"),
            Attribute(current, "Temperature measured in the room.", derived=True),
        ),
        (
            Command("set_mode", "Set the operating mode.", (mode,)),
            Command("set_target_temperature", "Set the target temperature.", (target,)),
        ),
    )


FAN_SPEEDS = ("low", "medium", "high", "auto")


def fan_control() -> Capability:
    speed = Param("speed", "enum", values=FAN_SPEEDS)
    attr = Param("fan_speed", "enum", values=FAN_SPEEDS)
    setter = Command("set_fan_speed", "Set the fan speed.", (speed,))
    return _setting("FanControl", attr, "Fan speed; faster moves more air.", setter)


def humidity_control() -> Capability:
    target = Param("humidity", "integer", "%", 30, 80, 5)
    attr = Param("target_humidity", "integer", "%", 30, 80, 5)
    current = Param("current_humidity", "number", "%")
    return Capability(
        "RelativeHumidity",
        (
            Attribute(attr, "Relative humidity the device regulates to.", setter="set_target_humidity"),
            Attribute(current, "Relative humidity measured in the room.", derived=True),
        ),
        (Command("set_target_humidity", "Set the target relative humidity.", (target,)),),
    )


def air_quality() -> Capability:
    pm = Param("pm25", "number", "µg/m³")
    return Capability(
        "AirQuality", (Attribute(pm, "PM2.5 concentration measured in the room.", derived=True),), ()
    )


def operational_state(phases: tuple[str, ...]) -> Capability:
    state = Param("operational_state", "enum", values=("idle", "running", "paused", "completed"))
    phase = Param("phase", "enum", values=("idle", *phases, "completed"))
    remaining = Param("remaining_minutes", "integer", "min")
    return Capability(
        "OperationalState",
        (
            Attribute(state, "idle, running, paused or completed.", derived=True),
            Attribute(phase, "Current phase of the cycle.", derived=True),
            Attribute(remaining, "Minutes left in the cycle (0 when not running).", derived=True),
        ),
        (
            Command("start", "Start the selected program (idle or completed only)."),
            Command("pause", "Pause the running cycle."),
            Command("resume", "Resume a paused cycle."),
            Command("stop", "Abort the cycle; the appliance returns to idle."),
        ),
    )


def run_mode(programs: dict[str, int]) -> Capability:
    names = tuple(programs)
    program = Param("program", "enum", values=names)
    setter = Command("set_program", "Select the program (not while running or paused).", (program,))
    doc = "Selected program; change it only while not running."
    return _setting("RunMode", program, doc, setter, {"program_minutes": dict(programs)})


CLEAN_MODES = ("vacuum", "mop", "vacuum_and_mop")
RVC_STATES = ("docked", "cleaning", "paused", "returning")


def rvc_clean_mode() -> Capability:
    mode = Param("mode", "enum", values=CLEAN_MODES)
    attr = Param("clean_mode", "enum", values=CLEAN_MODES)
    setter = Command("set_clean_mode", "Choose vacuum, mop or both.", (mode,), needs_power=False)
    return _setting("RvcCleanMode", attr, "What the robot does while cleaning.", setter)


def rvc_operation() -> Capability:
    state = Param("operational_state", "enum", values=RVC_STATES)
    battery = Param("battery", "integer", "%", 0, 100)
    remaining = Param("remaining_minutes", "integer", "min")
    charging = Param("charging", "bool")
    return Capability(
        "RvcOperationalState",
        (
            Attribute(state, "docked, cleaning, paused or returning.", derived=True),
            Attribute(battery, "Battery charge; it charges while docked.", derived=True),
            Attribute(remaining, "Minutes of cleaning left (0 when not cleaning).", derived=True),
            Attribute(charging, "Whether the robot is charging on its dock.", derived=True),
        ),
        (
            Command(
                "start", "Start cleaning the whole home (needs at least 20% battery).", needs_power=False
            ),
            Command("pause", "Pause cleaning or returning.", needs_power=False),
            Command("resume", "Resume a paused robot.", needs_power=False),
            Command("return_to_dock", "Stop cleaning and drive back to the dock.", needs_power=False),
        ),
    )
