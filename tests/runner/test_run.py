from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devicesworld.runner.resultsfile import append_result, repair_and_read
from devicesworld.runner.run import RunConfig, RunError, execute_run
from devicesworld.spec import Task
from devicesworld.spec.records import EpisodeResult
from tests.toykind import toy_task

ROOT = Path(__file__).resolve().parents[2]
"""The repository root: on ``PYTHONPATH`` a child process imports the ``tests`` package."""


def _tasks(n: int) -> list[Task]:
    return [Task.model_validate(toy_task(id=f"toy-{i}")) for i in range(n)]


def test_run_directory_layout_and_result_fields(tmp_path: Path) -> None:
    out = tmp_path / "run"
    outcome = execute_run(_tasks(3), RunConfig(agent="oracle", source="test"), out)
    assert len(outcome.results) == 3 and all(r.success for r in outcome.results)
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "complete" and manifest["config"]["agent"] == "oracle"
    assert "devicesworld_version" in manifest and "started_at" in manifest and "ended_at" in manifest
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    for key in (
        "task_id",
        "success",
        "score",
        "steps",
        "duration_s",
        "termination",
        "tokens_in",
        "tokens_out",
    ):
        assert key in line
    assert line["conditions"][0].keys() >= {"id", "device", "passed", "detail"}
    assert line["termination"] == "finished" and line["steps"] == 3
    steps = [json.loads(s) for s in (out / "episodes" / "toy-0" / "steps.jsonl").read_text().splitlines()]
    assert [s["action"]["action"] for s in steps] == ["press", "press", "finish"]
    assert steps[0]["virtual_time"] == "2026-03-02T09:00:00"


def test_existing_run_is_not_overwritten(tmp_path: Path) -> None:
    execute_run(_tasks(1), RunConfig(agent="noop", source="test"), tmp_path)
    with pytest.raises(RunError, match="--resume"):
        execute_run(_tasks(1), RunConfig(agent="noop", source="test"), tmp_path)


def test_resume_skips_finished_and_repairs_torn_line(tmp_path: Path) -> None:
    execute_run(_tasks(2), RunConfig(agent="oracle", source="test"), tmp_path)
    with (tmp_path / "results.jsonl").open("a") as fh:
        fh.write('{"task_id": "toy-2", "succ')
    outcome = execute_run(_tasks(4), RunConfig(agent="oracle", source="test", resume=True), tmp_path)
    assert outcome.skipped == 2
    assert any("unfinished last line" in w for w in outcome.warnings)
    results, warnings = repair_and_read(tmp_path / "results.jsonl")
    assert [r.task_id for r in results] == ["toy-0", "toy-1", "toy-2", "toy-3"]
    assert warnings == []


def test_parallel_workers_give_the_same_results(tmp_path: Path) -> None:
    serial = execute_run(_tasks(4), RunConfig(agent="oracle", source="t"), tmp_path / "a")
    parallel = execute_run(_tasks(4), RunConfig(agent="oracle", source="t", workers=2), tmp_path / "b")
    key = lambda r: (r.task_id, r.success, r.score, r.steps)  # noqa: E731
    assert sorted(map(key, serial.results)) == sorted(map(key, parallel.results))


def test_agent_crash_ends_only_its_episode(tmp_path: Path) -> None:
    outcome = execute_run(_tasks(2), RunConfig(agent="tests.toykind:CrashingAgent", source="t"), tmp_path)
    assert [r.termination for r in outcome.results] == ["error", "error"]
    assert all("agent error: ValueError: bad model" in (r.error or "") for r in outcome.results)


def test_append_result_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    r = EpisodeResult(task_id="x", success=True, score=1, steps=1, duration_s=0.1, termination="finished")
    append_result(path, r)
    append_result(path, r)
    assert len(path.read_text().splitlines()) == 2


def test_kill_9_then_resume_completes_without_repeats(tmp_path: Path) -> None:
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(
        "".join(json.dumps(toy_task(id=f"slow-{i}", limits={"max_steps": 4})) + "\n" for i in range(8))
    )
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DEVICESWORLD_PLUGINS": "tests.toykind"}
    cmd = [
        sys.executable,
        "-m",
        "devicesworld",
        "run",
        "--tasks",
        str(tasks_file),
        "--agent",
        "tests.toykind:SlowAgent",
        "--out",
        str(out),
    ]
    log = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 180  # generous: a loaded machine only makes this slower
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 2):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, (tmp_path / "stderr.txt").read_text()
    before = results.read_text().splitlines()
    assert 2 <= len(before) < 8, "the run should have been killed part-way"
    done = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    after = [json.loads(line)["task_id"] for line in results.read_text().splitlines()]
    assert sorted(after) == [f"slow-{i}" for i in range(8)]
    assert len(after) == len(set(after))
    assert results.read_text().splitlines()[: len(before)] == before


def test_screenshots_are_saved_per_step_when_asked(tmp_path: Path) -> None:
    execute_run(_tasks(1), RunConfig(agent="oracle", source="t", screenshots=True), tmp_path)
    ep = tmp_path / "episodes" / "toy-0"
    steps = [json.loads(s) for s in (ep / "steps.jsonl").read_text().splitlines()]
    assert [s["screenshots"] for s in steps] == [[f"step{i:03d}_toy_0.png"] for i in (1, 2, 3)]
    assert (ep / "step002_toy_0.png").read_bytes() == b"\x89PNG toy 3"
    execute_run(_tasks(1), RunConfig(agent="oracle", source="t"), tmp_path / "plain")
    assert not list((tmp_path / "plain" / "episodes" / "toy-0").glob("*.png"))


