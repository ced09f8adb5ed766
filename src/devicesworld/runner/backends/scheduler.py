"""Hand jobs to a backend's workers, with pre-warming hints, timeouts and infrastructure retries.

One loop serves every backend, so the rules are the same everywhere:

* **Assignment.** A worker gets a job and is told the job it will get after it (its
  *reservation*), so it can reset that job's environment in the background. A worker
  that runs out takes the head of the queue, or else another worker's reservation, so
  no worker idles while work is left.
* **Streaming.** Outcomes are handed to ``record`` as soon as they arrive: all those
  that arrived together in one call, so the results file can write them with one
  fsync (the driver's fsync per line was a ceiling on throughput for short episodes).
* **Timeouts.** An episode still running ``episode_timeout`` seconds after it
  *began* (its worker reports when the environment is ready and the agent is about
  to act) is abandoned: its worker is killed and replaced and the episode is recorded
  with termination ``time_limit``. It is not retried — a hung agent is the agent's
  failure. Worker start-up, imports and setup are not the episode's time: a job that
  has not begun ``setup_timeout`` seconds after it was handed out counts as an
  infrastructure failure instead (its worker is replaced and the job retried).
* **Retries.** Only infrastructure failures are retried, up to ``max_attempts``: a
  worker that died outside agent code (one that died while running the agent's code,
  e.g. its ``os._exit``, is that episode's agent error), and setup that failed because of the machine
  (:class:`~devicesworld.env.controller.InfrastructureError`). An agent's crash, a
  broken task and a timeout are results. After the last attempt the episode is
  recorded as an ``error`` saying so.
* **Unsendable jobs.** A job that cannot be serialised for its worker (a value
  nested deeper than the serialiser allows) is recorded at once as an ``error``
  result saying so, and the worker takes the next job; it never stops the run.
* **Interrupts.** On Ctrl+C (or SIGTERM, which the runner turns into the same), outcomes
  that already arrived are recorded before the ``KeyboardInterrupt`` goes on; the episodes
  still running are named by :meth:`Scheduler.in_flight` (``run.json`` records them as
  interrupted) and ``--resume`` runs them again.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from devicesworld.runner.backends.base import Completion, WorkerPool
from devicesworld.runner.episode import failure_result
from devicesworld.runner.jobs import EpisodeJob, JobOutcome
from devicesworld.spec.records import episode_key

DEFAULT_SETUP_TIMEOUT_S = 600.0
"""How long a job may take to begin its episode (worker start, imports, setup) when an
episode timeout is set; generous, because a busy machine can be slow at all three."""


@dataclass(frozen=True)
class SchedulePolicy:
    episode_timeout: float | None = None
    max_attempts: int = 3
    setup_timeout: float = DEFAULT_SETUP_TIMEOUT_S
    """Applies only with an ``episode_timeout`` (without one nothing is ever abandoned)."""


@dataclass
class _Running:
    job: EpisodeJob
    handed_out: float
    began: float | None = None


RecordFn = Callable[[list[JobOutcome]], None]
WarnFn = Callable[[str], None]


class Scheduler:
    """Runs ``jobs`` on ``pool``; see the module docstring for the rules."""

    def __init__(
        self,
        pool: WorkerPool,
        policy: SchedulePolicy,
        record: RecordFn,
        warn: WarnFn,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pool = pool
        self.clock = clock
        self.policy = policy
        self.record = record
        self.warn = warn
        self.retries = 0
        self._queue: deque[EpisodeJob] = deque()
        self._reserved: list[EpisodeJob | None] = [None] * pool.size
        self._running: dict[int, _Running] = {}
        self._arrived: list[JobOutcome] = []

    def run(self, jobs: list[EpisodeJob]) -> None:
        self._queue.extend(jobs)
        try:
            firsts = {slot: self._queue.popleft() for slot in range(self.pool.size) if self._queue}
            for slot in firsts:
                self._reserved[slot] = self._queue.popleft() if self._queue else None
            for slot, job in firsts.items():
                self._submit(slot, job)
            while self._running:
                for completion in self.pool.wait(self._wait_timeout()):
                    self._complete(completion)
                self._expire()
                self._deliver()
        except KeyboardInterrupt:
            self._drain()
            raise

    # ------------------------------------------------------------------ internals
    def _submit(self, slot: int, job: EpisodeJob | None) -> None:
        """Hand ``job`` to the worker in ``slot``; a job that cannot be sent is a result, then the next."""
        while job is not None:
            job_json = self._encode(job)
            if job_json is not None:
                upcoming = self._reserved[slot]
                hint = self._encode(upcoming, record=False) if upcoming is not None else None
                self.pool.submit(slot, job_json, hint)
                self._running[slot] = _Running(job, self.clock())
                return
            job = self._next_for(slot)

    def _encode(self, job: EpisodeJob, *, record: bool = True) -> str | None:
        try:
            return job.model_dump_json()
        except ValueError as exc:  # PydanticSerializationError: e.g. nesting beyond the serialiser's depth
            if record:
                error = f"harness error: the task cannot be sent to a worker: {str(exc)[:200]}"
                self.warn(f"{job.task.id}: {error}")
                result = failure_result(job.task, job.settings.agent, error)
                self._arrived.append(JobOutcome(task_id=job.task.id, trial=job.trial, result=result))
            return None

    def _start_next(self, slot: int) -> None:
        self._submit(slot, self._next_for(slot))

    def _next_for(self, slot: int) -> EpisodeJob | None:
        """The job ``slot`` runs next (its reservation, the queue's head or another's reservation)."""
        job, self._reserved[slot] = self._reserved[slot], None
        if job is None and self._queue:
            job = self._queue.popleft()
        if job is None:  # take another worker's reservation rather than idle
            for other, reserved in enumerate(self._reserved):
                if reserved is not None:
                    job, self._reserved[other] = reserved, None
                    break
        if job is None:
            return None
        self._reserved[slot] = self._queue.popleft() if self._queue else None
        return job

    def _complete(self, completion: Completion) -> None:
        if completion.began:
            began = self._running.get(completion.slot)
            if began is not None and began.began is None:
                began.began = self.clock()
            return
        running = self._running.pop(completion.slot, None)
        if running is None:
            return
        if completion.died is not None and completion.in_agent:
            self.pool.restart(completion.slot)
            job = running.job
            error = f"agent error: the agent ended its worker process ({completion.died})"
            self.warn(f"{job.task.id}: {error}")
            result = failure_result(job.task, job.settings.agent, error, valid=True)
            self._arrived.append(JobOutcome(task_id=job.task.id, result=result))
        elif completion.died is not None or completion.outcome_json is None:
            self.pool.restart(completion.slot)
            self._infra_failure(running.job, f"worker died: {completion.died or 'no result'}")
        else:
            outcome = JobOutcome.model_validate_json(completion.outcome_json)
            if outcome.result is None:
                self._infra_failure(running.job, outcome.infra_error or "no result")
            else:
                self._arrived.append(outcome)
                if outcome.recycle:  # a hung agent thread still runs there: start afresh
                    self.pool.restart(completion.slot)
        self._start_next(completion.slot)

    def _infra_failure(self, job: EpisodeJob, message: str) -> None:
        if job.attempt < self.policy.max_attempts:
            self.retries += 1
            self.warn(f"{job.task.id}: infrastructure failure on attempt {job.attempt} ({message}); retrying")
            self._queue.appendleft(job.model_copy(update={"attempt": job.attempt + 1}))
            return
        error = f"infrastructure failure after {job.attempt} attempt(s): {message}"
        self.warn(f"{job.task.id}: {error}")
        self._arrived.append(
            JobOutcome(
                task_id=job.task.id,
                trial=job.trial,
                result=failure_result(job.task, job.settings.agent, error),
            )
        )

    def _deadline(self, running: _Running, limit: float) -> float:
        if running.began is not None:
            return running.began + limit
        return running.handed_out + max(limit, self.policy.setup_timeout)

    def _wait_timeout(self) -> float | None:
        limit = self.policy.episode_timeout
        if limit is None or not self._running:
            return None
        first_deadline = min(self._deadline(r, limit) for r in self._running.values())
        return max(0.0, first_deadline - self.clock())

    def _expire(self) -> None:
        limit = self.policy.episode_timeout
        if limit is None:
            return
        now = self.clock()
        for slot, running in list(self._running.items()):
            if now < self._deadline(running, limit):
                continue
            del self._running[slot]
            self.pool.restart(slot)
            job = running.job
            if running.began is None:
                waited = max(limit, self.policy.setup_timeout)
                self._infra_failure(job, f"setup timeout: the episode had not begun after {waited:g} s")
            else:
                error = f"episode timeout: no result within {limit:g} s of its start; its worker was stopped"
                self.warn(f"{job.task.id}: {error}")
                result = failure_result(
                    job.task, job.settings.agent, error, "time_limit", now - running.began
                )
                self._arrived.append(JobOutcome(task_id=job.task.id, trial=job.trial, result=result))
            self._start_next(slot)

    def _deliver(self) -> None:
        arrived, self._arrived = self._arrived, []
        if arrived:
            self.record(arrived)

    def _drain(self) -> None:
        """Record whatever already finished; called on Ctrl+C before the workers are stopped."""
        try:
            completions = self.pool.wait(0.0) if self._running else []
        except BaseException:
            completions = []
        for completion in completions:
            if completion.slot in self._running and completion.outcome_json is not None:
                outcome = JobOutcome.model_validate_json(completion.outcome_json)
                if outcome.result is not None:
                    self._arrived.append(outcome)
                    del self._running[completion.slot]
        self._deliver()

    def in_flight(self) -> list[str]:
        """The episodes handed out and not recorded (after an interrupt: those it cut short)."""
        return sorted(episode_key(r.job.task.id, r.job.trial) for r in self._running.values())
