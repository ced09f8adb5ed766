"""One episode: reset, let the agent act until it ends, evaluate, clean up.

Every step is appended to ``steps.jsonl`` as it happens, so a crash or a kill leaves
a readable trajectory. Failures of the agent are the agent's (the episode ends with
``error`` and is scored); failures to build the environment are the harness's and
are reported as such.
"""

from __future__ import annotations

import base64
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from devicesworld import jsonl
from devicesworld.agents.base import AgentEntry, AgentOptions, DeviceInfo, EpisodeInfo, Feedback
from devicesworld.analysis.sources import sources_seen
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.spec.records import (
    RECORD_SCHEMA_VERSION,
    ConditionRecord,
    EpisodeResult,
    StepRecord,
    observation_text,
)


def run_episode(
    task: Task,
    entry: AgentEntry,
    options: AgentOptions,
    episode_dir: Path | None,
    *,
    screenshots: bool = False,
    env: CrossDeviceEnv | None = None,
    on_begin: Callable[[], None] | None = None,
) -> EpisodeResult:
    """Run ``task`` with the agent; write steps (and screenshots, if asked) under ``episode_dir``.

    ``env``, when given, is an environment already reset for ``task`` (pre-warmed by a
    worker while the previous episode ran); its setup time still counts in ``duration_s``.
    ``on_begin`` is called once, when the environment is ready and the agent is about to
    be handed the episode (before ``agent.start`` and the first step): the runner's
    episode timeout counts from there, so imports, worker start-up and setup never use
    up an episode's time.
    """
    t0 = time.perf_counter()
    tokens_in = tokens_out = 0
    error: str | None = None
    prewarmed = env is not None
    if env is None:
        env = CrossDeviceEnv(task, seed=options.seed)
    else:
        t0 -= env.setup_seconds
    log: IO[str] | None = None
    if episode_dir is not None:
        episode_dir.mkdir(parents=True, exist_ok=True)
        log = (episode_dir / "steps.jsonl").open("w", encoding="utf-8")
    try:
        try:
            if prewarmed:
                env.restart_timer()
            observation = env.observe() if prewarmed else env.reset()
        except Exception as exc:
            if log is not None:
                write_traceback(log, f"setup failed: {exc}")
            return _harness_failure(task, entry, f"setup failed: {exc}", time.perf_counter() - t0)
        initial = _initial_verdicts(env)
        sources = [s.model_dump() for s in task.metadata.sources]
        agent = entry.factory(options)
        info = EpisodeInfo(
            task_id=task.id,
            instruction=task.instruction,
            devices=[DeviceInfo(id=d.id, kind=d.kind) for d in task.devices],
            action_spaces=env.action_spaces(),
            max_steps=task.limits.max_steps,
            solution=list(task.solution) if entry.privileged else None,
        )
        feedback: Feedback | None = None
        if on_begin is not None:
            on_begin()
        try:
            agent.start(info)
            while not env.done:
                t_step = time.perf_counter()
                if getattr(agent, "wants_screenshots", False):
                    observation = _with_screenshots(env, observation)
                seen = observation_text(observation) if log is not None else {}
                decision = agent.act(observation, feedback)
                t_decided = time.perf_counter()
                if episode_dir is not None:
                    _keep_images_seen(episode_dir, observation, decision.notes.get("images"))
                outcome = env.step(decision.action)
                observation = env.observe()
                tokens_in += decision.tokens_in
                tokens_out += decision.tokens_out
                feedback = Feedback(step=outcome.step, action=decision.action, result=outcome.result)
                if log is not None:
                    shots = _save_screenshots(env, episode_dir, outcome.step) if screenshots else []
                    record = StepRecord(
                        step=outcome.step,
                        action=decision.action.model_dump(),
                        ok=outcome.result.ok,
                        message=outcome.result.message,
                        data=outcome.result.data,
                        error_code=outcome.result.error_code,
                        latency_s=time.perf_counter() - t_step,
                        virtual_time=env.clock.now.isoformat(),
                        tokens_in=decision.tokens_in,
                        tokens_out=decision.tokens_out,
                        screenshots=shots,
                        agent_latency_s=round(t_decided - t_step, 6),
                        model_latency_s=float(decision.notes.get("model_latency_s", 0.0) or 0.0),
                        agent_notes=decision.notes,
                        observation=seen,
                        sources_seen=sources_seen(
                            sources, observation, (outcome.result.message, outcome.result.data)
                        ),
                    )
                    log.write(_step_line(record))
                    log.flush()
        except Exception as exc:  # the agent crashed: its episode ends, the run goes on
            error = f"agent error: {type(exc).__name__}: {exc}"
            if log is not None:
                write_traceback(log, error)
            env.end("error")
        verdict = env.evaluate()
        return EpisodeResult(
            task_id=task.id,
            success=verdict.success,
            score=verdict.score,
            steps=env.steps,
            duration_s=round(time.perf_counter() - t0, 6),
            termination=env.termination or "error",
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            conditions=[
                ConditionRecord(**c.model_dump(), **initial.get(c.id, {})) for c in verdict.conditions
            ],
            agent=entry.name,
            error=error,
            setup_s=round(env.setup_seconds, 6),
            **_task_fields(task),
        )
    finally:
        env.close()
        if log is not None:
            log.close()


