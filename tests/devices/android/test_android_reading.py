"""The phone's ``read_element`` and ``list_elements``: the rest of whatever a prompt had to cut."""

from __future__ import annotations

import re

from devicesworld.devices.listing import CUT_PREFIX
from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task

BODY = "Door code and house rules. " + " ".join(f"Rule {i}: keep item {i} tidy." for i in range(150))


def test_read_element_reads_a_long_message_whole_in_chunks() -> None:
    setup = [("add_sms", {"address": "+15550199", "body": BODY, "minutes_ago": 3})]
    with CrossDeviceEnv(phone_task(setup)) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Messages")
        index = next(i for i, el in enumerate(d.elements()) if (el.get("text") or "").startswith("Door code"))
        text, offset = "", 0
        while True:
            result = d.do("read_element", index=index, offset=offset)
            assert result.ok, result.message
            text += result.data["text"]
            if "more" not in result.data:
                break
            assert result.data["more"].startswith(CUT_PREFIX)
            offset = int(re.search(r'"offset": (\d+)', result.data["more"]).group(1))  # type: ignore[union-attr]
        assert text == BODY and offset > 0


def test_list_elements_filters_and_pages_the_phone_screen() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        total = len(d.elements())
        first = d.do("list_elements", limit=5)
        assert first.ok and first.data["total"] == total and len(first.data["elements"]) == 5
        assert (
            first.data["elements"][0].startswith("[0] ")
            and 'list_elements {"start": 5}' in first.data["more"]
        )
        found = d.do("list_elements", contains="calend")
        assert found.ok and [x.split(" ", 1)[1] for x in found.data["elements"]] == ["TextView 'Calendar'"]
        assert d.do("list_elements", role="ImageButton").data["matching"] == 3
