"""The phone's time picker is Android's spinner TimePicker (issue #34): two wheels showing the values
around the current one, turned by a tap on a neighbouring value or a scroll or swipe on the wheel;
the minute wheel carries into the hour, the hour wheel flips AM/PM; typed digits still work; and the
index-based solutions recorded against the picker replay unchanged."""

from __future__ import annotations

from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.tasks.suites import load_suite
from tests.devices.android.android_helpers import Driver, phone_task


def _wheels(d: Driver) -> dict[str, str]:
    return {
        str(e["resource_id"]).rsplit("/", 1)[-1]: str(e.get("text"))
        for e in d.elements()
        if str(e.get("resource_id", "")).startswith("android:id/")
        and str(e["resource_id"]).rsplit("/", 1)[-1]
        in ("hour_increment", "hour", "hour_decrement", "minute_increment", "minute", "minute_decrement")
    }


def _centre(d: Driver, rid: str) -> tuple[float, float]:
    box = next(e for e in d.elements() if e.get("resource_id") == f"android:id/{rid}")["bbox"]
    return (box["y_min"] + box["y_max"]) / 2, (box["x_min"] + box["x_max"]) / 2


def _opened() -> tuple[CrossDeviceEnv, Driver]:
    env = CrossDeviceEnv(
        phone_task(
            conditions=[
                {"id": "a", "device": "android_0", "check": "alarm_exists", "args": {"hour": 19, "minute": 5}}
            ]
        )
    )
    env.reset()
    d = Driver(env)
    d.do("open_app", app_name="Clock")
    d.tap(rid="fab")
    return env, d


def test_the_wheels_show_the_neighbouring_values_and_turn_by_tap_scroll_and_swipe() -> None:
    env, d = _opened()
    try:
        assert _wheels(d) == {
            "hour_increment": "10",
            "hour": "9",
            "hour_decrement": "8",
            "minute_increment": "01",
            "minute": "00",
            "minute_decrement": "59",
        }
        d.tap(rid="hour_decrement")  # a tap on the value below turns the wheel to it
        assert _wheels(d)["hour"] == "8"
        res = d.do("scroll", direction="up", index=d.find(rid="hour"))  # a fling: two values up
        assert res.ok and "hour wheel turned to 10" in res.message
        assert d.do("scroll", direction="down", index=d.find(rid="hour"), distance=0.5).ok  # half: one
        assert _wheels(d)["hour"] == "9"
        y, x = _centre(d, "minute")
        assert d.do("gesture", touch_point=[y - 0.02, x], lift_point=[y + 0.04, x]).ok  # dragged down
        assert _wheels(d)["minute"] == "02" and _wheels(d)["minute_decrement"] == "01"
    finally:
        env.close()


def test_the_minute_wheel_carries_into_the_hour_and_the_hour_wheel_flips_am_pm() -> None:
    env, d = _opened()
    try:
        d.tap(rid="minute_decrement")  # 9:00 -> 8:59, as the real TimePicker
        assert (_wheels(d)["hour"], _wheels(d)["minute"]) == ("8", "59")
        d.tap(rid="minute_increment")  # back over the hour
        assert (_wheels(d)["hour"], _wheels(d)["minute"]) == ("9", "00")
        for _ in range(3):
            d.tap(rid="hour_increment")  # 10, 11, 12: past 11 the picker turns to PM
        pm = next(e for e in d.elements() if e.get("resource_id") == "android:id/pm_label")
        assert _wheels(d)["hour"] == "12" and pm["is_checked"] is True
    finally:
        env.close()


def test_an_alarm_set_with_the_wheels_alone() -> None:
    env, d = _opened()
    try:
        for _ in range(5):  # 9 -> 7 PM through noon: ten values up, a fling (two) at a time
            d.do("scroll", direction="up", index=d.find(rid="hour"))
        for _ in range(5):
            d.tap(rid="minute_increment")
        assert (_wheels(d)["hour"], _wheels(d)["minute"]) == ("7", "05")
        d.tap(text="OK")
        assert env.evaluate().success
    finally:
        env.close()


def test_typed_digits_still_set_the_wheels() -> None:
    env, d = _opened()
    try:
        d.type("7", clear=True, rid="hour")
        d.type("05", clear=True, rid="minute")
        d.tap(rid="pm_label")
        d.tap(text="OK")
        assert env.evaluate().success
    finally:
        env.close()


def test_recorded_index_based_solutions_through_the_picker_replay_unchanged() -> None:
    """The shipped solutions click and type by element index: the picker kept its element order."""
    tasks = {t.id: t for t in load_suite("smoke")}
    for task_id in ("smoke-android-020",):
        task = tasks[task_id]
        steps: list[Any] = [s for s in task.solution if s.action != "finish"]
        assert any(s.action == "input_text" for s in steps)
        with CrossDeviceEnv(task) as env:
            env.reset()
            for s in steps:
                assert env.step(s).result.ok, s
            assert env.evaluate().success, task_id


def test_the_clock_face_mode_picks_the_hour_then_the_minutes() -> None:
    """The toggle after OK turns the picker to Google Clock's face: tap the hour (the face then
    shows the minutes in fives), tap the minutes, AM/PM, OK; the header taps back to the hours."""
    env, d = _opened()
    try:
        d.tap(rid="toggle_mode")
        assert d.find(rid="radial_picker") >= 0 and not d.has(rid="hour_increment")
        hours = [str(e.get("text")) for e in d.elements() if e.get("class_name") == "android.widget.TextView"]
        assert {str(h) for h in range(1, 13)} <= set(hours)
        d.tap(text="7")
        minutes = {str(e.get("text")) for e in d.elements()}
        assert {"00", "05", "30", "55"} <= minutes and next(
            str(e["text"]) for e in d.elements() if e.get("resource_id") == "android:id/hours"
        ) == "7"
        d.tap(rid="hours")  # back to the hours: choose again
        d.tap(text="7", nth=1)  # the face's 7 (the header shows 7 too)
        d.tap(text="05")
        d.tap(rid="pm_label")
        d.tap(text="OK")
        assert env.evaluate().success  # 19:05
    finally:
        env.close()


def test_the_24_hour_face_has_an_inner_ring_and_the_mode_toggles_back() -> None:
    env = CrossDeviceEnv(
        phone_task(
            setup=[("set_setting", {"table": "system", "name": "time_12_24", "value": "24"})],
            conditions=[
                {"id": "a", "device": "android_0", "check": "alarm_exists", "args": {"hour": 19, "minute": 5}}
            ],
        )
    )
    env.reset()
    d = Driver(env)
    try:
        d.do("open_app", app_name="Clock")
        d.tap(rid="fab")
        d.tap(rid="toggle_mode")
        shown = {str(e.get("text")) for e in d.elements()}
        assert {"00", "13", "19", "23", "12", "1"} <= shown and not d.has(text="AM")
        d.tap(text="19")
        d.tap(rid="toggle_mode")  # back to the wheels, with what the face chose
        assert (_wheels(d)["hour"], _wheels(d)["minute"]) == ("19", "00")
        for _ in range(5):
            d.tap(rid="minute_increment")
        d.tap(text="OK")
        assert env.evaluate().success
    finally:
        env.close()
