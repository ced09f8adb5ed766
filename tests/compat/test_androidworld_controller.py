"""``AndroidWorldEnv.controller`` answers the adb requests AndroidWorld's agents send (dict shape)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from devicesworld.compat.androidworld import AndroidWorldEnv
from devicesworld.compat.androidworld.controller import unescape_adb_text
from devicesworld.compat.androidworld.elements import UIElement
from devicesworld.spec.records import StepRecord
from devicesworld.tasks.suites import load_suite
from tests.devices.android.android_helpers import phone_task

ANN = ("add_contact", {"name": "Ann Lee", "phone": "+15550101"})


def centre(el: UIElement) -> tuple[int, int]:
    assert el.bbox_pixels is not None
    x, y = el.bbox_pixels.center
    return int(x), int(y)


def shell(*words: str) -> dict[str, Any]:
    return {"generic": {"args": ["shell", *words]}}


def started(tmp_path: Path | None = None) -> AndroidWorldEnv:
    env = AndroidWorldEnv(phone_task([ANN]), tmp_path, pixels=False)
    env.reset()
    return env


def test_frame_boundary_orientation_and_size_queries_answer_like_adb_and_cost_nothing() -> None:
    env = started()
    width, height = env.device_screen_size
    out = env.controller.execute_adb_call(shell("dumpsys", "input", "|", "grep", "physicalFrame"))
    assert out.status == 1
    # the pattern AndroidWorld's adb_utils.get_physical_frame_boundary reads
    found = re.findall(r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]", out.generic.output.decode())
    assert found == [("0", "0", str(width), str(height))]
    logical = env.controller.execute_adb_call(shell("dumpsys", "input", "|", "grep", "logicalFrame"))
    assert re.findall(r"logicalFrame=\[0, 0, (\d+), (\d+)\]", logical.generic.output.decode()) == [
        (str(width), str(height))
    ]
    rotation = env.controller.execute_adb_call(shell("dumpsys", "window", "|", "grep", "mCurrentRotation"))
    assert re.findall(r"mCurrentRotation=ROTATION_(\d+)", rotation.generic.output.decode()) == ["0"]
    assert env.controller.execute_adb_call({"get_orientation": {}}).get_orientation.orientation == 0
    activity = env.controller.execute_adb_call({"get_current_activity": {}})
    assert activity.get_current_activity.full_activity == env.foreground_activity_name
    size = env.controller.execute_adb_call(shell("wm", "size")).generic.output.decode()
    assert size.strip() == f"Physical size: {width}x{height}"
    assert env.session.steps == 0
    env.close()


def test_adb_inputs_are_counted_steps_and_words_typed_one_by_one_are_one_step(tmp_path: Path) -> None:
    env = started(tmp_path)
    c = env.controller
    assert c.execute_adb_call(shell("monkey", "-p", "com.simplemobiletools.smsmessenger", "1")).status == 1
    assert env.foreground_activity_name.startswith("com.simplemobiletools.smsmessenger")
    assert c.execute_adb_call({"press_button": {"button": 0}}).status == 1  # HOME
    assert (
        c.execute_adb_call(
            {"start_activity": {"full_activity": "com.google.android.contacts/com.android.contacts.X"}}
        ).status
        == 1
    )
    assert env.foreground_activity_name.startswith("com.google.android.contacts")
    search = next(e for e in env.get_state().ui_elements if e.is_editable)
    x, y = centre(search)
    assert c.execute_adb_call({"tap": {"x": x, "y": y}}).status == 1
    for word in ["Ann", "%s", "L\\'ee"]:  # AndroidWorld's word-by-word typing, adb-escaped
        assert c.execute_adb_call({"input_text": {"text": word}}).status == 1
    before = env.session.steps
    assert c.execute_adb_call({"press_button": {"button": 2}}).status == 1  # ENTER sends the words
    assert env.session.steps == before + 1
    typed = last_step(tmp_path)
    assert typed.action["action"] == "input_text"
    assert typed.action["args"] == {"text": "Ann L'ee", "clear": False, "enter": True}
    assert len(typed.agent_notes["androidworld"]["adb"]) == 4
    assert env.session.steps == 5  # monkey, home, start_activity, tap, the typed words
    env.close()


def last_step(tmp_path: Path) -> StepRecord:
    lines = (tmp_path / "episodes" / "t-android" / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    return StepRecord.model_validate_json(lines[-1])


def test_swipes_keyevents_and_unknown_commands(tmp_path: Path) -> None:
    env = started(tmp_path)
    c = env.controller
    w, h = env.device_screen_size
    assert (
        c.execute_adb_call(shell("input", "swipe", str(w // 2), "0", str(w // 2), str(h), "500")).status == 1
    )
    assert env.last_result is not None and "notification shade" in env.last_result.message
    assert c.execute_adb_call(shell("input", "keyevent", "KEYCODE_BACK")).status == 1
    # a long press is a swipe that stays on one point for a second
    c.execute_adb_call(shell("input", "swipe", "10", "10", "10", "10", "1000"))
    assert last_step(tmp_path).action["action"] == "long_press"
    c.execute_adb_call(shell("input", "swipe", str(w // 2), str(h // 2), str(w // 2), str(h // 4)))
    assert last_step(tmp_path).action["args"] == {"direction": "down", "distance": 0.25}
    steps = env.session.steps
    unknown = c.execute_adb_call(shell("pm", "list", "packages"))
    assert unknown.status == 2 and "not simulated" in unknown.error_message
    assert env.session.steps == steps
    env.close()


def test_unescape_adb_text() -> None:
    assert unescape_adb_text("%s") == " "
    assert unescape_adb_text("it\\'s\\ ok\\&") == "it's ok&"


def test_a_scripted_seeact_style_agent_acting_only_through_adb_solves_a_smoke_task(tmp_path: Path) -> None:
    """SeeAct's way: every action through the controller (taps at element centres, words, Enter)."""
    task = next(t for t in load_suite("smoke") if t.id == "smoke-android-002")
    env = AndroidWorldEnv(task, tmp_path, pixels=False)
    env.reset()
    c = env.controller
    c.execute_adb_call(shell("monkey", "-p", "com.simplemobiletools.smsmessenger", "1"))

    def tap(match: str) -> None:
        el = next(e for e in env.get_state().ui_elements if match in (e.text or e.content_description or ""))
        x, y = centre(el)
        c.execute_adb_call({"tap": {"x": x, "y": y}})

    tap("Mom")
    field = next(e for e in env.get_state().ui_elements if e.is_editable)
    x, y = centre(field)
    c.execute_adb_call({"tap": {"x": x, "y": y}})
    for word in ["Got", "%s", "it,", "%s", "thanks"]:
        c.execute_adb_call({"input_text": {"text": word}})
    c.execute_adb_call({"press_button": {"button": 2}})
    send = next(
        e for e in env.get_state().ui_elements if "send" in (e.content_description or e.text or "").casefold()
    )
    x, y = centre(send)
    c.execute_adb_call({"tap": {"x": x, "y": y}})
    env.execute_action({"action_type": "status", "goal_status": "complete"})
    result = env.close()
    assert result.success, result
