"""An alarm is judged by when it will ring (session 47, issue 32 "judge the effect").

A player set a plain 09:35 alarm for a party drop-off tomorrow and it passed. The Clock rings a
one-off alarm without a date at the next 09:35 after it is set, so the same plain alarm is right
when set after 09:35 (it rings tomorrow) and wrong when set before (it rings today). These tests
drive the Clock app on a phone whose task starts at 2 Mar 2026 09:00 and assert both directions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from devicesworld.devices.android import ringing
from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task

START = datetime(2026, 3, 2, 9, 0)


def _alarm(**row: Any) -> dict[str, Any]:
    return {"hour": 9, "minute": 35, "enabled": True, "days": [], "label": "", "date": None, **row}


@pytest.mark.parametrize(
    ("row", "now", "rings"),
    [
        (_alarm(), datetime(2026, 3, 2, 9, 0), datetime(2026, 3, 2, 9, 35)),
        (_alarm(), datetime(2026, 3, 2, 10, 0), datetime(2026, 3, 3, 9, 35)),
        (_alarm(date="2026-03-05"), datetime(2026, 3, 2, 9, 0), datetime(2026, 3, 5, 9, 35)),
        (_alarm(date="2026-03-01"), datetime(2026, 3, 2, 9, 0), None),  # a date already past
        (_alarm(enabled=False), datetime(2026, 3, 2, 9, 0), None),
        (_alarm(days=["fri"]), datetime(2026, 3, 2, 9, 0), datetime(2026, 3, 6, 9, 35)),  # 2 Mar is a Monday
    ],
)
def test_first_ring_follows_the_clock(row: dict[str, Any], now: datetime, rings: datetime | None) -> None:
    assert ringing.first_ring(row, now) == rings


def _cond(date: str | None = None, hour: int = 9, minute: int = 35) -> list[dict[str, Any]]:
    args: dict[str, Any] = {"hour": hour, "minute": minute, "label": "Party drop-off"}
    if date:
        args["date"] = date
    return [{"id": "alarm", "device": "android_0", "check": "alarm_exists", "args": args}]


def _env(conditions: list[dict[str, Any]]) -> CrossDeviceEnv:
    return CrossDeviceEnv(phone_task([], conditions, profile={"time_24h": True}))


DAILY = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


def _set_alarm(
    d: Driver, hour: int, minute: int, day: str | None = None, repeat: tuple[str, ...] = ()
) -> None:
    """Clock: a new alarm through the 24-hour picker, labelled; with ``day``, scheduled on that date;
    with ``repeat``, repeating on those weekdays (their full names)."""
    d.do("open_app", app_name="Clock")
    d.tap(rid="fab")
    d.type(f"{hour:02d}", clear=True, rid="hour")
    d.type(f"{minute:02d}", clear=True, rid="minute")
    d.tap(rid="button1")
    d.tap(text=f"{hour:02d}:{minute:02d}")
    d.tap(rid="edit_label")
    d.type("Party drop-off", rid="label_input")
    d.tap(rid="button1")
    if day:
        d.tap(rid="schedule_alarm")
        d.tap(desc=day)
        d.tap(text="OK")
    for name in repeat:
        d.tap(desc=name)
    d.do("navigate_home")


def test_a_plain_alarm_set_before_its_time_rings_today_and_fails_a_task_for_tomorrow() -> None:
    with _env(_cond("2026-03-03")) as env:
        env.reset()
        d = Driver(env)
        _set_alarm(d, 9, 35)
        verdict = env.evaluate()
        assert not verdict.success
        assert "rings Mon 2 Mar 09:35, not Tue 3 Mar 09:35" in str(verdict)


def test_the_same_alarm_scheduled_for_tomorrow_passes() -> None:
    with _env(_cond("2026-03-03")) as env:
        env.reset()
        d = Driver(env)
        _set_alarm(d, 9, 35, day="3 March 2026")
        assert env.evaluate().success


def test_a_plain_alarm_set_after_its_time_today_rings_tomorrow_and_passes() -> None:
    with _env(_cond("2026-03-03")) as env:
        env.reset()
        env.clock.advance(3600)  # 10:00: 09:35 has passed today
        d = Driver(env)
        _set_alarm(d, 9, 35)
        assert env.evaluate().success


@pytest.mark.parametrize("day", [None, "2 March 2026"], ids=["plain", "scheduled"])
def test_a_task_for_today_passes_with_or_without_the_date(day: str | None) -> None:
    with _env(_cond("2026-03-02")) as env:
        env.reset()
        _set_alarm(Driver(env), 9, 35, day=day)
        assert env.evaluate().success


def test_a_task_for_tomorrow_morning_passes_a_plain_alarm_and_fails_one_for_another_day() -> None:
    """ "Wake me at 07:00 tomorrow" at 2 Mar 09:00: a plain 07:00 alarm rings on 3 Mar and passes; one
    scheduled for 5 Mar does not."""
    with _env(_cond("2026-03-03", hour=7, minute=0)) as env:
        env.reset()
        _set_alarm(Driver(env), 7, 0)
        assert env.evaluate().success
    with _env(_cond("2026-03-03", hour=7, minute=0)) as env:
        env.reset()
        _set_alarm(Driver(env), 7, 0, day="5 March 2026")
        verdict = env.evaluate()
        assert not verdict.success and "rings Thu 5 Mar 07:00, not Tue 3 Mar 07:00" in str(verdict)


@pytest.mark.parametrize(
    ("day", "repeat", "right"),
    [
        (None, (), True),  # a plain one-off set at 09:00 rings tomorrow at 07:00
        ("3 March 2026", (), True),  # scheduled on that day
        ("5 March 2026", (), False),  # scheduled two days late
        (None, ("Tuesday",), True),  # 3 Mar is a Tuesday
        (None, ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"), True),
        (None, ("Wednesday",), False),  # a weekly repeat that skips tomorrow
        (None, ("Saturday", "Sunday"), False),
    ],
    ids=["plain", "dated-that-day", "dated-later", "tue", "weekdays", "wed", "weekend"],
)
def test_without_a_declared_date_the_alarm_must_ring_the_next_time_it_is_that_hour(
    day: str | None, repeat: tuple[str, ...], right: bool
) -> None:
    """Session 49: "set an alarm for 07:00" at Mon 2 Mar 09:00 means Tue 3 Mar 07:00, in any
    encoding the Clock allows; an alarm that rings first on another day fails."""
    with _env(_cond(hour=7, minute=0)) as env:
        env.reset()
        _set_alarm(Driver(env), 7, 0, day=day, repeat=repeat)
        verdict = env.evaluate()
        assert verdict.success is right, str(verdict)
        if not right:
            assert "not at the first 07:00 after the task's start, Tue 3 Mar 07:00" in str(verdict)


def test_the_next_time_is_counted_from_the_task_start_not_from_when_the_alarm_was_set() -> None:
    """The oven is done at 09:35 today (the task starts 09:00). An agent that lets time run to 10:00
    and only then sets a plain 09:35 alarm has one that rings tomorrow: it fails. One set first
    rang at 09:35 and turned itself off (a disabled alarm fails, as ever); a daily repeat set first
    rang then and still stands: it passes."""
    with _env(_cond(hour=9, minute=35)) as env:
        env.reset()
        env.clock.advance(3600)
        _set_alarm(Driver(env), 9, 35)
        verdict = env.evaluate()
        assert not verdict.success
        assert "does not ring at the first 09:35 after the task's start, Mon 2 Mar 09:35" in str(verdict)
    with _env(_cond(hour=9, minute=35)) as env:
        env.reset()
        _set_alarm(Driver(env), 9, 35, repeat=DAILY)
        env.clock.advance(3600)
        assert env.evaluate().success
    with _env(_cond(hour=9, minute=35)) as env:
        env.reset()
        _set_alarm(Driver(env), 9, 35)
        assert env.evaluate().success  # still ahead at the end: rings today at 09:35
        env.clock.advance(3600)
        assert not env.evaluate().success  # it rang and is off


def test_an_alarm_that_already_rang_is_off_and_fails() -> None:
    with _env(_cond("2026-03-02")) as env:
        env.reset()
        _set_alarm(Driver(env), 9, 35)
        env.clock.advance(3600)  # 10:00: it rang at 09:35 and turned itself off
        assert not env.evaluate().success


@pytest.mark.parametrize(
    ("row", "now", "later"),
    [
        (_alarm(), datetime(2026, 3, 2, 9, 0), ([], datetime(2026, 3, 3).date())),  # rang today: tomorrow
        (_alarm(), datetime(2026, 3, 2, 10, 0), ([], datetime(2026, 3, 4).date())),
        (_alarm(date="2026-03-16"), datetime(2026, 3, 2, 9, 0), ([], datetime(2026, 3, 17).date())),
        (_alarm(days=["mon", "fri"]), datetime(2026, 3, 2, 9, 0), (["tue", "sat"], None)),
        (_alarm(days=["sat"]), datetime(2026, 3, 2, 9, 0), (["sun"], None)),
        (_alarm(enabled=False), datetime(2026, 3, 2, 9, 0), None),  # never rings: nothing to move
    ],
)
def test_a_day_later_moves_the_first_ring_by_one_day(
    row: dict[str, Any], now: datetime, later: tuple[list[str], Any] | None
) -> None:
    assert ringing.a_day_later(row, now) == later
    if later is not None:
        days, on = later
        moved = {**row, "days": days, "date": on.isoformat() if on else None}
        first, then = ringing.first_ring(row, now), ringing.first_ring(moved, now)
        assert first is not None and then is not None and then.date() != first.date()


def test_quality_controls_day_change_moves_the_asked_alarm_and_the_dated_check_fails_it() -> None:
    """The ``wrong_day`` near miss's spoil: the right alarm for tomorrow, moved to the day after."""
    with _env(_cond("2026-03-03", hour=7, minute=0)) as env:
        env.reset()
        _set_alarm(Driver(env), 7, 0)
        assert env.evaluate().success
        done = env.output_change("android_0", "day")
        assert done == "alarm 07:00 'Party drop-off' to 2026-03-04"
        verdict = env.evaluate()
        assert not verdict.success and "rings Wed 4 Mar 07:00, not Tue 3 Mar 07:00" in str(verdict)


