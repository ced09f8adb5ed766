"""Outcomes over time (issue 32, item 1): a copy of the home runs forward, and any encoding of a plan
that produces the asked outcome passes, while the episode's own home is never moved."""

from __future__ import annotations

from typing import Any

import pytest

from tests.devices.smarthome.sh_harness import Harness

# The washer (cotton, 90 min) starts at 09:00 with 15 min done: it completes at 10:15.
DONE = "2026-03-02T10:15:00"
DRYER_AFTER_WASH: dict[str, Any] = {
    "device_id": "dryer",
    "command": "start",
    "trigger": "after_event",
    "event_device": "washer",
    "event": "completed",
    "delay_minutes": 55,
}


@pytest.fixture
def home() -> Harness:
    h = Harness()
    h.setup("add_room", name="utility")
    h.setup("add_room", name="living_room")
    h.setup("add_device", device_id="washer", category="washing_machine", room="utility")
    h.setup("add_device", device_id="dryer", category="dryer", room="utility")
    h.setup("add_device", device_id="ac", category="air_conditioner", room="living_room")
    h.setup("add_device", device_id="heater", category="heater", room="living_room")
    h.setup("add_device", device_id="lamp", category="light", room="living_room")
    h.setup("start_cycle", device_id="washer", program="cotton", elapsed_minutes=15)
    h.ok("control_device", device_id="dryer", command="turn_on")
    return h


def _dryer(h: Harness) -> bool:
    return h.check("schedule_exists", **DRYER_AFTER_WASH).passed


def test_the_after_event_trigger_passes(home: Harness) -> None:
    home.ok(
        "create_schedule", device_id="dryer", command="start",
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 55},
    )  # fmt: skip
    assert _dryer(home)


def test_the_clock_time_the_plan_falls_on_passes(home: Harness) -> None:
    home.ok("create_schedule", device_id="dryer", command="start", at="11:10")
    outcome = home.check("schedule_exists", **DRYER_AFTER_WASH)
    assert outcome.passed and "will run at 2026-03-02T11:10:00" in outcome.detail


def test_the_delay_the_plan_falls_on_passes(home: Harness) -> None:
    home.ok("create_schedule", device_id="dryer", command="start", delay_minutes=130)
    assert _dryer(home)


@pytest.mark.parametrize("at", ["10:40", "11:30", "10:15"])
def test_another_moment_fails(home: Harness, at: str) -> None:
    home.ok("create_schedule", device_id="dryer", command="start", at=at)
    assert not _dryer(home)


def test_a_plan_that_already_ran_passes_after_time_was_let_pass(home: Harness) -> None:
    home.ok(
        "create_schedule", device_id="dryer", command="start",
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 55},
    )  # fmt: skip
    home.ok("advance_time", minutes=180)
    outcome = home.check("schedule_exists", **DRYER_AFTER_WASH)
    assert outcome.passed and "ran at" in outcome.detail


def test_the_agent_starting_it_itself_at_the_moment_passes(home: Harness) -> None:
    home.ok("advance_time", minutes=130)
    home.ok("control_device", device_id="dryer", command="start")
    assert _dryer(home)


def test_starting_it_now_fails(home: Harness) -> None:
    home.ok("control_device", device_id="dryer", command="start")
    assert not _dryer(home)


def test_nothing_planned_fails(home: Harness) -> None:
    outcome = home.check("schedule_exists", **DRYER_AFTER_WASH)
    assert not outcome.passed and "no matching schedule" in outcome.detail


def test_a_setup_schedule_is_not_the_agents_plan(home: Harness) -> None:
    home.setup("add_schedule", device_id="dryer", command="start", at="11:10")
    assert not _dryer(home)


def test_the_forecast_leaves_the_episode_home_alone(home: Harness) -> None:
    home.ok("create_schedule", device_id="dryer", command="start", at="11:10")
    assert _dryer(home)
    assert home.get("time") == "2026-03-02T09:00:00"
    assert home.attr("dryer", "operational_state") == "idle"
    assert [s["status"] for s in home.get("schedules")] == ["pending"]


def test_params_hold_by_the_attribute_the_command_left(home: Harness) -> None:
    home.ok("set_device_attribute", device_id="dryer", attribute="program", value="heavy")
    home.ok("create_schedule", device_id="dryer", command="start", at="11:10")
    assert home.check("schedule_exists", **DRYER_AFTER_WASH, params={"program": "heavy"}).passed
    assert not home.check("schedule_exists", **DRYER_AFTER_WASH, params={"program": "quick"}).passed


def test_a_clock_due_time_is_met_by_a_delay(home: Harness) -> None:
    home.ok("create_schedule", device_id="lamp", command="turn_on", delay_minutes=270)
    assert home.check(
        "schedule_exists", device_id="lamp", command="turn_on", due_at="2026-03-02T13:30"
    ).passed
    assert not home.check(
        "schedule_exists", device_id="lamp", command="turn_on", due_at="2026-03-02T13:45"
    ).passed


