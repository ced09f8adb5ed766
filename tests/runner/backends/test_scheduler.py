"""The scheduler's rules, against a scripted pool (no processes, no timing luck).

The pool keeps virtual time: a ``wait`` with nothing to report advances its clock by
the timeout instead of sleeping, and the scheduler reads that clock, so the timeout
rules are tested exactly and independently of how busy the machine is.
"""

from __future__ import annotations

import itertools

import pytest

from devicesworld.runner.backends.base import Completion
from devicesworld.runner.backends.scheduler import SchedulePolicy, Scheduler
from devicesworld.runner.episode import failure_result
from devicesworld.runner.jobs import EpisodeJob, EpisodeSettings, JobOutcome
from devicesworld.spec import Task
from devicesworld.spec.actions import Termination
from tests.toykind import toy_task


def _jobs(n: int) -> list[EpisodeJob]:
    settings = EpisodeSettings(agent="scripted")
    return [
        EpisodeJob(
            task=Task.model_validate(toy_task(id=f"t{i}")), episode_dir=f"/nowhere/t{i}", settings=settings
        )
        for i in range(n)
    ]


SLOW_SETUP_S = 50.0
"""Virtual seconds a ``slow_setup`` job takes before its episode begins."""


class ScriptedPool:
    """Each task follows a script, one entry per attempt: ok, agent_error, infra, die, hang,
    slow_setup (begins after :data:`SLOW_SETUP_S`, then succeeds), stuck_setup (never begins).

    Every job that begins reports so (``began``), before its outcome or in an earlier ``wait``.
    """

    def __init__(self, size: int, script: dict[str, list[str]] | None = None) -> None:
        self.size = size
        self.script = script or {}
        self.busy: dict[int, tuple[EpisodeJob, str | None]] = {}
        self.handed_out: dict[int, float] = {}
        self.begun: set[int] = set()
        self.submitted: list[tuple[int, str, str | None]] = []
        self.restarts: list[int] = []
        self.interrupt_at: int | None = None
        self.waits = 0
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def submit(self, slot: int, job_json: str, next_job_json: str | None) -> None:
        job = EpisodeJob.model_validate_json(job_json)
        upcoming = EpisodeJob.model_validate_json(next_job_json).key if next_job_json else None
        assert slot not in self.busy, "a worker got a second job while busy"
        self.busy[slot] = (job, upcoming)
        self.handed_out[slot] = self.now
        self.begun.discard(slot)
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
            if behaviour == "stuck_setup":
                continue
            if behaviour == "slow_setup" and self.now < self.handed_out[slot] + SLOW_SETUP_S:
                continue
            if slot not in self.begun and behaviour not in ("infra", "die"):
                self.begun.add(slot)
                done.append(Completion(slot=slot, began=True))
            if behaviour == "hang":
                continue
            del self.busy[slot]
            if behaviour == "die":
                done.append(Completion(slot=slot, died="exit status -9"))
                continue
            if behaviour == "infra":
                out = JobOutcome(task_id=job.task.id, infra_error="OSError: disk full")
            else:
                termination: Termination = "error" if behaviour == "agent_error" else "finished"
                result = failure_result(job.task, "scripted", "agent error", termination)
                if behaviour in ("ok", "slow_setup"):
                    result = result.model_copy(update={"success": True, "score": 1.0, "error": None})
                out = JobOutcome(task_id=job.task.id, result=result, worker_pid=100 + slot)
            done.append(Completion(slot=slot, outcome_json=out.model_dump_json()))
        if not done:  # a real pool would block until the next event or the timeout: time passes
            until = self.now + (timeout if timeout else 1.0)
            slow = [
                self.handed_out[slot] + SLOW_SETUP_S
                for slot, (job, _) in self.busy.items()
                if self._behaviour(job) == "slow_setup" and slot not in self.begun
            ]
            self.now = min([until, *slow])
        return done

    def restart(self, slot: int) -> None:
        self.restarts.append(slot)
        self.busy.pop(slot, None)
        self.begun.discard(slot)

    def close(self) -> None:
        pass


def _run(
    pool: ScriptedPool, jobs: list[EpisodeJob], **policy: float | int | None
) -> tuple[list[JobOutcome], list[str], Scheduler]:
    outcomes: list[JobOutcome] = []
    warnings: list[str] = []
    scheduler = Scheduler(pool, SchedulePolicy(**policy), outcomes.extend, warnings.append, pool.clock)  # type: ignore[arg-type]
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
    outcomes, warnings, scheduler = _run(pool, _jobs(4), episode_timeout=2.0)
    by_id = {o.task_id: o.result for o in outcomes}
    assert set(by_id) == {"t0", "t1", "t2", "t3"}
    hung = by_id["t1"]
    assert hung is not None and hung.termination == "time_limit" and "episode timeout" in (hung.error or "")
    assert hung.duration_s == pytest.approx(2.0, abs=0.5)  # counted from its start, in virtual time
    assert scheduler.retries == 0 and len(pool.restarts) == 1
    assert any("episode timeout" in w for w in warnings)
    assert pool.now < 10  # the scheduler waited for the deadline, not longer


def test_the_episode_timeout_counts_from_the_episodes_start_not_from_setup() -> None:
    # setup (worker start, imports, reset) takes 25x the episode timeout: still a success
    pool = ScriptedPool(2, {"t0": ["slow_setup"], "t1": ["slow_setup"]})
    outcomes, warnings, scheduler = _run(pool, _jobs(3), episode_timeout=2.0)
    by_id = {o.task_id: o.result for o in outcomes}
    assert all(r is not None and r.success and r.termination == "finished" for r in by_id.values()), by_id
    assert warnings == [] and pool.restarts == [] and scheduler.retries == 0
    assert pool.now >= SLOW_SETUP_S


def test_a_job_that_never_begins_is_an_infrastructure_failure_after_the_setup_timeout() -> None:
    pool = ScriptedPool(1, {"t0": ["stuck_setup", "ok"]})
    outcomes, warnings, scheduler = _run(pool, _jobs(2), episode_timeout=2.0, setup_timeout=30.0)
    by_id = {o.task_id: o.result for o in outcomes}
    assert by_id["t0"] is not None and by_id["t0"].success  # retried on a fresh worker
    assert scheduler.retries == 1 and pool.restarts == [0]
    assert any("setup timeout" in w and "30 s" in w for w in warnings)
    assert 30.0 <= pool.now < 40.0


def test_without_an_episode_timeout_a_slow_setup_is_never_abandoned() -> None:
    pool = ScriptedPool(1, {"t0": ["slow_setup"]})
    outcomes, _, _ = _run(pool, _jobs(1), setup_timeout=1.0)
    assert [o.result.success for o in outcomes if o.result] == [True]


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


def test_failure_result_keeps_the_sources_only_when_asked() -> None:
    doc = toy_task(id="t-src")
    doc.setdefault("metadata", {})["sources"] = [{"device": "toy_0", "value": "42"}]
    task = Task.model_validate(doc)
    setup = failure_result(task, "scripted", "setup failed: boom", sources=True)
    timeout = failure_result(task, "scripted", "episode timed out", "time_limit")
    assert setup.sources == [s.model_dump() for s in task.metadata.sources] and setup.sources
    assert not setup.valid and setup.invalid_cause == "setup_failed"
    assert timeout.sources == [] and timeout.valid and timeout.invalid_cause is None
