"""The device protocol: registration, observation, getters, checks, isolation, cleanup."""

from __future__ import annotations

from datetime import datetime

import pytest

from devicesworld.devices.base import DeviceError, VirtualClock, get_kind
from devicesworld.devices.smarthome import KIND
from tests.devices.smarthome.sh_harness import Harness


def small_home(h: Harness) -> Harness:
    h.setup("configure_home", name="Maple Flat", outdoor_temperature=12, outdoor_humidity=60, outdoor_pm25=30)
    h.setup("add_room", name="bedroom", temperature=26, humidity=55, pm25=40)
    h.setup("add_device", device_id="ac_bedroom", category="air_conditioner", room="bedroom")
    h.setup(
        "add_device", device_id="washer", category="washing_machine", room="bedroom", state={"power": True}
    )
    return h


def test_kind_is_registered_with_declarations() -> None:
    assert get_kind("smarthome") is KIND
    assert {"list_devices", "control_device", "create_schedule", "advance_time", "wait"} <= set(KIND.actions)
    for spec in KIND.action_space():
        assert spec["args_schema"]["type"] == "object"


def test_observation_has_no_home_state() -> None:
    h = small_home(Harness())
    obs = h.device.observe()
    assert set(obs) == {"home", "time", "note"}
    assert obs["home"] == "Maple Flat" and obs["time"] == "2026-03-02T09:00:00"
    text = str(obs)
    assert "ac_bedroom" not in text and "bedroom" not in text and "temperature" not in text


def test_getters() -> None:
    h = small_home(Harness())
    state = h.get("state")
    assert set(state) >= {"rooms", "devices", "schedules", "history", "time", "outdoor"}
    assert h.get("time") == "2026-03-02T09:00:00"
    assert h.get("room", {"room": "bedroom"})["temperature"] == 26
    with pytest.raises(DeviceError) as err:
        h.get("device", {"device_id": "nope"})
    assert err.value.code == "NOT_FOUND"


def test_setup_errors_are_device_errors() -> None:
    h = small_home(Harness())
    with pytest.raises(DeviceError) as err:
        h.setup("add_device", device_id="x", category="light", room="attic")
    assert err.value.code == "NOT_FOUND"
    with pytest.raises(DeviceError) as err:
        h.setup("add_room", name="bedroom")
    assert err.value.code == "CONFLICT"
    with pytest.raises(DeviceError) as err:
        h.setup("set_state", device_id="ac_bedroom", attributes={"target_temperature": 99})
    assert err.value.code == "OUT_OF_RANGE"
    with pytest.raises(DeviceError) as err:
        h.setup("set_state", device_id="ac_bedroom", attributes={"current_temperature": 20})
    assert err.value.code == "READ_ONLY"


def test_check_details_are_readable() -> None:
    h = small_home(Harness())
    out = h.check("device_attribute", device_id="ac_bedroom", attribute="target_temperature", equals=22)
    assert not out.passed and out.detail == "ac_bedroom.target_temperature = 24.0, expected 22"
    h.ok("control_device", device_id="ac_bedroom", command="turn_on")
    h.ok(
        "control_device", device_id="ac_bedroom", command="set_target_temperature", params={"temperature": 22}
    )
    assert h.check(
        "device_attribute", device_id="ac_bedroom", attribute="target_temperature", equals=22
    ).passed
    assert h.check(
        "device_attribute", device_id="ac_bedroom", attribute="target_temperature", min=21, max=23
    ).passed
    assert h.check("device_power", device_id="ac_bedroom", on=True).passed
    assert not h.check("device_power", device_id="washer", on=False).passed
    assert h.check(
        "command_issued", device_id="ac_bedroom", command="set_target_temperature", params={"temperature": 22}
    ).passed
    assert not h.check(
        "command_issued", device_id="ac_bedroom", command="set_target_temperature", params={"temperature": 23}
    ).passed
    out = h.check("no_agent_commands")
    assert not out.passed and "ac_bedroom.turn_on" in out.detail
    assert h.check("no_agent_commands", device_id="washer").passed
    assert h.check("room_condition", room="bedroom", variable="temperature", min=25.5).passed
    out = h.check("room_condition", room="bedroom", variable="pm25", max=10)
    assert not out.passed and "bedroom.pm25 = 40" in out.detail
    out = h.check("device_attribute", device_id="ghost", attribute="power", equals=True)
    assert not out.passed and "ghost" in out.detail


def test_schedule_checks() -> None:
    h = small_home(Harness())
    h.ok("create_schedule", device_id="ac_bedroom", command="set_mode", params={"mode": "heat"}, at="21:00")
    h.ok(
        "create_schedule",
        device_id="ac_bedroom",
        command="turn_on",
        after_event={"device_id": "washer", "event": "completed", "delay_minutes": 20},
    )
    assert h.check(
        "schedule_exists",
        device_id="ac_bedroom",
        command="set_mode",
        params={"mode": "heat"},
        due_at="2026-03-02T21:00:00",
    ).passed
    assert h.check(
        "schedule_exists",
        device_id="ac_bedroom",
        command="set_mode",
        due_at="2026-03-02T21:00:30",
        trigger="at",
    ).passed
    assert not h.check(
        "schedule_exists", device_id="ac_bedroom", command="set_mode", due_at="2026-03-02T21:05:00"
    ).passed
    assert not h.check(
        "schedule_exists", device_id="ac_bedroom", command="set_mode", params={"mode": "cool"}
    ).passed
    assert h.check(
        "schedule_exists",
        device_id="ac_bedroom",
        command="turn_on",
        trigger="after_event",
        event_device="washer",
        event="completed",
        delay_minutes=20,
    ).passed
    out = h.check("schedule_exists", device_id="ac_bedroom", command="turn_on", event="started")
    assert not out.passed and "sched_2" in out.detail
    assert not h.check("no_schedule", device_id="ac_bedroom").passed
    assert h.check("no_schedule", device_id="washer").passed
    h.ok("cancel_schedule", schedule_id="sched_1")
    assert h.check("no_schedule", device_id="ac_bedroom", command="set_mode").passed


