"""The words of the home's refusals: each names what is missing or busy and what would be accepted.

The lookups (device, room, schedule) and the device's UNSUPPORTED and busy-appliance errors are
each written once; these pin what an agent reads from them.
"""

from __future__ import annotations

import pytest

from tests.devices.smarthome.sh_harness import Harness


@pytest.fixture
def h() -> Harness:
    h = Harness()
    h.setup("add_room", name="laundry")
    h.setup("add_device", device_id="lamp", category="light", room="laundry")
    h.setup("add_device", device_id="washer", category="washing_machine", room="laundry")
    h.setup("add_device", device_id="vacuum", category="robot_vacuum", room="laundry")
    return h


def test_unknown_device_room_and_schedule_name_how_to_list_them(h: Harness) -> None:
    r = h.act("get_device_state", device_id="ghost")
    assert r.message == "no device 'ghost' in this home; use list_devices to see the device ids"
    assert h.act("get_room_status", room="attic").message == "no room 'attic'; rooms are: laundry"
    r = h.act("cancel_schedule", schedule_id="sched_9")
    assert (r.error_code, r.message) == (
        "NOT_FOUND",
        "no schedule 'sched_9'; use list_schedules to see the ids",
    )


def test_what_a_device_lacks_is_named_with_what_it_has(h: Harness) -> None:
    r = h.act("set_device_attribute", device_id="lamp", attribute="brightness", value=50)
    assert (r.error_code, r.message) == (
        "UNSUPPORTED",
        "lamp (light) has no attribute 'brightness'; it has: power",
    )
    r = h.act("control_device", device_id="lamp", command="open", params={})
    assert r.message == "lamp (light) does not support 'open'; its commands are: turn_on, turn_off, toggle"
    after = {"device_id": "lamp", "event": "cycle_finished", "delay_minutes": 5}
    r = h.act("create_schedule", device_id="washer", command="turn_on", after_event=after)
    assert r.error_code == "UNSUPPORTED"
    assert r.message.startswith("lamp (light) has no event 'cycle_finished'; its events are: ")


def test_busy_appliances_keep_their_settings(h: Harness) -> None:
    h.ok("control_device", device_id="washer", command="turn_on", params={})
    h.ok("control_device", device_id="washer", command="start", params={})
    r = h.act("control_device", device_id="washer", command="set_program", params={"program": "quick"})
    assert (r.error_code, r.message) == (
        "INVALID_IN_STATE",
        "cannot change the program of washer while it is running; stop the cycle first",
    )
    h.ok("control_device", device_id="vacuum", command="start", params={})
    r = h.act("control_device", device_id="vacuum", command="set_clean_mode", params={"mode": "mop"})
    assert r.message == (
        "cannot change the clean mode of vacuum while it is cleaning; pause it or wait until it is docked"
    )
