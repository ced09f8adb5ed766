"""Pre-warming: the next environment is reset ahead of time and nothing about the results changes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from devicesworld.runner.jobs import EpisodeJob, EpisodeSettings, JobOutcome, kind_modules
from devicesworld.runner.worker import EpisodeWorker
from devicesworld.spec import Task
from devicesworld.tasks.shipped import read_suite
from tests.runner.scale_helpers import flaky_task
from tests.toykind import CLOSED, toy_task


def _run_all(tasks: list[Task], tmp: Path, *, prewarm: bool, agent: str = "oracle") -> list[JobOutcome]:
    settings = EpisodeSettings(agent=agent, kind_modules=kind_modules(tasks))
    jobs = [EpisodeJob(task=t, episode_dir=str(tmp / t.id), settings=settings) for t in tasks]
    worker = EpisodeWorker(prewarm=prewarm, min_setup_s=0.0)
    outcomes = []
    for i, job in enumerate(jobs):
        upcoming = jobs[i + 1].model_dump_json() if i + 1 < len(jobs) else None
        outcomes.append(JobOutcome.model_validate_json(worker.run(job.model_dump_json(), upcoming)))
    worker.close()
    return outcomes


def _comparable(outcome: JobOutcome) -> object:
    r = outcome.result
    assert r is not None
    return (r.task_id, r.success, r.score, r.steps, r.termination, [c.model_dump() for c in r.conditions])


def test_prewarmed_smoke_results_equal_cold_ones(tmp_path: Path) -> None:
    smoke = read_suite("smoke")[
        ::4
    ]  # handwritten smoke: every family, a quarter of the suite: four passes over it
    for agent in ("oracle", "random"):
        cold = _run_all(smoke, tmp_path / f"cold-{agent}", prewarm=False, agent=agent)
        warm = _run_all(smoke, tmp_path / f"warm-{agent}", prewarm=True, agent=agent)
        assert list(map(_comparable, warm)) == list(map(_comparable, cold))
        assert [o.prewarmed for o in warm] == [False] + [True] * (len(smoke) - 1)
        assert not any(o.prewarmed for o in cold)
        for task in smoke:
            assert _trajectory(tmp_path / f"warm-{agent}" / task.id) == _trajectory(
                tmp_path / f"cold-{agent}" / task.id
            )


def _trajectory(episode_dir: Path) -> list[tuple[object, ...]]:
    """What the agent did and saw, without wall-clock latencies."""
    lines = (episode_dir / "steps.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    return [(r["action"], r["ok"], r["message"], r["data"], r["virtual_time"]) for r in rows]


def test_time_spent_waiting_prewarmed_does_not_count_against_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = [
        Task.model_validate(toy_task(id=f"b{i}", limits={"max_steps": 10, "max_seconds": 60}))
        for i in range(2)
    ]
    settings = EpisodeSettings(agent="oracle")
    jobs = [EpisodeJob(task=t, episode_dir=str(tmp_path / t.id), settings=settings) for t in tasks]
    worker = EpisodeWorker(prewarm=True, min_setup_s=0.0)
    worker.run(jobs[0].model_dump_json(), jobs[1].model_dump_json())
    assert worker._ahead is not None
    worker._ahead.thread.join()  # the second environment is ready ...
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + 120)  # ... and waits twice its budget
    second = JobOutcome.model_validate_json(worker.run(jobs[1].model_dump_json()))
    assert second.prewarmed and second.result is not None
    assert second.result.termination == "finished" and second.result.success


def test_an_environment_prepared_for_a_job_that_never_comes_is_closed(tmp_path: Path) -> None:
    settings = EpisodeSettings(agent="oracle")
    a, b, c = (
        EpisodeJob(
            task=Task.model_validate(toy_task(id=f"n{i}")),
            episode_dir=str(tmp_path / f"n{i}"),
            settings=settings,
        )
        for i in range(3)
    )
    worker = EpisodeWorker(prewarm=True, min_setup_s=0.0)
    CLOSED.clear()
    worker.run(a.model_dump_json(), b.model_dump_json())
    out = JobOutcome.model_validate_json(worker.run(c.model_dump_json()))  # b was taken by another worker
    assert not out.prewarmed and out.result is not None and out.result.success
    assert CLOSED.count("toy_0") == 3  # a's, the discarded b's and c's devices


def test_machine_failure_in_setup_is_reported_for_retry_task_failure_is_a_result(tmp_path: Path) -> None:
    flaky = Task.model_validate(flaky_task("f0", tmp_path / "count", failures=1))
    broken = Task.model_validate(toy_task(id="broken", setup=[{"device": "toy_0", "op": "explode"}]))
    settings = EpisodeSettings(agent="oracle", kind_modules=kind_modules([flaky]))
    worker = EpisodeWorker(prewarm=True, min_setup_s=0.0)
    job = EpisodeJob(task=flaky, episode_dir=str(tmp_path / "f0"), settings=settings)
    first = JobOutcome.model_validate_json(worker.run(job.model_dump_json()))
    assert first.result is None and "No space left on device" in (first.infra_error or "")
    retry = job.model_copy(update={"attempt": 2})
    second = JobOutcome.model_validate_json(worker.run(retry.model_dump_json()))
    assert second.result is not None and second.result.success
    bad = EpisodeJob(task=broken, episode_dir=str(tmp_path / "broken"), settings=settings)
    out = JobOutcome.model_validate_json(worker.run(bad.model_dump_json()))
    assert out.infra_error is None and out.result is not None
    assert out.result.termination == "error" and "setup failed" in (out.result.error or "")


def test_a_worker_stops_prewarming_while_setups_are_cheaper_than_the_threshold(tmp_path: Path) -> None:
    tasks = [Task.model_validate(toy_task(id=f"c{i}")) for i in range(5)]
    settings = EpisodeSettings(agent="oracle")
    jobs = [
        EpisodeJob(task=t, episode_dir=str(tmp_path / t.id), settings=settings).model_dump_json()
        for t in tasks
    ]
    for threshold, expected in ((10.0, [False, True, False, False, False]), (0.0, [False] + [True] * 4)):
        worker = EpisodeWorker(prewarm=True, min_setup_s=threshold)
        flags = [
            JobOutcome.model_validate_json(
                worker.run(job, jobs[i + 1] if i + 1 < len(jobs) else None)
            ).prewarmed
            for i, job in enumerate(jobs)
        ]
        worker.close()
        # before any setup was measured the worker pre-warms; a toy setup takes far less than 10 s
        assert flags == expected
