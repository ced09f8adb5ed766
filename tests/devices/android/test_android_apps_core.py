"""Messages, Contacts, Settings and Clock operated through the UI, checked through getters and checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.verify.evaluate import ConditionResult
from tests.devices.android.android_helpers import Driver, phone_task

ANN = ("add_contact", {"name": "Ann Lee", "phone": "+1 555 0101", "email": "ann@example.com"})


def _run(
    setup: list[tuple[str, dict[str, Any]]],
    conditions: list[dict[str, Any]],
    steps: Callable[[Driver], None],
) -> tuple[bool, list[ConditionResult]]:
    with CrossDeviceEnv(phone_task(setup, conditions)) as env:
        env.reset()
        steps(Driver(env))
        verdict = env.evaluate()
    return verdict.success, verdict.conditions


def test_send_sms_to_a_contact_via_new_chat() -> None:
    cond = [
        {
            "id": "sent",
            "device": "android_0",
            "check": "sms_sent",
            "args": {"to": "5550101", "body": "On my way"},
        }
    ]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Messages")
        d.tap(rid="conversations_fab")
        d.type("Ann", rid="new_conversation_address")
        d.tap(text="Ann Lee")
        d.type("On my way", rid="thread_type_message")
        d.tap(rid="thread_send_message")
        assert "Sent" in d.screen()

    ok, conds = _run([ANN], cond, steps)
    assert ok, conds


def test_typed_but_unsent_message_fails_and_airplane_blocks_sending() -> None:
    cond = [
        {
            "id": "sent",
            "device": "android_0",
            "check": "sms_sent",
            "args": {"to": "5550101", "contains": ["hi"]},
        }
    ]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Messages")
        d.tap(rid="conversations_fab")
        d.type("+15550101", rid="new_conversation_address")
        d.tap(rid="new_conversation_confirm")
        d.type("hi", rid="thread_type_message")

    ok, conds = _run([], cond, steps)
    assert not ok and "no message sent" in conds[0].detail

    def airplane(d: Driver) -> None:
        steps(d)
        d.tap(rid="thread_send_message")
        assert "airplane" in d.screen()

    ok, _ = _run(
        [("set_setting", {"table": "global", "name": "airplane_mode_on", "value": "1"})], cond, airplane
    )
    assert not ok


def test_reply_in_existing_thread_with_read_code() -> None:
    setup = [("add_sms", {"address": "+15550199", "body": "Code: 5521", "minutes_ago": 3})]
    cond = [
        {
            "id": "c",
            "device": "android_0",
            "check": "sms_sent",
            "args": {"to": "+15550199", "body": "5521 thanks"},
        }
    ]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Messages")
        d.tap(text="+15550199")
        assert d.has(text="Code: 5521")
        d.type("5521 thanks", rid="thread_type_message")
        d.tap(rid="thread_send_message")

    assert _run(setup, cond, steps)[0]


def test_create_contact_needs_save_and_discard_dialog_on_back() -> None:
    cond = [{"id": "c", "device": "android_0", "check": "contact_exists",
             "args": {"name": "Bo Chen", "phone": "5550177", "company": "Acme"}}]  # fmt: skip

    def unsaved(d: Driver) -> None:
        d.do("open_app", app_name="Contacts")
        d.tap(rid="floating_action_button")
        d.type("Bo", rid="editor_first")
        d.type("Chen", rid="editor_last")
        d.do("navigate_back")  # closes the keyboard
        d.do("navigate_back")  # asks about the changes
        assert d.has(text="Discard your changes?")
        d.tap(text="Discard")

    assert not _run([], cond, unsaved)[0]

    def saved(d: Driver) -> None:
        d.do("open_app", app_name="Contacts")
        d.tap(rid="floating_action_button")
        d.type("Bo", rid="editor_first")
        d.type("Chen", rid="editor_last")
        d.type("555 0177", rid="editor_phone")
        d.type("Acme", rid="editor_company")
        d.tap(rid="menu_save")
        assert d.obs()["foreground_activity"].endswith(".view")

    ok, conds = _run([], cond, saved)
    assert ok, conds


def test_search_edit_and_delete_contact() -> None:
    setup = [ANN, ("add_contact", {"name": "Zack Moe", "phone": "+15550142"})]
    conds = [
        {
            "id": "e",
            "device": "android_0",
            "check": "contact_exists",
            "args": {"name": "Ann Lee", "email": "ann@work.org"},
        },
        {"id": "d", "device": "android_0", "check": "contact_absent", "args": {"name": "Zack Moe"}},
    ]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Contacts")
        d.type("ann", rid="search_view")
        assert not d.has(text="Zack Moe")
        d.tap(text="Ann Lee")
        d.tap(rid="menu_edit")
        d.type("ann@work.org", clear=True, rid="editor_email")
        d.tap(rid="menu_save")
        d.do("navigate_back")
        d.type("zack", clear=True, rid="search_view")
        d.tap(text="Zack Moe")
        d.tap(rid="menu_delete")
        d.tap(text="Delete")

    ok, res = _run(setup, conds, steps)
    assert ok, res


def test_settings_switches_slider_and_dialogs() -> None:
    conds = [
        {"id": "bt", "device": "android_0", "check": "setting_is", "args": {"table": "global", "name": "bluetooth_on", "value": "1"}},
        {"id": "dark", "device": "android_0", "check": "setting_is", "args": {"table": "secure", "name": "ui_night_mode", "value": "2"}},
        {"id": "br", "device": "android_0", "check": "setting_is", "args": {"table": "system", "name": "screen_brightness", "min": 200}},
        {"id": "font", "device": "android_0", "check": "setting_is", "args": {"table": "system", "name": "font_scale", "value": "1.3"}},
    ]  # fmt: skip

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Settings")
        d.tap(rid="connected")
        d.tap(rid="switch_bluetooth_on")
        d.do("navigate_back")
        d.tap(rid="display")
        d.tap(rid="dark_ui_mode")
        box = d.elements()[d.find(rid="brightness_slider")]["bbox_pixels"]
        x = box["x_min"] + 0.9 * (box["x_max"] - box["x_min"])
        assert d.do("click", x=x, y=(box["y_min"] + box["y_max"]) / 2).ok
        d.tap(rid="font_size")
        d.tap(text="Largest")

    ok, res = _run([], conds, steps)
    assert ok, res


def test_language_switch_translates_the_ui() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Settings")
        d.tap(rid="system")
        d.tap(rid="language")
        d.tap(text="한국어")
        assert d.has(text="시스템")
        assert d.get("settings")["system"]["system_locales"] == "ko"


def test_alarm_through_time_picker_with_typing_and_buttons() -> None:
    cond = [{"id": "a", "device": "android_0", "check": "alarm_exists",
             "args": {"hour": 18, "minute": 45, "days": ["mon", "wed"], "label": "Gym"}}]  # fmt: skip

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Clock")
        d.tap(rid="fab")
        assert d.obs()["foreground_app"] == "com.google.android.deskclock"
        d.type("6", clear=True, rid="hour")
        d.type("44", clear=True, rid="minute")
        d.tap(rid="minute_increment")  # 45
        d.tap(rid="pm_label")
        d.tap(text="OK")
        assert "Alarm set for 6:45 PM" in d.screen()
        d.tap(text="6:45 PM")
        d.tap(desc="Monday")
        d.tap(desc="Wednesday")
        d.tap(rid="edit_label")
        d.type("Gym", rid="label_input")
        d.tap(text="OK")

    ok, res = _run([], cond, steps)
    assert ok, res


def test_time_picker_cancel_creates_nothing_and_values_need_ok() -> None:
    cond = [{"id": "a", "device": "android_0", "check": "alarm_exists", "args": {"hour": 7, "minute": 30}}]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Clock")
        d.tap(rid="fab")
        d.type("7", clear=True, rid="hour")
        d.type("30", clear=True, rid="minute")
        d.tap(text="Cancel")

    ok, _ = _run([], cond, steps)
    assert not ok


def test_timer_runs_in_virtual_time() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Clock")
        d.tap(rid="tab_timer")
        d.type("5", rid="timer_setup_digits")
        d.tap(rid="fab")
        assert d.has(text="05:00")
        d.do("wait", seconds=90)
        assert d.has(text="03:30")
        assert d.get("timers")[0]["state"] == "running"
