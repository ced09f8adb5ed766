"""A run: many episodes of one agent, written to a run directory that survives kills.

Layout (a fixed contract, see DESIGN.md)::

    RUN_DIR/run.json                        config, version, git revision, seeds, times
    RUN_DIR/results.jsonl                   one line per finished episode
    RUN_DIR/episodes/<task_id>/steps.jsonl  one line per step, written as it happens

Only this process writes ``results.jsonl``, one line the moment each episode finishes;
workers (this process, local processes or Ray actors, see :mod:`.backends`) return
results as JSON text, so nothing of ours is pickled.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any, Literal

from pydantic import BaseModel, Field

from devicesworld import jsonl
from devicesworld.agents.registry import get_agent
from devicesworld.devices.ownership import Reaped, reap
from devicesworld.runner.agentcall import DEFAULT_CALL_TIMEOUT_S
from devicesworld.runner.backends import BackendError, WorkerPool, open_pool
from devicesworld.runner.backends.scheduler import DEFAULT_SETUP_TIMEOUT_S, SchedulePolicy, Scheduler
from devicesworld.runner.jobs import EpisodeJob, EpisodeSettings, JobOutcome, kind_modules
from devicesworld.runner.resultsfile import append_results, repair_and_read
from devicesworld.runner.selection import resume_difference, trial_seed
from devicesworld.spec.models import Task
from devicesworld.spec.records import EpisodeResult, episode_key
from devicesworld.tasks.manifest import Protocol, apply_protocol, task_hash
from devicesworld.version import __version__

RUN_SCHEMA_VERSION = 3
"""2: config has retry_errors and max_consecutive_errors; status may be 'stopped'; 3: config has
selection, trials and force_resume; results carry task_hash, manifest and trial (docs/log-format.md)."""


class RunError(Exception):
    """The run cannot start (bad options, a run directory that would be overwritten)."""


class _FailFast(Exception):
    """Raised out of the scheduler when too many episodes in a row ended in an error."""


class RunConfig(BaseModel):
    agent: str
    source: str = Field(description="`suite:NAME` or the task file path.")
    seed: int = 0
    workers: int = Field(default=1, ge=1)
    backend: Literal["local", "ray"] = "local"
    ray_address: str | None = Field(
        default=None, description="An existing Ray cluster (else RAY_ADDRESS, else local)."
    )
    episode_timeout: float | None = Field(
        default=None,
        gt=0,
        description="Seconds after an episode began (environment ready) before it is abandoned (time_limit).",
    )
    setup_timeout: float = Field(
        default=DEFAULT_SETUP_TIMEOUT_S,
        gt=0,
        description="With an episode timeout: seconds a job may take to begin (worker start, setup) "
        "before it counts as an infrastructure failure.",
    )
    prewarm: bool = Field(default=True, description="Reset each worker's next environment in the background.")
    prewarm_min_setup_ms: float = Field(
        default=1.0, ge=0, description="Pre-warm only while setups take at least this long (ms)."
    )
    max_attempts: int = Field(default=3, ge=1, description="Attempts per episode on infrastructure failures.")
    limit: int | None = None
    model: str | None = None
    base_url: str | None = None
    resume: bool = False
    retry_errors: bool = Field(
        default=False, description="With resume: run again the episodes that ended in an error."
    )
    max_consecutive_errors: int = Field(
        default=3,
        ge=0,
        description="Stop the run after this many episodes in a row end in an agent or harness error "
        "(0: never stop).",
    )
    screenshots: bool = Field(default=False, description="Save each device's screen after every step.")
    agent_call_timeout: float | None = Field(
        default=DEFAULT_CALL_TIMEOUT_S,
        gt=0,
        description="Seconds one call into the agent (model replies included) may take before its "
        "episode ends as time_limit (None: no limit but the task's max_seconds).",
    )
    agent_extra: dict[str, Any] = Field(default_factory=dict, description="AgentOptions.extra (--agent-opt).")
    trials: int = Field(default=1, ge=1, description="Episodes per task, each from a fresh reset (--trials).")
    force_resume: bool = Field(default=False, description="Resume even when the selection differs.")
    selection: dict[str, Any] = Field(
        default_factory=dict,
        description="What the run ran (runner.selection.make_selection): a resume must keep it.",
    )
    skipped_unavailable: list[str] = Field(
        default_factory=list,
        description="Tasks of the selection dropped because this machine lacks what their devices need "
        "(--skip-unavailable).",
    )


class RunOutcome(BaseModel):
    out_dir: str
    results: list[EpisodeResult]
    skipped: int = Field(description="Episodes already finished in an earlier attempt (--resume).")
    warnings: list[str] = Field(default_factory=list)
    interrupted: bool = False
    retries: int = Field(default=0, description="Episodes re-run after an infrastructure failure.")
    prewarmed: int = Field(default=0, description="Episodes whose environment was reset ahead of time.")
    worker_peak_rss_kb: dict[int, int] = Field(
        default_factory=dict, description="Peak resident memory of each worker process, by pid."
    )
    stopped: str | None = Field(
        default=None,
        description="Why the run stopped early (consecutive errors): the last error, the end of its "
        "traceback and where the full one is.",
    )
    retried_errors: int = Field(default=0, description="Errored episodes run again (--retry-errors).")

    @property
    def success_rate(self) -> float:
        """The fraction of this run's valid episodes that succeeded (0 when none ran)."""
        valid = [r for r in self.results if r.valid]
        return sum(r.success for r in valid) / len(valid) if valid else 0.0

    @property
    def all_errored(self) -> bool:
        """Every episode ended in an error: the harness or the agent never worked."""
        return bool(self.results) and all(r.termination == "error" for r in self.results)


