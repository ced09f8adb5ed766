"""``PhoneTaskEnv``: one single-phone DevicesWorld task as a Gymnasium environment (B-MoCA style).

The environment wraps :class:`~devicesworld.env.controller.CrossDeviceEnv`: ``reset``
builds the task's phone on a profile (the one passed in ``options``, else one drawn
from the ``split``'s shipped presets with the episode's seed, else the task's own),
``step`` decodes the agent's action into an android step, and the task's rule-based
detector is checked after every step — success ends the episode, as in B-MoCA.

Observations (``obs_mode``): ``text`` is the phone's ``screen_text`` (one line per
element, the same indexes as ``ui_elements``) bounded to :data:`MAX_TEXT` characters;
``pixel`` is the phone's rendered screen (taken from the renderer, no PNG round
trip) downscaled to a small RGB array (``pixel_shape``, default
128x64, height x width — small so that learning from pixels stays cheap); ``both`` is a
``Dict`` of the two. Rewards (``reward``): ``sparse`` gives 1 on success and 0
otherwise; ``dense`` gives the change in the fraction of scored conditions that hold,
minus ``step_penalty`` every step, so progress is rewarded and dawdling costs.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, Literal, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from PIL import Image

from devicesworld.devices.listing import clip
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.gym.actions import N_DISCRETE, ActionSet, decode_continuous, decode_discrete
from devicesworld.spec.models import Limits, Task
from devicesworld.tasks.env_split import split_presets, with_preset

ObsMode = Literal["text", "pixel", "both"]
RewardMode = Literal["sparse", "dense"]
PHONE_KIND = "android"
"""The one kind this environment drives: it is a phone environment (B-MoCA's), a facade of that kind."""
MAX_TEXT = 4096
"""Screen texts are cut to this many characters (a busy screen is about 1,500)."""


def _charset() -> str:
    """Every character a screen can show: the Basic Multilingual Plane without surrogates, plus newline."""
    return "\n" + "".join(chr(c) for c in range(0x20, 0x10000) if not 0xD800 <= c <= 0xDFFF)


CHARSET = _charset()
_ALLOWED = frozenset(CHARSET)


def bounded_text(text: str) -> str:
    """``text`` within :data:`MAX_TEXT`, characters outside :data:`CHARSET` (emoji, tabs) as ``?``;
    a longer text ends in a cut note (``[cut: ...]``), as every cut in the product does."""
    shown = clip(text, MAX_TEXT, "scroll to see more of the screen")
    return "".join(c if c in _ALLOWED else "?" for c in shown)


class ScreenText(spaces.Text):
    """``spaces.Text`` over :data:`CHARSET` whose repr names the charset instead of printing it.

    Gymnasium's own repr lists every character: 63,480 characters for one ``print``.
    """

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length}, charset=<{len(CHARSET):,} characters: BMP + newline>)"


