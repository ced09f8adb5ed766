"""Washer, dryer and robot vacuum state machines on the virtual clock."""

from __future__ import annotations

import pytest

from tests.devices.smarthome.sh_harness import Harness


@pytest.fixture
def h() -> Harness:
    h = Harness()
    h.setup("add_room", name="utility")
    h.setup("add_room", name="hall")
    h.setup(
        "add_device", device_id="washer", category="washing_machine", room="utility", state={"power": True}
    )
    h.setup("add_device", device_id="dryer", category="dryer", room="utility", state={"power": True})
    h.setup("add_device", device_id="vac", category="robot_vacuum", room="hall")
    return h


def state(h: Harness, device_id: str) -> tuple[str, str, int]:
    a = h.get("device", {"device_id": device_id})["attributes"]
    return a["operational_state"], a.get("phase", ""), a["remaining_minutes"]


def cmd(h: Harness, device_id: str, command: str, **params: object) -> None:
    h.ok("control_device", device_id=device_id, command=command, params=params)


def test_washer_phases_and_countdown(h: Harness) -> None:
    cmd(h, "washer", "set_program", program="quick")  # 30 min: 16.5 wash, 7.5 rinse, 6 spin
    assert state(h, "washer") == ("idle", "idle", 0)
    cmd(h, "washer", "start")
    assert state(h, "washer") == ("running", "washing", 30)
    h.ok("advance_time", minutes=10)
    assert state(h, "washer") == ("running", "washing", 20)
    h.ok("advance_time", minutes=10)
    assert state(h, "washer") == ("running", "rinsing", 10)
    h.ok("advance_time", minutes=5)
    assert state(h, "washer") == ("running", "spinning", 5)
    h.ok("advance_time", minutes=5)
    assert state(h, "washer") == ("completed", "completed", 0)
    events = [e["event"] for e in h.get("state")["events"] if e["device_id"] == "washer"]
    assert events == ["started", "completed"]


def test_washer_pause_resume_stop(h: Harness) -> None:
    cmd(h, "washer", "start")  # cotton, 90 min
    h.ok("advance_time", minutes=20)
    cmd(h, "washer", "pause")
    h.ok("advance_time", minutes=60)
    assert state(h, "washer") == ("paused", "washing", 70)
    cmd(h, "washer", "resume")
    h.ok("advance_time", minutes=69)
    assert state(h, "washer")[0] == "running"
    h.ok("advance_time", minutes=1)
    assert state(h, "washer")[0] == "completed"
    cmd(h, "washer", "start")
    cmd(h, "washer", "stop")
    assert state(h, "washer") == ("idle", "idle", 0)
    h.ok("advance_time", minutes=120)
    assert state(h, "washer") == ("idle", "idle", 0)


def test_turning_off_cancels_cycle(h: Harness) -> None:
    cmd(h, "dryer", "start")
    cmd(h, "dryer", "turn_off")
    assert state(h, "dryer") == ("idle", "idle", 0)
    r = h.act("control_device", device_id="dryer", command="start", params={})
    assert r.error_code == "POWER_OFF"


def test_dryer_phases(h: Harness) -> None:
    cmd(h, "dryer", "set_program", program="heavy")  # 90 min: 76.5 drying, 13.5 cooling
    cmd(h, "dryer", "start")
    h.ok("advance_time", minutes=77)
    assert state(h, "dryer")[:2] == ("running", "cooling")
    h.ok("advance_time", minutes=13.5)
    assert state(h, "dryer")[:2] == ("completed", "completed")


def test_start_cycle_setup_with_elapsed_time(h: Harness) -> None:
    h.setup("start_cycle", device_id="washer", program="synthetics", elapsed_minutes=40)  # 60 min program
    assert state(h, "washer") == ("running", "rinsing", 20)
    assert all(e["source"] == "setup" for e in h.get("history"))


def test_vacuum_cycle_and_battery(h: Harness) -> None:
    cmd(h, "vac", "start")  # 2 rooms -> 30 min at 0.8 %/min
    a = h.get("device", {"device_id": "vac"})["attributes"]
    assert (a["operational_state"], a["remaining_minutes"], a["battery"]) == ("cleaning", 30, 100)
    h.ok("advance_time", minutes=15)
    a = h.get("device", {"device_id": "vac"})["attributes"]
    assert (a["operational_state"], a["battery"]) == ("cleaning", 88)
    h.ok("advance_time", minutes=16)
    assert h.attr("vac", "operational_state") == "returning"
    h.ok("advance_time", minutes=1)
    assert h.attr("vac", "operational_state") == "docked"
    assert h.attr("vac", "charging") is True
    low = h.attr("vac", "battery")
    assert low == 75  # 24% cleaning + 1% returning
    h.ok("advance_time", minutes=10)
    assert h.attr("vac", "battery") == 85
    events = [e["event"] for e in h.get("state")["events"] if e["device_id"] == "vac"]
    assert events == ["started", "cleaning_finished", "returning", "docked"]


def test_vacuum_low_battery_refuses_and_returns_early(h: Harness) -> None:
    h.setup("set_state", device_id="vac", attributes={"battery": 15})
    r = h.act("control_device", device_id="vac", command="start", params={})
    assert r.error_code == "INVALID_IN_STATE" and "15%" in r.message
    h.setup("set_state", device_id="vac", attributes={"battery": 25})
    cmd(h, "vac", "set_clean_mode", mode="vacuum_and_mop")  # 1 %/min: low battery after 15 min
    cmd(h, "vac", "start")
    h.ok("advance_time", minutes=15.5)
    assert h.attr("vac", "operational_state") == "returning"
    events = [e["event"] for e in h.get("state")["events"] if e["device_id"] == "vac"]
    assert "cleaning_finished" not in events


def test_vacuum_pause_resume_and_dock(h: Harness) -> None:
    cmd(h, "vac", "start")
    h.ok("advance_time", minutes=5)
    cmd(h, "vac", "pause")
    r = h.act("control_device", device_id="vac", command="set_clean_mode", params={"mode": "mop"})
    assert r.ok
    h.ok("advance_time", minutes=30)
    assert h.attr("vac", "battery") == 96
    assert h.attr("vac", "remaining_minutes") == 25
    cmd(h, "vac", "resume")
    cmd(h, "vac", "return_to_dock")
    r = h.act("control_device", device_id="vac", command="set_clean_mode", params={"mode": "vacuum"})
    assert r.error_code == "INVALID_IN_STATE"
    h.ok("advance_time", minutes=2)
    assert h.attr("vac", "operational_state") == "docked"
