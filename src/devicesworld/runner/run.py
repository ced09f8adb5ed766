"""A run: many episodes of one agent, written to a run directory that survives kills.

Layout (a fixed contract, see DESIGN.md)::

    RUN_DIR/run.json                        config, version, git revision, seeds, times
    RUN_DIR/results.jsonl                   one line per finished episode
    RUN_DIR/episodes/<task_id>/steps.jsonl  one line per step, written as it happens

Only this process writes ``results.jsonl``; worker processes return results as JSON
text, so nothing is pickled but plain strings.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

import devicesworld
from devicesworld.agents.base import AgentOptions
from devicesworld.agents.registry import get_agent
from devicesworld.runner.episode import run_episode
from devicesworld.runner.records import EpisodeResult
from devicesworld.runner.resultsfile import append_result, repair_and_read
from devicesworld.spec.models import Task

RUN_SCHEMA_VERSION = 1


class RunError(Exception):
    """The run cannot start (bad options, a run directory that would be overwritten)."""


class RunConfig(BaseModel):
    agent: str
    source: str = Field(description="`suite:NAME` or the task file path.")
    seed: int = 0
    workers: int = Field(default=1, ge=1)
    backend: str = "local"
    limit: int | None = None
    model: str | None = None
    base_url: str | None = None
    resume: bool = False
    screenshots: bool = Field(default=False, description="Save each device's screen after every step.")
    agent_extra: dict[str, Any] = Field(default_factory=dict, description="AgentOptions.extra (--agent-opt).")


class RunOutcome(BaseModel):
    out_dir: str
    results: list[EpisodeResult]
    skipped: int = Field(description="Episodes already finished in an earlier attempt (--resume).")
    warnings: list[str] = Field(default_factory=list)
    interrupted: bool = False


ProgressFn = Callable[[EpisodeResult], None]


def execute_run(
    tasks: list[Task], config: RunConfig, out_dir: Path, *, on_result: ProgressFn | None = None
) -> RunOutcome:
    """Run every task not yet finished in ``out_dir``; returns all results of the run directory."""
    entry = get_agent(config.agent)
    results_path = out_dir / "results.jsonl"
    if results_path.exists() and not config.resume:
        raise RunError(f"{out_dir} already holds a run; pass --resume to continue it or choose another --out")
    out_dir.mkdir(parents=True, exist_ok=True)
    previous, warnings = repair_and_read(results_path)
    done_ids = {r.task_id for r in previous}
    if config.limit is not None:
        tasks = tasks[: config.limit]
    todo = [t for t in tasks if t.id not in done_ids]
    skipped = len(tasks) - len(todo)
    manifest = _start_manifest(out_dir, config, len(tasks))
    options = AgentOptions(
        seed=config.seed, model=config.model, base_url=config.base_url, extra=config.agent_extra
    )
    fresh: list[EpisodeResult] = []
    interrupted = False

    def record(result: EpisodeResult) -> None:
        append_result(results_path, result)
        fresh.append(result)
        if on_result is not None:
            on_result(result)

    try:
        if config.workers == 1 or len(todo) <= 1:
            for task in todo:
                episode_dir = out_dir / "episodes" / task.id
                record(run_episode(task, entry, options, episode_dir, screenshots=config.screenshots))
        else:
            _run_parallel(todo, config, out_dir, record)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        _finish_manifest(out_dir, manifest, interrupted)
    wanted = {t.id for t in tasks}
    merged = {r.task_id: r for r in previous if r.task_id in wanted}
    merged.update({r.task_id: r for r in fresh})
    return RunOutcome(
        out_dir=str(out_dir),
        results=list(merged.values()),
        skipped=skipped,
        warnings=warnings,
        interrupted=interrupted,
    )


def _episode_job(task_json: str, config_json: str, ep_dir: str) -> str:
    """Worker-process entry point: JSON in, JSON out."""
    task = Task.model_validate_json(task_json)
    config = RunConfig.model_validate_json(config_json)
    options = AgentOptions(
        seed=config.seed, model=config.model, base_url=config.base_url, extra=config.agent_extra
    )
    result = run_episode(task, get_agent(config.agent), options, Path(ep_dir), screenshots=config.screenshots)
    return result.model_dump_json()


def _run_parallel(
    todo: Iterable[Task],
    config: RunConfig,
    out_dir: Path,
    record: Callable[[EpisodeResult], None],
) -> None:
    pool = ProcessPoolExecutor(max_workers=config.workers)
    pending: set[Future[str]] = set()
    try:
        for task in todo:
            pending.add(
                pool.submit(
                    _episode_job,
                    task.model_dump_json(),
                    config.model_dump_json(),
                    str(out_dir / "episodes" / task.id),
                )
            )
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                record(EpisodeResult.model_validate_json(future.result()))
    finally:
        pool.shutdown(wait=not pending, cancel_futures=True)


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
            "devicesworld_version": devicesworld.__version__,
            "git_revision": _git_revision(),
            "seed": config.seed,
            "n_tasks": n_tasks,
            "started_at": now,
            "attempts": [],
        }
    manifest.setdefault("attempts", []).append({"started_at": now, "pid": os.getpid()})
    manifest["status"] = "running"
    _write_json(path, manifest)
    return manifest


def _finish_manifest(out_dir: Path, manifest: dict[str, Any], interrupted: bool) -> None:
    now = _now()
    manifest["attempts"][-1]["ended_at"] = now
    manifest["ended_at"] = now
    manifest["status"] = "interrupted" if interrupted else "complete"
    _write_json(out_dir / "run.json", manifest)


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
