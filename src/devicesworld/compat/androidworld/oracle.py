"""A reference agent in AndroidWorld's loop: each task's reference solution as ``JSONAction`` dicts.

It shows (and its test proves) that a task is solvable through the AndroidWorld
interface alone, with AndroidWorld's semantics; ``devicesworld androidworld oracle``
runs it over a suite's single-phone tasks.

The loop is AndroidWorld's (``get_state`` -> choose a ``JSONAction`` -> ``execute_action``).
The reference solution is a list of *our* index-based steps, so it is replayed in a
private shadow environment in lockstep: for each step the shadow says which node the
solution meant, and the agent finds that node in the AndroidWorld element list it got
from ``get_state`` (by resource name, text, description, hint, class and order),
never by our indexes. Rows that AndroidWorld does not list (clickable containers)
are hit through their first listed child, as on a real device.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from devicesworld.compat.androidworld.elements import UIElement, listed_views, to_ui_element
from devicesworld.compat.androidworld.env import AndroidWorldEnv
from devicesworld.devices.android.device import AndroidDevice
from devicesworld.devices.android.ui.view import View
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Step, Task

AW_APP_NAMES = {
    "Messages": "Simple SMS Messenger",
    "Calendar": "Simple Calendar Pro",
    "Music": "Retro Music",
    "Maps": "OsmAnd",
    "Browser": "Chrome",
    "Phone": "Dialer",
}
"""Our launcher labels -> the names AndroidWorld's agents use (exercises the aliases)."""

Key = tuple[str | None, str | None, str | None, str | None, str | None]


class OracleError(RuntimeError):
    """The reference solution cannot be followed on the AndroidWorld screen (a real divergence)."""


def key_of(el: UIElement) -> Key:
    return (el.resource_name, el.text, el.content_description, el.hint_text, el.class_name)


class OracleAgent:
    """Chooses the next ``JSONAction`` of the reference solution for the state it is shown."""

    def __init__(self, task: Task, device: str, *, answer_before_infeasible: bool = True) -> None:
        self.device = device
        self.answer_before_infeasible = answer_before_infeasible
        self.reason = ""
        """Why the last planned step is taken (a reference ``report_infeasible``'s reason)."""
        self.shadow = CrossDeviceEnv(task)
        self.shadow.reset()
        self._plan = self._actions(list(task.solution))
        self._pending: list[dict[str, Any]] = []

    def close(self) -> None:
        self.shadow.close()

    def _shadow_phone_target(self, index: int) -> tuple[Key, int] | tuple[int, int, None]:
        device = self.shadow.device(self.device)
        assert isinstance(device, AndroidDevice)
        phone = device.current_phone()
        node: View = phone.elements[index]
        views = listed_views(phone)
        target = (
            node
            if any(v is node for v in views)
            else next((d for d in node.walk() if any(v is d for v in views)), None)
        )
        if target is None:
            x0, y0, x1, y1 = node.rect
            return (x0 + x1) // 2, (y0 + y1) // 2, None
        key = key_of(to_ui_element(phone, target))
        same = [v for v in views if key_of(to_ui_element(phone, v)) == key]
        return key, next(i for i, v in enumerate(same) if v is target)

    def _actions(self, solution: list[Step]) -> Iterator[list[dict[str, Any]] | tuple[str, Step]]:
        for step in solution:
            if step.action == "finish":
                yield [{"action_type": "status", "goal_status": "complete"}]
            elif step.action == "report_infeasible":
                self.reason = str(step.args["reason"])
                status = {"action_type": "status", "goal_status": "infeasible"}
                if self.answer_before_infeasible:
                    yield [{"action_type": "answer", "text": self.reason}, status]
                else:
                    yield [status]
            else:
                yield ("native", step)

    def next_actions(self, elements: list[UIElement]) -> list[dict[str, Any]] | None:
        """The AndroidWorld actions for the next solution step, resolved against ``elements``."""
        item = next(self._plan, None)
        if item is None:
            return None
        if isinstance(item, list):
            return item
        _, step = item
        actions = self._translate(step, elements)
        self.shadow.step(step)
        return actions

    def _translate(self, step: Step, elements: list[UIElement]) -> list[dict[str, Any]]:
        a, args = step.action, step.args
        if a in ("click", "long_press", "double_tap", "input_text"):
            out: dict[str, Any] = {"action_type": a}
            if "index" in args:
                found = self._shadow_phone_target(int(args["index"]))
                if len(found) == 3:
                    out.update(x=found[0], y=found[1])
                else:
                    key, nth = found[0], found[1]
                    same = [i for i, el in enumerate(elements) if key_of(el) == key]
                    if len(same) <= nth:
                        raise OracleError(f"{key} #{nth} is not on the AndroidWorld screen")
                    out["index"] = same[nth]
            else:
                out.update(x=round(args["x"]), y=round(args["y"]))
            if a == "input_text":
                out.update(text=args["text"], clear_text=bool(args.get("clear", False)))
            return [out]
        if a == "open_app":
            name = str(args["app_name"])
            return [{"action_type": "open_app", "app_name": AW_APP_NAMES.get(name, name)}]
        if a == "swipe":
            return [{"action_type": "swipe", "direction": args["direction"]}]
        if a == "scroll":
            return [{"action_type": "scroll", "direction": args["direction"]}]
        if a == "wait":
            return [{"action_type": "wait"} for _ in range(max(1, round(float(args.get("seconds", 1)))))]
        if a in ("keyboard_enter", "navigate_back", "navigate_home"):
            return [{"action_type": a}]
        raise OracleError(f"no AndroidWorld translation for {a}")


