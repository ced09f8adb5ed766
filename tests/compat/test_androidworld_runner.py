"""AndroidWorld's episode loop for real agents: a ``status`` is never executed, the runner recovers it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devicesworld.compat.androidworld import AndroidWorldEnv
from devicesworld.compat.androidworld.oracle import InteractionResult, M3AShapedOracle
from devicesworld.compat.androidworld.runner import final_status, run_agent
from devicesworld.spec.records import StepRecord
from devicesworld.tasks.suites import load_suite
from tests.devices.android.android_helpers import phone_task

ANN = ("add_contact", {"name": "Ann Lee", "phone": "+15550101"})
REPORTED = {"id": "r", "device": "env", "check": "infeasible_reported", "args": {"keywords": ["zelda"]}}
FINISHED = {"id": "f", "device": "env", "check": "finished", "args": {}}


@dataclass
class ScriptedAgent:
    """An AndroidWorld-shaped agent: each step is (action or None, done, data)."""

    env: AndroidWorldEnv
    script: list[tuple[dict[str, Any] | None, bool, dict[str, Any]]]
    resets: int = 0

    def reset(self, go_home: bool = False) -> None:
        self.resets += 1
        self.env.reset(go_home)

    def step(self, goal: str) -> InteractionResult:
        assert goal
        action, done, data = self.script.pop(0)
        if action is not None:
            self.env.execute_action(action)
        return InteractionResult(done, data)


def test_final_status_reads_the_models_output() -> None:
    out = 'Reason: Zelda is not in the contacts.\nAction: {"action_type": "status", "goal_status": "infeasible"}'
    assert final_status({"action_output": out}) == ("infeasible", "Zelda is not in the contacts.")
    fenced = 'Reason: done\nAction: ```json\n{"action_type": "status", "goal_status": "complete"}\n```'
    assert final_status({"action_output": fenced}) == ("complete", "done")
    m3a = {
        "action_output_json": {"action_type": "status", "goal_status": "infeasible"},
        "action_reason": "why",
    }
    assert final_status(m3a) == ("infeasible", "why")
    assert final_status({}) == ("complete", None)
    assert final_status(None) == ("complete", None)


def test_an_infeasible_status_in_the_output_is_reported_with_its_reason(tmp_path: Path) -> None:
    env = AndroidWorldEnv(phone_task([ANN], [REPORTED]), tmp_path, pixels=False)
    out = 'Reason: There is no contact named Zelda Quinn.\nAction: {"action_type": "status", "goal_status": "infeasible"}'
    agent = ScriptedAgent(
        env,
        [
            ({"action_type": "open_app", "app_name": "Contacts"}, False, {}),
            (None, True, {"action_output": out}),
        ],
    )
    result = run_agent(agent, env)
    assert agent.resets == 1
    assert result.success and result.termination == "infeasible_reported" and result.steps == 2


def test_done_without_a_status_is_completion_and_empty_steps_count(tmp_path: Path) -> None:
    env = AndroidWorldEnv(phone_task([ANN], [FINISHED]), tmp_path, pixels=False)
    agent = ScriptedAgent(
        env, [(None, False, {"action_output": "no valid index"}), ({"action_type": "wait"}, True, {})]
    )
    result = run_agent(agent, env)
    assert result.success and result.termination == "finished" and result.steps == 3
    lines = (tmp_path / "episodes" / "t-android" / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    first = StepRecord.model_validate_json(lines[0])
    assert first.error_code == "NO_ACTION" and not first.ok


def test_the_step_limit_stops_an_agent_that_never_finishes() -> None:
    env = AndroidWorldEnv(phone_task([ANN], [FINISHED]), None, pixels=False)
    agent = ScriptedAgent(env, [({"action_type": "wait"}, False, {}) for _ in range(10)])
    result = run_agent(agent, env, max_n_steps=4)
    assert result.steps == 4 and not result.success and len(agent.script) == 6


def test_an_m3a_shaped_agent_solves_the_single_phone_smoke_tasks_through_the_runner() -> None:
    tasks = [t for t in load_suite("smoke") if [d.kind for d in t.devices] == ["android"]]
    results = []
    for task in tasks:
        env = AndroidWorldEnv(task, None, pixels=False)
        agent = M3AShapedOracle(env)
        try:
            results.append(run_agent(agent, env))
        finally:
            agent.close()
    failed = [r.task_id for r in results if not r.success]
    assert len(failed) / len(results) <= 0.05, failed
    assert any(r.termination == "infeasible_reported" and r.success for r in results)