ProgressFn = Callable[[EpisodeResult], None]


def execute_run(
    tasks: list[Task],
    config: RunConfig,
    out_dir: Path,
    *,
    on_result: ProgressFn | None = None,
    on_start: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Run every task not yet finished in ``out_dir``; returns all results of the run directory.

    ``on_start`` is told how many episodes will run (after --resume skips), before the first.
    """
    entry = get_agent(config.agent)
    results_path = out_dir / "results.jsonl"
    if results_path.exists() and not config.resume:
        raise RunError(f"{out_dir} already holds a run; pass --resume to continue it or choose another --out")
    if config.resume and config.selection and not config.force_resume:
        differs = resume_difference(out_dir, config.selection)
        if differs:
            raise RunError(differs)
    out_dir.mkdir(parents=True, exist_ok=True)
    previous, warnings = repair_and_read(results_path)
    retried = 0
    if config.retry_errors and previous:
        kept = [r for r in previous if r.termination != "error" and r.valid]
        retried = len(previous) - len(kept)
        if retried:
            _rewrite_results(results_path, kept)
            previous = kept
    warnings += reap_warnings(reap())
    done = {r.episode_key for r in previous}
    if config.limit is not None:
        tasks = tasks[: config.limit]
    trials = range(1, config.trials + 1)
    todo_pairs = [(t, k) for t in tasks for k in trials if episode_key(t.id, k) not in done]
    todo = list({t.id: t for t, _ in todo_pairs}.values())
    skipped = len(tasks) * config.trials - len(todo_pairs)
    hashes = {t.id: task_hash(t) for t in tasks}  # the shipped task's, before the protocol's budget
    manifest_hash = str(config.selection.get("manifest_hash") or "")
    protocol = config.selection.get("protocol")
    if isinstance(protocol, dict):
        todo_pairs = list(
            zip(
                apply_protocol([t for t, _ in todo_pairs], Protocol(**protocol)),
                [k for _, k in todo_pairs],
                strict=True,
            )
        )
        todo = list({t.id: t for t, _ in todo_pairs}.values())
    settings = EpisodeSettings(
        agent=entry.name,
        seed=config.seed,
        model=config.model,
        base_url=config.base_url,
        screenshots=config.screenshots,
        agent_call_timeout=config.agent_call_timeout,
        agent_extra=config.agent_extra,
        kind_modules=kind_modules(todo),
    )
    jobs = [
        EpisodeJob(
            task=t,
            episode_dir=str(out_dir / "episodes" / episode_key(t.id, k)),
            settings=settings,
            trial=k,
            agent_seed=trial_seed(config.selection, config.seed, k) if config.trials > 1 else None,
        )
        for t, k in todo_pairs
    ]
    if on_start is not None:
        on_start(len(jobs))
    fresh: list[EpisodeResult] = []
    interrupted = False
    stats = RunOutcome(
        out_dir=str(out_dir), results=[], skipped=skipped, warnings=warnings, retried_errors=retried
    )
    in_a_row = 0

    def record(outcomes: list[JobOutcome]) -> None:
        nonlocal in_a_row
        results = []
        for outcome in outcomes:
            if outcome.result is not None:  # stamp what was run, so that reports can tell sets apart
                outcome.result.trial = outcome.trial
                outcome.result.task_hash = hashes.get(outcome.result.task_id, "")
                outcome.result.manifest = manifest_hash
                results.append(outcome.result)
        append_results(results_path, results)
        fresh.extend(results)
        for outcome in outcomes:
            stats.prewarmed += outcome.prewarmed
            if outcome.worker_pid:
                stats.worker_peak_rss_kb[outcome.worker_pid] = outcome.worker_max_rss_kb
        if on_result is not None:
            for result in results:
                on_result(result)
        for result in results:
            in_a_row = in_a_row + 1 if result.termination == "error" else 0
            if config.max_consecutive_errors and in_a_row >= config.max_consecutive_errors:
                stats.stopped = _stop_message(out_dir, result, in_a_row)
                raise _FailFast

    manifest: dict[str, Any] | None = None
    pool: WorkerPool | None = None
    scheduler: Scheduler | None = None
    failure: str | None = None
    cut_short: list[str] = []
    previous_term = _term_as_interrupt()
    try:
        if jobs:
            pool = _open_pool(config, len(jobs))
        manifest = _start_manifest(out_dir, config, len(tasks))
        if pool is not None:
            policy = SchedulePolicy(
                episode_timeout=config.episode_timeout,
                max_attempts=config.max_attempts,
                setup_timeout=config.setup_timeout,
            )
            scheduler = Scheduler(pool, policy, record, warnings.append)
            scheduler.run(jobs)
    except KeyboardInterrupt:
        interrupted = True
        cut_short = scheduler.in_flight() if scheduler is not None else []
    except _FailFast:
        pass
    except BaseException as exc:  # never leave run.json saying "complete" after a crash
        failure = f"{type(exc).__name__}: {str(exc)[:500]}"
        raise
    finally:
        try:
            if pool is not None:
                pool.close()
        finally:
            _restore_term(previous_term)
        if manifest is not None:
            if cut_short:
                manifest["attempts"][-1]["interrupted_episodes"] = cut_short
            manifest["time"] = _time_totals([*previous, *fresh])
            _finish_manifest(
                out_dir,
                manifest,
                "interrupted" if interrupted else "stopped" if stats.stopped else None,
                failure,
            )
    wanted = {episode_key(t.id, k) for t in tasks for k in trials}
    merged = {r.episode_key: r for r in previous if r.episode_key in wanted}
    merged.update({r.episode_key: r for r in fresh})
    stats.results = list(merged.values())
    stats.warnings = warnings
    stats.interrupted = interrupted
    stats.retries = scheduler.retries if scheduler is not None else 0
    return stats


_Handler = Callable[[int, FrameType | None], Any] | int | None


def _term_as_interrupt() -> _Handler:
    """SIGTERM (``timeout``, a batch scheduler, ``docker stop``) ends the run as Ctrl+C does:
    finished episodes kept, the ones in flight named in ``run.json``, status ``interrupted``,
    resumable. Returns the handler to restore (None off the main thread, where none is set)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
        raise KeyboardInterrupt(f"signal {signum}")

    return signal.signal(signal.SIGTERM, interrupt)


def _restore_term(previous: _Handler) -> None:
    if previous is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, previous)


