# ruff: noqa: RUF001  (an en dash between times, as the Calendar shows)
"""Flows of the real apps (issue #34): agenda and search, dated alarms, pickers, permission prompts,
long-press menus and share sheets, notifications, and each message's direction in the element list.

Every flow is driven through the GUI action space only (tap / long-press / type by element index)
and asserted on the element list; the screenshot is drawn from the same tree.
"""

from __future__ import annotations

from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task


def _env(setup: list[tuple[str, object]], conditions: list[dict[str, Any]] | None = None) -> CrossDeviceEnv:
    return CrossDeviceEnv(phone_task(setup, conditions))


def _hold(d: Driver, **target: Any) -> None:
    result = d.do("long_press", index=d.find(**target))
    assert result.ok, result.message


def test_message_direction_and_sender_are_in_the_element_list() -> None:
    setup: list[tuple[str, object]] = [
        ("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
        ("add_sms", {"address": "+15550101", "body": "Are you coming?", "minutes_ago": 30}),
        ("add_sms", {"address": "+15550101", "body": "Yes, at 7", "minutes_ago": 20, "sent": True}),
    ]
    with _env(setup) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Messages")
        d.tap(text="Ann Lee")
        els = {e["text"]: e for e in d.elements() if e["text"] in ("Are you coming?", "Yes, at 7")}
        assert els["Are you coming?"]["content_description"].startswith("Received from Ann Lee · ")
        assert els["Yes, at 7"]["content_description"].startswith("Sent to Ann Lee · ")
        assert "Received from Ann Lee" in d.screen()  # the text screen shows it too


def test_incoming_text_notification_opens_its_conversation() -> None:
    setup: list[tuple[str, object]] = [
        ("add_contact", {"name": "Bo Chen", "phone": "+15550102"}),
        ("incoming_sms", {"address": "+15550102", "body": "Code 4471", "delay_seconds": 60}),
    ]
    with _env(setup) as env:
        env.reset()
        d = Driver(env)
        d.do("wait", seconds=90)
        assert d.get("notifications")
        d.do("swipe", direction="down", from_edge=True)
        d.tap(rid="notification_title", text="Bo Chen")
        obs = d.obs()
        assert obs["foreground_activity"].endswith("/.thread")
        assert d.has(text="Code 4471", desc=None) or any(e["text"] == "Code 4471" for e in d.elements())
        assert not d.get("notifications")


def test_calendar_agenda_lists_upcoming_events_and_search_finds_past_ones() -> None:
    setup: list[tuple[str, object]] = [
        ("add_event", {"title": "Old review", "start": "2026-02-10T09:00:00", "location": "Room 2"}),
        ("add_event", {"title": "Dentist", "start": "2026-05-20T10:00:00", "location": "Main St"}),
        ("add_event", {"title": "Standup", "start": "2026-03-03T09:30:00"}),
    ]
    with _env(setup) as env:
        env.reset()  # the task starts on 2026-03-02
        d = Driver(env)
        d.do("open_app", app_name="Calendar")
        d.tap(rid="agenda_view")
        titles = [e["text"] for e in d.elements() if (e["resource_id"] or "").endswith("event_item_title")]
        assert titles == ["Standup", "Dentist"]  # from today on, by date; the past one is not listed
        assert d.has(text="20 May 2026 10:00 AM – 11:00 AM · Main St")
        d.tap(text="Dentist")
        assert d.has(rid="event_title", text="Dentist")
        d.do("navigate_back")
        d.do("navigate_back")
        d.tap(rid="search")
        d.type("room 2", rid="search_query")
        assert d.has(text="Old review") and not d.has(text="Dentist")
        d.tap(text="Old review")
        assert d.obs()["foreground_activity"].endswith("/.event")


def test_one_time_alarm_on_a_date_through_the_date_picker_rings_on_that_day_only() -> None:
    cond = [{"id": "a", "device": "android_0", "check": "alarm_exists",
             "args": {"hour": 6, "minute": 30, "date": "2026-03-05", "days": []}}]  # fmt: skip
    with _env([("add_alarm", {"hour": 6, "minute": 30, "label": "Flight"})], cond) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Clock")
        d.tap(text="6:30 AM")
        assert d.has(rid="schedule_alarm_title", text="Not scheduled")
        d.tap(rid="schedule_alarm")
        d.tap(desc="5 March 2026")
        d.tap(text="OK")
        assert d.has(rid="schedule_alarm_title", text="Thursday, 5 March 2026")
        assert env.evaluate().success
        alarm = d.get("alarms")[0]
        assert alarm["date"] == "2026-03-05" and alarm["days"] == []
        d.do("navigate_back")
        assert d.has(text="Flight · Thursday, 5 March 2026")
        env.clock.advance(24 * 3600)  # 3 March 09:00: 06:30 passed, but not on its day
        assert not d.get("notifications") and d.get("alarms")[0]["enabled"]
        env.clock.advance(2 * 24 * 3600)  # past 5 March 06:30
        assert d.get("notifications") and not d.get("alarms")[0]["enabled"]


def test_a_repeat_day_clears_the_alarm_date_and_setup_refuses_both() -> None:
    with _env([("add_alarm", {"hour": 7, "minute": 0, "date": "2026-03-04"})]) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Clock")
        d.tap(text="7:00 AM")
        d.tap(desc="Monday")
        alarm = d.get("alarms")[0]
        assert alarm["date"] is None and alarm["days"] == ["mon"]
    try:
        with _env([("add_alarm", {"hour": 7, "minute": 0, "date": "2026-03-04", "days": ["mon"]})]) as env:
            env.reset()
    except Exception as exc:  # the task's setup is refused with a one-line reason
        assert "either a date or repeat days" in str(exc)
    else:
        raise AssertionError("a date with repeat days was accepted")


def test_first_use_permission_prompt_deny_blocks_and_allow_lets_the_app_work() -> None:
    setup: list[tuple[str, object]] = [
        ("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
        ("set_permission", {"app": "Contacts"}),
    ]
    with _env(setup) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Contacts")
        assert d.has(text="Allow Contacts to access your contacts?")
        assert not d.has(text="Ann Lee")  # the dialog is modal: nothing of the app is listed
        d.tap(rid="permission_deny_button")
        assert d.get("permissions")["com.google.android.contacts"] == "denied"
        assert not d.has(text="Ann Lee") and d.has(rid="grant_permission")
        d.tap(rid="grant_permission")
        d.tap(rid="permission_allow_button")
        assert d.get("permissions")["com.google.android.contacts"] == "granted"
        assert d.has(text="Ann Lee")
        d.do("navigate_home")
        d.do("open_app", app_name="Contacts")
        assert not d.has(rid="permission_allow_button")  # asked once only


def test_back_on_the_permission_prompt_denies_and_apps_without_a_setting_never_ask() -> None:
    with _env([("set_permission", {"app": "Camera"})]) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Messages")
        assert not d.has(rid="permission_allow_button")
        d.do("open_app", app_name="Camera")
        assert d.has(rid="permission_allow_button")
        d.do("navigate_back")
        assert d.get("permissions")["com.android.camera2"] == "denied"
        assert not d.has(rid="shutter_button")


def test_markor_long_press_menu_share_to_messages_and_delete_confirm() -> None:
    setup: list[tuple[str, object]] = [
        ("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
        ("add_note", {"name": "packing.md", "text": "passport, charger"}),
        ("add_note", {"name": "old.md", "text": "x"}),
    ]
    cond = [{"id": "s", "device": "android_0", "check": "sms_sent",
             "args": {"to": "+15550101", "body": "passport, charger"}}]  # fmt: skip
    with _env(setup, cond) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Markor")
        _hold(d, text="packing.md")
        d.tap(rid="action_share")
        assert d.has(text="Share via")
        d.tap(rid="resolver_item_title", text="Messages")
        d.type("Ann", rid="new_conversation_address")
        d.tap(text="Ann Lee")
        assert d.has(rid="thread_type_message", text="passport, charger")
        d.tap(rid="thread_send_message")
        assert env.evaluate().success
        d.do("open_app", app_name="Markor")
        _hold(d, text="old.md")
        d.tap(rid="action_delete")
        assert d.has(text="Delete old.md?")
        d.tap(text="Cancel")
        assert d.has(text="old.md")
        _hold(d, text="old.md")
        d.tap(rid="action_delete")
        d.tap(text="Delete")
        assert not d.has(text="old.md")


def test_share_a_contact_and_a_file_into_markor() -> None:
    setup: list[tuple[str, object]] = [
        ("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
        ("add_file", {"path": "Download/wifi.txt", "text": "guest / hunter2"}),
    ]
    with _env(setup) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Contacts")
        d.tap(text="Ann Lee")
        d.tap(rid="menu_share")
        d.tap(rid="resolver_item_title", text="Markor")
        d.type("ann", rid="new_file_dialog__name", clear=True)
        d.tap(text="OK")
        assert d.get("file", path="Documents/Markor/ann.md") == "Ann Lee\n+15550101"
        d.do("open_app", app_name="Files")
        d.tap(rid="root_sdcard")
        d.tap(text="Download")
        _hold(d, text="wifi.txt")
        d.tap(rid="action_share")
        d.tap(rid="resolver_item_title", text="Markor")
        assert d.has(rid="new_file_dialog__name", text="wifi.txt")
        d.tap(text="OK")
        assert d.get("file", path="Documents/Markor/wifi.txt") == "guest / hunter2"


def test_date_picker_header_opens_the_years_and_the_event_moves_a_year_on() -> None:
    cond = [{"id": "e", "device": "android_0", "check": "event_exists",
             "args": {"title": "Review", "start": "2027-03-09T10:00"}}]  # fmt: skip
    with _env([], cond) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Calendar")
        d.tap(rid="calendar_fab")
        d.type("Review", rid="event_title")
        d.tap(rid="event_start_date")
        d.tap(rid="date_picker_header_date")
        d.tap(rid="year_item", text="2027")
        assert d.has(text="March 2027")
        d.tap(desc="9 March 2027")
        d.tap(text="OK")
        d.tap(rid="event_start_time")
        d.type("10", clear=True, rid="hour")
        d.type("00", clear=True, rid="minute")
        d.tap(rid="am_label")
        d.tap(text="OK")
        d.tap(rid="save")
        assert env.evaluate().success


def _inked(env: CrossDeviceEnv, d: Driver) -> list[str]:
    """Labelled elements whose box in the screenshot has no ink (what the list says, the image shows)."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(env.screenshots()["android_0"])).convert("L")
    blank = []
    for el in d.elements():
        if not (el["text"] or el["content_description"]):
            continue
        b = el["bbox_pixels"]
        lo, hi = img.crop((b["x_min"], b["y_min"], b["x_max"], b["y_max"])).getextrema()
        if int(hi) - int(lo) <= 40:  # type: ignore[arg-type]
            blank.append(str(el["text"] or el["content_description"]))
    return blank


def test_the_new_screens_and_dialogs_are_drawn_in_the_screenshot() -> None:
    setup: list[tuple[str, object]] = [
        ("add_event", {"title": "Dentist", "start": "2026-05-20T10:00:00", "location": "Main St"}),
        ("add_note", {"name": "packing.md", "text": "passport"}),
        ("set_permission", {"app": "Contacts"}),
    ]
    with _env(setup) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Calendar")
        assert _inked(env, d) == []
        d.tap(rid="agenda_view")
        assert _inked(env, d) == []
        d.do("open_app", app_name="Markor")
        _hold(d, text="packing.md")
        d.tap(rid="action_share")
        assert _inked(env, d) == []  # the share sheet
        d.do("open_app", app_name="Contacts")
        assert _inked(env, d) == []  # the permission prompt
