"""The built-in agents that need no model: ``oracle`` and ``noop``.

``oracle`` replays the task's reference solution, which proves the task solvable;
``noop`` declares completion at once, which proves the task is not passed by doing
nothing.

GUI solutions name elements by selector (``{"element": {"role": "push button", "name":
"Save"}}``); the oracle resolves each selector to an index of the element list in the
observation it was given before sending the step, so what it sends — and what the log
shows — is what an agent would send (docs/gui.md).
"""

from __future__ import annotations

from typing import Any

from devicesworld.agents.base import AgentOptions, Decision, EpisodeInfo, Feedback
from devicesworld.devices.desktop.elements import resolve_step_selectors
from devicesworld.spec.actions import FINISH
from devicesworld.spec.models import Step


class OracleAgent:
    def __init__(self, options: AgentOptions) -> None:
        self._plan: list[Step] = []
        self._next = 0

    def start(self, info: EpisodeInfo) -> None:
        if info.solution is None:
            raise ValueError("the oracle agent must be run as a privileged agent (it replays the solution)")
        self._plan = list(info.solution)
        self._next = 0

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision:
        if self._next >= len(self._plan):
            return Decision(action=Step(action=FINISH))
        step = self._plan[self._next]
        self._next += 1
        return Decision(action=_resolved(step, observation))


def _resolved(step: Step, observation: dict[str, dict[str, Any]]) -> Step:
    """``step`` with element selectors replaced by indices of the device's current element list."""
    if step.device is None or not any(
        isinstance(step.args.get(k), dict) for k in ("element", "from_element")
    ):
        return step
    elements = observation.get(step.device, {}).get("elements")
    if not isinstance(elements, list):
        return step
    return step.model_copy(update={"args": resolve_step_selectors(step.args, elements)})


class NoopAgent:
    def __init__(self, options: AgentOptions) -> None:
        pass

    def start(self, info: EpisodeInfo) -> None:
        pass

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision:
        return Decision(action=Step(action=FINISH))
