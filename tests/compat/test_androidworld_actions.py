"""AndroidWorld's actions through the compat layer, with AndroidWorld's semantics.

One test per documented mismatch: Enter after typing (and in the Messages "To"
field), infeasible reasons, AndroidWorld's app names, wait in virtual time, swipe and
scroll directions and distance, non-ASCII text, the answer channel; plus step
counting and recording.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from devicesworld.compat.androidworld import ACTION_TYPES, AndroidWorldEnv, InvalidAction
from devicesworld.compat.androidworld.apps import ALIASES
from devicesworld.compat.session import SessionError
from devicesworld.spec.models import Limits, Task
from devicesworld.spec.records import StepRecord
from tests.devices.android.android_helpers import phone_task
from tests.toykind import toy_task

ANN = ("add_contact", {"name": "Ann Lee", "phone": "+15550101"})
SMS = "com.simplemobiletools.smsmessenger"


def _env(setup: list[tuple[str, dict[str, Any]]] | None = None, conditions: list[dict[str, Any]] | None = None,
         run_dir: Path | None = None) -> AndroidWorldEnv:  # fmt: skip
    env = AndroidWorldEnv(phone_task(setup or [ANN], conditions), run_dir, pixels=False)
    env.reset()
    return env


def _find(env: AndroidWorldEnv, *, rid: str | None = None, text: str | None = None) -> int:
    for i, el in enumerate(env.get_state().ui_elements):
        if rid is not None and (el.resource_name or "").endswith("/" + rid):
            return i
        if text is not None and el.text == text:
            return i
    raise AssertionError(f"no element {rid or text!r} on screen")


def _act(env: AndroidWorldEnv, **action: Any) -> None:
    env.execute_action(action)


def _new_chat(env: AndroidWorldEnv) -> None:
    _act(env, action_type="open_app", app_name="Simple SMS Messenger")
    _act(env, action_type="click", index=_find(env, rid="conversations_fab"))


def test_the_fourteen_action_types_are_androidworlds() -> None:
    assert set(ACTION_TYPES) == {
        "click", "double_tap", "long_press", "input_text", "keyboard_enter", "navigate_home",
        "navigate_back", "scroll", "swipe", "open_app", "wait", "status", "answer", "unknown",
    }  # fmt: skip


def test_input_text_taps_types_and_presses_enter_and_enter_in_the_to_field_opens_no_thread() -> None:
    env = _env()
    _new_chat(env)
    _act(env, action_type="input_text", index=_find(env, rid="new_conversation_address"), text="Ann")
    assert env.last_result is not None and env.last_result.ok
    assert "pressed Enter" in env.last_result.message
    # as in Simple SMS Messenger: Enter closes the keyboard, the chat is not started to "Ann"
    assert env.foreground_activity_name == f"{SMS}/.new"
    state = env.get_state()
    assert state.auxiliaries["keyboard_visible"] is False
    assert any(el.text == "Ann Lee" for el in state.ui_elements)
    _act(env, action_type="keyboard_enter")
    assert env.foreground_activity_name == f"{SMS}/.new"
    assert not env.session.env.getter_for("android_0")("threads", {})
    env.close()


def test_a_message_typed_with_androidworlds_enter_is_sent_without_a_trailing_newline() -> None:
    cond = [
        {
            "id": "sent",
            "device": "android_0",
            "check": "sms_sent",
            "args": {"to": "+15550101", "body": "On my way"},
        }
    ]
    env = _env(conditions=cond)
    _new_chat(env)
    _act(env, action_type="input_text", index=_find(env, rid="new_conversation_address"), text="Ann")
    _act(env, action_type="click", index=_find(env, text="Ann Lee"))
    _act(env, action_type="input_text", index=_find(env, rid="thread_type_message"), text="On my way")
    _act(env, action_type="click", index=_find(env, rid="thread_send_message"))
    _act(env, action_type="status", goal_status="complete")
    result = env.close()
    assert result.success, result.conditions
    assert result.termination == "finished" and result.steps == 7


def test_non_ascii_text_is_typed_as_given() -> None:
    env = _env()
    _new_chat(env)
    _act(env, action_type="input_text", index=_find(env, rid="new_conversation_address"), text="Zoë 你好")
    field = env.get_state().ui_elements[_find(env, rid="new_conversation_address")]
    assert field.text == "Zoë 你好"
    _act(
        env,
        action_type="input_text",
        index=_find(env, rid="new_conversation_address"),
        text="Ana",
        clear_text=True,
    )
    assert env.get_state().ui_elements[_find(env, rid="new_conversation_address")].text == "Ana"
    env.close()


@pytest.mark.parametrize(("name", "package"), ALIASES)
def test_androidworld_app_names_open_our_apps(name: str, package: str) -> None:
    env = _env()
    _act(env, action_type="open_app", app_name=name.title())
    assert env.last_result is not None and env.last_result.ok, env.last_result
    assert env.foreground_activity_name.startswith(package + "/")
    env.close()


def test_our_own_app_labels_still_open_and_unknown_names_fail_clearly() -> None:
    env = _env()
    _act(env, action_type="open_app", app_name="Messages")
    assert env.foreground_activity_name.startswith(SMS)
    _act(env, action_type="open_app", app_name="Joplin")
    assert env.last_result is not None and not env.last_result.ok
    assert "no app named 'Joplin'" in env.last_result.message
    env.close()


def test_wait_is_one_second_of_virtual_time_without_sleeping() -> None:
    env = _env()
    clock = env.session.env.clock
    before = clock.now
    t0 = time.monotonic()
    for _ in range(30):
        _act(env, action_type="wait")
    assert clock.now - before == timedelta(seconds=30)
    assert time.monotonic() - t0 < 25  # thirty real seconds would be AndroidWorld's sleep
    assert env.session.steps == 30
    env.close()


def test_swipe_down_and_up_start_at_the_edges_as_in_androidworld() -> None:
    env = _env()
    _act(env, action_type="open_app", app_name="Contacts")
    _act(env, action_type="swipe", direction="down")
    assert env.foreground_activity_name == "com.android.systemui/.shade"
    _act(env, action_type="navigate_back")
    _act(env, action_type="swipe", direction="up")
    assert "launcher" in env.foreground_activity_name
    env.close()


def test_swipe_left_and_right_move_the_finger_the_other_way() -> None:
    env = _env()
    _act(env, action_type="open_app", app_name="Simple Calendar Pro")

    def month() -> str:
        return str(env.get_state().ui_elements[_find(env, rid="top_value")].text)

    start = month()
    _act(env, action_type="swipe", direction="left")  # finger moves right: the previous month
    previous = month()
    _act(env, action_type="swipe", direction="right")
    _act(env, action_type="swipe", direction="right")  # finger moves left: the next month
    following = month()
    assert len({start, previous, following}) == 3
    _act(env, action_type="scroll", direction="left")  # scroll shares the left/right meaning
    assert month() == start
    env.close()


def test_scroll_down_reveals_what_is_below_by_half_a_page() -> None:
    people = [("add_contact", {"name": f"Person {i:02d}", "phone": f"+1555{i:07d}"}) for i in range(40)]
    env = _env(people)
    _act(env, action_type="open_app", app_name="Contacts")

    def names() -> list[str]:
        return [el.text for el in env.get_state().ui_elements if el.text and el.text.startswith("Person ")]

    first = names()
    page = len(first)
    assert page >= 4
    lst = next(i for i, el in enumerate(env.get_state().ui_elements) if el.is_scrollable)
    _act(env, action_type="scroll", direction="down", index=lst)
    after = names()
    moved = first.index(after[0])
    assert 0 < moved < page - 1  # half a page, less than our native page
    assert abs(moved - (page - 1) / 2) <= 1
    _act(env, action_type="scroll", direction="up")
    assert names() == first
    env.close()


def test_answer_is_stored_for_checks_and_for_the_agent() -> None:
    cond = [
        {"id": "a", "device": "env", "check": "answer_contains", "args": {"values": ["ann lee", "07:20"]}}
    ]
    env = _env(conditions=cond)
    _act(env, action_type="answer", text="The alarm is 7:20 AM, set by Ann Lee")
    assert env.interaction_cache == "The alarm is 7:20 AM, set by Ann Lee"
    assert not env.done
    _act(env, action_type="status", goal_status="complete")
    result = env.close()
    assert result.success, result.conditions
    assert result.steps == 2


def test_a_wrong_answer_fails_the_check() -> None:
    cond = [{"id": "a", "device": "env", "check": "answer_contains", "args": {"values": ["07:20"]}}]
    env = _env(conditions=cond)
    _act(env, action_type="answer", text="It is at 7:20 PM")
    _act(env, action_type="status", goal_status="complete")
    result = env.close()
    assert not result.success and "missing" in result.conditions[0].detail


@pytest.mark.parametrize(
    ("actions", "passes"),
    [
        ([{"action_type": "answer", "text": "There is no contact named Zelda."}], True),
        ([], False),  # a bare infeasible carries the default reason: keywords cannot match
    ],
)
def test_infeasible_carries_the_last_answer_as_its_reason(
    actions: list[dict[str, Any]], passes: bool
) -> None:
    cond = [{"id": "r", "device": "env", "check": "infeasible_reported", "args": {"keywords": ["zelda"]}}]
    env = _env(conditions=cond)
    for action in actions:
        env.execute_action(action)
    _act(env, action_type="status", goal_status="infeasible")
    assert env.done
    reason = env.session.env.infeasible_reason
    result = env.close()
    assert result.termination == "infeasible_reported"
    assert result.success is passes
    assert reason and ("Zelda" in reason if passes else "without giving a reason" in reason)


def test_an_infeasible_status_with_text_uses_it_as_the_reason() -> None:
    cond = [{"id": "r", "device": "env", "check": "infeasible_reported", "args": {"keywords": ["zelda"]}}]
    env = _env(conditions=cond)
    _act(env, action_type="status", goal_status="infeasible", text="Zelda is not in the contacts")
    assert env.close().success


def test_unknown_and_impossible_actions_cost_a_step_and_change_nothing() -> None:
    env = _env()
    before = env.get_state().ui_elements
    for action, says in (
        ({"action_type": "unknown"}, "executes nothing"),
        ({"action_type": "click", "index": 999}, "invalid element index 999"),
        ({"action_type": "input_text", "index": 0}, "without text"),
        ({"action_type": "scroll"}, "needs a direction"),
        ({"action_type": "open_app"}, "needs an app_name"),
    ):
        env.execute_action(action)
        assert env.last_result is not None and not env.last_result.ok
        assert says in env.last_result.message
    assert env.session.steps == 5
    assert env.get_state().ui_elements == before
    env.close()


def test_malformed_actions_raise_a_clear_error_and_cost_nothing() -> None:
    env = _env()
    with pytest.raises(InvalidAction, match="action_type"):
        env.execute_action({"action_type": "fly"})
    with pytest.raises(InvalidAction, match="either an index or"):
        env.execute_action({"action_type": "click", "index": 1, "x": 3, "y": 4})
    with pytest.raises(InvalidAction, match="keycode"):
        env.execute_action({"action_type": "keyboard_enter", "keycode": "ENTER"})
    with pytest.raises(InvalidAction, match="JSONAction"):
        env.execute_action("click 3")
    assert env.session.steps == 0
    env.close()


@dataclass
class JSONActionLike:
    """An object with JSONAction's attributes, as AndroidWorld's agents build them."""

    action_type: str | None = None
    index: str | int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    goal_status: str | None = None
    app_name: str | None = None
    keycode: str | None = None
    clear_text: bool | None = None


def test_jsonaction_objects_are_accepted_and_every_step_is_recorded(tmp_path: Path) -> None:
    env = _env(run_dir=tmp_path)
    env.execute_action(JSONActionLike(action_type="open_app", app_name="Contacts"))
    env.execute_action(JSONActionLike(action_type="click", index="0"))  # AndroidWorld allows "0"
    env.execute_action(JSONActionLike(action_type="unknown"))
    env.execute_action(JSONActionLike(action_type="status", goal_status="complete"))
    result = env.close()
    assert result.steps == 4 and result.agent == "androidworld"
    lines = (tmp_path / "episodes" / "t-android" / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    records = [StepRecord.model_validate_json(line) for line in lines]
    assert [r.step for r in records] == [1, 2, 3, 4]
    assert [r.agent_notes["androidworld"]["action_type"] for r in records] == [
        "open_app", "click", "unknown", "status",
    ]  # fmt: skip
    assert records[0].action == {
        "device": "android_0",
        "action": "open_app",
        "args": {"app_name": "com.google.android.contacts"},
    }
    assert records[2].error_code == "UNKNOWN_ACTION" and records[3].action["action"] == "finish"
    assert records[2].action == {"device": "android_0", "action": "unknown", "args": {}}
    results = [
        json.loads(line) for line in (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [r["task_id"] for r in results] == ["t-android"]


def test_the_step_budget_applies_to_androidworld_actions() -> None:
    task = phone_task([ANN])
    env = AndroidWorldEnv(task.model_copy(update={"limits": Limits(max_steps=3)}), pixels=False)
    env.reset()
    for _ in range(5):
        env.execute_action({"action_type": "wait"})
    assert env.done and env.session.steps == 3
    assert env.close().termination == "budget_exhausted"


def test_using_the_environment_before_reset_or_after_close_says_so() -> None:
    env = AndroidWorldEnv(phone_task([ANN]), pixels=False)
    with pytest.raises(SessionError, match="call reset"):
        env.get_state()
    env.reset()
    env.close()
    with pytest.raises(SessionError, match="closed"):
        env.execute_action({"action_type": "navigate_home"})


def test_input_text_aimed_at_something_else_taps_it_first_as_androidworld_does() -> None:
    env = _env()
    _new_chat(env)
    field = _find(env, rid="new_conversation_address")
    _act(env, action_type="click", index=field)
    # a label: the tap does nothing, the text goes to the focused field
    label = next(i for i, el in enumerate(env.get_state().ui_elements) if el.text == "To")
    _act(env, action_type="input_text", index=label, text="Ann")
    assert env.last_result is not None and env.last_result.ok
    assert env.get_state().ui_elements[_find(env, rid="new_conversation_address")].text == "Ann"
    # a contact row: the tap opens the chat, where no field has focus, so nothing is typed
    _act(env, action_type="input_text", index=_find(env, text="Ann Lee"), text="hello")
    assert env.foreground_activity_name == f"{SMS}/.thread"
    assert env.last_result is not None and env.last_result.error_code == "NO_FOCUS"
    env.close()


def test_the_phone_is_chosen_by_device_id_and_bad_choices_say_why() -> None:
    task = phone_task([ANN], devices=2)
    env = AndroidWorldEnv(task, pixels=False, device="android_1")
    env.reset()
    env.execute_action({"action_type": "open_app", "app_name": "Contacts"})
    obs = env.session.observe()
    assert obs["android_1"]["foreground_app"] == "com.google.android.contacts"
    assert obs["android_0"]["foreground_app"] != "com.google.android.contacts"
    assert env.session.steps == 1
    env.close()
    with pytest.raises(ValueError, match="its phones are android_0, android_1"):
        AndroidWorldEnv(task, device="android_7")
    with pytest.raises(ValueError, match="no android device"):
        AndroidWorldEnv(Task.model_validate(toy_task()))
