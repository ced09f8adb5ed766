"""A worker that runs episodes one after another and pre-warms the next one.

JarvisGUI (A.4.3) hides container cold starts by initialising the next task's
environment in the background while the current task runs. Here each worker is told,
with every job, which job it will get next; it resets that job's
:class:`~devicesworld.env.controller.CrossDeviceEnv` in a background thread while the
current episode's agent acts. When the next job arrives and matches, its environment is
ready (or the worker waits only for the rest of its setup).

The overlap pays when setup waits on something other than this interpreter (a sandbox
or browser starting, files written) or the agent waits on a model server; with a purely
CPU-bound agent and setup the two share the GIL and gain nothing, so a worker stops
pre-warming while setups are cheaper than :data:`MIN_SETUP_S`. Both cases are measured
by ``benchmarks/scale.py``. Pre-warming never changes a result: setup is deterministic,
the prepared environment is the one a cold reset would build, its wall-time budget
starts when the episode does, and a prepared environment for a job that never comes is
closed.

The same class serves the parent process (one worker, no processes), a local process
and a Ray actor: it takes and returns JSON text. It also tells its backend when each
episode *begins* (environment ready, agent about to act), because the runner's episode
timeout counts from there: a local worker through a callback, a Ray actor through
:meth:`EpisodeWorker.wait_begun`, which the driver calls alongside ``run``.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from devicesworld.env.controller import CrossDeviceEnv, InfrastructureError
from devicesworld.runner.episode import failure_result
from devicesworld.runner.jobs import (
    EpisodeJob,
    JobOutcome,
    make_outcome,
    prepare_env,
    run_job,
)


class _Ahead:
    """An environment being reset, in a background thread, for a job that has not started yet."""

    def __init__(self, job: EpisodeJob) -> None:
        self.key = job.key
        self.env: CrossDeviceEnv | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._prepare, args=(job,), name="prewarm", daemon=True)
        self.thread.start()

    def _prepare(self, job: EpisodeJob) -> None:
        try:
            self.env = prepare_env(job)
        except BaseException as exc:
            self.error = exc

    def discard(self) -> None:
        self.thread.join()
        if self.env is not None:
            self.env.close()
            self.env = None


MIN_SETUP_S = 0.001
"""Pre-warm only while setups take at least this long: below it the background thread
costs more (thread start, GIL hand-offs) than the setup it hides."""


class EpisodeWorker:
    """Runs jobs in order; with ``prewarm`` it resets the announced next job in the background.

    Whether to pre-warm is decided per job from the last setup time this worker saw
    (``min_setup_s``); before any setup has been seen, it pre-warms.
    """

    def __init__(self, *, prewarm: bool = True, min_setup_s: float = MIN_SETUP_S) -> None:
        self.prewarm = prewarm
        self.min_setup_s = min_setup_s
        self._last_setup_s: float | None = None
        self._ahead: _Ahead | None = None
        self._begun: deque[str] = deque(maxlen=64)
        self._begun_changed = threading.Condition()

    def run(
        self,
        job_json: str,
        next_job_json: str | None = None,
        on_begin: Callable[[], None] | None = None,
        on_phase: Callable[[str], None] | None = None,
    ) -> str:
        """Run one job (JSON in, :class:`JobOutcome` JSON out); never raises.

        ``on_begin`` is called when the episode begins (environment ready, agent about to act);
        ``on_phase`` with ``"agent"``/``"env"`` around each call into agent code.
        """
        try:
            job = EpisodeJob.model_validate_json(job_json)
        except Exception as exc:  # a harness bug: say so instead of killing the worker
            return JobOutcome(task_id="?", infra_error=f"unreadable job: {exc}").model_dump_json()

        def begun() -> None:
            self._mark_begun(job.key)
            if on_begin is not None:
                on_begin()

        try:
            return self._run(job, next_job_json, begun, on_phase)
        finally:
            self._mark_begun(job.key)  # also a job that never began: nobody waits for it forever

    def wait_begun(self, key: str, timeout: float | None = None) -> bool:
        """Block until the job ``key`` has begun its episode (or ended without one); False on timeout.

        For a Ray actor (which cannot call back into the driver while ``run`` is busy): the
        driver calls this next to ``run`` on a second actor thread.
        """
        with self._begun_changed:
            return self._begun_changed.wait_for(lambda: key in self._begun, timeout)

    def _mark_begun(self, key: str) -> None:
        with self._begun_changed:
            if key not in self._begun:
                self._begun.append(key)
            self._begun_changed.notify_all()

    def _run(
        self,
        job: EpisodeJob,
        next_job_json: str | None,
        begun: Callable[[], None],
        on_phase: Callable[[str], None] | None = None,
    ) -> str:
        try:
            env, early = self._claim(job)
            if early is not None:
                return early.model_dump_json()
            if next_job_json is not None and self._worth_prewarming():
                self._start_ahead(EpisodeJob.model_validate_json(next_job_json))
            outcome = run_job(job, env, begun, on_phase)
            if outcome.result is not None and outcome.result.setup_s > 0:
                self._last_setup_s = outcome.result.setup_s
            return outcome.model_dump_json()
        except Exception as exc:
            error = f"harness error: {type(exc).__name__}: {exc}"
            return make_outcome(job, failure_result(job.task, job.settings.agent, error)).model_dump_json()

    def _worth_prewarming(self) -> bool:
        if not self.prewarm:
            return False
        return self._last_setup_s is None or self._last_setup_s >= self.min_setup_s

    def close(self) -> None:
        """Discard a prepared environment nobody will use."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.discard()

    def _claim(self, job: EpisodeJob) -> tuple[CrossDeviceEnv | None, JobOutcome | None]:
        """The prepared environment for ``job`` if there is one, or an outcome to return at once."""
        ahead = self._ahead
        if ahead is None:
            return None, None
        if ahead.key != job.key:
            self.close()  # the scheduler gave this worker something else
            return None, None
        self._ahead = None
        ahead.thread.join()
        if isinstance(ahead.error, InfrastructureError):
            return None, make_outcome(job, None, infra_error=str(ahead.error), prewarmed=True)
        # A task whose setup is broken resets again cold, so it fails exactly as without pre-warming.
        return ahead.env, None

    def _start_ahead(self, job: EpisodeJob) -> None:
        self.close()
        self._ahead = _Ahead(job)
