"""Recording a scenario task's reference solution: phone steps by meaning to concrete steps.

A family writes its phone steps by meaning (:class:`UiStep`), each assuming the app
opens on its main screen. In a multi-step task an earlier subtask may have left
that app deeper in its back stack (Android resumes it there), so before an app is
opened a second time on a phone, the recorder backs out of it until the phone
leaves the app; opening it again then starts on the main screen. Every step is
played on the real environment, so a solution that cannot be played is a build
error (the compiler turns it into a rejection), never a silently wrong task.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Limits, Step, Task
from devicesworld.tasks.handwritten.recording import ScriptError, UiStep

MAX_BACKS = 8

FIND = "find"
"""A script action that is no phone action: scroll the screen's list until the target shows.

It records the ``scroll`` steps it takes (down first, then back up), none when the
target is already on screen, so a reference step can reach an item of a list longer
than a screen (a lived phone's songs or notes) wherever the world puts it.
"""
MAX_SCROLLS = 40


def record_solution(task: Task, items: Sequence[Step | UiStep]) -> list[tuple[int, Step]]:
    """Play ``items`` on ``task``'s environment; the concrete steps taken, each with its item's index.

    The index lets the compiler know which subtask each recorded step serves (Back
    presses inserted before reopening an app belong to the item that reopens it).
    """
    steps: list[tuple[int, Step]] = []
    opened: set[tuple[str, str]] = set()
    with CrossDeviceEnv(task) as env:
        env.reset()

        def play(step: Step, owner: int) -> None:
            outcome = env.step(step)
            if not outcome.result.ok:
                raise ScriptError(f"step {step.model_dump()} failed: {outcome.result.message}")
            steps.append((owner, step))

        for owner, item in enumerate(items):
            if isinstance(item, Step):
                play(item, owner)
                continue
            if item.action == FIND:
                _find(env, item, partial(play, owner=owner))
                continue
            if item.action == "open_app":
                key = (item.device, str(item.args.get("app_name")))
                if key in opened:
                    play(Step(device=item.device, action="open_app", args=item.args), owner)
                    package = env.observe()[item.device].get("foreground_app")
                    for _ in range(MAX_BACKS):
                        if env.observe()[item.device].get("foreground_app") != package:
                            break
                        play(Step(device=item.device, action="navigate_back"), owner)
                opened.add(key)
            play(_concrete(env.observe()[item.device], item), owner)
    return steps


def _shown(obs: dict[str, Any], item: UiStep) -> bool:
    assert item.target is not None
    hits = sum(1 for el in obs.get("ui_elements", []) if item.target.matches(el))
    return -hits <= item.target.nth < hits


def _find(env: CrossDeviceEnv, item: UiStep, play: Callable[[Step], None]) -> None:
    """Scroll down, then up, until ``item.target`` is on screen (:data:`FIND`)."""
    device = item.device
    for direction in ("down", "up"):
        for _ in range(MAX_SCROLLS):
            obs = env.observe()[device]
            if _shown(obs, item):
                return
            play(Step(device=device, action="scroll", args={"direction": direction}))
            if env.observe()[device].get("screen_text") == obs.get("screen_text"):
                break  # the list is at its end
    if not _shown(env.observe()[device], item):
        raise ScriptError(f"{device}: no element matches {item.target} in the list, scrolled both ways")


def _concrete(obs: dict[str, Any], item: UiStep) -> Step:
    args = dict(item.args)
    if item.target is not None:
        elements = obs.get("ui_elements", [])
        hits = [i for i, el in enumerate(elements) if item.target.matches(el)]
        if not -len(hits) <= item.target.nth < len(hits):  # nth=-1: the last match
            raise ScriptError(f"{item.device}: no element matches {item.target}")
        index = hits[item.target.nth]
        if item.at_fraction is None:
            args["index"] = index
        else:
            box = elements[index]["bbox_pixels"]
            args["x"] = box["x_min"] + item.at_fraction * (box["x_max"] - box["x_min"])
            args["y"] = (box["y_min"] + box["y_max"]) / 2
    return Step(device=item.device, action=item.action, args=args)


RECORDING_BUDGET = 1_000
"""Steps a reference solution may take while it is recorded (the task's own budget comes later)."""


def record_with_spans(
    task: Task, items: Sequence[Step | UiStep], owners: Sequence[str]
) -> tuple[list[Step], dict[str, list[int]]]:
    """The concrete solution (ending in ``finish``) and, per owner, the span ``[start, end)`` of its steps.

    ``owners[i]`` names the subtask item ``i`` belongs to. Plain steps pass through; phone
    scripts are played on the task's own devices (:func:`record_solution`), so a target
    that is not on screen raises :class:`ScriptError`, which callers turn into their own error.
    """
    if all(isinstance(i, Step) for i in items):
        recorded = [(i, s) for i, s in enumerate(items) if isinstance(s, Step)]
    else:
        recorded = record_solution(
            task.model_copy(update={"limits": Limits(max_steps=RECORDING_BUDGET)}), items
        )
    spans: dict[str, list[int]] = {}
    for position, (index, _) in enumerate(recorded):
        span = spans.setdefault(owners[index], [position, position + 1])
        span[1] = position + 1
    return [*(s for _, s in recorded), Step(action="finish")], spans
