"""AndroidWorld's episode loop for real AndroidWorld agents (T3A, M3A, SeeAct) on our phones.

AndroidWorld's agents end an episode without telling the environment: on a
``status`` action M3A and T3A return ``AgentInteractionResult(done=True, data)``
from ``step(goal)`` and never call ``execute_action``; AndroidWorld's
``episode_runner.run_episode`` stops and the task checks the device. Our checks
also want to know *how* the agent ended (``finished``, ``infeasible_reported`` with
a reason), so :func:`run_agent` plays ``run_episode``'s part and, when the agent
says it is done, reads the final status and reason from the step's data (the
model's ``action_output`` — "Reason: ... Action: {...}" — and M3A's
``action_reason``) and sends it as a ``status`` action, which the environment maps
to ``finish`` or ``report_infeasible``.

One ``agent.step`` is one counted step, as in AndroidWorld's budget: a step in which
the agent executed nothing (it rejected its own index, say) is recorded as a
refused step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from devicesworld.compat.androidworld.env import AndroidWorldEnv
from devicesworld.devices.base import ActionResult
from devicesworld.jsontext import json_objects
from devicesworld.spec.records import EpisodeResult

_REASON = re.compile(r"Reason:\s*(.*?)\s*(?:Action:|$)", re.DOTALL | re.IGNORECASE)


class AndroidWorldAgent(Protocol):
    """AndroidWorld's ``EnvironmentInteractingAgent``, as far as the loop uses it."""

    def reset(self, go_home: bool = False) -> None: ...

    def step(self, goal: str) -> Any:
        """An ``AgentInteractionResult``: ``.done`` and ``.data`` (the step's record)."""
        ...


def final_status(data: Mapping[str, Any] | None) -> tuple[str, str | None]:
    """The ``goal_status`` and the reason a finished step's data carries (default: complete, none)."""
    data = data or {}
    status = "complete"
    output = data.get("action_output")
    text = output if isinstance(output, str) else ""
    for key in ("action_output_json", "action"):
        value = data.get(key)
        if isinstance(value, Mapping) and value.get("action_type") == "status":
            status = str(value.get("goal_status") or status)
            break
        if hasattr(value, "action_type") and getattr(value, "action_type", None) == "status":
            status = str(getattr(value, "goal_status", None) or status)
            break
    else:
        statuses = [o for o in json_objects(text) if o.get("action_type") == "status"]
        if statuses:
            status = str(statuses[-1].get("goal_status") or status)
    reason = data.get("action_reason")
    if not isinstance(reason, str) or not reason.strip():
        match = _REASON.search(text)
        reason = match.group(1).strip() if match else None
    return status, reason or None


def run_agent(
    agent: AndroidWorldAgent,
    env: AndroidWorldEnv,
    *,
    goal: str | None = None,
    max_n_steps: int | None = None,
    start_on_home_screen: bool = False,
) -> EpisodeResult:
    """Run ``agent`` on ``env``'s task as AndroidWorld's ``run_episode`` does, then evaluate and record.

    ``goal`` defaults to the task's instruction and ``max_n_steps`` to its step budget.
    """
    session = env.session
    if not session.started:
        env.reset()
    agent.reset(start_on_home_screen)
    limit = max_n_steps if max_n_steps is not None else session.task.limits.max_steps
    set_max = getattr(agent, "set_max_steps", None)
    if callable(set_max):
        set_max(limit)
    for _ in range(limit):
        if env.done:
            break
        before = session.steps
        result = agent.step(goal or session.task.instruction)
        env.settle()
        if env.done:
            break
        if getattr(result, "done", False):
            status, reason = final_status(getattr(result, "data", None))
            action: dict[str, Any] = {"action_type": "status", "goal_status": status}
            if reason and status == "infeasible":
                action["text"] = reason
            env.execute_action(action)
            break
        if session.steps == before:
            session.refuse(
                {"device": env.device_id, "action": "none", "args": {}},
                ActionResult.failure("NO_ACTION", "the agent's step executed no action"),
                notes={"androidworld": {"step_data_keys": sorted(getattr(result, "data", {}) or {})}},
            )
    return env.close()


__all__ = ["AndroidWorldAgent", "final_status", "run_agent"]
