"""The home's devices and rooms as Home Assistant entities, with HA's domains, units and conventions.

Pure functions of the SmartHome ``state`` view. One device may be several entities,
as HA integrations model them: a washer is a ``switch`` (power), a ``select``
(program), ``sensor`` s (operational state, phase, remaining time) and ``button`` s
(start, pause, resume, stop); a purifier is a ``fan`` plus a PM2.5 ``sensor``. Values
follow HA: light brightness 0-255 (ours is 1-100 %), cover position 0 = closed and
100 = open (as ours), climate ``hvac_mode``/``temperature``/``fan_mode``/``preset_mode``,
fan ``percentage``, vacuum states ``docked``/``cleaning``/``paused``/``returning``.
Each room's climate is four sensors (°C, %, µg/m³, lx), and the virtual clock and the
schedules are ``sensor.devicesworld_time`` and ``sensor.devicesworld_schedules``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from devicesworld.devices.smarthome.catalog import CATEGORIES

# HA's feature bit flags (homeassistant.components.<domain>.const)
COVER_FEATURES = 1 | 2 | 4  # OPEN | CLOSE | SET_POSITION
CLIMATE_TARGET_TEMPERATURE, CLIMATE_FAN_MODE, CLIMATE_PRESET_MODE = 1, 8, 16
CLIMATE_TURN_OFF, CLIMATE_TURN_ON = 128, 256
FAN_FEATURES = 1 | 8 | 16 | 32  # SET_SPEED | PRESET_MODE | TURN_OFF | TURN_ON
VACUUM_FEATURES = 4 | 16 | 64 | 4096 | 8192  # PAUSE | RETURN_HOME | BATTERY | STATE | START

AC_TO_HVAC = {"cool": "cool", "heat": "heat", "dry": "dry", "fan": "fan_only", "auto": "auto"}
HVAC_TO_AC = {v: k for k, v in AC_TO_HVAC.items()}
FAN_PERCENT = {"low": 33, "medium": 66, "high": 100}  # HA: int(k * 100 / 3) of an ordered list
FAN_SPEED_COUNT = 3
BUTTONS = ("start", "pause", "resume", "stop")
ROOM_SENSORS = {
    "temperature": ("°C", "temperature", "Temperature"),
    "humidity": ("%", "humidity", "Humidity"),
    "pm25": ("µg/m³", "pm25", "PM2.5"),
    "illuminance": ("lx", "illuminance", "Illuminance"),
}
DEVICE_SENSORS = {
    # attribute: (unit, device class, label, a measurement)
    "pm25": ("µg/m³", "pm25", "PM2.5", True),
    "battery": ("%", "battery", "Battery", True),
    "remaining_minutes": ("min", "duration", "Remaining time", False),
}
"""A device's numeric sensors; its other sensors (operational state, phase) are enums."""
TIME_ENTITY = "sensor.devicesworld_time"
SCHEDULES_ENTITY = "sensor.devicesworld_schedules"


@dataclass(frozen=True)
class Entity:
    """Where an entity's state comes from: a device (and which part of it), a room, or the facade."""

    entity_id: str
    domain: str
    device_id: str | None = None
    category: str | None = None
    part: str = "main"
    """``main``; ``sensor:<attribute>``, ``select:<attribute>``, ``button:<command>`` or ``room:<variable>``."""
    room: str | None = None
    """The room (HA's area) of the device or of the room sensor."""


def _range(category: str, attribute: str) -> tuple[float | None, float | None, float | None]:
    spec = CATEGORIES[category].attributes[attribute].spec
    return spec.min, spec.max, spec.step


def temperature_range(category: str) -> tuple[float, float, float]:
    """(min, max, step) of a climate device's target temperature."""
    lo, hi, step = _range(category, "target_temperature")
    assert lo is not None and hi is not None
    return float(lo), float(hi), float(step or 0.5)


def _main_domain(category: str) -> str:
    return {
        "light": "light",
        "dimmable_light": "light",
        "curtain": "cover",
        "air_conditioner": "climate",
        "heater": "climate",
        "air_purifier": "fan",
        "humidifier": "humidifier",
        "dehumidifier": "humidifier",
        "washing_machine": "switch",
        "dryer": "switch",
        "robot_vacuum": "vacuum",
    }[category]


def _device_entities(device_id: str, category: str) -> list[Entity]:
    main = Entity(f"{_main_domain(category)}.{device_id}", _main_domain(category), device_id, category)
    out = [main]

    def extra(domain: str, suffix: str, part: str) -> None:
        out.append(Entity(f"{domain}.{device_id}_{suffix}", domain, device_id, category, part))

    if category == "air_purifier":
        extra("sensor", "pm25", "sensor:pm25")
    if category in ("washing_machine", "dryer"):
        extra("select", "program", "select:program")
        extra("sensor", "operational_state", "sensor:operational_state")
        extra("sensor", "phase", "sensor:phase")
        extra("sensor", "remaining_time", "sensor:remaining_minutes")
        for command in BUTTONS:
            extra("button", command, f"button:{command}")
    if category == "robot_vacuum":
        extra("select", "clean_mode", "select:clean_mode")
        extra("sensor", "battery", "sensor:battery")
        extra("sensor", "remaining_time", "sensor:remaining_minutes")
    return out


