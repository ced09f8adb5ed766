"""The scheduler's rules, against a scripted pool (no processes, no timing luck)."""

from __future__ import annotations

import itertools
import time

import pytest

from devicesworld.runner.backends.base import Completion
from devicesworld.runner.backends.scheduler import SchedulePolicy, Scheduler
from devicesworld.runner.jobs import EpisodeJob, EpisodeSettings, JobOutcome, failure_result
from devicesworld.spec import Task
from toykind import toy_task


def _jobs(n: int) -> list[EpisodeJob]:
    settings = EpisodeSettings(agent="scripted")
    return [
        EpisodeJob(
            task=Task.model_validate(toy_task(id=f"t{i}")), episode_dir=f"/nowhere/t{i}", settings=settings
        )
        for i in range(n)
    ]


class ScriptedPool:
    """Each task follows a script, one entry per attempt: ok, agent_error, infra, die, hang."""

    def __init__(self, size: int, script: dict[str, list[str]] | None = None) -> None:
        self.size = size
        self.script = script or {}
        self.busy: dict[int, tuple[EpisodeJob, str | None]] = {}
        self.submitted: list[tuple[int, str, str | None]] = []
        self.restarts: list[int] = []
        self.interrupt_at: int | None = None
        self.waits = 0

    def submit(self, slot: int, job_json: str, next_job_json: str | None) -> None:
        job = EpisodeJob.model_validate_json(job_json)
        upcoming = EpisodeJob.model_validate_json(next_job_json).key if next_job_json else None
        assert slot not in self.busy, "a worker got a second job while busy"
        self.busy[slot] = (job, upcoming)
        self.submitted.append((slot, job.key, upcoming))

    def _behaviour(self, job: EpisodeJob) -> str:
        steps = self.script.get(job.task.id, [])
        return steps[job.attempt - 1] if job.attempt <= len(steps) else "ok"

    def wait(self, timeout: float | None) -> list[Completion]:
        self.waits += 1
        if self.waits == self.interrupt_at:
            raise KeyboardInterrupt  # once: the scheduler's drain then sees the finished jobs
        done: list[Completion] = []
        for slot, (job, _) in list(self.busy.items()):
            behaviour = self._behaviour(job)
            if behaviour == "hang":
                continue
            del self.busy[slot]
            if behaviour == "die":
                done.append(Completion(slot=slot, died="exit status -9"))
                continue
            if behaviour == "infra":
                out = JobOutcome(task_id=job.task.id, infra_error="OSError: disk full")
            else:
                termination = "error" if behaviour == "agent_error" else "finished"
                result = failure_result(job.task, "scripted", "agent error", termination)
                if behaviour == "ok":
                    result = result.model_copy(update={"success": True, "score": 1.0, "error": None})
                out = JobOutcome(task_id=job.task.id, result=result, worker_pid=100 + slot)
            done.append(Completion(slot=slot, outcome_json=out.model_dump_json()))
        if not done and timeout is not None:
            time.sleep(timeout)
        return done

    def restart(self, slot: int) -> None:
        self.restarts.append(slot)
        self.busy.pop(slot, None)

    def close(self) -> None:
        pass


def _run(
    pool: ScriptedPool, jobs: list[EpisodeJob], **policy: float | int | None
) -> tuple[list[JobOutcome], list[str], Scheduler]:
    outcomes: list[JobOutcome] = []
    warnings: list[str] = []
    scheduler = Scheduler(pool, SchedulePolicy(**policy), outcomes.extend, warnings.append)  # type: ignore[arg-type]
    scheduler.run(jobs)
    return outcomes, warnings, scheduler


def test_every_job_runs_once_and_each_worker_is_told_its_next_job() -> None:
    pool = ScriptedPool(2)
    outcomes, warnings, _ = _run(pool, _jobs(7))
    assert sorted(o.task_id for o in outcomes) == [f"t{i}" for i in range(7)]
    assert warnings == []
    by_slot: dict[int, list[tuple[str, str | None]]] = {}
    for slot, key, upcoming in pool.submitted:
        by_slot.setdefault(slot, []).append((key, upcoming))
    hits = 0
    for runs in by_slot.values():
        for (_, upcoming), (following, _) in itertools.pairwise(runs):
            hits += upcoming == following
    assert hits >= 4, pool.submitted  # the hints are right except where a worker took another's job


def test_infrastructure_failures_are_retried_then_recorded() -> None:
    pool = ScriptedPool(2, {"t0": ["infra", "ok"], "t1": ["die", "infra", "die"]})
    outcomes, warnings, scheduler = _run(pool, _jobs(3), max_attempts=3)
    by_id = {o.task_id: o.result for o in outcomes}
    assert by_id["t0"] is not None and by_id["t0"].success
    assert by_id["t1"] is not None and by_id["t1"].termination == "error"
    assert "infrastructure failure after 3 attempt(s): worker died" in (by_id["t1"].error or "")
    assert scheduler.retries == 3 and len(outcomes) == 3
    assert len(pool.restarts) == 2  # each dead worker was replaced
    assert sum("retrying" in w for w in warnings) == 3


def test_an_agent_failure_is_a_result_not_retried() -> None:
    pool = ScriptedPool(1, {"t0": ["agent_error", "ok"]})
    outcomes, _, scheduler = _run(pool, _jobs(2))
    assert scheduler.retries == 0
    first = next(o.result for o in outcomes if o.task_id == "t0")
    assert first is not None and first.termination == "error"
    assert [key for _, key, _ in pool.submitted] == ["t0#1", "t1#1"]


def test_a_hung_episode_times_out_without_retry_and_the_rest_go_on() -> None:
    pool = ScriptedPool(2, {"t1": ["hang", "hang"]})
    t0 = time.monotonic()
    outcomes, warnings, scheduler = _run(pool, _jobs(4), episode_timeout=0.2)
    assert time.monotonic() - t0 < 5
    by_id = {o.task_id: o.result for o in outcomes}
    assert set(by_id) == {"t0", "t1", "t2", "t3"}
    hung = by_id["t1"]
    assert hung is not None and hung.termination == "time_limit" and "episode timeout" in (hung.error or "")
    assert scheduler.retries == 0 and len(pool.restarts) == 1
    assert any("episode timeout" in w for w in warnings)


def test_interrupt_records_what_finished_and_propagates() -> None:
    pool = ScriptedPool(2)
    pool.interrupt_at = 3
    outcomes: list[JobOutcome] = []
    scheduler = Scheduler(pool, SchedulePolicy(), outcomes.extend, lambda _: None)
    with pytest.raises(KeyboardInterrupt):
        scheduler.run(_jobs(10))
    # two waits finished four episodes; the two that finished during the third are drained
    assert len(outcomes) == 6
    assert len({o.task_id for o in outcomes}) == len(outcomes)