class PhoneTaskEnv(gym.Env[Any, Any]):
    """A single-phone task as a Gymnasium environment; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        task: Task | None = None,
        *,
        task_id: str | None = None,
        suite: str = "bmoca",
        obs_mode: ObsMode = "text",
        action_set: ActionSet = "discrete",
        reward: RewardMode = "sparse",
        split: Literal["train", "test"] | None = None,
        max_steps: int | None = None,
        step_penalty: float = 0.01,
        pixel_shape: tuple[int, int] = (128, 64),
        render_mode: str | None = None,
    ) -> None:
        if obs_mode not in ("text", "pixel", "both"):
            raise ValueError(f"obs_mode must be 'text', 'pixel' or 'both', not {obs_mode!r}")
        if action_set not in ("discrete", "continuous"):
            raise ValueError(f"action_set must be 'discrete' or 'continuous', not {action_set!r}")
        if reward not in ("sparse", "dense"):
            raise ValueError(f"reward must be 'sparse' or 'dense', not {reward!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        base = _find_task(task, task_id, suite)
        phones = [d.id for d in base.devices if d.kind == PHONE_KIND]
        if len(base.devices) != 1 or len(phones) != 1:
            raise ValueError(
                f"task {base.id} is not a single-phone task; gym environments need exactly one phone"
            )
        steps = max_steps if max_steps is not None else base.limits.max_steps
        self.task = base.model_copy(update={"limits": Limits(max_steps=steps, max_seconds=None)})
        self.phone = phones[0]
        self.obs_mode, self.action_set, self.reward_mode = obs_mode, action_set, reward
        self.presets = split_presets(split) if split is not None else []
        self.step_penalty = float(step_penalty)
        self.pixel_shape = (int(pixel_shape[0]), int(pixel_shape[1]))
        self.render_mode = render_mode
        text = ScreenText(max_length=MAX_TEXT, min_length=0, charset=CHARSET)
        pixel = spaces.Box(0, 255, (*self.pixel_shape, 3), dtype=np.uint8)
        self.observation_space: spaces.Space[Any] = (
            text
            if obs_mode == "text"
            else pixel
            if obs_mode == "pixel"
            else spaces.Dict({"text": text, "pixel": pixel})
        )
        self.action_space: spaces.Space[Any] = (
            spaces.Discrete(N_DISCRETE)
            if action_set == "discrete"
            else spaces.Box(0.0, 1.0, (4,), dtype=np.float32)
        )
        self._env: CrossDeviceEnv | None = None
        self._score = 0.0
        self.profile: str | dict[str, Any] | None = None

    # ------------------------------------------------------------------ gym API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.close()
        task = self._episode_task(options or {})
        self._env = CrossDeviceEnv(task, seed=0 if seed is None else seed)
        self._env.reset()
        self._score = self._env.evaluate().score
        return self._observe(), self._info(True, "reset", False)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        env = self._env
        if env is None:
            raise RuntimeError("call reset() before step()")
        decoded = (
            decode_discrete(action, self.phone)
            if self.action_set == "discrete"
            else decode_continuous(action, self.phone)
        )
        outcome = env.step(decoded)
        verdict = env.evaluate()
        if self.reward_mode == "sparse":
            reward = 1.0 if verdict.success else 0.0
        else:
            reward = verdict.score - self._score - self.step_penalty
        self._score = verdict.score
        terminated = verdict.success
        truncated = not terminated and outcome.done
        info = self._info(outcome.result.ok, outcome.result.message, verdict.success)
        return self._observe(), float(reward), terminated, truncated, info

    def render(self) -> NDArray[np.uint8] | None:
        if self.render_mode != "rgb_array" or self._env is None:
            return None
        img = self._screen()
        return None if img is None else np.asarray(img.convert("RGB"), dtype=np.uint8)

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    def device_observation(self) -> dict[str, Any]:
        """The phone's full observation (``ui_elements`` included), e.g. to translate demonstrations."""
        if self._env is None:
            raise RuntimeError("call reset() first")
        return dict(self._env.observe().get(self.phone, {}))

    # ------------------------------------------------------------------ internals
    def _episode_task(self, options: Mapping[str, Any]) -> Task:
        chosen = options.get("profile")
        if chosen is None and self.presets:
            chosen = self.presets[int(self.np_random.integers(len(self.presets)))]
        self.profile = chosen
        if chosen is None:
            return self.task
        if isinstance(chosen, str):
            return with_preset(self.task, chosen)
        if isinstance(chosen, Mapping):
            devices = [
                d.model_copy(update={"profile": dict(chosen)}) if d.id == self.phone else d
                for d in self.task.devices
            ]
            return self.task.model_copy(update={"devices": devices})
        raise ValueError(f"options['profile'] is a preset name or a profile dict, not {chosen!r}")

    def _observe(self) -> Any:
        assert self._env is not None
        if self.obs_mode == "text":
            return self._text()
        if self.obs_mode == "pixel":
            return self._pixels()
        return {"text": self._text(), "pixel": self._pixels()}

    def _text(self) -> str:
        assert self._env is not None
        obs = self._env.observe().get(self.phone, {})
        return bounded_text(str(obs.get("screen_text", obs.get("error", ""))))

    def _screen(self) -> Image.Image | None:
        """The phone's screen as an image: straight from the renderer when the device offers it, else the PNG."""
        assert self._env is not None
        device = self._env.device(self.phone)
        direct = getattr(device, "screenshot_image", None)
        if callable(direct):
            img: Image.Image = direct()
            return img
        png = self._env.screenshots().get(self.phone)
        return None if png is None else Image.open(io.BytesIO(png))

    def _pixels(self) -> NDArray[np.uint8]:
        h, w = self.pixel_shape
        img = self._screen()
        if img is None:
            return np.zeros((h, w, 3), dtype=np.uint8)
        # reducing_gap: an integer box reduction first, then bilinear on a small image
        small = img.convert("RGB").resize((w, h), Image.Resampling.BILINEAR, reducing_gap=2.0)
        return np.asarray(small, dtype=np.uint8)

    def _info(self, ok: bool, message: str, success: bool) -> dict[str, Any]:
        return {
            "task_id": self.task.id,
            "instruction": self.task.instruction,
            "profile": self.profile,
            "action_ok": ok,
            "message": message,
            "score": self._score,
            "success": success,
        }


def _find_task(task: Task | None, task_id: str | None, suite: str) -> Task:
    if task is not None:
        return task
    if task_id is None:
        raise ValueError("give a task or a task_id")
    from devicesworld.tasks.suites import load_suite

    for t in load_suite(suite):
        if t.id == task_id:
            return t
    raise ValueError(f"no task {task_id!r} in suite {suite!r}")