def run_oracle(env: AndroidWorldEnv, task: Task | None = None) -> None:
    """AndroidWorld's loop: get_state -> choose -> execute_action, until the episode ends."""
    agent = OracleAgent(task or env.session.task, env.device_id)
    try:
        state = env.reset(go_home=False)
        while not env.done:
            actions = agent.next_actions(state.ui_elements)
            if actions is None:
                break
            for action in actions:
                env.execute_action(action)
                if env.done:
                    break
                state = env.get_state()
    finally:
        agent.close()


@dataclass
class InteractionResult:
    """AndroidWorld's ``AgentInteractionResult``: whether the agent is done, and the step's data."""

    done: bool
    data: dict[str, Any]


class M3AShapedOracle:
    """The reference agent shaped like AndroidWorld's M3A, for :func:`~.runner.run_agent`.

    ``reset(go_home)`` resets the environment; ``step(goal)`` executes one action and
    returns an :class:`InteractionResult` whose ``action_output`` reads like M3A's
    ("Reason: ... Action: {...}"). As M3A does, a ``status`` is *not* executed: the
    step returns ``done=True`` and the reason lives only in the output (no ``answer``
    first), so the runner has to recover it.
    """

    def __init__(self, env: AndroidWorldEnv) -> None:
        self.env = env
        self._oracle = OracleAgent(env.session.task, env.device_id, answer_before_infeasible=False)
        self._queue: list[dict[str, Any]] = []

    def reset(self, go_home: bool = False) -> None:
        self.env.reset(go_home)

    def step(self, goal: str) -> InteractionResult:
        if not self._queue:
            planned = self._oracle.next_actions(self.env.get_state().ui_elements)
            self._queue = planned or [{"action_type": "status", "goal_status": "complete"}]
        action = self._queue.pop(0)
        reason = self._oracle.reason if action.get("goal_status") == "infeasible" else "next reference step"
        output = f"Reason: {reason}\nAction: {json.dumps(action, ensure_ascii=False)}"
        if action["action_type"] == "status":
            return InteractionResult(True, {"action_output": output})
        self.env.execute_action(action)
        return InteractionResult(False, {"action_output": output})

    def close(self) -> None:
        self._oracle.close()
