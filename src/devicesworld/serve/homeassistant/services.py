"""Home Assistant service calls as our device commands, and the service catalog HA clients list.

``translate`` turns one call on one entity into the command(s) a native agent would
send (``light.turn_on`` with ``brightness: 128`` on an off lamp is ``turn_on`` then
``set_brightness(50)``); the hub runs each as a ``control_device`` step. The same
declarations answer ``GET /api/services`` and validate calls, as HA's schemas do
(unknown fields, missing required fields and wrong entity domains are refused before
anything runs). ``devicesworld.*`` are the custom services for time, schedules and
the episode.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from devicesworld.serve.homeassistant.entities import (
    FAN_PERCENT,
    HVAC_TO_AC,
    Entity,
    brightness_to_pct,
    pct_to_brightness,
    percentage_to_speed,
    temperature_range,
)

Command = tuple[str, dict[str, Any]]
Attrs = Mapping[str, Any] | None
"""The device's current attributes; ``None`` when translating for a schedule (state unknown then)."""


class ServiceError(Exception):
    """A refused call, with HA's error code (``not_found``, ``service_validation_error``, ...)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


@dataclass(frozen=True)
class FieldDecl:
    description: str
    required: bool = False
    selector: dict[str, Any] = field(default_factory=lambda: {"text": {}})
    example: Any = None


@dataclass(frozen=True)
class ServiceDecl:
    description: str
    fields: dict[str, FieldDecl] = field(default_factory=dict)
    entity_domains: tuple[str, ...] = ()
    """Domains whose entities it targets (empty: it takes no target)."""
    response: str | None = None
    """``None`` (no response), ``"optional"`` or ``"only"`` (HA's SupportsResponse)."""

    def describe(self, name: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": name.replace("_", " ").capitalize(),
            "description": self.description,
            "fields": {
                k: {
                    "name": k.replace("_", " ").capitalize(),
                    "description": f.description,
                    "required": f.required,
                    "selector": f.selector,
                    **({"example": f.example} if f.example is not None else {}),
                }
                for k, f in self.fields.items()
            },
        }
        if self.entity_domains:
            out["target"] = {"entity": [{"domain": list(self.entity_domains)}]}
        if self.response is not None:
            out["response"] = {"optional": self.response == "optional"}
        return out


def _num(lo: float, hi: float, step: float = 1, unit: str | None = None) -> dict[str, Any]:
    sel: dict[str, Any] = {"min": lo, "max": hi, "step": step}
    if unit:
        sel["unit_of_measurement"] = unit
    return {"number": sel}


def _select(*options: str) -> dict[str, Any]:
    return {"select": {"options": list(options)}}


_LIGHT_DROPPED: dict[str, FieldDecl] = {
    "transition": FieldDecl(
        "Seconds the change takes (our lights change at once).", selector=_num(0, 300, 1, "s")
    ),
    "flash": FieldDecl("Flash the light (short or long).", selector=_select("short", "long")),
    "effect": FieldDecl("Light effect."),
    "profile": FieldDecl("A light profile."),
    "color_name": FieldDecl("A colour by name."),
    "hs_color": FieldDecl("Hue and saturation.", selector={"object": {}}),
    "rgb_color": FieldDecl("RGB colour.", selector={"color_rgb": {}}),
    "rgbw_color": FieldDecl("RGBW colour.", selector={"object": {}}),
    "rgbww_color": FieldDecl("RGBWW colour.", selector={"object": {}}),
    "xy_color": FieldDecl("XY colour.", selector={"object": {}}),
    "color_temp": FieldDecl("Colour temperature in mireds.", selector=_num(153, 500)),
    "color_temp_kelvin": FieldDecl("Colour temperature in Kelvin.", selector=_num(2000, 6500, 100, "K")),
    "kelvin": FieldDecl("Colour temperature in Kelvin (old name).", selector=_num(2000, 6500, 100, "K")),
    "white": FieldDecl("White mode.", selector={"constant": {"value": True}}),
}
"""``light.turn_on`` fields of HA's schema that no light here supports: accepted and dropped per
entity, as HA's ``filter_turn_on_params`` drops what a light's features and colour modes lack."""
_LIGHT_ON_FIELDS: dict[str, FieldDecl] = {
    "brightness": FieldDecl("Brightness, 0-255 (0 turns the light off).", selector=_num(0, 255), example=128),
    "brightness_pct": FieldDecl(
        "Brightness in percent (0 turns the light off).", selector=_num(0, 100, 1, "%")
    ),
    "brightness_step": FieldDecl("Change brightness by this much (-255..255).", selector=_num(-225, 255)),
    "brightness_step_pct": FieldDecl(
        "Change brightness by this percentage (-100..100).", selector=_num(-100, 100, 1, "%")
    ),
    **_LIGHT_DROPPED,
}
_LIGHT_OFF_FIELDS = {k: _LIGHT_DROPPED[k] for k in ("transition", "flash")}
_BRIGHTNESS_FIELDS = ("brightness", "brightness_pct", "brightness_step", "brightness_step_pct")
_PERCENTAGE = FieldDecl("Fan speed in percent (0 turns it off).", selector=_num(0, 100, 1, "%"), example=67)
_PRESET = FieldDecl("Preset mode.", selector=_select("auto"))
_ON_OFF = ("light", "switch", "fan", "humidifier", "climate")


def _switching(
    domains: tuple[str, ...], on: str = "Turn on.", off: str = "Turn off.", toggle: str = "Toggle."
) -> dict[str, ServiceDecl]:
    """``turn_on``, ``turn_off`` and ``toggle`` without fields, for entities of ``domains``."""
    return {
        "turn_on": ServiceDecl(on, entity_domains=domains),
        "turn_off": ServiceDecl(off, entity_domains=domains),
        "toggle": ServiceDecl(toggle, entity_domains=domains),
    }


SERVICES: dict[str, dict[str, ServiceDecl]] = {
    "homeassistant": _switching(
        _ON_OFF,
        "Turn on any entity that can be switched on.",
        "Turn off any entity that can be switched off.",
        "Toggle any entity that can be switched.",
    ),
    "light": {
        "turn_on": ServiceDecl(
            "Turn on a light, optionally at a brightness (fields a light lacks are dropped, as in HA).",
            _LIGHT_ON_FIELDS,
            ("light",),
        ),
        "turn_off": ServiceDecl("Turn off a light.", _LIGHT_OFF_FIELDS, ("light",)),
        "toggle": ServiceDecl("Toggle a light.", _LIGHT_ON_FIELDS, ("light",)),
    },
    "switch": _switching(("switch",), "Turn on a switch.", "Turn off a switch.", "Toggle a switch."),
    "cover": {
        "open_cover": ServiceDecl("Open a cover fully (position 100).", entity_domains=("cover",)),
        "close_cover": ServiceDecl("Close a cover (position 0).", entity_domains=("cover",)),
        "set_cover_position": ServiceDecl(
            "Move a cover to a position (0 = closed, 100 = open).",
            {"position": FieldDecl("Target position.", True, _num(0, 100, 1, "%"), 50)},
            ("cover",),
        ),
        "toggle": ServiceDecl("Open a closed cover, close an open one.", entity_domains=("cover",)),
    },
    "climate": {
        "set_hvac_mode": ServiceDecl(
            "Set the HVAC mode ('off' switches the device off).",
            {
                "hvac_mode": FieldDecl(
                    "HVAC mode.", True, _select("off", "cool", "heat", "dry", "fan_only", "auto")
                )
            },
            ("climate",),
        ),
        "set_temperature": ServiceDecl(
            "Set the target temperature (and optionally the HVAC mode first).",
            {
                "temperature": FieldDecl("Target temperature.", False, _num(5, 30, 0.5, "°C"), 22),
                "target_temp_high": FieldDecl(
                    "Upper target (devices with a range only).", selector=_num(5, 30, 0.5, "°C")
                ),
                "target_temp_low": FieldDecl(
                    "Lower target (devices with a range only).", selector=_num(5, 30, 0.5, "°C")
                ),
                "hvac_mode": FieldDecl(
                    "HVAC mode to set first.", selector=_select("cool", "heat", "dry", "fan_only", "auto")
                ),
            },
            ("climate",),
        ),
        "set_fan_mode": ServiceDecl(
            "Set the fan mode of an air conditioner.",
            {"fan_mode": FieldDecl("Fan mode.", True, _select("low", "medium", "high", "auto"))},
            ("climate",),
        ),
        "set_preset_mode": ServiceDecl(
            "Set a heater's preset ('eco' or 'none').",
            {"preset_mode": FieldDecl("Preset.", True, _select("none", "eco"))},
            ("climate",),
        ),
        **_switching(("climate",)),
    },
    "fan": {
        **_switching(("fan",)),
        "turn_on": ServiceDecl(  # in place of the plain one (first, as in HA's list)
            "Turn on, optionally at a speed or preset.",
            {"percentage": _PERCENTAGE, "preset_mode": _PRESET},
            ("fan",),
        ),
        "set_percentage": ServiceDecl(
            "Set the speed (33 = low, 66 = medium, 100 = high; 0 turns it off).",
            {"percentage": FieldDecl("Speed in percent.", True, _num(0, 100, 1, "%"), 67)},
            ("fan",),
        ),
        "set_preset_mode": ServiceDecl(
            "Set the preset mode ('auto').",
            {"preset_mode": FieldDecl("Preset.", True, _select("auto"))},
            ("fan",),
        ),
    },
    "humidifier": {
        **_switching(("humidifier",)),
        "set_humidity": ServiceDecl(
            "Set the target humidity (30-80 %, steps of 5).",
            {"humidity": FieldDecl("Target humidity.", True, _num(30, 80, 5, "%"), 45)},
            ("humidifier",),
        ),
    },
    "vacuum": {
        "start": ServiceDecl("Start cleaning (or resume a paused robot).", entity_domains=("vacuum",)),
        "pause": ServiceDecl("Pause cleaning.", entity_domains=("vacuum",)),
        "return_to_base": ServiceDecl("Send the robot back to its dock.", entity_domains=("vacuum",)),
    },
    "select": {
        "select_option": ServiceDecl(
            "Select an option (a program, a clean mode).",
            {"option": FieldDecl("The option.", True, {"text": {}}, "quick")},
            ("select",),
        ),
    },
    "button": {
        "press": ServiceDecl("Press a button (start, pause, resume, stop).", entity_domains=("button",))
    },
    "devicesworld": {
        "advance_time": ServiceDecl(
            "Let virtual time pass (schedules fire, rooms and appliances evolve); one step.",
            {
                "minutes": FieldDecl(
                    "Minutes to advance (0 < m <= 10080).", True, _num(0, 10080, 1, "min"), 30
                )
            },
            response="optional",
        ),
        "schedule": ServiceDecl(
            "Schedule a service call on an entity: at a time, after a delay, or after a device event; one step.",
            {
                "entity_id": FieldDecl("The entity to act on.", True, {"entity": {}}, "light.hall_light"),
                "service": FieldDecl("The service, e.g. 'turn_off' or 'climate.set_temperature'.", True),
                "data": FieldDecl("The service's data, e.g. {'temperature': 22}.", selector={"object": {}}),
                "at": FieldDecl("'HH:MM' (next occurrence) or an ISO datetime.", example="18:30"),
                "delay_minutes": FieldDecl("Minutes from now.", selector=_num(0, 10080, 1, "min")),
                "after_event": FieldDecl(
                    "{'entity_id': ..., 'event': e.g. 'completed', 'delay_minutes': 0}",
                    selector={"object": {}},
                ),
            },
            response="optional",
        ),
        "cancel_schedule": ServiceDecl(
            "Cancel a pending schedule; one step.",
            {"schedule_id": FieldDecl("The schedule id, e.g. 'sched_1'.", True, example="sched_1")},
        ),
        "finish": ServiceDecl("Declare the task complete; ends the episode."),
        "report_infeasible": ServiceDecl(
            "Report that the request cannot be carried out; ends the episode.",
            {"reason": FieldDecl("Why it cannot be done.", True)},
        ),
        "evaluate": ServiceDecl(
            "Debugging only (serve homeassistant --debug-evaluate): which conditions pass now, by id; "
            "not a step. The run is recorded as not comparable.",
            response="only",
        ),
    },
}


DEBUG_ONLY = frozenset({("devicesworld", "evaluate")})
"""Services offered only with ``--debug-evaluate`` (evaluation is the harness's, not the agent's)."""


def services_catalog(debug_evaluate: bool = False) -> dict[str, dict[str, Any]]:
    """``{domain: {service: description}}`` as HA's ``get_services`` returns it (no evaluate unless debugging)."""
    return {
        d: {s: decl.describe(s) for s, decl in services.items() if debug_evaluate or (d, s) not in DEBUG_ONLY}
        for d, services in SERVICES.items()
    }


def find_service(domain: str, service: str, *, debug_evaluate: bool = False) -> ServiceDecl:
    decl = SERVICES.get(domain, {}).get(service)
    if decl is None or (not debug_evaluate and (domain, service) in DEBUG_ONLY):
        raise ServiceError("not_found", f"Service {domain}.{service} not found.")
    return decl


def check_fields(domain: str, service: str, decl: ServiceDecl, data: Mapping[str, Any]) -> None:
    """HA's schema check: no unknown fields, every required one present."""
    for key in data:
        if key not in decl.fields:
            raise ServiceError(
                "service_validation_error",
                f"extra keys not allowed @ data['{key}'] (service {domain}.{service})",
            )
    for key, f in decl.fields.items():
        if f.required and key not in data:
            raise ServiceError(
                "service_validation_error",
                f"required key not provided @ data['{key}'] (service {domain}.{service})",
            )


def _number(data: Mapping[str, Any], key: str) -> float:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            return float(str(value))
        except ValueError:
            raise ServiceError(
                "service_validation_error", f"expected a number for dictionary value @ data['{key}']"
            ) from None
    return float(value)


def _powered_on(attrs: Attrs) -> bool:
    return attrs is not None and bool(attrs.get("power"))


def _with_power(attrs: Attrs, commands: list[Command]) -> list[Command]:
    """Commands that need the device on, preceded by ``turn_on`` unless it already is.

    For a schedule (``attrs is None``) the command runs alone, as a native schedule does:
    if the device is off when it fires, the schedule fails with POWER_OFF.
    """
    return commands if attrs is None or _powered_on(attrs) else [("turn_on", {}), *commands]


Handler = Callable[[Entity, Mapping[str, Any], Attrs], list[Command]]


def _unsupported(entity: Entity, what: str) -> ServiceError:
    return ServiceError("service_validation_error", f"{entity.entity_id} does not support {what}")


def _light_on(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    """HA's ``light.turn_on``: resolve brightness (absolute, percent or a step from the current one),
    0 turns the light off, then drop what this light lacks (brightness on an on/off light, and
    transition, flash, effects and colours on every light here)."""
    given = [k for k in _BRIGHTNESS_FIELDS if k in d]
    if len(given) > 1:
        raise ServiceError(
            "service_validation_error",
            f"two or more values in the same group of exclusion 'brightness' @ data[{given[1]!r}]",
        )
    pct = _light_pct(e, d, a, given[0]) if given else None
    if pct == 0:
        return [("turn_off", {})]
    if pct is None or e.category != "dimmable_light":
        return [("turn_on", {})]
    return _with_power(a, [("set_brightness", {"brightness": pct})])


def _light_pct(e: Entity, d: Mapping[str, Any], a: Attrs, key: str) -> float:
    """The brightness asked for, in our percent (0: off)."""
    raw = _number(d, key)
    if key == "brightness":
        if not 0 <= raw <= 255:
            raise ServiceError("service_validation_error", "brightness must be within 0-255")
        return 0 if raw == 0 else brightness_to_pct(raw)
    if key == "brightness_pct":
        if not 0 <= raw <= 100:
            raise ServiceError("service_validation_error", "brightness_pct must be within 0-100")
        return 0 if raw == 0 else max(1, round(raw))
    if a is None:
        raise ServiceError(
            "service_validation_error",
            f"{key} depends on the light's state: schedule brightness or brightness_pct",
        )
    bound = 255 if key == "brightness_step" else 100
    if not -bound <= raw <= bound:
        raise ServiceError("service_validation_error", f"{key} must be within -{bound}-{bound}")
    # HA: the current brightness (0 when off) plus the step, within 0-255
    on = bool(a.get("power"))
    current = pct_to_brightness(a.get("brightness", 100)) if on and e.category == "dimmable_light" else 0
    if on and e.category != "dimmable_light":
        current = 255
    step = raw if key == "brightness_step" else raw * 255 / 100
    value = max(0.0, min(255.0, current + step))
    return 0 if round(value) == 0 else brightness_to_pct(value)


def _cover_toggle(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    if a is None:
        raise ServiceError(
            "service_validation_error",
            "toggle depends on the cover's state: schedule open_cover or close_cover",
        )
    return [("close", {})] if int(a["position"]) > 0 else [("open", {})]


def _hvac_mode(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    mode = d["hvac_mode"]
    if mode == "off":
        return [("turn_off", {})]
    if e.category == "heater":
        if mode != "heat":
            raise ServiceError(
                "service_validation_error", f"{e.entity_id}: hvac_mode must be one of off, heat"
            )
        return [("turn_on", {})]
    ours = HVAC_TO_AC.get(str(mode))
    if ours is None:
        raise ServiceError(
            "service_validation_error",
            f"{e.entity_id}: hvac_mode must be one of off, {', '.join(HVAC_TO_AC)}",
        )
    if a is not None and a.get("power") and a.get("mode") == ours:
        return []
    return _with_power(a, [("set_mode", {"mode": ours})])


def _set_temperature(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    """HA's ``climate.set_temperature``: a range check only (22.3 is accepted; the device, which
    takes steps of its own, is set to the nearest one); low/high targets need a range device."""
    if "target_temp_low" in d or "target_temp_high" in d:
        raise ServiceError(
            "service_validation_error",
            f"Set temperature action was used with the target temperature low/high parameter but the "
            f"entity {e.entity_id} does not support it",
        )
    if "temperature" not in d:
        raise ServiceError("service_validation_error", "required key not provided @ data['temperature']")
    temperature = _number(d, "temperature")
    assert e.category is not None
    lo, hi, step = temperature_range(e.category)
    if not lo <= temperature <= hi:
        raise ServiceError(
            "service_validation_error",
            f"Provided temperature {temperature} is not valid. Accepted range is {lo:g} to {hi:g}.",
        )
    temperature = min(max(round(temperature / step) * step, lo), hi)
    first: list[Command] = []
    if "hvac_mode" in d:
        first = _hvac_mode(e, {"hvac_mode": d["hvac_mode"]}, a)
        a = {**(a or {}), "power": True} if first or _powered_on(a) else a
    return first + _with_power(a, [("set_target_temperature", {"temperature": temperature})])


def _fan_mode(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    if e.category != "air_conditioner":
        raise _unsupported(e, "fan modes")
    return _with_power(a, [("set_fan_speed", {"speed": d["fan_mode"]})])


def _preset(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    if e.category != "heater":
        raise _unsupported(e, "preset modes")
    preset = d["preset_mode"]
    if preset not in ("none", "eco"):
        raise ServiceError("service_validation_error", f"{e.entity_id}: preset_mode must be one of none, eco")
    return _with_power(a, [("set_mode", {"mode": "eco" if preset == "eco" else "heat"})])


def _fan_speed_commands(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    if "percentage" in d:
        pct = _number(d, "percentage")
        if not 0 <= pct <= 100:
            raise ServiceError("service_validation_error", "percentage must be within 0-100")
        if pct == 0:
            return [("turn_off", {})]
        return _with_power(a, [("set_fan_speed", {"speed": percentage_to_speed(pct)})])
    if "preset_mode" in d:
        if d["preset_mode"] != "auto":
            raise ServiceError("service_validation_error", f"{e.entity_id}: preset_mode must be 'auto'")
        return _with_power(a, [("set_fan_speed", {"speed": "auto"})])
    return [("turn_on", {})]


def _fan_on(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    if "percentage" in d and "preset_mode" in d:
        raise ServiceError("service_validation_error", "give percentage or preset_mode, not both")
    return _fan_speed_commands(e, d, a)


def _select_option(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    attribute = e.part.split(":", 1)[1]
    command = "set_program" if attribute == "program" else "set_clean_mode"
    param = "program" if attribute == "program" else "mode"
    return [(command, {param: d["option"]})]


def _press(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    return [(e.part.split(":", 1)[1], {})]


def _vacuum_start(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    paused = a is not None and a.get("operational_state") == "paused"
    return [("resume", {})] if paused else [("start", {})]


def _simple(command: str) -> Handler:
    def handler(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
        return [(command, {})]

    return handler


def _light_toggle(e: Entity, d: Mapping[str, Any], a: Attrs) -> list[Command]:
    """HA's ``light.toggle``: off if on, else ``turn_on`` with the same fields."""
    if a is None or not d:
        return [("toggle", {})]
    return [("turn_off", {})] if a.get("power") else _light_on(e, d, a)


_HANDLERS: dict[tuple[str, str], Handler] = {
    ("light", "turn_on"): _light_on,
    ("light", "toggle"): _light_toggle,
    ("cover", "open_cover"): _simple("open"),
    ("cover", "close_cover"): _simple("close"),
    ("cover", "set_cover_position"): lambda e, d, a: [
        ("set_position", {"position": round(_number(d, "position"))})
    ],
    ("cover", "toggle"): _cover_toggle,
    ("climate", "set_hvac_mode"): _hvac_mode,
    ("climate", "set_temperature"): _set_temperature,
    ("climate", "set_fan_mode"): _fan_mode,
    ("climate", "set_preset_mode"): _preset,
    ("fan", "turn_on"): _fan_on,
    ("fan", "set_percentage"): lambda e, d, a: _fan_speed_commands(e, {"percentage": d["percentage"]}, a),
    ("fan", "set_preset_mode"): lambda e, d, a: _fan_speed_commands(e, {"preset_mode": d["preset_mode"]}, a),
    ("humidifier", "set_humidity"): lambda e, d, a: _with_power(
        a, [("set_target_humidity", {"humidity": _number(d, "humidity")})]
    ),
    ("vacuum", "start"): _vacuum_start,
    ("vacuum", "pause"): _simple("pause"),
    ("vacuum", "return_to_base"): _simple("return_to_dock"),
    ("select", "select_option"): _select_option,
    ("button", "press"): _press,
}
for _domain in ("light", "switch", "fan", "humidifier", "climate"):
    for _service in ("turn_on", "turn_off", "toggle"):
        _HANDLERS.setdefault((_domain, _service), _simple(_service))


def translate(
    domain: str, service: str, entity: Entity, data: Mapping[str, Any], attrs: Attrs
) -> list[Command]:
    """The commands that carry out ``domain.service`` on ``entity`` (may be none: already so)."""
    if domain == "homeassistant":
        domain = entity.domain
        if (domain, service) not in _HANDLERS:
            raise ServiceError(
                "service_validation_error", f"{entity.entity_id} cannot be switched ({service})"
            )
    decl = find_service(domain, service)
    if entity.domain not in decl.entity_domains:
        raise ServiceError(
            "service_validation_error",
            f"{domain}.{service} acts on {', '.join(decl.entity_domains)} entities, not {entity.entity_id}",
        )
    if entity.device_id is None or entity.part.startswith("sensor:"):
        raise ServiceError("service_validation_error", f"{entity.entity_id} is a sensor: it has no services")
    return _HANDLERS[(domain, service)](entity, data, attrs)


def schedule_command(domain: str, service: str, entity: Entity, data: Mapping[str, Any]) -> Command:
    """The one command a schedule would run for this call (a schedule runs one device command)."""
    commands = translate(domain, service, entity, data, None)
    if len(commands) != 1:
        steps = " then ".join(c for c, _ in commands) or "nothing"
        raise ServiceError(
            "service_validation_error",
            f"a schedule runs one device command, but {domain}.{service} on {entity.entity_id} needs {steps}; "
            "schedule them separately",
        )
    return commands[0]


__all__ = [
    "FAN_PERCENT",
    "SERVICES",
    "ServiceDecl",
    "ServiceError",
    "schedule_command",
    "services_catalog",
    "translate",
]
