"""The home surface of a world: rooms, appliances of every category, schedules, a season's climate.

The season follows the world's start month (northern hemisphere) and sets the
outdoor weather; rooms start near what their heating or cooling would hold them at,
so a winter home has heaters on and cool, dry rooms without them. The same
category recurs in several rooms (a heater in the bedroom and one in the office),
which is what a task that names one room must tell apart.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from devicesworld.worlds.model import HomeDevice, HomeSchedule, HomeWorld, Persona, Room
from devicesworld.worlds.sizing import Sizing, between

CATEGORIES = (
    "light",
    "dimmable_light",
    "curtain",
    "air_conditioner",
    "heater",
    "air_purifier",
    "humidifier",
    "dehumidifier",
    "washing_machine",
    "dryer",
    "robot_vacuum",
)
"""The 11 smart-home categories (the catalog's names; a test keeps them in step)."""

SHORT = {
    "light": "light",
    "dimmable_light": "lamp",
    "curtain": "curtain",
    "air_conditioner": "ac",
    "heater": "heater",
    "air_purifier": "purifier",
    "humidifier": "humidifier",
    "dehumidifier": "dehumidifier",
    "washing_machine": "washer",
    "dryer": "dryer",
    "robot_vacuum": "vacuum",
}
ROOMS = (
    "living_room",
    "kitchen",
    "bedroom",
    "laundry",
    "bathroom",
    "office",
    "kids_room",
    "hallway",
    "dining_room",
    "guest_room",
    "basement",
    "garage",
)
"""The first five are in every home (the washer and dryer live in the laundry)."""
OUTDOOR = {
    "winter": ((-6.0, 5.0), (70.0, 88.0), (18.0, 45.0)),
    "spring": ((6.0, 16.0), (55.0, 75.0), (10.0, 30.0)),
    "summer": ((23.0, 33.0), (45.0, 70.0), (15.0, 40.0)),
    "autumn": ((7.0, 17.0), (60.0, 85.0), (12.0, 35.0)),
}
"""Season -> (temperature °C, humidity %, PM2.5) ranges outdoors."""


def season_of(month: int) -> str:
    return {
        12: "winter",
        1: "winter",
        2: "winter",
        3: "spring",
        4: "spring",
        5: "spring",
        6: "summer",
        7: "summer",
        8: "summer",
    }.get(month, "autumn")


def _label(device_id: str, category: str, room: str) -> str:
    return f"{room.replace('_', ' ').capitalize()} {category.replace('_', ' ')}" + (
        f" {device_id.rsplit('_', 1)[-1]}" if device_id[-1].isdigit() else ""
    )


def build(rng: random.Random, sizing: Sizing, persona: Persona, start: datetime) -> HomeWorld:
    season = season_of(start.month)
    (t0, t1), (h0, h1), (p0, p1) = OUTDOOR[season]
    outdoor_t = round(rng.uniform(t0, t1), 1)
    outdoor_h = round(rng.uniform(h0, h1))
    outdoor_p = round(rng.uniform(p0, p1))
    n_rooms = between(rng, sizing.rooms)
    names = list(ROOMS[:5]) + rng.sample(ROOMS[5:], n_rooms - 5)
    heated = season in ("winter", "autumn", "spring")
    # each category once, planted where it belongs, then the rest spread over the rooms
    placed: list[tuple[str, str]] = [
        ("light", "living_room"),
        ("dimmable_light", "bedroom"),
        ("curtain", "living_room"),
        ("air_conditioner", "living_room"),
        ("heater", "bedroom"),
        ("heater", names[5] if len(names) > 5 else "bathroom"),
        ("air_purifier", "bedroom"),
        ("humidifier", "bedroom" if heated else "office" if "office" in names else "kitchen"),
        ("dehumidifier", "laundry"),
        ("washing_machine", "laundry"),
        ("dryer", "laundry"),
        ("robot_vacuum", "living_room"),
    ]
    repeatable = ("light", "dimmable_light", "curtain", "heater", "air_conditioner", "air_purifier", "light")
    want = between(rng, sizing.devices)
    for room in names:
        if ("light", room) not in placed and len(placed) < want:
            placed.append(("light", room))
    while len(placed) < want:
        placed.append((rng.choice(repeatable), rng.choice(names)))
    devices: list[HomeDevice] = []
    used: set[str] = set()
    warm_rooms: dict[str, float] = {}
    cool_rooms: dict[str, float] = {}
    for category, room in placed:
        base = f"{SHORT[category]}_{room}"
        device_id, n = base, 1
        while device_id in used:
            n += 1
            device_id = f"{base}_{n}"
        used.add(device_id)
        state: dict[str, Any] = {}
        if category in ("light", "dimmable_light"):
            state["power"] = rng.random() < 0.35
            if category == "dimmable_light":
                state["brightness"] = rng.choice((30, 50, 70, 100))
        elif category == "curtain":
            state["position"] = rng.choice((0, 50, 100))
        elif category == "heater":
            target = rng.choice((19.0, 20.0, 21.0, 22.0))
            state.update(power=heated and rng.random() < 0.6, target_temperature=target)
            if state["power"]:
                warm_rooms[room] = target
        elif category == "air_conditioner":
            target = rng.choice((22.0, 23.0, 24.0, 25.0))
            on = season == "summer" and rng.random() < 0.6
            state.update(power=on, mode="heat" if heated else "cool", target_temperature=target)
            if on:
                cool_rooms[room] = target
        elif category == "humidifier":
            state.update(power=heated, target_humidity=rng.choice((45, 50, 55)))
        elif category == "dehumidifier":
            state.update(power=not heated, target_humidity=rng.choice((40, 45, 50)))
        elif category == "air_purifier":
            state["power"] = outdoor_p > 25
        devices.append(
            HomeDevice(
                device_id=device_id,
                category=category,
                room=room,
                name=_label(device_id, category, room),
                state=state,
            )
        )
    rooms: list[Room] = []
    taken: set[float] = set()
    for room in names:
        if room in warm_rooms:
            t = warm_rooms[room] - rng.choice((0.2, 0.4, 0.6))
        elif room in cool_rooms:
            t = cool_rooms[room] + rng.choice((0.3, 0.5, 0.8))
        elif season == "summer":
            t = outdoor_t - rng.uniform(2.0, 5.0)
        else:
            t = max(outdoor_t + rng.uniform(8.0, 12.0), rng.uniform(16.0, 18.5))
        t = round(t, 1)
        while t in taken:  # every room reads differently: another room's reading is a twin, not the answer
            t = round(t + 0.3, 1)
        taken.add(t)
        humidity = round(rng.uniform(28, 40) if heated else rng.uniform(45, 62))
        rooms.append(
            Room(
                name=room,
                temperature=t,
                humidity=humidity,
                pm25=round(rng.uniform(5, 30)),
                has_window=room not in ("bathroom", "hallway", "basement"),
            )
        )
    by_category = {d.category: d.device_id for d in devices}
    schedules = [
        HomeSchedule(device_id=by_category["heater"], command="turn_on", at="06:30"),
        HomeSchedule(device_id=by_category["light"], command="turn_off", at="23:00"),
        HomeSchedule(device_id=by_category["curtain"], command="open", at="07:30"),
    ]
    if len(devices) > 14:
        schedules += [
            HomeSchedule(device_id=by_category["robot_vacuum"], command="start", at="01:30"),
            HomeSchedule(device_id=by_category["dimmable_light"], command="turn_on", at="19:00"),
        ]
    return HomeWorld(
        name=persona.home_name,
        season=season,
        outdoor_temperature=outdoor_t,
        outdoor_humidity=outdoor_h,
        outdoor_pm25=outdoor_p,
        rooms=rooms,
        devices=devices,
        schedules=schedules,
    )
