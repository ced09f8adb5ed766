"""A recorded session over one task: what every compatibility facade drives.

Facades (AndroidWorld's environment object, MCP servers, the Home Assistant API)
translate a foreign client's calls into our steps. Those steps must count and be
recorded exactly as the runner's are, or a facade's episodes could not be scored or
replayed next to native ones. This module is that one shared path: it owns a
:class:`~devicesworld.env.controller.CrossDeviceEnv`, sends every step through
``env.step`` (which counts it and enforces the step budget), appends one
:class:`~devicesworld.spec.records.StepRecord` per step to ``steps.jsonl`` as it
happens, and at the end evaluates and writes the episode's line to ``results.jsonl``
with the runner's own writer. The run directory has the runner's layout::

    RUN_DIR/run.json                        manifest (config.agent = the facade's name)
    RUN_DIR/results.jsonl                   one line per finished session
    RUN_DIR/episodes/<task_id>/steps.jsonl  one line per step

Several sessions (one per task) may share a run directory; a task that already has
a result there is refused, as the runner refuses to overwrite a run.

Interface (stable; other facades build on it)::

    session = RecordedSession(task, run_dir, agent="androidworld")
    observation = session.reset()            # devices built, setup run, run.json written
    outcome = session.step({"device": "android_0", "action": "click", "args": {"index": 3}})
    session.refuse(raw_action, ActionResult.failure("CODE", "why"))  # counted, never sent to a device
    session.observe(); session.evaluate()    # current observation / verdict, no side effects
    result = session.close()                 # evaluate, write results.jsonl, close devices

``run_dir=None`` keeps everything in memory (no files). ``step`` and ``refuse`` never
raise over a bad action (the controller's promise: it comes back as a failed,
counted step); only using the session before ``reset`` or after ``close`` raises
:class:`SessionError`. ``close`` is idempotent and returns the same
:class:`~devicesworld.spec.records.EpisodeResult` every time. The session is a
context manager that closes itself. Each session sharing a run directory adds an
attempt to ``run.json``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from devicesworld.analysis.sources import sources_seen
from devicesworld.devices.base import ActionResult, GetterFn
from devicesworld.env.controller import CrossDeviceEnv, StepOutcome
from devicesworld.runner.episode import _initial_verdicts, _save_screenshots, _step_line, _task_fields
from devicesworld.runner.resultsfile import append_results, repair_and_read
from devicesworld.runner.run import RunConfig, _finish_manifest, _start_manifest, _write_json
from devicesworld.spec.actions import Termination
from devicesworld.spec.models import Step, Task
from devicesworld.spec.records import ConditionRecord, EpisodeResult, StepRecord
from devicesworld.verify.evaluate import EvaluationResult


class SessionError(Exception):
    """The session cannot be used as asked (not started, already closed, a result already written)."""


class RecordedSession:
    """One task's devices behind a counted, recorded step path (see the module docstring)."""

    def __init__(
        self,
        task: Task,
        run_dir: Path | None,
        *,
        agent: str = "compat",
        source: str | None = None,
        seed: int = 0,
        screenshots: bool = False,
    ) -> None:
        self.task = task
        self.run_dir = run_dir
        self.agent = agent
        self.seed = seed
        self.screenshots = screenshots
        self.env = CrossDeviceEnv(task, seed=seed)
        self._config = RunConfig(agent=agent, source=source or f"task:{task.id}", seed=seed)
        self._log: IO[str] | None = None
        self._manifest: dict[str, Any] | None = None
        self._initial: dict[str, dict[str, object]] = {}
        self._sources = [s.model_dump() for s in task.metadata.sources]
        self._t0 = 0.0
        self._started = False
        self._result: EpisodeResult | None = None
        self.error: str | None = None
        self._not_comparable: str | None = None

    # ------------------------------------------------------------------ lifecycle
    @property
    def episode_dir(self) -> Path | None:
        return None if self.run_dir is None else self.run_dir / "episodes" / self.task.id

    def reset(self) -> dict[str, dict[str, Any]]:
        """Build the devices, run setup, open the run directory; returns the first observation.

        A second ``reset`` is refused: one session is one recorded episode.
        """
        if self._started:
            raise SessionError(f"the session for task {self.task.id} has already started; open a new one")
        if self.run_dir is not None:
            previous, _ = repair_and_read(self.run_dir / "results.jsonl")
            if any(r.task_id == self.task.id for r in previous):
                raise SessionError(
                    f"{self.run_dir} already holds a result for task {self.task.id}; choose another run directory"
                )
        self._t0 = time.perf_counter()
        observation = self.env.reset()
        self._started = True
        self._initial = _initial_verdicts(self.env)
        if self.run_dir is not None and self.episode_dir is not None:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            self._manifest = _start_manifest(self.run_dir, self._config, 1)
            if self._not_comparable is not None:
                self.mark_not_comparable(self._not_comparable)
            self.episode_dir.mkdir(parents=True, exist_ok=True)
            self._log = (self.episode_dir / "steps.jsonl").open("w", encoding="utf-8")
        return observation

    def mark_not_comparable(self, reason: str) -> None:
        """Record in ``run.json`` that this episode's score is not comparable, and why.

        Used by ``serve mcp --debug-evaluate``: an agent that could read the verifiers'
        verdict while it acted has been helped; its run must say so.
        """
        self._not_comparable = reason
        if self._manifest is not None and self.run_dir is not None:
            self._manifest["comparable"] = False
            self._manifest["not_comparable_reason"] = reason
            _write_json(self.run_dir / "run.json", self._manifest)

    def __enter__(self) -> RecordedSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- interaction
    @property
    def steps(self) -> int:
        return self.env.steps

    @property
    def done(self) -> bool:
        return self.env.done

    @property
    def started(self) -> bool:
        """``reset`` has run (the devices exist, or existed until ``close``)."""
        return self._started

    @property
    def closed(self) -> bool:
        return self._result is not None

    def observe(self) -> dict[str, dict[str, Any]]:
        self._require_running()
        return self.env.observe()

    def step(
        self,
        action: Step | Mapping[str, Any],
        *,
        notes: Mapping[str, Any] | None = None,
    ) -> StepOutcome:
        """One counted step, appended to ``steps.jsonl``; ``notes`` go to the record's ``agent_notes``.

        Never raises: a malformed action comes back as a failed result and still counts.
        """
        return self._play(action, lambda: self.env.step(action), notes)

    def refuse(
        self,
        action: Step | Mapping[str, Any],
        result: ActionResult,
        *,
        notes: Mapping[str, Any] | None = None,
    ) -> StepOutcome:
        """A step the facade refused before it reached a device (``result`` says why): counted, recorded."""
        return self._play(action, lambda: self.env.refuse(result), notes)

    def _play(
        self,
        action: Step | Mapping[str, Any],
        play: Callable[[], StepOutcome],
        notes: Mapping[str, Any] | None,
    ) -> StepOutcome:
        """What a step and a refused step share: the session must be running, the outcome is timed and recorded."""
        self._require_running()
        t_step = time.perf_counter()
        outcome = play()
        self._record(action, outcome, t_step, notes)
        return outcome

    def _record(
        self,
        action: Step | Mapping[str, Any],
        outcome: StepOutcome,
        t_step: float,
        notes: Mapping[str, Any] | None,
    ) -> None:
        if self._log is not None:
            record_action = action.model_dump() if isinstance(action, Step) else dict(action)
            observation = self.env.observe() if self._sources else None
            shots = _save_screenshots(self.env, self.episode_dir, outcome.step) if self.screenshots else []
            record = StepRecord(
                step=outcome.step,
                action=record_action,
                ok=outcome.result.ok,
                message=outcome.result.message,
                data=outcome.result.data,
                error_code=outcome.result.error_code,
                latency_s=time.perf_counter() - t_step,
                virtual_time=self.env.clock.now.isoformat(),
                screenshots=shots,
                agent_notes=dict(notes or {}),
                sources_seen=sources_seen(
                    self._sources, observation, (outcome.result.message, outcome.result.data)
                )
                if observation is not None
                else [],
            )
            self._log.write(_step_line(record))
            self._log.flush()

    def getter_for(self, device_id: str) -> GetterFn:
        """A device's getters (read-only state views), e.g. for a facade's state endpoints."""
        self._require_running()
        return self.env.getter_for(device_id)

    def evaluate(self) -> EvaluationResult:
        """The verdict on the current states; the session goes on."""
        self._require_running()
        return self.env.evaluate()

    def close(self, *, termination: Termination = "error", error: str | None = None) -> EpisodeResult:
        """End the episode (if still running, as ``termination``), evaluate, record, close the devices.

        Idempotent: later calls return the first result. ``error`` is recorded when the
        episode was still running (default: "the session ended before the agent finished").
        """
        if self._result is not None:
            return self._result
        if not self._started:
            raise SessionError("the session was never started; call reset() first")
        try:
            if not self.env.done:
                self.env.end(termination)
                self.error = error or "the session ended before the agent finished"
            verdict = self.env.evaluate()
            self._result = EpisodeResult(
                task_id=self.task.id,
                success=verdict.success,
                score=verdict.score,
                steps=self.env.steps,
                duration_s=round(time.perf_counter() - self._t0, 6),
                termination=self.env.termination or "error",
                conditions=[
                    ConditionRecord(**c.model_dump(), **self._initial.get(c.id, {}))
                    for c in verdict.conditions
                ],
                agent=self.agent,
                error=self.error,
                setup_s=round(self.env.setup_seconds, 6),
                **_task_fields(self.task),
            )
            if self.run_dir is not None:
                append_results(self.run_dir / "results.jsonl", [self._result])
        finally:
            self.env.close()
            if self._log is not None:
                self._log.close()
                self._log = None
            if self.run_dir is not None and self._manifest is not None:
                _finish_manifest(self.run_dir, self._manifest, None)
        return self._result

    def _require_running(self) -> None:
        if not self._started:
            raise SessionError("the session was never started; call reset() first")
        if self._result is not None:
            raise SessionError(f"the session for task {self.task.id} is closed")


__all__ = ["RecordedSession", "SessionError"]
