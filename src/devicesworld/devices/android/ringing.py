"""When an alarm will ring: the Clock app's semantics, so a check judges the moment, not the row.

An alarm row says "09:35"; whether that is the 09:35 a task wants depends on the day it rings.
The Clock rings a one-off alarm without a date at the next 09:35 after the moment it is armed
(set at 2 Mar 10:00 it rings on 3 Mar; set at 2 Mar 09:00 it rings that morning), a scheduled
alarm on its date (*Schedule alarm*), a repeating one on the next of its days. The phone rings
alarms as virtual time passes (:meth:`AndroidDevice._ring_alarms`) and turns a one-off alarm off
once it has rung, so an enabled one-off alarm at the end of an episode has not rung yet: it
rings at its next occurrence after the phone's *current* time, wherever in the episode it was
set. A task that declares the day wants the alarm to ring first at that date and time; a task
that declares none means "the next time it is that hour" when the person asked
(:func:`first_occurrence`, :func:`rings_then`, session 49).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from devicesworld.devices.android.providers import WEEKDAYS


def next_at(hour: int, minute: int, after: datetime) -> datetime:
    """The first ``hour:minute`` strictly after ``after``."""
    at = datetime.combine(after.date(), time(hour, minute))
    return at if at > after else at + timedelta(days=1)


def first_ring(alarm: Mapping[str, Any], now: datetime) -> datetime | None:
    """When an alarm row (``providers.alarms``) rings next, seen at ``now``; ``None``: never (off,
    or scheduled on a date already past)."""
    if not alarm.get("enabled"):
        return None
    hour, minute = int(alarm["hour"]), int(alarm["minute"])
    if alarm.get("date"):
        at = datetime.combine(date.fromisoformat(str(alarm["date"])), time(hour, minute))
        return at if at > now else None
    at = next_at(hour, minute, now)
    days = list(alarm.get("days") or [])
    if days:
        while WEEKDAYS[(at.weekday() + 1) % 7] not in days:
            at += timedelta(days=1)
    return at


def a_day_later(alarm: Mapping[str, Any], now: datetime) -> tuple[list[str], date | None] | None:
    """The ``(days, date)`` that make an alarm ring at its time one day later than it would, seen at
    ``now``; ``None`` when it never rings (off, or a date past). A repeating alarm moves each repeat
    day to the next weekday (Mon-Fri becomes Tue-Sat); a one-off alarm, dated or not, is scheduled on
    the day after its first ring. Quality control's ``wrong_day`` near miss (an alarm asked for a
    day that rings on another) and the tests that pin both ways use it."""
    at = first_ring(alarm, now)
    if at is None:
        return None
    days = list(alarm.get("days") or [])
    if days and not alarm.get("date"):
        return [WEEKDAYS[(WEEKDAYS.index(d) + 1) % 7] for d in days], None
    return [], at.date() + timedelta(days=1)


def first_occurrence(hour: int, minute: int, start: datetime) -> datetime:
    """The moment a task that names no day wants its alarm to ring: the first ``hour:minute``
    strictly after the task's start (the person asked then; "set an alarm for 18:10" at 09:00 is
    today's 18:10, at 19:00 tomorrow's)."""
    return next_at(hour, minute, start)


def rings_then(alarm: Mapping[str, Any], at: datetime, now: datetime) -> bool:
    """Whether an alarm row, as the phone holds it at ``now``, rings at the moment ``at``.

    A moment still ahead: its first ring is then (between ``now`` and the first occurrence there
    is no other ``hour:minute``, so "rings then" and "rings first then" agree) — an undated one-off,
    one dated that day, a repeat whose days include that weekday; not one dated another day, a
    repeat that skips the weekday, or an alarm switched off. A moment that passed during the
    episode (the agent let virtual time run past it): a one-off that rang is off now, and one still
    on did not ring then; only an enabled repeat on that weekday rang then and still stands."""
    if at > now:
        return first_ring(alarm, now) == at
    days = list(alarm.get("days") or [])
    weekday = WEEKDAYS[(at.weekday() + 1) % 7]
    return bool(alarm.get("enabled")) and not alarm.get("date") and weekday in days


def wanted(hour: int, minute: int, on: date) -> datetime:
    """The moment a task wants its alarm to ring: its declared date at the time."""
    return datetime.combine(on, time(hour, minute))


def shown(at: datetime) -> str:
    """A ring moment as a person reads it: ``Tue 3 Mar 09:35``."""
    return f"{at:%a} {at.day} {at:%b %H:%M}"
