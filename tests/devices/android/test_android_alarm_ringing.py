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


def _set_alarm(d: Driver, hour: int, minute: int, day: str | None = None) -> None:
    """Clock: a new alarm through the 24-hour picker, labelled; with ``day``, scheduled on that date."""
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


@pytest.mark.parametrize("day", [None, "5 March 2026"], ids=["plain", "scheduled"])
def test_without_a_declared_date_no_day_is_judged(day: str | None) -> None:
    """A task that declares no date (every shipped one before session 47) judges the time alone."""
    with _env(_cond(hour=7, minute=0)) as env:
        env.reset()
        _set_alarm(Driver(env), 7, 0, day=day)
        assert env.evaluate().success


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
