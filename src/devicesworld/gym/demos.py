"""Expert demonstrations in B-MoCA's discrete action set, from the recorded reference solutions.

A reference solution is index-based (``click`` element 12, ``open_app`` Clock). To
turn it into what a discrete-action agent could have done, each step is replayed on
the task's phone and translated to one of the 385 actions: a tap becomes the grid
cell whose centre lies inside the element (nearest to its centre), ``open_app``
becomes Home (when not on the launcher) and a tap on the app's icon, found by its
label in the phone's language, and the navigation buttons map to themselves.
Solutions that type text or use pixel-precise taps have no discrete equivalent;
:func:`discrete_demo` returns ``None`` for them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from devicesworld.devices.android.i18n import keys, tr
from devicesworld.devices.android.profiles import resolve_profile
from devicesworld.gym.actions import BUTTONS, N_TAPS, SWIPES, tap_point
from devicesworld.gym.env import PhoneTaskEnv
from devicesworld.spec.models import Step

LAUNCHER = "com.google.android.apps.nexuslauncher"


@dataclass
class Demo:
    """One episode: the observation before each action, the actions, and whether it succeeded."""

    task_id: str
    profile: str | None
    observations: list[Any]
    actions: list[int]
    success: bool


def cell_for(bbox: dict[str, float]) -> int | None:
    """The grid cell whose centre is inside ``bbox`` (normalised) and nearest to its centre."""
    cx, cy = (bbox["x_min"] + bbox["x_max"]) / 2, (bbox["y_min"] + bbox["y_max"]) / 2
    best: tuple[float, int] | None = None
    for cell in range(N_TAPS):
        y, x = tap_point(cell)
        if bbox["x_min"] < x < bbox["x_max"] and bbox["y_min"] < y < bbox["y_max"]:
            d = math.hypot(x - cx, y - cy)
            if best is None or d < best[0]:
                best = (d, cell)
    return None if best is None else best[1]


def _label(app: str, lang: str) -> str:
    for key in keys():
        if key.startswith("app.") and tr("en", key).casefold() == app.casefold():
            return tr(lang, key)
    return app


def _translate(step: Step, obs: dict[str, Any], lang: str) -> list[int] | None:
    """The discrete actions for one solution step on the current screen, or None."""
    elements = obs.get("ui_elements", [])
    if step.action == "click" and step.args.get("index") is not None:
        cell = cell_for(elements[int(step.args["index"])]["bbox"])
        return None if cell is None else [cell]
    if step.action in BUTTONS:
        return [N_TAPS + len(SWIPES) + BUTTONS.index(step.action)]
    if step.action == "open_app":
        if obs.get("foreground_app") != LAUNCHER:
            return None  # needs a second look after Home; handled by the caller
        label = _label(str(step.args["app_name"]), lang)
        icon = next(
            (e for e in elements if e.get("package_name") == LAUNCHER and e.get("text") == label), None
        )
        cell = None if icon is None else cell_for(icon["bbox"])
        return None if cell is None else [cell]
    return None


def discrete_demo(
    env: PhoneTaskEnv, steps: list[Step], *, seed: int = 0, profile: str | None = None
) -> Demo | None:
    """Replay ``steps`` as discrete actions on ``env`` (a discrete-action env); None if one has no equivalent."""
    obs, _ = env.reset(seed=seed, options={"profile": profile} if profile else None)
    lang = resolve_profile(env.task.devices[0].profile if profile is None else {"preset": profile}).language
    demo = Demo(env.task.id, profile, [], [], False)
    home = N_TAPS + len(SWIPES) + BUTTONS.index("navigate_home")
    for step in steps:
        if step.action == "finish":
            break
        raw = env.device_observation()
        if step.action == "open_app" and raw.get("foreground_app") != LAUNCHER:
            demo.observations.append(obs)
            demo.actions.append(home)
            obs, _, terminated, truncated, _ = env.step(home)
            raw = env.device_observation()
        actions = _translate(step, raw, lang)
        if actions is None:
            return None
        for action in actions:
            demo.observations.append(obs)
            demo.actions.append(action)
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated:
                demo.success = True
                return demo
            if truncated:
                return demo
    return demo
