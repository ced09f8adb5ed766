"""What the phone atomic tasks share: people and numbers, Messages and time-picker scripts, dates.

The composed phone starts on Monday 2026-03-02 09:00 (the task clock's default) in
English with a 12-hour clock, so the scripts type 12-hour times and tap day cells by
their content description ("5 March 2026", with " •" when the day has events).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.authoring.android_script import On, ScriptItem
from devicesworld.tasks.composition.atomic import InstanceContext

KIND = "android"
FIRST = ("Ann", "Bob", "Carla", "Dmitri", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jae")
LAST = ("Lee", "Stone", "Diaz", "Ivanov", "Yilmaz", "Okafor", "Berg", "Moreau", "Silva", "Park")
SERVICES = ("BankCo", "ParcelNow", "CloudID", "ShopSafe")
STEMS = ("ticket", "receipt", "memo", "pass", "voucher")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def person(ctx: InstanceContext) -> tuple[str, str]:
    """A contact name unique on this phone, as (first, last)."""
    while True:
        first, last = ctx.rng.choice(FIRST), ctx.rng.choice(LAST)
        if f"{first} {last}" not in ctx.names:
            ctx.names.add(f"{first} {last}")
            return first, last


def number(ctx: InstanceContext) -> str:
    return f"+1555{ctx.rng.randrange(200, 1000)}{ctx.rng.randrange(1000, 10000)}"


def fresh(ctx: InstanceContext, options: tuple[str, ...]) -> str:
    """One of ``options`` not used yet on this device ("Gym"), else a numbered one ("Gym 2")."""
    unused = [o for o in options if o not in ctx.names]
    if unused:
        choice = ctx.rng.choice(unused)
        ctx.names.add(choice)
        return choice
    return label(ctx.unique(ctx.rng.choice(options)))


def label(unique_name: str) -> str:
    """A name made unique by ``ctx.unique`` ("Pickup_2") as people write it ("Pickup 2")."""
    return unique_name.replace("_", " ")


def send_sms(ph: On, query: str, pick: str, body: str) -> list[ScriptItem]:
    """Messages: new chat, pick the contact from the suggestions, type, send."""
    return [
        ph.open("Messages"),
        ph.tap(rid="conversations_fab"),
        ph.type(query, rid="new_conversation_address"),
        ph.tap(text=pick),
        ph.type(body, rid="thread_type_message"),
        ph.tap(rid="thread_send_message"),
    ]


def set_time(ph: On, hour: int, minute: int) -> list[ScriptItem]:
    """Fill an open 12-hour time picker and press OK."""
    return [
        ph.type(str(hour % 12 or 12), clear=True, rid="hour"),
        ph.type(f"{minute:02d}", clear=True, rid="minute"),
        ph.tap(rid="pm_label" if hour >= 12 else "am_label"),
        ph.tap(rid="button1"),
    ]


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


def twelve_hour(hour: int, minute: int) -> str:
    """How the phone shows a time: ``7:05 PM``."""
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def day_label(day: datetime) -> str:
    """A calendar day as the phone names it: ``5 March 2026``."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def later_day(ctx: InstanceContext, *, hours: tuple[int, int] = (10, 20)) -> datetime:
    """A time on one of the next four days (still in the month the calendar opens on)."""
    day = DEFAULT_START_TIME + timedelta(days=ctx.rng.randrange(1, 5))
    return day.replace(hour=ctx.rng.randrange(*hours), minute=ctx.rng.choice([0, 15, 30, 45]))