def test_a_programme_set_by_a_schedule_before_the_run_passes(home: Harness) -> None:
    home.ok(
        "create_schedule", device_id="dryer", command="set_program", params={"program": "delicate"},
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 50},
    )  # fmt: skip
    home.ok(
        "create_schedule", device_id="dryer", command="start",
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 55},
    )  # fmt: skip
    outcome = home.check("device_attribute", device_id="dryer", attribute="program", equals="delicate")
    assert outcome.passed, outcome.detail
    assert not home.check("device_attribute", device_id="dryer", attribute="program", equals="heavy").passed


def test_a_programme_set_after_the_run_fails(home: Harness) -> None:
    home.ok("create_schedule", device_id="dryer", command="start", at="11:10")
    home.ok(
        "create_schedule", device_id="dryer", command="set_program", params={"program": "delicate"},
        at="14:00",
    )  # fmt: skip
    assert not home.check(
        "device_attribute", device_id="dryer", attribute="program", equals="delicate"
    ).passed


def test_an_ac_set_and_then_switched_off_fails(home: Harness) -> None:
    home.ok("control_device", device_id="ac", command="turn_on")
    home.ok("set_device_attribute", device_id="ac", attribute="target_temperature", value=22)
    args = {"device_id": "ac", "attribute": "target_temperature", "equals": 22}
    assert home.check("device_attribute", **args).passed
    home.ok("control_device", device_id="ac", command="turn_off")
    outcome = home.check("device_attribute", **args)
    assert not outcome.passed and "switched off" in outcome.detail


def test_an_ac_switched_on_later_by_the_plan_passes(home: Harness) -> None:
    home.ok("control_device", device_id="ac", command="turn_on")
    home.ok("set_device_attribute", device_id="ac", attribute="target_temperature", value=22)
    home.ok("control_device", device_id="ac", command="turn_off")
    home.ok("create_schedule", device_id="ac", command="turn_on", at="18:00")
    assert home.check("device_attribute", device_id="ac", attribute="target_temperature", equals=22).passed


def test_an_untouched_switched_off_device_keeps_its_setting(home: Harness) -> None:
    value = home.attr("heater", "target_temperature")
    assert home.check(
        "device_attribute", device_id="heater", attribute="target_temperature", equals=value
    ).passed


def test_the_timeline_getter_reads_past_and_future(home: Harness) -> None:
    home.ok("create_schedule", device_id="lamp", command="turn_on", at="13:30")
    plan = home.get("timeline", {"hours": 6})
    assert plan["now"] == "2026-03-02T09:00:00" and plan["until"] == "2026-03-02T15:00:00"
    ran = [(e["command"], e["simulated"]) for e in plan["entries"] if e["device_id"] in ("lamp", "dryer")]
    assert ("turn_on", False) in ran and ("turn_on", True) in ran
    assert any(ev["event"] == "completed" and ev["simulated"] for ev in plan["events"])
    assert "target_temperature" in plan["needs_power"]["ac"]


# --- the corpus of encodings for one outcome: the lamp comes on at 13:30 today ---------------------

LAMP_1330 = {"device_id": "lamp", "command": "turn_on", "due_at": "2026-03-02T13:30"}
AFTER_WASH = {"device_id": "washer", "event": "completed"}


@pytest.mark.parametrize(
    "plan",
    [
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "2026-03-02T13:30"})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "delay_minutes": 270})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "delay_minutes": 270.5})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:29"})],
        [
            (
                "create_schedule",
                {
                    "device_id": "lamp",
                    "command": "turn_on",
                    "after_event": {**AFTER_WASH, "delay_minutes": 195},
                },
            )
        ],
        [
            ("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"}),
            ("advance_time", {"minutes": 300}),
        ],
        [("advance_time", {"minutes": 270}), ("control_device", {"device_id": "lamp", "command": "turn_on"})],
        [
            ("list_schedules", {}),
            ("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"}),
        ],
        [
            ("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"}),
            ("advance_time", {"minutes": 60}),
        ],
    ],
)
def test_every_encoding_of_the_outcome_passes(home: Harness, plan: list[tuple[str, dict[str, Any]]]) -> None:
    for action, args in plan:
        home.ok(action, **args)
    outcome = home.check("schedule_exists", **LAMP_1330)
    assert outcome.passed, outcome.detail


@pytest.mark.parametrize(
    "plan",
    [
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:35"})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "12:30"})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "delay_minutes": 200})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_off", "at": "13:30"})],
        [("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "2026-03-03T13:30"})],
        [("create_schedule", {"device_id": "heater", "command": "turn_on", "at": "13:30"})],
        [("control_device", {"device_id": "lamp", "command": "turn_on"})],
        [
            (
                "create_schedule",
                {
                    "device_id": "lamp",
                    "command": "turn_on",
                    "after_event": {**AFTER_WASH, "delay_minutes": 5},
                },
            )
        ],
        [("advance_time", {"minutes": 280}), ("control_device", {"device_id": "lamp", "command": "turn_on"})],
        [],
    ],
)
def test_another_outcome_fails(home: Harness, plan: list[tuple[str, dict[str, Any]]]) -> None:
    for action, args in plan:
        home.ok(action, **args)
    assert not home.check("schedule_exists", **LAMP_1330).passed