def test_appliance_phase_check() -> None:
    h = small_home(Harness())
    h.ok("control_device", device_id="washer", command="start")
    assert h.check("appliance_phase", device_id="washer", operational_state="running", phase="washing").passed
    out = h.check("appliance_phase", device_id="washer", phase="completed")
    assert not out.passed and out.detail == "washer.phase = washing, expected completed"


def test_two_homes_in_one_process_are_independent() -> None:
    a, b = small_home(Harness()), small_home(Harness())
    a.ok("control_device", device_id="ac_bedroom", command="turn_on")
    a.ok("advance_time", minutes=60)
    assert b.attr("ac_bedroom", "power") is False
    assert b.get("time") == "2026-03-02T09:00:00"
    assert b.get("history") == []


def test_shared_clock_drives_all_homes_of_a_task() -> None:
    clock = VirtualClock(datetime(2026, 3, 2, 9, 0))
    a = small_home(Harness(clock=clock, device_id="smarthome_0"))
    b = small_home(Harness(clock=clock, device_id="smarthome_1"))
    b.ok("control_device", device_id="washer", command="start")
    a.ok("advance_time", minutes=90)
    assert b.attr("washer", "operational_state") == "completed"
    assert b.get("time") == "2026-03-02T10:30:00"


def test_close_releases_state_and_refuses_actions() -> None:
    h = small_home(Harness())
    h.device.close()
    assert h.device.home.devices == {}  # type: ignore[attr-defined]
    r = h.act("list_devices")
    assert not r.ok
    h.clock.advance(600)  # a closed home ignores the shared clock


def test_wait_is_an_alias_and_get_time() -> None:
    h = small_home(Harness())
    h.ok("wait", minutes=30)
    assert h.ok("get_time") == {"time": "2026-03-02T09:30:00"}


def test_device_attribute_distractor_fails_with_its_own_reason() -> None:
    h = small_home(Harness())
    h.ok("control_device", device_id="ac_bedroom", command="turn_on")
    h.ok(
        "control_device", device_id="ac_bedroom", command="set_target_temperature", params={"temperature": 19}
    )
    twin = [{"value": 19, "type": "number"}]
    out = h.check(
        "device_attribute",
        device_id="ac_bedroom",
        attribute="target_temperature",
        equals=22,
        distractors=twin,
    )
    assert not out.passed and "distractor value 19" in out.detail
    wrong = h.check(
        "device_attribute",
        device_id="ac_bedroom",
        attribute="target_temperature",
        equals=22,
        distractors=[{"value": 20, "type": "number"}],
    )
    assert not wrong.passed and "distractor" not in wrong.detail
    # a range that the twin also satisfies: holding the twin still fails
    ranged = h.check(
        "device_attribute",
        device_id="ac_bedroom",
        attribute="target_temperature",
        min=18,
        max=23,
        distractors=twin,
    )
    assert not ranged.passed and "distractor" in ranged.detail
    assert h.check(
        "device_attribute",
        device_id="ac_bedroom",
        attribute="target_temperature",
        equals=19,
        distractors=[{"value": 22, "type": "number"}],
    ).passed


def test_schedule_exists_distractor_time_or_param_fails_with_its_own_reason() -> None:
    h = small_home(Harness())
    h.ok("create_schedule", device_id="ac_bedroom", command="set_mode", params={"mode": "heat"}, at="21:00")
    right = {"device_id": "ac_bedroom", "command": "set_mode", "due_at": "2026-03-02T21:00:00"}
    assert h.check("schedule_exists", **right, distractors=[{"value": "20:30", "type": "time"}]).passed
    out = h.check("schedule_exists", **right, distractors=[{"value": "21:00", "type": "time"}])
    assert not out.passed and "distractor value 21:00" in out.detail
    by_param = h.check("schedule_exists", **right, distractors=[{"value": "heat", "type": "text"}])
    assert not by_param.passed and "distractor value heat" in by_param.detail
    # hedging: the right schedule plus one at the twin time fails
    h.ok("create_schedule", device_id="ac_bedroom", command="set_mode", params={"mode": "heat"}, at="20:30")
    hedged = h.check("schedule_exists", **right, distractors=[{"value": "20:30", "type": "time"}])
    assert not hedged.passed and "distractor" in hedged.detail
    # another device's schedule at the twin time is not this check's business
    other = {"device_id": "washer", "command": "start", "distractors": [{"value": "20:30", "type": "time"}]}
    assert "distractor" not in h.check("schedule_exists", **other).detail
