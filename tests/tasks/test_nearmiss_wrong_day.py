"""The ``wrong_day`` near miss (session 48): an alarm asked for a day must fail when it rings on
another. Before it, a check without the day passed an alarm scheduled for any date, and nothing in
quality control could tell; now every condition that declares the ring day (``date``) or the repeat
days (``days``) is proved by the reference alarm moved to a day later."""

from __future__ import annotations

from typing import Any

from devicesworld.tasks.handwritten import compile_task
from devicesworld.tasks.nearmiss import near_misses
from devicesworld.tasks.validate import validate_task

BASE: dict[str, Any] = {
    "devices": ["android_0"],
    "metadata": {"pattern": "device_state_control", "split": "test", "origin": "handwritten"},
}


def _dated(alarm: dict[str, Any]) -> dict[str, Any]:
    """Thursday's 06:30 "Flight" alarm: the phone's alarm moved from its next ring to 5 March."""
    return {
        **BASE,
        "id": "wrong-day-dated",
        "instruction": "Make my 6:30 AM Flight alarm ring on Thursday 5 March only.",
        "setup": [{"add_alarm": {"hour": 6, "minute": 30, "label": "Flight"}}],
        "conditions": [{"id": "dated", "alarm_exists": alarm}],
        "solution": [
            {"open": "Clock"},
            {"tap": "6:30 AM"},
            {"press": "schedule_alarm"},
            {"pick_date": {"date": "2026-03-05", "pages": 0}},
        ],
    }


def test_a_check_that_declares_the_ring_day_is_proved_by_the_alarm_a_day_later() -> None:
    task = compile_task(_dated({"hour": 6, "minute": 30, "label": "Flight", "date": "2026-03-05"}))
    (miss,) = [m for m in near_misses(task) if m.mutation == "wrong_day"]
    assert miss.output_on == ("android_0", "day")
    report = validate_task(task, paraphrase=False)
    assert report.ok, report.problems
    assert report.mutations["wrong_day"] == 1


def test_a_check_without_the_day_is_proved_by_the_alarm_a_day_later_too() -> None:
    """Session 49: a task that means "the next 06:30" declares no day, and the check judges the
    first 06:30 after the task's start; the reference alarm dated the day after must fail it."""
    task = compile_task(_next_time({"hour": 6, "minute": 30, "label": "Flight"}))
    (miss,) = [m for m in near_misses(task) if m.mutation == "wrong_day"]
    assert miss.output_on == ("android_0", "day")
    report = validate_task(task, paraphrase=False)
    assert report.ok, report.problems
    assert report.mutations["wrong_day"] == 1


def test_an_alarm_asked_off_has_no_day_to_move() -> None:
    """An alarm switched off never rings: the kind finds nothing to move, so the miss is not run."""
    task = compile_task(
        {
            **_next_time({"hour": 6, "minute": 30, "label": "Flight", "enabled": False}),
            "instruction": "Switch off my 6:30 AM Flight alarm but keep it.",
            "setup": [{"add_alarm": {"hour": 6, "minute": 30, "label": "Flight"}}],
        }
    )
    assert [m.mutation for m in near_misses(task)].count("wrong_day") == 1
    report = validate_task(task, paraphrase=False)
    assert report.ok, report.problems
    assert "wrong_day" not in report.mutations


def _next_time(alarm: dict[str, Any]) -> dict[str, Any]:
    """ "Switch my 6:30 AM Flight alarm on" at Mon 2 Mar 09:00: it rings at the next 06:30."""
    return {
        **BASE,
        "id": "wrong-day-next",
        "instruction": "Switch my 6:30 AM Flight alarm on.",
        "setup": [{"add_alarm": {"hour": 6, "minute": 30, "label": "Flight", "enabled": False}}],
        "conditions": [{"id": "next", "alarm_exists": alarm}],
        "solution": [{"open": "Clock"}, {"press": {"name": "alarm_switch", "desc": "6:30 AM"}}],
    }


def test_repeat_days_are_proved_by_the_days_moved_on() -> None:
    """ "Every weekday": Mon-Fri, moved to Tue-Sat, must fail a check of the repeat days."""
    task = compile_task(
        {
            **BASE,
            "id": "wrong-day-repeat",
            "instruction": "Make my 6:30 AM Work alarm repeat every weekday.",
            "setup": [{"add_alarm": {"hour": 6, "minute": 30, "label": "Work"}}],
            "conditions": [
                {
                    "id": "weekdays",
                    "alarm_exists": {
                        "hour": 6,
                        "minute": 30,
                        "label": "Work",
                        "days": ["mon", "tue", "wed", "thu", "fri"],
                    },
                }
            ],
            "solution": [
                {"open": "Clock"},
                {"tap": "6:30 AM"},
                *[{"tap": {"desc": d}} for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")],
            ],
        }
    )
    report = validate_task(task, paraphrase=False)
    assert report.ok, report.problems
    assert report.mutations["wrong_day"] == 1
