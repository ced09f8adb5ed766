"""One episode: reset, let the agent act until it ends, evaluate, clean up.

Every step is appended to ``steps.jsonl`` as it happens, so a crash or a kill leaves
a readable trajectory. Failures of the agent are the agent's (the episode ends with
``error`` and is scored); failures to build the environment are the harness's and
are reported as such.
"""

from __future__ import annotations

import base64
import functools
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Final, TypeVar

from devicesworld import jsonl
from devicesworld.agents.base import AgentEntry, AgentOptions, DeviceInfo, EpisodeInfo, Feedback
from devicesworld.analysis.sources import sources_seen
from devicesworld.clip import clip, log_cut, log_cut_all
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.runner.agentcall import DEFAULT_CALL_TIMEOUT_S, AgentThread, AgentTimeout
from devicesworld.spec.actions import Termination
from devicesworld.spec.models import Task
from devicesworld.spec.records import (
    RECORD_SCHEMA_VERSION,
    ConditionRecord,
    EpisodeResult,
    StepRecord,
    observation_text,
)
from devicesworld.tasks.profiles import desktop_profile
from devicesworld.tasks.scenarios.tiers import task_tier

T = TypeVar("T")


def run_episode(
    task: Task,
    entry: AgentEntry,
    options: AgentOptions,
    episode_dir: Path | None,
    *,
    screenshots: bool = False,
    env: CrossDeviceEnv | None = None,
    on_begin: Callable[[], None] | None = None,
    agent_call_timeout: float | None = DEFAULT_CALL_TIMEOUT_S,
    on_phase: Callable[[str], None] | None = None,
) -> EpisodeResult:
    """Run ``task`` with the agent; write steps (and screenshots, if asked) under ``episode_dir``.

    ``env``, when given, is an environment already reset for ``task`` (pre-warmed by a
    worker while the previous episode ran); its setup time still counts in ``duration_s``.
    ``on_begin`` is called once, when the environment is ready and the agent is about to
    be handed the episode (before ``agent.start`` and the first step): the runner's
    episode timeout counts from there, so imports, worker start-up and setup never use
    up an episode's time.

    Every call into the agent runs with deadlines (:mod:`.agentcall`): what is left of
    the task's ``max_seconds`` for the agent's own time (model replies are not counted:
    the budget is the environment's) and ``agent_call_timeout`` for the whole call.
    ``on_phase`` is told ``"agent"`` before each call into agent code and ``"env"``
    after it, so a worker process that dies can be blamed on the right party.
    """
    t0 = time.perf_counter()
    tokens_in = tokens_out = 0
    error: str | None = None
    invalid: str | None = None
    model_s = env_s = 0.0
    prewarmed = env is not None
    if env is None:
        env = CrossDeviceEnv(task, seed=options.seed)
    else:
        t0 -= env.setup_seconds
    log: IO[str] | None = None
    if episode_dir is not None:
        episode_dir.mkdir(parents=True, exist_ok=True)
        log = (episode_dir / "steps.jsonl").open("w", encoding="utf-8")
    caller = AgentThread(call_timeout=agent_call_timeout)
    limit = task.limits.max_seconds
    live = env

    def ask(fn: Callable[[], T]) -> tuple[T, float]:
        """``fn()`` on the agent's thread, with what is left of the budget; model time excluded."""
        if on_phase is not None:
            on_phase("agent")
        try:
            return caller.call(fn, budget=None if limit is None else limit - live.elapsed())
        finally:
            if on_phase is not None:
                on_phase("env")

    try:
        try:
            if prewarmed:
                env.restart_timer()
            observation = env.observe() if prewarmed else env.reset()
        except Exception as exc:
            if log is not None:
                write_traceback(log, f"setup failed: {exc}")
            error = clip(f"setup failed: {exc}", ERROR_LIMIT)
            return failure_result(task, entry.name, error, duration_s=time.perf_counter() - t0, sources=True)
        initial = _initial_verdicts(env)
        sources = [s.model_dump() for s in task.metadata.sources]
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
            agent, waited = ask(lambda: entry.factory(options))
            env.exclude_time(waited)
            model_s += waited
            _, waited = ask(lambda: agent.start(info))
            env.exclude_time(waited)
            model_s += waited
            env.phase_timings()  # the reset's own phases belong to no step
            while not env.done:
                t_step = time.perf_counter()
                if getattr(agent, "wants_screenshots", False):
                    observation = _with_screenshots(env, observation)
                seen = observation_text(observation) if log is not None else {}
                t_ask = time.perf_counter()
                decision, waited = ask(functools.partial(agent.act, observation, feedback))
                t_decided = time.perf_counter()
                reported = _number(decision.notes.get("model_latency_s"))
                waited = min(max(waited, reported), t_decided - t_ask)  # agents that time their own model
                env.exclude_time(waited)
                model_s += waited
                if episode_dir is not None:
                    _keep_images_seen(episode_dir, observation, decision.notes.get("images"))
                outcome = env.step(decision.action)
                observation = env.observe()
                env_s += (t_ask - t_step) + (time.perf_counter() - t_decided)
                tokens_in += decision.tokens_in
                tokens_out += decision.tokens_out
                feedback = Feedback(step=outcome.step, action=decision.action, result=outcome.result)
                if log is not None:
                    shots = _save_screenshots(env, episode_dir, outcome.step) if screenshots else []
                    record = StepRecord(
                        step=outcome.step,
                        action=_logged(decision.action.model_dump()),
                        ok=outcome.result.ok,
                        message=outcome.result.message,
                        data=outcome.result.data,
                        error_code=outcome.result.error_code,
                        latency_s=time.perf_counter() - t_step,
                        virtual_time=env.clock.now.isoformat(),
                        tokens_in=decision.tokens_in,
                        tokens_out=decision.tokens_out,
                        screenshots=shots,
                        agent_latency_s=round(t_decided - t_ask, 6),
                        model_latency_s=round(waited, 6),
                        agent_notes=_logged(decision.notes),
                        observation=seen,
                        phases=env.phase_timings(),
                        sources_seen=sources_seen(
                            sources, observation, (outcome.result.message, outcome.result.data)
                        ),
                    )
                    log.write(_step_line(record))
                    log.flush()
        except AgentTimeout as exc:  # a hung agent: its episode ends, the run goes on
            if log is not None:
                log.write(jsonl.dumps_line({"schema_version": RECORD_SCHEMA_VERSION, "time_limit": str(exc)}))
                log.flush()
            env.end("time_limit")
        except Exception as exc:  # the agent crashed (or exited): its episode ends, the run goes on
            error = clip(f"agent error: {type(exc).__name__}: {exc}", ERROR_LIMIT)
            if log is not None:
                write_traceback(log, error)
            env.end("error")
        verdict = env.evaluate()
        result = EpisodeResult(
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
            limit_time_s=round(env.elapsed(), 6),
            env_time_s=round(env_s, 6),
            model_latency_s=round(model_s, 6),
            **_task_fields(task),
        )
        if env.device_failures:
            invalid = f"device_failed: {clip(env.device_failures[0])}"
        env.close()
        if env.cleanup_errors and invalid is None:
            invalid = f"cleanup_failed: {clip('; '.join(env.cleanup_errors))}"
        if invalid is not None:
            result = result.model_copy(update={"valid": False, "invalid_cause": invalid})
        return result
    finally:
        caller.close()
        env.close()
        if log is not None:
            log.close()


