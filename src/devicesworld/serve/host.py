"""One recorded session on its own thread, shared by a server's async handlers.

Servers are asynchronous (many requests, one event loop), devices are synchronous and
some are bound to the thread that made them (Playwright's Chromium). So the session
lives on one dedicated worker thread: every call is queued to it, which also
serialises the steps of concurrent clients in arrival order. When a step ends the
episode (finish, report_infeasible, the step budget) the session is closed at once,
so ``results.jsonl`` is written while the server keeps answering with the verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from devicesworld.compat.session import RecordedSession
from devicesworld.devices.base import ActionResult
from devicesworld.env.controller import StepOutcome
from devicesworld.spec.models import Task
from devicesworld.spec.records import EpisodeResult

T = TypeVar("T")


class SessionHost:
    """A :class:`RecordedSession` owned by one worker thread (see the module docstring)."""

    def __init__(self, task: Task, run_dir: Path | None, *, agent: str, seed: int = 0) -> None:
        self.task = task
        self.run_dir = run_dir
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dw-session")
        self._session = RecordedSession(task, run_dir, agent=agent, seed=seed)
        self._result: EpisodeResult | None = None
        self._stopped: EpisodeResult | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> dict[str, dict[str, Any]]:
        """Build the devices and run setup (on the worker thread); the first observation."""
        return self._executor.submit(self._session.reset).result()

    def close(self, error: str = "the server stopped before the agent finished") -> EpisodeResult:
        """Close the session (if the episode still runs, it ends as ``error``) and stop the thread.

        Idempotent: later calls return the first result.
        """
        if self._stopped is not None:
            return self._stopped
        result = self._executor.submit(self._close, error).result()
        self._executor.shutdown(wait=True)
        self._stopped = result
        return result

    def discard(self) -> None:
        """Stop the thread of a host whose :meth:`start` failed (nothing was started, nothing is recorded)."""
        self._executor.shutdown(wait=True)

    def _close(self, error: str) -> EpisodeResult:
        if self._result is None:
            self._result = self._session.close(termination="error", error=error)
        return self._result

    @property
    def result(self) -> EpisodeResult | None:
        """The recorded result once the episode has ended (``None`` while it runs)."""
        return self._result

    @property
    def session(self) -> RecordedSession:
        """The session itself: use it only from a function passed to :meth:`call`/:meth:`run`."""
        return self._session

    # ----------------------------------------------------------------- execution
    def call(self, fn: Callable[[RecordedSession], T]) -> T:
        """Run ``fn(session)`` on the worker thread and wait (for synchronous callers)."""
        return self._executor.submit(fn, self._session).result()

    async def run(self, fn: Callable[[RecordedSession], T]) -> T:
        """Run ``fn(session)`` on the worker thread without blocking the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, self._session)

    def step_now(self, action: Mapping[str, Any], notes: Mapping[str, Any] | None = None) -> StepOutcome:
        """One counted, recorded step; call on the worker thread (inside :meth:`run`/:meth:`call`)."""
        if self._result is not None:
            return StepOutcome(
                result=ActionResult.failure(
                    "EPISODE_OVER", f"the episode has ended ({self._result.termination}); call evaluate"
                ),
                done=True,
                termination=self._result.termination,
                step=self._result.steps,
            )
        outcome = self._session.step(action, notes=notes)
        if outcome.done:
            self._result = self._session.close()
        return outcome

    async def step(self, action: Mapping[str, Any], notes: Mapping[str, Any] | None = None) -> StepOutcome:
        return await self.run(lambda _s: self.step_now(action, notes))

    def verdict_now(self) -> dict[str, Any]:
        """The verdict as JSON: the recorded result after the episode, else the live evaluation."""
        if self._result is not None:
            r = self._result
            return {
                "episode_over": True,
                "success": r.success,
                "score": r.score,
                "steps": r.steps,
                "termination": r.termination,
                "conditions": [
                    {"id": c.id, "device": c.device, "passed": c.passed, "detail": c.detail}
                    for c in r.conditions
                ],
            }
        v = self._session.evaluate()
        return {
            "episode_over": False,
            "success": v.success,
            "score": v.score,
            "steps": self._session.steps,
            "termination": None,
            "conditions": [
                {"id": c.id, "device": c.device, "passed": c.passed, "detail": c.detail} for c in v.conditions
            ],
        }

    async def verdict(self) -> dict[str, Any]:
        return await self.run(lambda _s: self.verdict_now())
