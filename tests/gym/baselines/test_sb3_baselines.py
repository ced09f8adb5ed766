"""The stable-baselines3 baselines (optional ``sb3`` extra): skipped, with the reason, when it is not installed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip(
    "stable_baselines3", reason="the optional sb3 extra (stable-baselines3, torch) is not installed"
)

from devicesworld.gym.baselines.bc_sb3 import fit_policy, success
from devicesworld.gym.baselines.sb3 import make_env, train
from devicesworld.tasks.suites import load_suite


def test_hashed_text_env_is_a_fixed_size_box() -> None:
    env = make_env("bmoca-open-clock", reward="dense", max_steps=3, preset="train_00", split=None)
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32 and obs.any()
    env.close()


@pytest.mark.parametrize(("algo", "reward"), [("ppo", "sparse"), ("dqn", "dense")])
def test_a_tiny_policy_trains_for_a_few_hundred_steps(algo: str, reward: str) -> None:
    report = train(algo, "bmoca-open-clock", reward=reward, steps=256, max_steps=3, eval_episodes=1)  # type: ignore[arg-type]
    assert report["episodes"] >= 256 // 3 and report["schema_version"] == 1
    assert 0.0 <= report["greedy_success@train_00"] <= 1.0


def test_cloned_policy_solves_the_demonstrated_presets() -> None:
    task = next(t for t in load_suite("bmoca") if t.id == "bmoca-open-clock")
    model, pairs = fit_policy([task], ["train_00", "train_05"], epochs=150)
    assert pairs >= 2
    assert success(model, task, ["train_00", "train_05"]) == 1.0