def write_traceback(log: IO[str], error: str) -> None:
    """The last line of ``steps.jsonl`` when an episode errs: the error and the full traceback."""
    line = {"schema_version": RECORD_SCHEMA_VERSION, "error": error, "traceback": traceback.format_exc()}
    log.write(jsonl.dumps_line(line))
    log.flush()


def _step_line(record: StepRecord) -> str:
    """The record as a line; output that cannot be serialised is replaced by a note, not lost."""
    try:
        return jsonl.model_line(record)
    except ValueError as exc:  # PydanticSerializationError: e.g. nested deeper than the serialiser allows
        note = f"<not recorded: the output could not be serialised: {str(exc)[:200]}>"
        return jsonl.model_line(record.model_copy(update={"data": note, "agent_notes": {}}))


def _initial_verdicts(env: CrossDeviceEnv) -> dict[str, dict[str, object]]:
    """Each condition's verdict right after setup: lets diagnosis tell "never changed" from "wrong"."""
    try:
        verdict = env.evaluate()
    except Exception:  # diagnosis evidence only; never fail an episode over it
        return {}
    return {c.id: {"initial_passed": c.passed, "initial_detail": c.detail} for c in verdict.conditions}


def _save_screenshots(env: CrossDeviceEnv, episode_dir: Path | None, step: int) -> list[str]:
    """Write each device's screen after ``step`` as ``step<NNN>_<device>.png``; returns the names."""
    if episode_dir is None:
        return []
    names: list[str] = []
    for device_id, png in env.screenshots().items():
        name = f"step{step:03d}_{device_id}.png"
        (episode_dir / name).write_bytes(png)
        names.append(name)
    return names


def _keep_images_seen(episode_dir: Path, observation: dict[str, dict[str, Any]], images: Any) -> None:
    """Save the screenshots an agent says its model saw (notes ``images``: device -> the
    relative path ``images/<sha256>.png``), each once: the viewer shows them beside the prompt."""
    if not isinstance(images, dict):
        return
    for device_id, rel in images.items():
        view = observation.get(device_id) or {}
        data = view.get("_screenshot_png")
        if not isinstance(rel, str) or not isinstance(data, str) or not rel.startswith("images/"):
            continue
        target = episode_dir / rel
        if target.parent != episode_dir / "images" or target.exists():
            continue
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(base64.b64decode(data))


def _with_screenshots(
    env: CrossDeviceEnv, observation: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The observation with each device's PNG (base64) under ``_screenshot_png``, for vision agents."""
    shots = env.screenshots()
    return {
        device_id: (
            {**view, "_screenshot_png": base64.b64encode(shots[device_id]).decode("ascii")}
            if device_id in shots
            else view
        )
        for device_id, view in observation.items()
    }


def _task_fields(task: Task) -> dict[str, object]:
    md = task.metadata
    return {
        "instruction": task.instruction,
        "device_combo": task.device_combo,
        "device_kinds": [d.kind for d in task.devices],
        "pattern": md.pattern,
        "difficulty": md.difficulty,
        "apps": list(md.apps),
        "split": md.split,
        "sources": [s.model_dump() for s in md.sources],
    }


def _harness_failure(task: Task, entry: AgentEntry, error: str, duration: float) -> EpisodeResult:
    return EpisodeResult(
        task_id=task.id,
        success=False,
        score=0.0,
        steps=0,
        duration_s=round(duration, 6),
        termination="error",
        agent=entry.name,
        error=error,
        **_task_fields(task),
    )
