"""The local backend with real worker processes: timeouts, retries, Ctrl+C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from tests.runner.scale_helpers import flaky_task, slow_setup_task
from tests.toykind import toy_task

ROOT = Path(__file__).resolve().parents[3]
"""The repository root: on ``PYTHONPATH`` a child process imports the ``tests`` package."""


def _toy(task_id: str, **overrides: object) -> Task:
    return Task.model_validate(toy_task(id=task_id, **overrides))


def test_a_hung_episode_is_stopped_at_the_timeout_and_not_retried(tmp_path: Path) -> None:
    tasks = [_toy("hang-0"), _toy("ok-1"), _toy("ok-2")]
    config = RunConfig(
        agent="tests.runner.scale_helpers:HangingAgent", source="t", workers=2, episode_timeout=5.0
    )
    t0 = time.monotonic()
    outcome = execute_run(tasks, config, tmp_path)
    assert time.monotonic() - t0 < 300  # the hung agent sleeps 600 s: it was stopped, not waited for
    by_id = {r.task_id: r for r in outcome.results}
    assert by_id["hang-0"].termination == "time_limit" and "episode timeout" in (by_id["hang-0"].error or "")
    assert by_id["ok-1"].success and by_id["ok-2"].success
    assert outcome.retries == 0
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["task_id"] for line in lines) == ["hang-0", "ok-1", "ok-2"]


def test_the_episode_timeout_does_not_count_a_slow_setup(tmp_path: Path) -> None:
    # setup takes longer than the whole timeout; the episode itself is quick
    tasks = [Task.model_validate(slow_setup_task("slow-0", setup_s=6.0)), _toy("hang-1")]
    config = RunConfig(
        agent="tests.runner.scale_helpers:HangingAgent", source="t", workers=2, episode_timeout=5.0
    )
    outcome = execute_run(tasks, config, tmp_path, on_result=None)
    by_id = {r.task_id: r for r in outcome.results}
    assert by_id["slow-0"].success and by_id["slow-0"].termination == "finished", by_id["slow-0"].error
    assert by_id["slow-0"].steps == 3 and by_id["slow-0"].setup_s >= 6.0
    assert by_id["hang-1"].termination == "time_limit" and outcome.retries == 0


def test_one_worker_with_a_timeout_runs_in_a_process_that_can_be_stopped(tmp_path: Path) -> None:
    config = RunConfig(agent="tests.runner.scale_helpers:HangingAgent", source="t", episode_timeout=4.0)
    outcome = execute_run([_toy("hang-0"), _toy("ok-1")], config, tmp_path)
    assert sorted((r.task_id, r.termination) for r in outcome.results) == [
        ("hang-0", "time_limit"),
        ("ok-1", "finished"),
    ]


def test_an_agent_that_ends_its_worker_process_is_that_episodes_agent_error(tmp_path: Path) -> None:
    tasks = [_toy(f"d{i}", instruction=f"Press twice. marker={tmp_path / f'm{i}'}") for i in range(3)]
    config = RunConfig(agent="tests.runner.scale_helpers:DieOnceAgent", source="t", workers=2)
    outcome = execute_run(tasks, config, tmp_path / "run")
    assert sorted(r.task_id for r in outcome.results) == ["d0", "d1", "d2"]
    for r in outcome.results:  # os._exit(3) in agent.start: the agent's failure, valid, not retried
        assert r.termination == "error" and r.valid and not r.success
        assert r.error is not None and r.error.startswith("agent error: the agent ended its worker process")
        assert "status 3" in r.error
    assert outcome.retries == 0


def test_a_dead_worker_is_replaced_and_its_episode_retried(tmp_path: Path) -> None:
    tasks = [_toy(f"d{i}", instruction=f"Press twice. marker={tmp_path / f'm{i}'}") for i in range(3)]
    config = RunConfig(agent="tests.runner.scale_helpers:DieOnceOutsideAgentCodeAgent", source="t", workers=2)
    outcome = execute_run(tasks, config, tmp_path / "run")
    assert sorted(r.task_id for r in outcome.results) == ["d0", "d1", "d2"]
    assert all(r.success for r in outcome.results), [r.error for r in outcome.results]
    assert outcome.retries == 3
    assert sum("worker died" in w for w in outcome.warnings) == 3


def test_machine_failures_in_setup_are_retried_up_to_max_attempts(tmp_path: Path) -> None:
    tasks = [
        Task.model_validate(flaky_task("once", tmp_path / "c-once", failures=1)),
        Task.model_validate(flaky_task("always", tmp_path / "c-always", failures=99)),
        _toy("fine"),
    ]
    config = RunConfig(agent="oracle", source="t", workers=2, max_attempts=3)
    outcome = execute_run(tasks, config, tmp_path / "run")
    by_id = {r.task_id: r for r in outcome.results}
    assert by_id["once"].success and by_id["fine"].success
    assert by_id["always"].termination == "error"
    assert "infrastructure failure after 3 attempt(s)" in (by_id["always"].error or "")
    assert outcome.retries == 1 + 2
    assert (tmp_path / "c-always").read_text() == "3"


def test_agent_crashes_are_never_retried(tmp_path: Path) -> None:
    config = RunConfig(agent="tests.toykind:CrashingAgent", source="t", workers=2)
    outcome = execute_run([_toy(f"c{i}") for i in range(3)], config, tmp_path)
    assert outcome.retries == 0
    assert [r.termination for r in outcome.results] == ["error"] * 3


def test_sigint_mid_run_loses_no_finished_episode_and_resume_completes(tmp_path: Path) -> None:
    N = 48  # enough episodes that a starved poller still catches the run part-way (16 did not always)
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text("".join(json.dumps(toy_task(id=f"s-{i}")) + "\n" for i in range(N)))
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env["DEVICESWORLD_PLUGINS"] = "tests.toykind"
    cmd = [sys.executable, "-m", "devicesworld", "run", "--tasks", str(tasks_file)]
    cmd += ["--agent", "tests.runner.scale_helpers:SlowScriptedAgent", "--workers", "2", "--out", str(out)]
    # a test worker may run with SIGINT ignored (pytest-xdist); the child must not inherit that
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    results = out / "results.jsonl"
    deadline = time.monotonic() + 180  # generous: a loaded machine only makes this slower
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 3):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    before = results.read_text().splitlines()
    assert 3 <= len(before) < N, "the run should have been interrupted part-way"
    finished = [json.loads(line) for line in before]  # every line is whole
    assert all(r["success"] for r in finished)
    done = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    after = [json.loads(line)["task_id"] for line in results.read_text().splitlines()]
    assert sorted(after) == sorted(f"s-{i}" for i in range(N))
    assert len(after) == len(set(after))
    assert results.read_text().splitlines()[: len(before)] == before
