"""The phone's task-file macros: named elements, profile-aware time pickers and sliders, clear errors."""

from __future__ import annotations

import re
from typing import Any

import pytest

from devicesworld import macros
from devicesworld.devices.android import KIND
from devicesworld.devices.android.macros import ELEMENTS
from devicesworld.macros import MacroContext, MacroError


def _expand(name: str, args: Any, profile: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    macro = macros.find("android", "solution", name)
    assert macro is not None, name
    return macro.fn(args, MacroContext(device="android_0", kind="android", profile=profile or {}))


def test_set_time_fills_a_12_hour_picker_and_a_24_hour_one_from_the_same_words() -> None:
    twelve = _expand("set_time", {"hour": 19, "minute": 5})
    assert [(s["action"], s["target"]["rid"], s["args"].get("text")) for s in twelve] == [
        ("input_text", "hour", "7"),
        ("input_text", "minute", "05"),
        ("click", "pm_label", None),
        ("click", "button1", None),
    ]
    assert _expand("set_time", {"hour": 0, "minute": 30})[0]["args"]["text"] == "12"
    assert _expand("set_time", {"hour": 0, "minute": 30})[2]["target"]["rid"] == "am_label"
    h24 = _expand("set_time", {"hour": 19, "minute": 5}, {"preset": "ar_tablet"})
    assert [s["args"].get("text") for s in h24] == ["19", "05", None] and h24[-1]["target"][
        "rid"
    ] == "button1"


def test_a_slider_runs_from_the_right_in_a_right_to_left_language() -> None:
    (ltr,) = _expand("slide", {"element": "brightness", "to": 0.97})
    (rtl,) = _expand("slide", {"element": "brightness", "to": 0.97}, {"language": "ar"})
    assert ltr["at_fraction"] == 0.97 and rtl["at_fraction"] == pytest.approx(0.03)
    assert ltr["target"] == {"rid": ELEMENTS["brightness"]}


def test_routines_expand_to_the_steps_an_agent_would_take() -> None:
    steps = _expand("send_sms", {"to": "Ann", "pick": "Ann Lee", "body": "hi"})
    assert [s["action"] for s in steps] == ["open_app", "click", "input_text", "click", "input_text", "click"]
    assert steps[3]["target"] == {"text": "Ann Lee"} and steps[4]["args"]["text"] == "hi"
    by_number = _expand("send_sms", {"to": "+15550100", "body": "hi"})
    assert by_number[3]["target"] == {"rid": ELEMENTS["use_typed_number"]}
    assert [s["target"]["rid"] for s in _expand("calc", "12*3=")] == [
        "digit_1",
        "digit_2",
        "op_mul",
        "digit_3",
        "eq",
    ]
    assert _expand("press", {"name": "alarm_switch", "desc": "5:45 AM"})[0]["target"] == {
        "rid": "onoff",
        "desc": "5:45 AM",
    }


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("press", "sav", "unknown phone element 'sav'"),
        ("type", {"into": "first_name"}, "type: missing text"),
        ("set_time", {"hour": 25, "minute": 0}, "hour 0-23"),
        ("calc", "2^8", "no key for '^'"),
        ("slide", {"element": "brightness", "to": 2}, "from 0 to 1"),
        ("send_sms", {"to": "Ann", "body": "x", "cc": "Bob"}, "unknown cc"),
    ],
)
def test_bad_arguments_are_a_macro_error_for_the_author(name: str, args: Any, message: str) -> None:
    with pytest.raises(MacroError, match=re.escape(message)):
        _expand(name, args)


def test_element_names_are_unique_and_no_macro_hides_an_action() -> None:
    assert len(set(ELEMENTS)) == len(ELEMENTS)
    names = {m.name for m in macros.macros_of("android")}
    assert not names & set(KIND.actions)
