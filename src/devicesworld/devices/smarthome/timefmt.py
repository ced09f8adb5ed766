"""Conversions between the home's internal clock (seconds since its epoch) and what people read.

The simulator keeps time as a float of seconds since the virtual clock's value when
the home was created (cheap arithmetic on the hot path); agents and verifiers see
ISO-8601 local times. Absolute schedule times may be given as an ISO datetime or as
``HH:MM`` meaning the next occurrence of that time of day.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from devicesworld.devices.smarthome.errors import ErrorCode, SmartHomeError

_HHMM = re.compile(r"^(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)$")


def to_datetime(epoch: datetime, seconds: float) -> datetime:
    return epoch + timedelta(seconds=seconds)


def to_iso(epoch: datetime, seconds: float) -> str:
    return to_datetime(epoch, round(seconds)).isoformat(timespec="seconds")


def to_seconds(epoch: datetime, when: datetime) -> float:
    return (when - epoch).total_seconds()


def parse_at(text: str, epoch: datetime, now: float) -> float:
    """Seconds since the epoch for ``text``; raises INVALID_ARGS for malformed or past times."""
    current = to_datetime(epoch, now)
    m = _HHMM.match(text.strip())
    if m:
        when = current.replace(hour=int(m["h"]), minute=int(m["m"]), second=0, microsecond=0)
        if when <= current:
            when += timedelta(days=1)
        return to_seconds(epoch, when)
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise SmartHomeError(
            ErrorCode.INVALID_ARGS,
            f"cannot read time {text!r}; use 'HH:MM' or an ISO datetime like '2026-03-02T18:30'",
        ) from None
    if when.tzinfo is not None:
        when = when.replace(tzinfo=None)
    if when <= current:
        raise SmartHomeError(
            ErrorCode.INVALID_ARGS,
            f"time {when.isoformat(timespec='minutes')} is not in the future "
            f"(it is now {current.isoformat(timespec='minutes')})",
        )
    return to_seconds(epoch, when)


def hour_of_day(epoch: datetime, seconds: float) -> float:
    t = to_datetime(epoch, seconds)
    return t.hour + t.minute / 60.0 + t.second / 3600.0
