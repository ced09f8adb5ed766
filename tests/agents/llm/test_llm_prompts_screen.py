from __future__ import annotations

from devicesworld.agents.llm.prompts import format_observations


def test_screen_text_replaces_the_element_list() -> None:
    elements = [{"text": f"row {i}", "resource_id": f"id/{i}"} for i in range(500)]
    screen = "\n".join(f"[{i}] TextView 'row {i}'" for i in range(60))
    obs = {
        "android_0": {
            "kind": "android",
            "foreground_app": "Messages",
            "screen_text": screen,
            "ui_elements": elements,
        }
    }
    text = format_observations(obs)
    assert "[59] TextView 'row 59'" in text
    assert "resource_id" not in text and "Messages" in text


def test_devices_without_screen_text_are_shown_whole() -> None:
    text = format_observations({"smarthome_0": {"kind": "smarthome", "time": "09:00"}})
    assert '"time"' in text and "screen:" not in text