def test_a_schedule_made_and_cancelled_is_no_plan(home: Harness) -> None:
    made = home.ok("create_schedule", device_id="lamp", command="turn_on", at="13:30")
    home.ok("cancel_schedule", schedule_id=made["schedule_id"])
    assert not home.check("schedule_exists", **LAMP_1330).passed


# --- the corpus for device_attribute judged as an outcome: the AC holds 22 °C ----------------------

AC_22 = {"device_id": "ac", "attribute": "target_temperature", "equals": 22}
ON = ("control_device", {"device_id": "ac", "command": "turn_on"})
SET_22 = ("set_device_attribute", {"device_id": "ac", "attribute": "target_temperature", "value": 22})
OFF = ("control_device", {"device_id": "ac", "command": "turn_off"})


@pytest.mark.parametrize(
    "plan",
    [
        [ON, SET_22],
        [
            ON,
            (
                "control_device",
                {"device_id": "ac", "command": "set_target_temperature", "params": {"temperature": 22}},
            ),
        ],
        [ON, SET_22, ("advance_time", {"minutes": 60})],
        [ON, SET_22, OFF, ("create_schedule", {"device_id": "ac", "command": "turn_on", "at": "18:00"})],
        [ON, SET_22, OFF, ON],
        [
            ON,
            ("set_device_attribute", {"device_id": "ac", "attribute": "target_temperature", "value": 25}),
            SET_22,
        ],
        [ON, SET_22, ("control_device", {"device_id": "lamp", "command": "turn_off"})],
        [ON, SET_22, ("list_schedules", {})],
        [ON, SET_22, ("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"})],
        [ON, SET_22, ("control_device", {"device_id": "ac", "command": "toggle"}), ON],
    ],
)
def test_the_ac_holding_22_passes(home: Harness, plan: list[tuple[str, dict[str, Any]]]) -> None:
    for action, args in plan:
        home.ok(action, **args)
    outcome = home.check("device_attribute", **AC_22)
    assert outcome.passed, outcome.detail


@pytest.mark.parametrize(
    "plan",
    [
        [ON, SET_22, OFF],
        [ON, SET_22, ("control_device", {"device_id": "ac", "command": "toggle"})],
        [ON, ("set_device_attribute", {"device_id": "ac", "attribute": "target_temperature", "value": 23})],
        [ON, ("set_device_attribute", {"device_id": "ac", "attribute": "target_temperature", "value": 21})],
        [
            ON,
            SET_22,
            ("set_device_attribute", {"device_id": "ac", "attribute": "target_temperature", "value": 25}),
        ],
        [ON],
        [],
        [ON, SET_22, OFF, ("create_schedule", {"device_id": "ac", "command": "turn_off", "at": "18:00"})],
        [
            ON,
            (
                "create_schedule",
                {
                    "device_id": "ac",
                    "command": "set_target_temperature",
                    "params": {"temperature": 22},
                    "at": "18:00",
                },
            ),
        ],
        [ON, SET_22, ("set_device_attribute", {"device_id": "ac", "attribute": "power", "value": False})],
    ],
)
def test_the_ac_not_holding_22_fails(home: Harness, plan: list[tuple[str, dict[str, Any]]]) -> None:
    for action, args in plan:
        home.ok(action, **args)
    assert not home.check("device_attribute", **AC_22).passed


def test_state_read_after_time_was_let_pass_is_judged_against_the_plan(home: Harness) -> None:
    """smoke-sh-018's shape: the lamp stays on now and goes off at 09:45; the agent checks its work by
    letting an hour pass."""
    home.ok("control_device", device_id="lamp", command="turn_on")
    home.ok("create_schedule", device_id="lamp", command="turn_off", delay_minutes=45)
    home.ok("advance_time", minutes=60)
    assert home.check(
        "schedule_exists", device_id="lamp", command="turn_off", due_at="2026-03-02T09:45"
    ).passed
    outcome = home.check("device_power", device_id="lamp", on=True)
    assert outcome.passed and "until the agent's schedule ran" in outcome.detail


def test_a_value_changed_by_hand_afterwards_is_judged_as_left(home: Harness) -> None:
    home.ok("control_device", device_id="lamp", command="turn_on")
    home.ok("create_schedule", device_id="lamp", command="turn_off", delay_minutes=45)
    home.ok("advance_time", minutes=60)
    home.ok("control_device", device_id="lamp", command="turn_on")
    home.ok("control_device", device_id="lamp", command="turn_off")
    assert not home.check("device_power", device_id="lamp", on=True).passed


def test_a_value_never_held_is_not_rescued_by_the_plan(home: Harness) -> None:
    home.ok("create_schedule", device_id="lamp", command="turn_off", delay_minutes=45)
    home.ok("advance_time", minutes=60)
    assert not home.check("device_power", device_id="lamp", on=True).passed