def test_the_day_change_leaves_alarms_the_task_does_not_license_alone() -> None:
    with _env(_cond("2026-03-03", hour=7, minute=0)) as env:
        env.reset()
        _set_alarm(Driver(env), 6, 15)  # not at the asked time: the guard does not license it
        assert env.output_change("android_0", "day") is None
        assert env.output_change("android_0", "undo") is None


@pytest.mark.parametrize(
    ("start", "hour", "minute", "first"),
    [
        (datetime(2026, 3, 2, 9, 0), 18, 10, datetime(2026, 3, 2, 18, 10)),  # later today
        (datetime(2026, 3, 2, 9, 0), 8, 30, datetime(2026, 3, 3, 8, 30)),  # passed today: tomorrow
        (datetime(2026, 3, 2, 9, 0), 9, 0, datetime(2026, 3, 3, 9, 0)),  # the start itself: tomorrow
        (datetime(2026, 3, 7, 23, 50), 0, 5, datetime(2026, 3, 8, 0, 5)),  # over midnight
    ],
)
def test_first_occurrence_is_the_first_such_time_after_the_start(
    start: datetime, hour: int, minute: int, first: datetime
) -> None:
    assert ringing.first_occurrence(hour, minute, start) == first


MON_1810 = datetime(2026, 3, 2, 18, 10)