def test_results_that_arrive_together_are_appended_whole_in_order(tmp_path: Path) -> None:
    from devicesworld.runner.resultsfile import append_results

    path = tmp_path / "r.jsonl"

    def make(i: int) -> EpisodeResult:
        return EpisodeResult(
            task_id=f"x{i}", success=True, score=1, steps=1, duration_s=0.1, termination="finished"
        )

    append_results(path, [make(0), make(1)])
    append_results(path, [make(2)])
    results, warnings = repair_and_read(path)
    assert [r.task_id for r in results] == ["x0", "x1", "x2"] and warnings == []


def test_an_episode_whose_device_dies_mid_run_is_invalid_not_a_failure(tmp_path: Path) -> None:
    dies = toy_task(id="toy-dies", devices=[{"id": "toy_0", "kind": "toy", "profile": {"dies_at_action": 2}}])
    tasks = [Task.model_validate(dies), *_tasks(2)]
    outcome = execute_run(tasks, RunConfig(agent="oracle", source="t"), tmp_path)
    by_id = {r.task_id: r for r in outcome.results}
    dead = by_id["toy-dies"]
    assert not dead.valid and not dead.success
    assert dead.invalid_cause is not None and dead.invalid_cause.startswith(
        "device_failed: toy_0: DEVICE_FAILED"
    )
    assert all(by_id[f"toy-{i}"].valid and by_id[f"toy-{i}"].success for i in range(2))
    steps = [
        json.loads(s) for s in (tmp_path / "episodes" / "toy-dies" / "steps.jsonl").read_text().splitlines()
    ]
    assert steps[1]["error_code"] == "DEVICE_FAILED"

    from devicesworld.analysis.metrics import compute_metrics, invalid_line

    metrics = compute_metrics(outcome.results)
    assert metrics.success_rate == 1.0 and metrics.n == 2  # excluded from success, not a failure
    assert metrics.n_invalid == 1 and metrics.invalid_by_cause == {"device_failed": 1}
    assert invalid_line(outcome.results).startswith("Invalid episodes: 1/3 (33.3%): device_failed 1")


def test_retry_errors_reruns_invalid_episodes(tmp_path: Path) -> None:
    tasks = _tasks(2)
    execute_run(tasks, RunConfig(agent="oracle", source="t"), tmp_path)
    path = tmp_path / "results.jsonl"
    lines = [json.loads(s) for s in path.read_text().splitlines()]
    lines[0].update(valid=False, invalid_cause="setup_failed", success=False, score=0.0)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    outcome = execute_run(
        tasks, RunConfig(agent="oracle", source="t", resume=True, retry_errors=True), tmp_path
    )
    assert outcome.retried_errors == 1
    assert all(r.valid and r.success for r in outcome.results) and len(outcome.results) == 2


def test_sigterm_ends_the_run_as_interrupted_and_resumable(tmp_path: Path) -> None:
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(
        "".join(json.dumps(toy_task(id=f"slow-{i}", limits={"max_steps": 6})) + "\n" for i in range(8))
    )
    out = tmp_path / "run"
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT)])  # this checkout's code, not an installed one
    env = {**os.environ, "PYTHONPATH": path, "DEVICESWORLD_PLUGINS": "tests.toykind"}
    cmd = [sys.executable, "-m", "devicesworld", "run", "--tasks", str(tasks_file)]
    cmd += ["--agent", "tests.toykind:SlowAgent", "--out", str(out)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=(tmp_path / "err.txt").open("w"))
    results = out / "results.jsonl"
    deadline = time.monotonic() + 180  # generous: a loaded machine only makes this slower
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 2):
        time.sleep(0.02)
    time.sleep(0.1)  # an episode is in flight (each takes six steps of 50 ms)
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=120) == 130, (tmp_path / "err.txt").read_text()
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "interrupted"
    done_ids = {json.loads(line)["task_id"] for line in results.read_text().splitlines()}
    assert 2 <= len(done_ids) < 8
    cut = manifest["attempts"][-1]["interrupted_episodes"]
    assert len(cut) == 1 and cut[0] not in done_ids
    resumed = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    after = [json.loads(line)["task_id"] for line in results.read_text().splitlines()]
    assert sorted(after) == [f"slow-{i}" for i in range(8)] and len(after) == len(set(after))
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_the_sets_protocol_budget_is_applied_by_the_runner_and_recorded(tmp_path: Path) -> None:
    tasks = [Task.model_validate(toy_task(id=f"toy-{i}", limits={"max_steps": 3})) for i in range(2)]
    protocol = {"name": "paper", "max_steps": 5, "wall_limit": "env"}
    config = RunConfig(agent="tests.toykind:SlowAgent", source="t", selection={"protocol": protocol})
    outcome = execute_run(tasks, config, tmp_path)
    assert [r.steps for r in outcome.results] == [5, 5]
    assert all(r.termination == "budget_exhausted" for r in outcome.results)
    lines = [json.loads(s) for s in (tmp_path / "results.jsonl").read_text().splitlines()]
    from devicesworld.tasks.manifest import task_hash

    assert lines[0]["task_hash"] == task_hash(tasks[0])  # the shipped task's hash, not the budgeted one
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["config"]["selection"]["protocol"]["max_steps"] == 5
    assert manifest["time"]["episodes"] == 2 and manifest["time"]["env_time_s"] >= 0
    assert manifest["time"]["model_latency_s"] == 0


def test_a_test_run_records_the_papers_protocol() -> None:
    from devicesworld.runner.selection import make_selection

    selection = make_selection(suite="test", tasks_path=None, agent="noop")
    assert selection["protocol"]["max_steps"] == 50 and selection["protocol"]["name"] == "paper"
    assert make_selection(suite="smoke", tasks_path=None, agent="noop")["protocol"] is None
