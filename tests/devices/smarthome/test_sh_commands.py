"""Every category's commands and every error code, through the declared actions."""

from __future__ import annotations

import pytest

from devicesworld.devices.smarthome.catalog import CATEGORY_NAMES
from tests.devices.smarthome.sh_harness import Harness

DEVICES = {
    "light": "lamp",
    "dimmable_light": "dimmer",
    "curtain": "curtain",
    "air_conditioner": "ac",
    "heater": "heater",
    "air_purifier": "purifier",
    "humidifier": "humidifier",
    "dehumidifier": "dehumidifier",
    "washing_machine": "washer",
    "dryer": "dryer",
    "robot_vacuum": "vacuum",
}


@pytest.fixture
def h() -> Harness:
    h = Harness()
    h.setup("add_room", name="living_room")
    for category, device_id in DEVICES.items():
        h.setup("add_device", device_id=device_id, category=category, room="living_room")
    return h


def control(h: Harness, device_id: str, command: str, **params: object):  # type: ignore[no-untyped-def]
    return h.act("control_device", device_id=device_id, command=command, params=params)


def test_catalog_has_the_eleven_categories() -> None:
    assert set(CATEGORY_NAMES) == set(DEVICES)


@pytest.mark.parametrize("device_id", [d for d in DEVICES.values() if d not in ("curtain", "vacuum")])
def test_on_off_and_toggle(h: Harness, device_id: str) -> None:
    assert h.attr(device_id, "power") is False
    assert control(h, device_id, "turn_on").ok
    assert h.attr(device_id, "power") is True
    assert control(h, device_id, "toggle").ok
    assert h.attr(device_id, "power") is False
    assert h.ok("set_device_attribute", device_id=device_id, attribute="power", value=True)
    assert h.attr(device_id, "power") is True


def test_light_has_no_brightness(h: Harness) -> None:
    r = control(h, "lamp", "set_brightness", brightness=50)
    assert (r.ok, r.error_code) == (False, "UNSUPPORTED")
    assert "turn_on" in r.message


def test_dimmable_light_brightness_and_range(h: Harness) -> None:
    assert control(h, "dimmer", "turn_on").ok
    assert control(h, "dimmer", "set_brightness", brightness=40).ok
    assert h.attr("dimmer", "brightness") == 40
    r = control(h, "dimmer", "set_brightness", brightness=150)
    assert r.error_code == "OUT_OF_RANGE" and "1-100 %" in r.message
    r = control(h, "dimmer", "set_brightness", brightness=40.5)
    assert r.error_code == "OUT_OF_RANGE"


def test_power_off_blocks_commands_that_need_power(h: Harness) -> None:
    r = control(h, "dimmer", "set_brightness", brightness=40)
    assert r.error_code == "POWER_OFF" and "turn it on" in r.message
    r = control(h, "ac", "set_mode", mode="heat")
    assert r.error_code == "POWER_OFF"


def test_curtain_open_close_position(h: Harness) -> None:
    assert control(h, "curtain", "open").ok
    assert h.attr("curtain", "position") == 100
    assert control(h, "curtain", "close").ok
    assert h.attr("curtain", "position") == 0
    assert control(h, "curtain", "set_position", position=35).ok
    assert h.attr("curtain", "position") == 35
    assert control(h, "curtain", "set_position", position=-5).error_code == "OUT_OF_RANGE"


def test_air_conditioner_settings(h: Harness) -> None:
    control(h, "ac", "turn_on")
    assert control(h, "ac", "set_mode", mode="dry").ok
    assert control(h, "ac", "set_target_temperature", temperature=22.5).ok
    assert control(h, "ac", "set_fan_speed", speed="high").ok
    attrs = h.get("device", {"device_id": "ac"})["attributes"]
    assert (attrs["mode"], attrs["target_temperature"], attrs["fan_speed"]) == ("dry", 22.5, "high")
    r = control(h, "ac", "set_target_temperature", temperature=31)
    assert r.error_code == "OUT_OF_RANGE" and "16-30 °C" in r.message
    r = control(h, "ac", "set_target_temperature", temperature=22.2)
    assert r.error_code == "OUT_OF_RANGE" and "0.5" in r.message
    r = control(h, "ac", "set_mode", mode="turbo")
    assert r.error_code == "OUT_OF_RANGE" and "cool" in r.message


def test_heater_modes_and_range(h: Harness) -> None:
    control(h, "heater", "turn_on")
    assert control(h, "heater", "set_target_temperature", temperature=25).ok
    assert h.attr("heater", "target_temperature") == 25
    assert control(h, "heater", "set_mode", mode="cool").error_code == "OUT_OF_RANGE"
    assert control(h, "heater", "set_fan_speed", speed="low").error_code == "UNSUPPORTED"