def _time_totals(results: list[EpisodeResult]) -> dict[str, Any]:
    """Where the episodes' time went, in ``run.json``: the wall limit counts environment and agent
    time; the model's latency is recorded apart and never counted against it."""

    def total(values: list[float | None]) -> float:
        return round(sum(v for v in values if v is not None), 3)

    return {
        "wall_limit": "each task's max_seconds counts environment and agent time, not model latency",
        "episodes": len(results),
        "duration_s": total([r.duration_s for r in results]),
        "limit_time_s": total([r.limit_time_s for r in results]),
        "env_time_s": total([r.env_time_s for r in results]),
        "model_latency_s": total([r.model_latency_s for r in results]),
    }


def reap_warnings(reaped: list[Reaped]) -> list[str]:
    """One line saying which folders of dead processes were removed (none: no line)."""
    gone = [r for r in reaped if r.removed]
    if not gone:
        return []
    pids = sorted({r.owner.pid for r in gone if r.owner is not None})
    names = ", ".join(Path(r.path).name for r in gone[:5]) + (", ..." if len(gone) > 5 else "")
    owners = f" (pid {', '.join(map(str, pids))})" if pids else ""
    return [f"removed {len(gone)} folder(s) left by processes that died{owners}: {names}"]


def _open_pool(config: RunConfig, n_jobs: int) -> WorkerPool:
    try:
        return open_pool(
            config.backend,
            min(config.workers, n_jobs),
            prewarm=config.prewarm,
            prewarm_min_setup_s=config.prewarm_min_setup_ms / 1000,
            episode_timeout=config.episode_timeout,
            ray_address=config.ray_address,
        )
    except BackendError as exc:
        raise RunError(str(exc)) from None


