"""SmartHome listings come in pages that fit the agent's feedback, and each page names the next.

A home with more devices or schedules than a page once lost the last ones in the agent's
3,000-character feedback (a task's own dryer was cut off): now ``list_devices`` and
``list_schedules`` page and filter, and a page that leaves some out says how many and which
call lists them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from devicesworld.agents.llm.prompts import FEEDBACK_CHARS
from devicesworld.devices.listing import CUT_PREFIX
from devicesworld.devices.smarthome.args import DEVICE_PAGE, SCHEDULE_PAGE
from tests.devices.smarthome.sh_harness import Harness


def big_home() -> Harness:
    h = Harness()
    h.setup("configure_home", name="Long House", outdoor_temperature=12, outdoor_humidity=60, outdoor_pm25=30)
    for room in ("living_room", "bedroom", "utility_room"):
        h.setup("add_room", name=room, temperature=21, humidity=50, pm25=10)
    for i in range(60):
        room = ("living_room", "bedroom")[i % 2]
        h.setup("add_device", device_id=f"lamp_{i:02d}", category="light", room=room, name=f"Lamp number {i}")
    h.setup("add_device", device_id="dryer", category="dryer", room="utility_room")
    return h


def _all_pages(h: Harness, action: str, **filters: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    start = 0
    while True:
        result = h.act(action, start=start, **filters)
        assert result.ok, result.message
        # a page fits the agent's feedback whole
        assert len(f"ok: {result.message} | data: {json.dumps(result.data)}") < FEEDBACK_CHARS
        items += result.data
        if CUT_PREFIX not in result.message:
            return items
        start = int(re.search(r'"start": (\d+)', result.message).group(1))  # type: ignore[union-attr]


def test_list_devices_pages_reach_the_last_device() -> None:
    h = big_home()
    first = h.act("list_devices")
    assert len(first.data) == DEVICE_PAGE and "61 device(s), 1-25 shown" in first.message
    assert "36 more" in first.message and 'list_devices {"start": 25}' in first.message
    ids = [d["device_id"] for d in _all_pages(h, "list_devices")]
    assert len(ids) == 61 and ids[-1] == "dryer"


def test_list_devices_filters() -> None:
    h = big_home()
    assert [d["device_id"] for d in h.ok("list_devices", category="dryer")] == ["dryer"]
    assert [d["device_id"] for d in h.ok("list_devices", contains="NUMBER 7")] == ["lamp_07"]
    assert len(_all_pages(h, "list_devices", room="bedroom")) == 30
    small = h.act("list_devices", room="utility_room")
    assert small.message == "1 device(s)" and CUT_PREFIX not in small.message


def test_list_schedules_pages_and_filters() -> None:
    h = big_home()
    for i in range(20):
        h.ok("create_schedule", device_id=f"lamp_{i:02d}", command="turn_on", at=f"{10 + i % 10}:30")
    first = h.act("list_schedules")
    assert len(first.data) == SCHEDULE_PAGE and CUT_PREFIX in first.message
    assert len(_all_pages(h, "list_schedules")) == 20
    assert len(h.ok("list_schedules", device_id="lamp_03")) == 1
