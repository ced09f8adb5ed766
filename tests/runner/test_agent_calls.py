"""An agent cannot stall or flood a run: deadlines while it thinks, its exits are its own
errors, model time is not the environment's, and its notes are cut in the log (#35, #36)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from devicesworld.runner.agentcall import AgentCrash, AgentThread, AgentTimeout
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from tests.toykind import toy_task

HELPERS = "tests.runner.scale_helpers"


def _toy(task_id: str, max_seconds: float | None = 600.0) -> Task:
    doc = toy_task(id=task_id)
    doc["limits"] = {**doc.get("limits", {}), "max_seconds": max_seconds}
    return Task.model_validate(doc)


def test_a_hung_agent_ends_as_time_limit_within_the_tasks_max_seconds(tmp_path: Path) -> None:
    config = RunConfig(agent=f"{HELPERS}:HangingAgent", source="t", max_consecutive_errors=0)
    t0 = time.monotonic()
    outcome = execute_run([_toy("hang-0", max_seconds=2.0), _toy("ok-1")], config, tmp_path / "run")
    assert time.monotonic() - t0 < 300  # the agent sleeps 600 s: it was not waited for
    by_id = {r.task_id: r for r in outcome.results}
    assert by_id["hang-0"].termination == "time_limit" and by_id["hang-0"].valid
    assert by_id["ok-1"].success  # the run went on
    last = (tmp_path / "run" / "episodes" / "hang-0" / "steps.jsonl").read_text().splitlines()[-1]
    assert "max_seconds" in json.loads(last)["time_limit"]
    assert json.loads((tmp_path / "run" / "run.json").read_text())["status"] == "complete"


def test_the_agent_call_timeout_applies_without_a_task_limit(tmp_path: Path) -> None:
    config = RunConfig(agent=f"{HELPERS}:HangingAgent", source="t", agent_call_timeout=1.0)
    outcome = execute_run([_toy("hang-0", max_seconds=None)], config, tmp_path / "run")
    [result] = outcome.results
    assert result.termination == "time_limit"
    last = (tmp_path / "run" / "episodes" / "hang-0" / "steps.jsonl").read_text().splitlines()[-1]
    assert "did not return within 1 s" in json.loads(last)["time_limit"]


@pytest.mark.parametrize("workers", [1, 2])
def test_an_agents_sys_exit_is_that_episodes_agent_error(tmp_path: Path, workers: int) -> None:
    config = RunConfig(agent=f"{HELPERS}:ExitingAgent", source="t", workers=workers, max_consecutive_errors=0)
    outcome = execute_run([_toy("exit-0"), _toy("ok-1")], config, tmp_path / "run")
    by_id = {r.task_id: r for r in outcome.results}
    assert by_id["exit-0"].termination == "error" and by_id["exit-0"].valid
    assert by_id["exit-0"].error == "agent error: AgentCrash: SystemExit(4)"
    assert by_id["ok-1"].success and outcome.retries == 0
    lines = (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 2


def test_model_time_does_not_use_up_the_tasks_max_seconds(tmp_path: Path) -> None:
    # 3 steps x 1.5 s of model time = 4.5 s against a 2 s budget: only the environment's time counts
    config = RunConfig(agent=f"{HELPERS}:SlowModelAgent", source="t")
    outcome = execute_run([_toy("slow-0", max_seconds=2.0)], config, tmp_path / "run")
    [result] = outcome.results
    assert result.success and result.termination == "finished"
    assert result.model_latency_s is not None and result.model_latency_s >= 4.5
    assert result.limit_time_s is not None and result.limit_time_s < result.duration_s - 4.0
    assert result.env_time_s is not None and result.env_time_s < result.duration_s
    steps = [json.loads(line) for line in (tmp_path / "run" / "episodes" / "slow-0" / "steps.jsonl").open()]
    assert all(s["model_latency_s"] >= 1.5 for s in steps)


def test_agent_notes_are_cut_in_the_log_saying_how_much(tmp_path: Path) -> None:
    config = RunConfig(agent=f"{HELPERS}:VerboseAgent", source="t")
    outcome = execute_run([_toy("verbose-0")], config, tmp_path / "run")
    assert outcome.results[0].success
    lines = (tmp_path / "run" / "episodes" / "verbose-0" / "steps.jsonl").read_text().splitlines()
    assert all(len(line) < 200_000 for line in lines)
    notes = json.loads(lines[0])["agent_notes"]
    assert notes["thoughts"].endswith(f"[cut: {200_000 - 65_536} chars]")
    assert notes["calls"][0]["reply"].endswith(f"[cut: {70_000 - 65_536} chars]")


def test_the_agent_thread_passes_values_errors_and_exits_back() -> None:
    caller = AgentThread(call_timeout=30)
    assert caller.call(lambda: 42) == (42, 0.0)
    with pytest.raises(ValueError, match="bad"):
        caller.call(_raise(ValueError("bad")))
    with pytest.raises(AgentCrash, match=r"SystemExit\(2\)"):
        caller.call(_raise(SystemExit(2)))
    with pytest.raises(AgentCrash, match="KeyboardInterrupt"):
        caller.call(_raise(KeyboardInterrupt()))
    with pytest.raises(AgentTimeout, match="max_seconds"):
        caller.call(lambda: time.sleep(30), budget=0.2)
    with pytest.raises(AgentTimeout, match="never returned"):
        caller.call(lambda: 1)  # an abandoned thread is not used again
    caller.close()


def _raise(exc: BaseException) -> Any:
    def fn() -> None:
        raise exc

    return fn