def _start_manifest(out_dir: Path, config: RunConfig, n_tasks: int) -> dict[str, Any]:
    path = out_dir / "run.json"
    manifest: dict[str, Any] = {}
    if path.exists():
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            manifest = {}
    now = _now()
    if not manifest:
        manifest = {
            "schema_version": RUN_SCHEMA_VERSION,
            "config": config.model_dump(),
            "devicesworld_version": __version__,
            "git_revision": _git_revision(),
            "seed": config.seed,
            "n_tasks": n_tasks,
            "started_at": now,
            "attempts": [],
        }
    attempt: dict[str, Any] = {"started_at": now, "pid": os.getpid()}
    before = manifest.get("config", {}).get("selection") if isinstance(manifest.get("config"), dict) else None
    if config.force_resume and config.selection and before != config.selection:
        attempt["selection_before"] = before  # --force-resume: the run goes on under the new selection
        manifest["config"]["selection"] = config.selection
    manifest.setdefault("attempts", []).append(attempt)
    manifest["status"] = "running"
    _write_json(path, manifest)
    return manifest


def _finish_manifest(
    out_dir: Path, manifest: dict[str, Any], early: str | None, failure: str | None = None
) -> None:
    """``complete`` only when every episode was handed out and recorded; else why not
    (``early``: ``interrupted`` by Ctrl+C or ``stopped`` after consecutive errors)."""
    now = _now()
    manifest["attempts"][-1]["ended_at"] = now
    manifest["ended_at"] = now
    manifest["status"] = "failed" if failure else early or "complete"
    if failure:
        manifest["attempts"][-1]["error"] = manifest["error"] = failure
    else:
        manifest.pop("error", None)
    _write_json(out_dir / "run.json", manifest)


TRACEBACK_LINES = 8
"""Lines of the last error's traceback quoted when a run stops early."""


def _stop_message(out_dir: Path, result: EpisodeResult, in_a_row: int) -> str:
    """The last error, the end of its traceback (from ``steps.jsonl``) and where the full one is."""
    steps = out_dir / "episodes" / result.episode_key / "steps.jsonl"
    tail: list[str] = []
    try:
        last = steps.read_text(encoding="utf-8").rstrip("\n").split("\n")[-1]
        trace = json.loads(last).get("traceback") or ""
        tail = [line for line in str(trace).rstrip().splitlines() if line.strip()][-TRACEBACK_LINES:]
    except (OSError, IndexError, ValueError, AttributeError):
        pass
    message = f"stopped after {in_a_row} episodes in a row ended in an error; the last, {result.task_id}: {result.error}"
    if tail:
        message += "\n" + "\n".join(tail) + f"\nfull traceback: {steps} (its last line)"
    return message


def _rewrite_results(path: Path, results: list[EpisodeResult]) -> None:
    """Replace ``results.jsonl`` with ``results`` (atomically), for --retry-errors."""
    tmp = path.with_suffix(".jsonl.tmp")
    tmp.write_text("".join(jsonl.model_line(r) for r in results), encoding="utf-8")
    os.replace(tmp, path)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _git_revision() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None
