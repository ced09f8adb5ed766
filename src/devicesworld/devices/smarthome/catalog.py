"""The 11 device categories of DevicesWorld, each a bundle of capabilities with defaults.

Categories are data: adding one means listing its capabilities, its default stored
attributes and the events it emits (what ``after_event`` schedules can wait for).
Lookup tables (command and attribute by name) are built once at import, so the hot
path of a command is two dictionary reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devicesworld.devices.smarthome import capabilities as cap

WASHER_PROGRAMS = {"cotton": 90, "synthetics": 60, "quick": 30, "delicate": 45, "wool": 40}
WASHER_PHASES = (("washing", 0.55), ("rinsing", 0.25), ("spinning", 0.20))
DRYER_PROGRAMS = {"normal": 60, "quick": 30, "delicate": 45, "heavy": 90}
DRYER_PHASES = (("drying", 0.85), ("cooling", 0.15))

ONOFF_EVENTS = ("turned_on", "turned_off")
CYCLE_EVENTS = ("started", "paused", "resumed", "stopped", "completed")
RVC_EVENTS = ("started", "paused", "resumed", "cleaning_finished", "returning", "docked")


@dataclass(frozen=True)
class Category:
    name: str
    doc: str
    capabilities: tuple[cap.Capability, ...]
    defaults: dict[str, Any]
    events: tuple[str, ...]
    phases: tuple[tuple[str, float], ...] = ()
    programs: dict[str, int] = field(default_factory=dict)
    commands: dict[str, cap.Command] = field(init=False)
    attributes: dict[str, cap.Attribute] = field(init=False)

    def __post_init__(self) -> None:
        commands = {c.name: c for capability in self.capabilities for c in capability.commands}
        attributes = {a.name: a for capability in self.capabilities for a in capability.attributes}
        object.__setattr__(self, "commands", commands)
        object.__setattr__(self, "attributes", attributes)

    @property
    def has_power(self) -> bool:
        return "power" in self.attributes

    def describe(self) -> dict[str, Any]:
        return {
            "category": self.name,
            "doc": self.doc,
            "capabilities": [c.name for c in self.capabilities],
            "attributes": [a.describe() for a in self.attributes.values()],
            "commands": [c.describe() for c in self.commands.values()],
            "events": list(self.events),
        }


def _build() -> dict[str, Category]:
    cats = [
        Category(
            "light", "An on/off lamp (300 lux when on).", (cap.on_off(),), {"power": False}, ONOFF_EVENTS
        ),
        Category(
            "dimmable_light",
            "A lamp with brightness (up to 400 lux at 100%).",
            (cap.on_off(), cap.level_control()),
            {"power": False, "brightness": 100},
            ONOFF_EVENTS,
        ),
        Category(
            "curtain",
            "A motorised curtain; daylight enters in proportion to how open it is.",
            (cap.window_covering(),),
            {"position": 0},
            (),
        ),
        Category(
            "air_conditioner",
            "Cools (and dries), heats, dries or just ventilates the room.",
            (cap.on_off(), cap.thermostat(("cool", "heat", "dry", "fan", "auto"), 16, 30), cap.fan_control()),
            {"power": False, "mode": "cool", "target_temperature": 24.0, "fan_speed": "auto"},
            ONOFF_EVENTS,
        ),
        Category(
            "heater",
            "Warms the room up to its target temperature.",
            (cap.on_off(), cap.thermostat(("heat", "eco"), 5, 30)),
            {"power": False, "mode": "heat", "target_temperature": 21.0},
            ONOFF_EVENTS,
        ),
        Category(
            "air_purifier",
            "Filters the air; PM2.5 falls faster at higher fan speeds.",
            (cap.on_off(), cap.fan_control(), cap.air_quality()),
            {"power": False, "fan_speed": "auto"},
            ONOFF_EVENTS,
        ),
        Category(
            "humidifier",
            "Adds moisture until the room reaches its target humidity.",
            (cap.on_off(), cap.humidity_control()),
            {"power": False, "target_humidity": 50},
            ONOFF_EVENTS,
        ),
        Category(
            "dehumidifier",
            "Removes moisture until the room falls to its target humidity.",
            (cap.on_off(), cap.humidity_control()),
            {"power": False, "target_humidity": 45},
            ONOFF_EVENTS,
        ),
        Category(
            "washing_machine",
            "Washes a load: washing, rinsing, spinning; duration depends on the program.",
            (
                cap.on_off(),
                cap.run_mode(WASHER_PROGRAMS),
                cap.operational_state(tuple(p for p, _ in WASHER_PHASES)),
            ),
            {"power": False, "program": "cotton"},
            ONOFF_EVENTS + CYCLE_EVENTS,
            WASHER_PHASES,
            WASHER_PROGRAMS,
        ),
        Category(
            "dryer",
            "Dries a load: drying then cooling; duration depends on the program.",
            (
                cap.on_off(),
                cap.run_mode(DRYER_PROGRAMS),
                cap.operational_state(tuple(p for p, _ in DRYER_PHASES)),
            ),
            {"power": False, "program": "normal"},
            ONOFF_EVENTS + CYCLE_EVENTS,
            DRYER_PHASES,
            DRYER_PROGRAMS,
        ),
        Category(
            "robot_vacuum",
            "Cleans every room (15 min per room) and returns to its dock to charge.",
            (cap.rvc_operation(), cap.rvc_clean_mode()),
            {"clean_mode": "vacuum"},
            RVC_EVENTS,
        ),
    ]
    return {c.name: c for c in cats}


CATEGORIES: dict[str, Category] = _build()
CATEGORY_NAMES: tuple[str, ...] = tuple(CATEGORIES)
