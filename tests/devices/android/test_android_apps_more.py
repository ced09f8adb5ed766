"""Calendar with pickers, Files with the Drive, Markor, Phone and Calculator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from devicesworld.devices.android.apps.calculator import evaluate
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.verify.evaluate import ConditionResult
from tests.devices.android.android_helpers import Driver, phone_task


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


def test_create_event_with_date_and_time_pickers() -> None:
    cond = [{"id": "e", "device": "android_0", "check": "event_exists",
             "args": {"title": "Team sync", "start": "2026-03-12T14:30", "end": "2026-03-12T15:30",
                      "location": "Room 4"}}]  # fmt: skip

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Calendar")
        d.tap(rid="calendar_fab")
        d.type("Team sync", rid="event_title")
        d.tap(rid="event_start_date")
        d.tap(desc="12 March 2026")
        d.tap(text="OK")
        d.tap(rid="event_start_time")
        d.type("2", clear=True, rid="hour")
        d.type("30", clear=True, rid="minute")
        d.tap(rid="pm_label")
        d.tap(text="OK")
        d.type("Room 4", rid="event_location")
        d.tap(rid="save")

    ok, res = _run([], cond, steps)
    assert ok, res


def test_event_save_refuses_empty_title_and_month_navigation() -> None:
    with CrossDeviceEnv(
        phone_task([("add_event", {"title": "Trip", "start": "2026-04-02T08:00:00"})])
    ) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Calendar")
        assert d.has(text="March 2026")
        d.tap(rid="top_right_arrow")
        assert d.has(text="April 2026")
        d.tap(desc="2 April 2026 •")
        d.tap(text="Trip")
        d.tap(rid="edit")
        d.type("", clear=True, rid="event_title")
        d.tap(rid="save")
        assert "Title cannot be empty" in d.screen()


def test_files_rename_and_copy_to_drive() -> None:
    setup = [("add_file", {"path": "Download/report.txt", "text": "Q1 numbers"})]
    conds = [
        {"id": "r", "device": "android_0", "check": "file_exists", "args": {"path": "Download/q1.txt"}},
        {"id": "o", "device": "android_0", "check": "file_absent", "args": {"path": "Download/report.txt"}},
        {"id": "d", "device": "android_0", "check": "file_exists",
         "args": {"path": "q1.txt", "location": "drive", "equals": "Q1 numbers"}},
    ]  # fmt: skip

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Files")
        d.tap(rid="root_sdcard")
        d.tap(text="Download")
        assert d.do("long_press", index=d.find(text="report.txt")).ok
        d.tap(rid="action_rename")
        d.type("q1.txt", clear=True, rid="rename_input")
        d.tap(text="OK")
        d.do("long_press", index=d.find(text="q1.txt"))
        d.tap(rid="action_copy")
        d.do("navigate_back")
        d.do("navigate_back")
        d.tap(rid="root_drive")
        d.tap(rid="clip_paste")
        assert d.has(text="q1.txt")

    ok, res = _run(setup, conds, steps)
    assert ok, res


def test_files_delete_needs_confirmation_and_viewer_shows_text() -> None:
    setup = [("add_file", {"path": "Documents/a.txt", "text": "alpha\nbeta"})]
    cond = [{"id": "x", "device": "android_0", "check": "file_absent", "args": {"path": "Documents/a.txt"}}]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Files")
        d.tap(rid="root_sdcard")
        d.tap(text="Documents")
        d.tap(text="a.txt")
        assert d.has(text="beta")
        d.do("navigate_back")
        d.do("long_press", index=d.find(text="a.txt"))
        d.tap(rid="action_delete")
        assert d.has(text="Delete a.txt?")
        d.tap(text="Delete")

    assert _run(setup, cond, steps)[0]


def test_markor_create_edit_save_and_unsaved_prompt() -> None:
    cond = [{"id": "n", "device": "android_0", "check": "file_exists",
             "args": {"path": "Documents/Markor/groceries.md", "contains": ["eggs", "milk"]}}]  # fmt: skip

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Markor")
        d.tap(rid="fab_add_new_item")
        d.type("groceries", rid="new_file_dialog__name")
        d.tap(text="OK")
        d.type("eggs\nmilk", rid="document__fragment__edit__highlighting_editor")
        d.do("navigate_back")  # keyboard
        d.do("navigate_back")  # asks
        assert d.has(text="Save changes?")
        d.tap(text="Save")

    ok, res = _run([], cond, steps)
    assert ok, res


def test_dialer_call_and_log() -> None:
    cond = [{"id": "c", "device": "android_0", "check": "call_made", "args": {"number": "5550123"}}]

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Phone")
        for k in "5550123":
            d.tap(rid=f"key_{k}")
        d.tap(rid="dialpad_floating_action_button")
        assert "Calling" in d.screen()
        d.tap(rid="incall_end_call")

    assert _run([], cond, steps)[0]


def test_calculator_keys_and_evaluator() -> None:
    assert evaluate("12\u00d7(3\u22121)\u00f74") == 6
    cond = [{"id": "c", "device": "android_0", "check": "app_pref",
             "args": {"package": "com.google.android.calculator", "key": "last_result", "equals": "56"}}]  # fmt: skip

    def steps(d: Driver) -> None:
        d.do("open_app", app_name="Calculator")
        for key in ("digit_7", "op_mul", "digit_8", "eq"):
            d.tap(rid=key)
        assert d.has(text="56")

    assert _run([], cond, steps)[0]


def test_calendar_months_swipe_sideways() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Calendar")
        assert d.do("swipe", direction="left").ok  # finger to the left: the next month comes in
        assert d.has(text="April 2026")
        assert d.do("scroll", direction="left").ok
        assert d.has(text="March 2026")
        d.do("open_app", app_name="Settings")
        assert d.do("scroll", direction="left").error_code == "NOT_SCROLLABLE"
