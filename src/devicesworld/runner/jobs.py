"""The one episode function every backend runs, and the JSON that crosses to a worker.

A worker — the parent process itself, a local process or a Ray actor — receives an
:class:`EpisodeJob` as JSON text and returns a :class:`JobOutcome` as JSON text, so no
backend pickles anything of ours and all of them run exactly :func:`run_job`.

A job ends in one of two ways. Either it has a result (the agent's, whatever it
scored, or a harness failure such as a task whose setup is broken), or the machine
failed (:class:`~devicesworld.env.controller.InfrastructureError` while setting up);
only the second is retried by the scheduler.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import resource
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from devicesworld.agents.base import AgentOptions
from devicesworld.agents.registry import get_agent
from devicesworld.devices.base import get_kind
from devicesworld.env.controller import CrossDeviceEnv, InfrastructureError
from devicesworld.runner.agentcall import DEFAULT_CALL_TIMEOUT_S, abandoned_threads
from devicesworld.runner.episode import failure_result, run_episode, write_traceback
from devicesworld.spec.models import Task
from devicesworld.spec.records import EpisodeResult, episode_key

JOB_SCHEMA_VERSION = 1


class EpisodeSettings(BaseModel):
    """The run-wide part of a job: who acts and how."""

    agent: str
    seed: int = 0
    model: str | None = None
    base_url: str | None = None
    screenshots: bool = False
    agent_call_timeout: float | None = Field(
        default=DEFAULT_CALL_TIMEOUT_S, description="Seconds one agent call may take, model included."
    )
    agent_extra: dict[str, Any] = Field(default_factory=dict, description="AgentOptions.extra (--agent-opt).")
    kind_modules: list[str] = Field(
        default_factory=list,
        description="Modules to import in a fresh worker so that the tasks' device kinds are registered.",
    )


class EpisodeJob(BaseModel):
    schema_version: int = JOB_SCHEMA_VERSION
    task: Task
    episode_dir: str
    settings: EpisodeSettings
    attempt: int = 1
    trial: int = Field(default=1, ge=1, description="Which of the run's --trials this episode is.")
    agent_seed: int | None = Field(
        default=None, description="The agent's seed for this trial (None: the run's seed)."
    )

    @property
    def key(self) -> str:
        return f"{episode_key(self.task.id, self.trial)}#{self.attempt}"


class JobOutcome(BaseModel):
    """What a worker sends back: a result, or an infrastructure failure to retry."""

    schema_version: int = JOB_SCHEMA_VERSION
    task_id: str
    trial: int = 1
    result: EpisodeResult | None = None
    infra_error: str | None = None
    prewarmed: bool = Field(default=False, description="The environment was reset ahead of time.")
    worker_pid: int = 0
    worker_max_rss_kb: int = Field(default=0, description="The worker process's peak resident memory.")
    recycle: bool = Field(
        default=False, description="A hung agent thread is still running in the worker: replace it."
    )


def kind_modules(tasks: list[Task]) -> list[str]:
    """Modules whose import registers the device kinds ``tasks`` use (for fresh workers)."""
    modules: set[str] = set()
    for name in {d.kind for t in tasks for d in t.devices}:
        kind = get_kind(name)
        module = getattr(kind.factory, "__module__", None) if kind is not None else None
        if module and module != "__main__":
            modules.add(module)
    return sorted(modules)


def import_kind_modules(modules: list[str]) -> None:
    for module in modules:
        # A module that will not import leaves its kind unknown; the episode reports that.
        with contextlib.suppress(ImportError):
            importlib.import_module(module)


def prepare_env(job: EpisodeJob) -> CrossDeviceEnv:
    """Build and reset the job's environment; raises what ``reset`` raises."""
    import_kind_modules(job.settings.kind_modules)
    env = CrossDeviceEnv(job.task, seed=job.settings.seed)
    env.reset()
    return env


def run_job(
    job: EpisodeJob,
    env: CrossDeviceEnv | None = None,
    on_begin: Callable[[], None] | None = None,
    on_phase: Callable[[str], None] | None = None,
) -> JobOutcome:
    """Run one episode; ``env`` is the job's environment if it was prepared ahead of time.

    ``on_begin`` is called when the episode itself begins, ``on_phase`` around each call
    into agent code (see :func:`run_episode`).

    Never raises: a bug in the harness becomes an ``error`` result, not a dead worker.
    """
    prewarmed = env is not None
    try:
        if env is None:
            try:
                env = prepare_env(job)
            except InfrastructureError as exc:
                return make_outcome(job, None, infra_error=str(exc))
            except Exception:
                env = None  # a broken task: run_episode resets again and reports the failure
        settings = job.settings
        options = AgentOptions(
            seed=settings.seed if job.agent_seed is None else job.agent_seed,
            model=settings.model,
            base_url=settings.base_url,
            extra=dict(settings.agent_extra),
        )
        result = run_episode(
            job.task,
            get_agent(settings.agent),
            options,
            Path(job.episode_dir),
            screenshots=settings.screenshots,
            env=env,
            on_begin=on_begin,
            agent_call_timeout=settings.agent_call_timeout,
            on_phase=on_phase,
        )
    except Exception as exc:  # the harness itself failed; retrying would fail the same way
        if env is not None:
            env.close()
        error = f"harness error: {type(exc).__name__}: {exc}"
        _log_traceback(Path(job.episode_dir), error)
        result = failure_result(job.task, job.settings.agent, error)
    return make_outcome(job, result, prewarmed=prewarmed)


def _log_traceback(episode_dir: Path, error: str) -> None:
    """Append the harness's traceback to the episode's ``steps.jsonl`` (fail-fast quotes it)."""
    with contextlib.suppress(OSError):
        episode_dir.mkdir(parents=True, exist_ok=True)
        with (episode_dir / "steps.jsonl").open("a", encoding="utf-8") as log:
            write_traceback(log, error)


def peak_rss_kb() -> int:
    """This process's peak resident set size in KiB.

    ``VmHWM`` from ``/proc/self/status`` where there is one: ``ru_maxrss`` survives
    ``exec``, so a spawned worker would report its parent's size if that was larger.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def make_outcome(
    job: EpisodeJob, result: EpisodeResult | None, *, infra_error: str | None = None, prewarmed: bool = False
) -> JobOutcome:
    return JobOutcome(
        recycle=abandoned_threads() > 0,
        task_id=job.task.id,
        trial=job.trial,
        result=result,
        infra_error=infra_error,
        prewarmed=prewarmed,
        worker_pid=os.getpid(),
        worker_max_rss_kb=peak_rss_kb(),
    )
