"""Reference solutions for phone tasks, written by meaning and recorded as index-based steps.

A phone step in a task's solution is what an agent would send: ``click`` with the
element's index in the observation at that moment. Writing indexes by hand is
brittle, so a task author writes a *script* — ``tap(rid="send")``,
``type_into("body", "hi")`` — and :func:`record` plays it in a real environment,
resolving each target against the live element list and keeping the concrete step
it took. A script that cannot be played (a target not on screen, a failing step)
is a build error, so every recorded solution is proven at build time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Step, Task


@dataclass(frozen=True)
class Target:
    """Find an element by resource-id suffix, exact text, content description, hint and/or position."""

    rid: str | None = None
    text: str | None = None
    desc: str | None = None
    hint: str | None = None
    nth: int = 0
    """Which match to take: 0 the first, -1 the last."""

    def matches(self, el: dict[str, Any]) -> bool:
        rid = el.get("resource_id") or ""
        if self.rid is not None and not (rid == self.rid or rid.endswith("/" + self.rid)):
            return False
        if self.text is not None and (el.get("text") or "") != self.text:
            return False
        if self.desc is not None and (el.get("content_description") or "") != self.desc:
            return False
        return self.hint is None or (el.get("hint_text") or "") == self.hint


@dataclass(frozen=True)
class UiStep:
    device: str
    action: str
    target: Target | None = None
    args: dict[str, Any] = field(default_factory=dict)
    at_fraction: float | None = None
    """Tap the target at this fraction of its width (sliders) by pixel coordinates."""


def tap(device: str, **target: Any) -> UiStep:
    return UiStep(device, "click", Target(**target))


def long_press(device: str, **target: Any) -> UiStep:
    return UiStep(device, "long_press", Target(**target))


def type_into(device: str, text: str, *, clear: bool = False, **target: Any) -> UiStep:
    """``input_text`` with the field's index (taps it first, as AndroidWorld's input_text does)."""
    return UiStep(device, "input_text", Target(**target), {"text": text, "clear": clear})


def tap_at(device: str, fraction: float, **target: Any) -> UiStep:
    """Tap a point along an element (a slider) by pixel coordinates."""
    return UiStep(device, "click", Target(**target), at_fraction=fraction)


def act(device: str, action: str, **args: Any) -> UiStep:
    """A step with no target (``navigate_back``, ``open_app``, ``scroll``, ``wait`` ...)."""
    return UiStep(device, action, None, args)


class On:
    """Script steps bound to one phone: ``a0 = On("android_0"); a0.tap(rid="send")``."""

    def __init__(self, device: str) -> None:
        self.device = device

    def tap(self, **target: Any) -> UiStep:
        return tap(self.device, **target)

    def hold(self, **target: Any) -> UiStep:
        return long_press(self.device, **target)

    def tap_at(self, fraction: float, **target: Any) -> UiStep:
        return tap_at(self.device, fraction, **target)

    def type(self, text: str, *, clear: bool = False, **target: Any) -> UiStep:
        return type_into(self.device, text, clear=clear, **target)

    def open(self, app: str) -> UiStep:
        return act(self.device, "open_app", app_name=app)

    def back(self) -> UiStep:
        return act(self.device, "navigate_back")

    def home(self) -> UiStep:
        return act(self.device, "navigate_home")

    def act(self, action: str, **args: Any) -> UiStep:
        return act(self.device, action, **args)


class ScriptError(RuntimeError):
    pass


ScriptItem = UiStep | Step


def _resolve(obs: dict[str, Any], item: UiStep) -> int:
    assert item.target is not None
    elements = obs.get("ui_elements", [])
    hits = [i for i, el in enumerate(elements) if item.target.matches(el)]
    if not -len(hits) <= item.target.nth < len(hits):  # nth=-1: the last match
        raise ScriptError(
            f"{item.device}: no element matches {item.target} on screen:\n{obs.get('screen_text', '')}"
        )
    return hits[item.target.nth]


def record(task: Task, script: list[ScriptItem]) -> list[Step]:
    """Play ``script`` on the task's environment and return the concrete steps it took."""
    steps: list[Step] = []
    with CrossDeviceEnv(task) as env:
        env.reset()
        for item in script:
            if isinstance(item, Step):
                step = item
            else:
                args = dict(item.args)
                if item.target is not None:
                    obs = env.observe()[item.device]
                    index = _resolve(obs, item)
                    if item.at_fraction is None:
                        args["index"] = index
                    else:
                        box = obs["ui_elements"][index]["bbox_pixels"]
                        args["x"] = box["x_min"] + item.at_fraction * (box["x_max"] - box["x_min"])
                        args["y"] = (box["y_min"] + box["y_max"]) / 2
                step = Step(device=item.device, action=item.action, args=args)
            outcome = env.step(step)
            if not outcome.result.ok:
                screen = env.observe().get(step.device or "", {}).get("screen_text", "")
                raise ScriptError(
                    f"{task.id}: step {step.model_dump()} failed: {outcome.result.message}\n{screen}"
                )
            steps.append(step)
    return steps
