"""What the SmartHome atomic tasks share: rooms, device names, due times of schedules."""

from __future__ import annotations

from datetime import datetime, timedelta

from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.composition.atomic import InstanceContext

KIND = "smarthome"
ROOMS = ("study", "bedroom", "nursery", "living_room", "office", "guest_room", "den", "kitchen")


def room(ctx: InstanceContext) -> str:
    """A room name not used yet in this home."""
    return ctx.unique(ctx.rng.choice(ROOMS))


def room_label(name: str) -> str:
    """``living_room_2`` as people say it: ``living room 2``."""
    return name.replace("_", " ")


def hhmm(value: object) -> tuple[int, int]:
    """``"07:30"`` as (7, 30); a clear error for anything else."""
    text = str(value)
    try:
        hour, minute = (int(x) for x in text.split(":"))
    except ValueError as exc:
        raise ValueError(f"not a time of day HH:MM: {text!r}") from exc
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise ValueError(f"not a time of day HH:MM: {text!r}")
    return hour, minute


def next_due(at: object) -> datetime:
    """When a schedule ``at="HH:MM"`` is due: its next occurrence after the task's start."""
    hour, minute = hhmm(at)
    due = DEFAULT_START_TIME.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return due if due > DEFAULT_START_TIME else due + timedelta(days=1)
