"""Observation wrappers that make the text screen usable by stable-baselines3 (which has no Text spaces)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from devicesworld.gym.bc import features
from devicesworld.gym.env import PhoneTaskEnv

FEATURES = 1024
"""Hashed features per screen: small enough for a quick MLP, large enough that the few
hundred distinct (line, word) pairs of a screen rarely collide."""


def require_sb3() -> None:
    """Exit with the install hint when the ``sb3`` extra is missing (the baselines' commands start here)."""
    try:
        import stable_baselines3  # noqa: F401
    except ImportError:
        raise SystemExit(
            "error: this baseline needs the sb3 extra: pip install 'devicesworld[sb3]'"
        ) from None


class HashedText(gym.ObservationWrapper[NDArray[np.float32], Any, Any]):
    """The ``text`` observation as a hashed ``(line, word)`` bag plus the instruction (see ``bc.features``)."""

    def __init__(self, env: gym.Env[Any, Any], dim: int = FEATURES) -> None:
        super().__init__(env)
        self.dim = dim
        base = env.unwrapped
        if not isinstance(base, PhoneTaskEnv):
            raise TypeError(f"HashedText wraps a PhoneTaskEnv, not {type(base).__name__}")
        self.instruction = base.task.instruction
        self.observation_space = spaces.Box(0.0, 1.0, (dim,), dtype=np.float32)

    def observation(self, observation: Any) -> NDArray[np.float32]:
        text = observation["text"] if isinstance(observation, dict) else str(observation)
        return features(text, self.instruction, self.dim)