@pytest.mark.parametrize(
    ("row", "now", "rings"),
    [
        (_alarm(hour=18, minute=10), datetime(2026, 3, 2, 10, 0), True),
        (_alarm(hour=18, minute=10, date="2026-03-02"), datetime(2026, 3, 2, 10, 0), True),
        (_alarm(hour=18, minute=10, date="2026-03-03"), datetime(2026, 3, 2, 10, 0), False),
        (_alarm(hour=18, minute=10, days=["mon"]), datetime(2026, 3, 2, 10, 0), True),
        (_alarm(hour=18, minute=10, days=["tue", "wed"]), datetime(2026, 3, 2, 10, 0), False),
        (_alarm(hour=18, minute=10, enabled=False), datetime(2026, 3, 2, 10, 0), False),
        # the moment passed during the episode: only a repeat on that weekday rang then and stands
        (_alarm(hour=18, minute=10), datetime(2026, 3, 2, 19, 0), False),
        (_alarm(hour=18, minute=10, days=["mon"]), datetime(2026, 3, 2, 19, 0), True),
        (_alarm(hour=18, minute=10, days=["mon"], enabled=False), datetime(2026, 3, 2, 19, 0), False),
        (_alarm(hour=18, minute=10, days=["tue"]), datetime(2026, 3, 2, 19, 0), False),
    ],
)
def test_rings_then_judges_one_moment_in_every_encoding(
    row: dict[str, Any], now: datetime, rings: bool
) -> None:
    assert ringing.rings_then(row, MON_1810, now) is rings
