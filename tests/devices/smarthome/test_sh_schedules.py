"""Schedules: absolute, delay, after an event; validation at creation, failure at fire time, cancel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from tests.devices.smarthome.sh_harness import Harness


@pytest.fixture
def h() -> Harness:
    h = Harness(start=datetime(2026, 3, 2, 9, 0))
    h.setup("add_room", name="bedroom")
    h.setup("add_device", device_id="lamp", category="dimmable_light", room="bedroom")
    h.setup("add_device", device_id="ac", category="air_conditioner", room="bedroom")
    h.setup(
        "add_device", device_id="washer", category="washing_machine", room="bedroom", state={"power": True}
    )
    return h


def test_absolute_time_schedule_fires_on_time(h: Harness) -> None:
    view = h.ok("create_schedule", device_id="lamp", command="turn_on", at="18:30")
    assert view["schedule_id"] == "sched_1" and view["due_at"] == "2026-03-02T18:30:00"
    h.ok("advance_time", minutes=9 * 60 + 29)
    assert h.attr("lamp", "power") is False
    data = h.ok("advance_time", minutes=1)
    assert h.attr("lamp", "power") is True
    assert data["scheduled_commands_run"][0]["schedule_id"] == "sched_1"
    s = h.get("schedules")[0]
    assert (s["status"], s["fired_at"]) == ("fired", "2026-03-02T18:30:00")
    assert h.get("history")[-1]["source"] == "schedule"


def test_iso_time_and_past_times(h: Harness) -> None:
    view = h.ok("create_schedule", device_id="lamp", command="turn_on", at="2026-03-03T07:00")
    assert view["due_at"] == "2026-03-03T07:00:00"
    r = h.act("create_schedule", device_id="lamp", command="turn_on", at="2026-03-01T07:00")
    assert r.error_code == "INVALID_ARGS" and "future" in r.message
    view = h.ok("create_schedule", device_id="lamp", command="turn_on", at="08:00")
    assert view["due_at"] == "2026-03-03T08:00:00"  # next occurrence
    assert (
        h.act("create_schedule", device_id="lamp", command="turn_on", at="soon").error_code == "INVALID_ARGS"
    )


def test_delay_schedule(h: Harness) -> None:
    view = h.ok("create_schedule", device_id="lamp", command="turn_on", delay_minutes=45)
    assert view["trigger"] == {"type": "delay", "delay_minutes": 45.0}
    h.ok("advance_time", minutes=44)
    assert h.attr("lamp", "power") is False
    h.ok("advance_time", minutes=1)
    assert h.attr("lamp", "power") is True


def test_after_event_schedule(h: Harness) -> None:
    h.ok("control_device", device_id="washer", command="set_program", params={"program": "quick"})
    h.ok("control_device", device_id="washer", command="start")
    view = h.ok(
        "create_schedule",
        device_id="lamp",
        command="turn_on",
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 20},
    )
    assert view["due_at"] is None
    h.ok("advance_time", minutes=30)
    s = h.get("schedules")[0]
    assert (s["status"], s["due_at"]) == ("pending", "2026-03-02T09:50:00")
    h.ok("advance_time", minutes=19)
    assert h.attr("lamp", "power") is False
    h.ok("advance_time", minutes=1)
    assert h.attr("lamp", "power") is True


def test_schedules_fire_in_a_single_long_advance(h: Harness) -> None:
    h.ok("control_device", device_id="washer", command="start")
    h.ok(
        "create_schedule",
        device_id="lamp",
        command="turn_on",
        after_event={"device_id": "washer", "event": "completed"},
    )
    h.ok(
        "create_schedule",
        device_id="lamp",
        command="set_brightness",
        params={"brightness": 30},
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 5},
    )
    h.ok("advance_time", minutes=24 * 60)
    assert [s["status"] for s in h.get("schedules")] == ["fired", "fired"]
    assert h.attr("lamp", "brightness") == 30


def test_creation_validates_like_immediate_control(h: Harness) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"device_id": "ghost", "command": "turn_on", "delay_minutes": 5}, "NOT_FOUND"),
        ({"device_id": "lamp", "command": "fly", "delay_minutes": 5}, "UNSUPPORTED"),
        (
            {
                "device_id": "ac",
                "command": "set_target_temperature",
                "params": {"temperature": 40},
                "delay_minutes": 5,
            },
            "OUT_OF_RANGE",
        ),
        (
            {
                "device_id": "lamp",
                "command": "turn_on",
                "after_event": {"device_id": "washer", "event": "exploded"},
            },
            "UNSUPPORTED",
        ),
        (
            {
                "device_id": "lamp",
                "command": "turn_on",
                "after_event": {"device_id": "ghost", "event": "completed"},
            },
            "NOT_FOUND",
        ),
    ]
    for args, code in cases:
        r = h.act("create_schedule", **args)
        assert (r.ok, r.error_code) == (False, code), args
    assert h.get("schedules") == []


def test_exactly_one_trigger_is_required() -> None:
    from pydantic import ValidationError

    from devicesworld.devices.smarthome import KIND

    spec = KIND.actions["create_schedule"]
    with pytest.raises(ValidationError):
        spec.parse_args({"device_id": "lamp", "command": "turn_on"})
    with pytest.raises(ValidationError):
        spec.parse_args({"device_id": "lamp", "command": "turn_on", "at": "10:00", "delay_minutes": 3})


def test_failure_at_fire_time_is_recorded(h: Harness) -> None:
    h.ok(
        "create_schedule",
        device_id="lamp",
        command="set_brightness",
        params={"brightness": 20},
        delay_minutes=10,
    )
    h.ok("advance_time", minutes=15)
    s = h.get("schedules")[0]
    assert (s["status"], s["error_code"]) == ("failed", "POWER_OFF")
    assert "switched off" in s["error"]


def test_cancel_prevents_firing(h: Harness) -> None:
    h.ok("create_schedule", device_id="lamp", command="turn_on", delay_minutes=10)
    h.ok("create_schedule", device_id="ac", command="turn_on", delay_minutes=10)
    h.ok("cancel_schedule", schedule_id="sched_1")
    assert [s["schedule_id"] for s in h.ok("list_schedules", status="pending")] == ["sched_2"]
    h.ok("advance_time", minutes=30)
    assert h.attr("lamp", "power") is False and h.attr("ac", "power") is True
    assert [s["status"] for s in h.get("schedules")] == ["cancelled", "fired"]


def test_setup_schedules_are_marked_setup(h: Harness) -> None:
    h.setup("add_schedule", device_id="ac", command="turn_on", at="21:00")
    s = h.get("schedules")[0]
    assert (s["created_by"], s["schedule_id"]) == ("setup", "sched_1")
    assert h.check("no_agent_commands").passed
