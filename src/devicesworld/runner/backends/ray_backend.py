"""The Ray backend: the same workers as Ray actors, on a cluster or on this machine.

Each worker slot is one actor running :class:`~devicesworld.runner.worker.EpisodeWorker`
(so pre-warming works as locally: an actor keeps its next environment ready). Jobs and
outcomes travel as JSON strings. Scheduling, timeouts, retries and the results file stay
in the driver (:mod:`devicesworld.runner.backends.scheduler`), so Ray's own task retries
are off (``max_restarts=0``): a dead actor is replaced by the scheduler and only the
episode it was running is retried.

An actor has a second thread (``max_concurrency``) so that the driver can ask it, next
to each ``run``, to say when that job's episode begins (``wait_begun``): the episode
timeout counts from there, not from when the job was handed out, so a busy machine's
slow imports, actor start-up and setup never turn a healthy episode into a
``time_limit`` with 0 steps.

The cluster is ``--ray-address`` or ``RAY_ADDRESS`` when given; otherwise a local one is
started for the run (no dashboard) and stopped after it. A cluster that was already
initialised in this process (``ray.init`` by the caller) is used as is and left running.
Ray is an optional extra: ``pip install 'devicesworld[ray]'``.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any

from devicesworld.runner.backends.base import BackendError, Completion
from devicesworld.runner.jobs import EpisodeJob
from devicesworld.runner.worker import MIN_SETUP_S, EpisodeWorker


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise BackendError(
            "the ray backend needs Ray, which is not installed: pip install 'devicesworld[ray]'"
        ) from None


class RayPool:
    """``size`` actors; see the module docstring."""

    def __init__(
        self, size: int, *, prewarm: bool, min_setup_s: float = MIN_SETUP_S, address: str | None = None
    ) -> None:
        self._ray = ray = _import_ray()
        self._owns_cluster = False
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS") or None
            try:
                if address:
                    ray.init(address=address, logging_level="WARNING")
                else:
                    ray.init(
                        num_cpus=max(size, os.cpu_count() or 1),
                        include_dashboard=False,
                        logging_level="WARNING",
                        # Workers of a local cluster see the modules this process sees.
                        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}},
                    )
            except Exception as exc:
                raise BackendError(
                    f"cannot start or reach a Ray cluster ({address or 'local'}): {exc}"
                ) from None
            self._owns_cluster = True
        # Threads: one runs the job; the others answer wait_begun (one per job, briefly two).
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0, max_concurrency=4)(EpisodeWorker)
        self._prewarm = prewarm
        self._min_setup_s = min_setup_s
        self._actors: list[Any] = [self._new_actor() for _ in range(size)]
        self._refs: dict[Any, int] = {}
        self._began_refs: dict[Any, int] = {}
        # Wait until every actor is up, so start-up is not charged to the first episodes' timeouts.
        try:
            ray.get([actor.__ray_ready__.remote() for actor in self._actors])
        except ray.exceptions.RayError as exc:
            self.close()
            raise BackendError(f"Ray workers did not start: {exc}") from None

    @property
    def size(self) -> int:
        return len(self._actors)

    def _new_actor(self) -> Any:
        return self._actor_class.remote(prewarm=self._prewarm, min_setup_s=self._min_setup_s)

    def submit(self, slot: int, job_json: str, next_job_json: str | None) -> None:
        actor = self._actors[slot]
        self._refs[actor.run.remote(job_json, next_job_json)] = slot
        key = EpisodeJob.model_validate_json(job_json).key
        self._began_refs[actor.wait_begun.remote(key)] = slot

    def wait(self, timeout: float | None) -> list[Completion]:
        if not self._refs:
            return []
        ray = self._ray
        pending = list(self._refs) + list(self._began_refs)
        ready, rest = ray.wait(pending, num_returns=1, timeout=timeout)
        if ready and rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        completions: list[Completion] = []
        finished = {self._refs[ref] for ref in ready if ref in self._refs}
        for ref in ready:
            if ref in self._began_refs:
                slot = self._began_refs.pop(ref)
                if slot not in finished:  # a job that ended also "began": its outcome says the rest
                    completions.append(Completion(slot=slot, began=True))
                continue
            if ref not in self._refs:
                continue  # a began-notice of a job that already ended
            slot = self._refs.pop(ref)
            self._forget_began(slot)
            try:
                completions.append(Completion(slot=slot, outcome_json=str(ray.get(ref))))
            except ray.exceptions.RayError as exc:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                completions.append(Completion(slot=slot, died=f"{type(exc).__name__}: {reason}"))
        return completions

    def _forget_began(self, slot: int) -> None:
        for ref, s in list(self._began_refs.items()):
            if s == slot:
                del self._began_refs[ref]

    def restart(self, slot: int) -> None:
        for ref, s in list(self._refs.items()):
            if s == slot:
                del self._refs[ref]
        self._forget_began(slot)
        self._ray.kill(self._actors[slot], no_restart=True)
        self._actors[slot] = self._new_actor()
        # As at start, wait for it, so its start-up is not charged to the next timeout; if it
        # cannot start, its next job fails as a dead worker and is retried up to the limit.
        with contextlib.suppress(self._ray.exceptions.RayError):
            self._ray.get(self._actors[slot].__ray_ready__.remote())

    def close(self) -> None:
        for actor in self._actors:
            with contextlib.suppress(Exception):
                self._ray.kill(actor, no_restart=True)
        self._actors = []
        self._refs = {}
        self._began_refs = {}
        if self._owns_cluster:
            self._ray.shutdown()