ERROR_LIMIT: Final = 2000
"""Characters of an agent's exception message kept in ``results.jsonl`` (the traceback line
in ``steps.jsonl`` has the rest, cut at :data:`~devicesworld.clip.LOG_LIMIT`)."""


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _logged(value: dict[str, Any]) -> dict[str, Any]:
    """An agent-written value for the log: each string cut at 64 KiB, saying how much was cut."""
    out = log_cut_all(value)
    return out if isinstance(out, dict) else {}


def write_traceback(log: IO[str], error: str) -> None:
    """The last line of ``steps.jsonl`` when an episode errs: the error and the full traceback."""
    line = {
        "schema_version": RECORD_SCHEMA_VERSION,
        "error": log_cut(error),
        "traceback": log_cut(traceback.format_exc()),
    }
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
        "desktop_profile": desktop_profile(task),
        "pattern": md.pattern,
        "difficulty": md.difficulty,
        "tier": task_tier(task),
        "apps": list(md.apps),
        "split": md.split,
        "sources": [s.model_dump() for s in md.sources],
    }


def failure_result(
    task: Task,
    agent: str,
    error: str,
    termination: Termination = "error",
    duration_s: float = 0.0,
    *,
    valid: bool | None = None,
    sources: bool = False,
) -> EpisodeResult:
    """The result of an episode that produced none of its own (setup failed, timeout, retries exhausted).

    ``valid`` defaults to: a ``time_limit`` is the agent's (valid), anything else is
    the environment's or the harness's (invalid, with its cause). ``sources`` copies the
    task's metadata.sources, as a failed setup's result always has.
    """
    valid = termination == "time_limit" if valid is None else valid
    fields = _task_fields(task)
    if not sources:
        del fields["sources"]
    return EpisodeResult(
        task_id=task.id,
        success=False,
        score=0.0,
        steps=0,
        duration_s=round(duration_s, 6),
        termination=termination,
        agent=agent,
        error=error,
        valid=valid,
        invalid_cause=None if valid else invalid_cause(error),
        **fields,
    )


def invalid_cause(error: str) -> str:
    """The class of an environment failure, from the runner's error text: ``setup_failed``,
    ``infrastructure`` (the machine, after retries), ``harness_error`` or ``environment``."""
    for prefix, cause in (
        ("setup failed", "setup_failed"),
        ("infrastructure failure", "infrastructure"),
        ("harness error", "harness_error"),
    ):
        if error.startswith(prefix):
            return cause
    return "environment"
