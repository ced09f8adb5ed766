"""AndroidWorld's own T3A, M3A and SeeAct classes, unmodified, solve a smoke task on our phone.

AndroidWorld is not a dependency (it is not on PyPI): these tests run where it is
importable (its repository on ``PYTHONPATH`` with its requirements installed, see
docs/android.md) and skip otherwise. The agents are AndroidWorld's classes as
published; only the *model* is ours: a scripted model that answers each prompt in
the agent's own output format with the task's reference solution, resolved on the
element list the agent was shown (T3A/M3A: ``Reason: ... Action: {...}``; SeeAct:
``ELEMENT/ACTION/VALUE`` against its lettered choices). So every call the agents
make to the environment — ``get_state``, ``execute_action``, the adb queries T3A
sends ``env.controller``, SeeAct's adb taps, typing and key presses — is real.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.compat.androidworld import AndroidWorldEnv
from devicesworld.compat.androidworld.oracle import OracleAgent
from devicesworld.compat.androidworld.runner import run_agent
from devicesworld.tasks.suites import load_suite

t3a = pytest.importorskip("android_world.agents.t3a", reason="AndroidWorld is not installed")
m3a = pytest.importorskip("android_world.agents.m3a", reason="AndroidWorld is not installed")
seeact = pytest.importorskip("android_world.agents.seeact", reason="AndroidWorld is not installed")
seeact_utils = pytest.importorskip("android_world.agents.seeact_utils")

TASK = "smoke-android-002"  # open Messages, open Mom's thread, type a reply with a comma, Send


class ReferenceModel:
    """A model that answers with the next step of the task's reference solution."""

    def __init__(self, env: AndroidWorldEnv) -> None:
        self.env = env
        self.oracle = OracleAgent(env.session.task, env.device_id, answer_before_infeasible=False)
        self.queue: list[dict[str, Any]] = []
        self.calls = 0

    def next_action(self) -> dict[str, Any]:
        if not self.queue:
            planned = self.oracle.next_actions(self.env.get_state().ui_elements)
            self.queue = planned or [{"action_type": "status", "goal_status": "complete"}]
        return self.queue.pop(0)

    # T3A's LlmWrapper and M3A's MultimodalLlmWrapper
    def predict(self, prompt: str) -> tuple[str, bool, str]:
        self.calls += 1
        if "summerize the latest step" in prompt:  # (sic) both agents' summary prompts
            return "Did the next reference step.", True, "raw"
        action = self.next_action()
        reason = (
            self.oracle.reason if action.get("goal_status") == "infeasible" else "the next reference step."
        )
        out = f"Reason: {reason}\nAction: {json.dumps(action)}"
        return out, True, out

    def predict_mm(self, prompt: str, images: list[Any]) -> tuple[str, bool, str]:
        assert images and all(getattr(i, "ndim", 0) == 3 for i in images)
        return self.predict(prompt)

    # SeeAct's execute_openai_request(payload): two calls a step, generation then grounding
    def openai(self, payload: list[dict[str, Any]], *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.calls += 1
        texts = [c.get("text", "") for m in payload for c in m["content"] if isinstance(c, dict)]
        if not any("ELEMENT:" in t for t in texts):
            content = "I will do the next step of the task."
        else:
            content = self.seeact_answer()
        return {"choices": [{"message": {"content": content}}]}

    def seeact_answer(self) -> str:
        action = self.next_action()
        kind = action["action_type"]
        if kind == "status":
            return "ELEMENT: None\nACTION: TERMINATE\nVALUE: None"
        if kind == "open_app":
            return f"ELEMENT: None\nACTION: OPEN APP\nVALUE: {action['app_name']}"
        if kind in ("keyboard_enter", "navigate_home", "navigate_back"):
            return f"ELEMENT: None\nACTION: {kind.replace('_', ' ').upper()}\nVALUE: None"
        elements = self.env.get_state().ui_elements
        choices = seeact_utils.format_and_filter_elements(elements)
        target = elements[action["index"]]
        letter = next(c.abc_index for c in choices if c.ui_element == target)
        names = {"click": "CLICK", "long_press": "LONG PRESS", "input_text": "INPUT TEXT"}
        value = action.get("text", "None")
        return f"ELEMENT: {letter}\nACTION: {names[kind]}\nVALUE: {value}"


def smoke_env(tmp_path: Path) -> AndroidWorldEnv:
    task = next(t for t in load_suite("smoke") if t.id == TASK)
    return AndroidWorldEnv(task, tmp_path)


def test_t3a_unmodified_solves_a_smoke_task(tmp_path: Path) -> None:
    env = smoke_env(tmp_path)
    model = ReferenceModel(env)
    agent = t3a.T3A(env, model)
    agent.transition_pause = 0.0
    try:
        result = run_agent(agent, env)
    finally:
        model.oracle.close()
    assert result.success, result
    assert model.calls >= 7  # action + summary per executed step, one final status


def test_m3a_unmodified_solves_a_smoke_task(tmp_path: Path) -> None:
    env = smoke_env(tmp_path)
    model = ReferenceModel(env)
    agent = m3a.M3A(env, model, wait_after_action_seconds=0.0)
    agent.transition_pause = 0.0
    try:
        result = run_agent(agent, env)
    finally:
        model.oracle.close()
    assert result.success, result


def test_seeact_unmodified_solves_a_smoke_task_through_adb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = smoke_env(tmp_path)
    model = ReferenceModel(env)
    monkeypatch.setattr(seeact_utils, "execute_openai_request", model.openai)
    agent = seeact.SeeAct(env)
    agent.transition_pause = 0.0
    try:
        result = run_agent(agent, env)
    finally:
        model.oracle.close()
    assert result.success, result
    steps = (tmp_path / "episodes" / TASK / "steps.jsonl").read_text(encoding="utf-8")
    assert '"adb"' in steps  # its actions went through env.controller