def test_purifier_fan_speed_and_sensor(h: Harness) -> None:
    control(h, "purifier", "turn_on")
    assert control(h, "purifier", "set_fan_speed", speed="high").ok
    assert h.attr("purifier", "fan_speed") == "high"
    assert h.attr("purifier", "pm25") == h.room("living_room")["pm25"]


@pytest.mark.parametrize("device_id", ["humidifier", "dehumidifier"])
def test_humidity_targets(h: Harness, device_id: str) -> None:
    control(h, device_id, "turn_on")
    assert control(h, device_id, "set_target_humidity", humidity=55).ok
    assert h.attr(device_id, "target_humidity") == 55
    assert control(h, device_id, "set_target_humidity", humidity=57).error_code == "OUT_OF_RANGE"
    assert control(h, device_id, "set_target_humidity", humidity=90).error_code == "OUT_OF_RANGE"


def test_read_only_and_unknown_attributes(h: Harness) -> None:
    r = h.act("set_device_attribute", device_id="ac", attribute="current_temperature", value=20)
    assert r.error_code == "READ_ONLY"
    r = h.act("set_device_attribute", device_id="washer", attribute="remaining_minutes", value=5)
    assert r.error_code == "READ_ONLY"
    r = h.act("set_device_attribute", device_id="lamp", attribute="brightness", value=5)
    assert r.error_code == "UNSUPPORTED"
    control(h, "ac", "turn_on")
    assert h.ok("set_device_attribute", device_id="ac", attribute="target_temperature", value=21)
    assert h.attr("ac", "target_temperature") == 21


def test_not_found_and_invalid_args(h: Harness) -> None:
    r = control(h, "ghost", "turn_on")
    assert r.error_code == "NOT_FOUND" and "list_devices" in r.message
    assert h.act("get_room_status", room="attic").error_code == "NOT_FOUND"
    assert h.act("get_device_state", device_id="ghost").error_code == "NOT_FOUND"
    r = control(h, "dimmer", "turn_on", brightness=3)
    assert r.error_code == "INVALID_ARGS" and "unknown parameter" in r.message
    control(h, "dimmer", "turn_on")
    r = control(h, "dimmer", "set_brightness")
    assert r.error_code == "INVALID_ARGS" and "missing" in r.message
    r = control(h, "dimmer", "set_brightness", brightness="bright")
    assert r.error_code == "INVALID_ARGS"


def test_conflict_on_cancelling_twice(h: Harness) -> None:
    h.ok("create_schedule", device_id="lamp", command="turn_on", delay_minutes=5)
    h.ok("cancel_schedule", schedule_id="sched_1")
    r = h.act("cancel_schedule", schedule_id="sched_1")
    assert r.error_code == "CONFLICT" and "cancelled" in r.message
    assert h.act("cancel_schedule", schedule_id="sched_9").error_code == "NOT_FOUND"


def test_invalid_in_state(h: Harness) -> None:
    control(h, "washer", "turn_on")
    assert control(h, "washer", "pause").error_code == "INVALID_IN_STATE"
    assert control(h, "washer", "start").ok
    r = control(h, "washer", "set_program", program="quick")
    assert r.error_code == "INVALID_IN_STATE" and "running" in r.message
    assert control(h, "washer", "start").error_code == "INVALID_IN_STATE"
    assert control(h, "vacuum", "return_to_dock").error_code == "INVALID_IN_STATE"


def test_capabilities_describe_units_ranges_and_commands(h: Harness) -> None:
    caps = h.ok("get_capabilities", device_id="ac")
    attrs = {a["name"]: a for a in caps["attributes"]}
    assert attrs["target_temperature"]["unit"] == "°C"
    assert (attrs["target_temperature"]["min"], attrs["target_temperature"]["max"]) == (16, 30)
    assert attrs["target_temperature"]["step"] == 0.5
    assert attrs["current_temperature"]["writable"] is False
    commands = {c["name"]: c for c in caps["commands"]}
    assert commands["set_fan_speed"]["params"][0]["values"] == ["low", "medium", "high", "auto"]
    washer = h.ok("get_capabilities", device_id="washer")
    assert "completed" in washer["events"]
    program = next(a for a in washer["attributes"] if a["name"] == "program")
    assert program["program_minutes"]["quick"] == 30


def test_history_records_agent_attempts(h: Harness) -> None:
    control(h, "lamp", "turn_on")
    control(h, "dimmer", "set_brightness", brightness=10)
    history = h.get("history")
    assert [(e["command"], e["ok"], e["error_code"], e["source"]) for e in history] == [
        ("turn_on", True, None, "agent"),
        ("set_brightness", False, "POWER_OFF", "agent"),
    ]


def test_list_devices_and_rooms_show_no_state(h: Harness) -> None:
    devices = h.ok("list_devices")
    assert len(devices) == 11
    assert set(devices[0]) == {"device_id", "name", "category", "room"}
    assert h.ok("list_devices", room="living_room") == devices
    assert h.ok("list_rooms") == [{"room": "living_room", "devices": 11}]
