"""The interface every backend implements: a fixed number of workers, one job each at a time.

A backend only moves JSON text to a worker and back and can replace a worker; what to
run where, timeouts, retries and recording are the scheduler's
(:mod:`devicesworld.runner.backends.scheduler`), so they behave the same on every
backend. Each worker runs :class:`~devicesworld.runner.worker.EpisodeWorker`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class BackendError(Exception):
    """A backend cannot start (Ray missing, a cluster that cannot be reached)."""


@dataclass(frozen=True)
class Completion:
    """A worker finished its job (``outcome_json``), died (``died`` says how), or only
    reports that its job's episode began (``began``: the job is still running).

    The scheduler's episode timeout counts from ``began``, not from when the job was
    handed out: worker start-up, imports and setup are not the episode's time.
    """

    slot: int
    outcome_json: str | None = None
    died: str | None = None
    began: bool = False
    in_agent: bool = False
    """With ``died``: the worker died while running agent code (``os._exit``, a crash in the
    agent's own library): the episode's agent error, not an infrastructure failure."""


class WorkerPool(Protocol):
    """``size`` workers, addressed by slot ``0..size-1``."""

    @property
    def size(self) -> int: ...

    def submit(self, slot: int, job_json: str, next_job_json: str | None) -> None:
        """Start ``job_json`` on an idle worker; ``next_job_json`` is what it will get next (to pre-warm)."""
        ...

    def wait(self, timeout: float | None) -> list[Completion]:
        """Block until at least one busy worker completes (or reports that its episode
        began) or ``timeout`` seconds pass."""
        ...

    def restart(self, slot: int) -> None:
        """Kill the worker in ``slot`` (whatever it is doing) and start a fresh one."""
        ...

    def close(self) -> None:
        """Stop every worker; a job still running is abandoned."""
        ...