def build_entities(state: Mapping[str, Any]) -> dict[str, Entity]:
    """Every entity of the home (``state`` is the SmartHome ``state`` getter's view), by entity id."""
    entities: dict[str, Entity] = {}

    def add(entity: Entity) -> None:
        entity_id, n = entity.entity_id, 2
        while entity_id in entities:  # a device id that clashes with another's sensor: HA's _2 suffix
            entity_id = f"{entity.entity_id}_{n}"
            n += 1
        entities[entity_id] = Entity(
            entity_id, entity.domain, entity.device_id, entity.category, entity.part, entity.room
        )

    for device_id, view in state["devices"].items():
        for entity in _device_entities(device_id, view["category"]):
            add(
                Entity(entity.entity_id, entity.domain, device_id, entity.category, entity.part, view["room"])
            )
    for room in state["rooms"]:
        for variable in ROOM_SENSORS:
            add(Entity(f"sensor.{room}_{variable}", "sensor", part=f"room:{variable}", room=room))
    add(Entity(TIME_ENTITY, "sensor", part="clock"))
    add(Entity(SCHEDULES_ENTITY, "sensor", part="schedules"))
    return entities


def entity_state(entity: Entity, state: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """HA's ``(state, attributes)`` of ``entity`` in the home ``state`` view."""
    if entity.part == "clock":
        return ha_time(state["time"]), {"friendly_name": "Virtual time", "device_class": "timestamp"}
    if entity.part == "schedules":
        pending = [s for s in state["schedules"] if s["status"] == "pending"]
        return str(len(pending)), {
            "friendly_name": "Schedules (pending)",
            "schedules": list(state["schedules"]),
        }
    if entity.part.startswith("room:"):
        assert entity.room is not None
        variable = entity.part.split(":", 1)[1]
        unit, device_class, label = ROOM_SENSORS[variable]
        value = state["rooms"][entity.room][variable]
        return str(value), _reading(f"{entity.room.replace('_', ' ').title()} {label}", unit, device_class)
    assert entity.device_id is not None and entity.category is not None
    view = state["devices"][entity.device_id]
    attrs: dict[str, Any] = view["attributes"]
    name = str(view["name"])
    kind, _, detail = entity.part.partition(":")
    if kind == "sensor":
        return _sensor(entity.category, detail, attrs, name)
    if kind == "select":
        options = list(CATEGORIES[entity.category].attributes[detail].spec.values)
        label = "Program" if detail == "program" else "Clean mode"
        return str(attrs[detail]), {"friendly_name": f"{name} {label}", "options": options}
    if kind == "button":
        return "unknown", {"friendly_name": f"{name} {detail.title()}"}
    return _main(entity.category, attrs, name)


def _reading(friendly_name: str, unit: str, device_class: str, *, measured: bool = True) -> dict[str, Any]:
    """The attributes of a numeric sensor; a measurement (not a countdown) has HA's ``state_class``."""
    attrs = {"friendly_name": friendly_name, "unit_of_measurement": unit, "device_class": device_class}
    if measured:
        attrs["state_class"] = "measurement"
    return attrs


def _on(attrs: Mapping[str, Any]) -> str:
    return "on" if attrs.get("power") else "off"


def _sensor(category: str, attribute: str, attrs: Mapping[str, Any], name: str) -> tuple[str, dict[str, Any]]:
    value = attrs[attribute]
    if attribute in DEVICE_SENSORS:
        unit, device_class, label, measured = DEVICE_SENSORS[attribute]
        return str(value), _reading(f"{name} {label}", unit, device_class, measured=measured)
    options = list(CATEGORIES[category].attributes[attribute].spec.values)
    label = "Operational state" if attribute == "operational_state" else "Phase"
    return str(value), {"friendly_name": f"{name} {label}", "device_class": "enum", "options": options}


def _main(category: str, a: Mapping[str, Any], name: str) -> tuple[str, dict[str, Any]]:
    base: dict[str, Any] = {"friendly_name": name}
    if category == "light":
        on = _on(a)
        return on, {**base, "supported_color_modes": ["onoff"], "color_mode": "onoff" if on == "on" else None,
                    "supported_features": 0}  # fmt: skip
    if category == "dimmable_light":
        on = _on(a)
        return on, {
            **base,
            "supported_color_modes": ["brightness"],
            "color_mode": "brightness" if on == "on" else None,
            "brightness": pct_to_brightness(a["brightness"]) if on == "on" else None,
            "supported_features": 0,
        }
    if category == "curtain":
        position = int(a["position"])
        return ("open" if position > 0 else "closed"), {
            **base,
            "current_position": position,
            "device_class": "curtain",
            "supported_features": COVER_FEATURES,
        }
    if category in ("air_conditioner", "heater"):
        return _climate(category, a, base)
    if category == "air_purifier":
        on = _on(a)
        speed = a["fan_speed"]
        return on, {
            **base,
            "percentage": (FAN_PERCENT.get(speed) if on == "on" else 0),
            "percentage_step": round(100 / FAN_SPEED_COUNT, 2),
            "preset_modes": ["auto"],
            "preset_mode": "auto" if speed == "auto" and on == "on" else None,
            "supported_features": FAN_FEATURES,
        }
    if category in ("humidifier", "dehumidifier"):
        on = _on(a)
        lo, hi, _ = _range(category, "target_humidity")
        wants_more = category == "humidifier"
        working = (a["current_humidity"] < a["target_humidity"]) == wants_more
        action = (
            "off" if on == "off" else (("humidifying" if wants_more else "drying") if working else "idle")
        )
        return on, {
            **base,
            "device_class": category,
            "humidity": a["target_humidity"],
            "current_humidity": a["current_humidity"],
            "min_humidity": lo,
            "max_humidity": hi,
            "action": action,
            "supported_features": 0,
        }
    if category in ("washing_machine", "dryer"):
        return _on(a), {**base, "device_class": "switch"}
    if category == "robot_vacuum":
        return str(a["operational_state"]), {
            **base,
            "battery_level": a["battery"],
            "battery_icon": "mdi:battery-charging" if a["charging"] else "mdi:battery",
            "supported_features": VACUUM_FEATURES,
        }
    raise KeyError(f"no Home Assistant mapping for category {category!r}")


def _climate(category: str, a: Mapping[str, Any], base: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    lo, hi, step = _range(category, "target_temperature")
    on = bool(a["power"])
    current, target = a["current_temperature"], a["target_temperature"]
    if category == "air_conditioner":
        mode = AC_TO_HVAC[a["mode"]] if on else "off"
        modes = ["off", *AC_TO_HVAC.values()]
        features = CLIMATE_TARGET_TEMPERATURE | CLIMATE_FAN_MODE | CLIMATE_TURN_OFF | CLIMATE_TURN_ON
    else:
        mode = "heat" if on else "off"
        modes = ["off", "heat"]
        features = CLIMATE_TARGET_TEMPERATURE | CLIMATE_PRESET_MODE | CLIMATE_TURN_OFF | CLIMATE_TURN_ON
    if not on:
        action = "off"
    elif mode == "dry":
        action = "drying"
    elif mode == "fan_only":
        action = "fan"
    elif mode in ("heat", "auto") and current < target:
        action = "heating"
    elif mode in ("cool", "auto") and current > target:
        action = "cooling"
    else:
        action = "idle"
    attrs: dict[str, Any] = {
        **base,
        "hvac_modes": modes,
        "min_temp": lo,
        "max_temp": hi,
        "target_temp_step": step,
        "current_temperature": current,
        "temperature": target,
        "hvac_action": action,
        "supported_features": features,
    }
    if category == "air_conditioner":
        attrs["fan_modes"] = ["low", "medium", "high", "auto"]
        attrs["fan_mode"] = a["fan_speed"]
    else:
        attrs["preset_modes"] = ["none", "eco"]
        attrs["preset_mode"] = "eco" if a["mode"] == "eco" else "none"
    return mode, attrs


def ha_time(iso: str) -> str:
    """Our virtual time (naive ISO, the task's clock) as HA's timezone-aware ISO (UTC, the facade's zone)."""
    return iso if iso.endswith("Z") or "+" in iso[10:] or "-" in iso[10:] else f"{iso}+00:00"


def pct_to_brightness(pct: float) -> int:
    """Our brightness (1-100 %) as HA's 0-255."""
    return round(float(pct) * 255 / 100)


def brightness_to_pct(brightness: float) -> int:
    """HA's 0-255 as our percentage, at least 1 (0 means off, handled by the caller)."""
    return max(1, min(100, round(float(brightness) * 100 / 255)))


def percentage_to_speed(percentage: float) -> str:
    """A fan percentage as one of our three speeds, as HA maps a percentage onto an ordered
    list (up to 33.3 % low, up to 66.7 % medium, above that high; 0 means off, handled by the caller)."""
    index = min(FAN_SPEED_COUNT, max(1, math.ceil(float(percentage) * FAN_SPEED_COUNT / 100 - 1e-9)))
    return ("low", "medium", "high")[index - 1]
