"""A tiny policy learns a phone task from sparse rewards in a few hundred steps."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import devicesworld.gym  # noqa: F401
from devicesworld.gym.tabular import main, train_tabular_q

CLOCK = "devicesworld/BmocaOpenClock-v0"


def random_success(episodes: int) -> float:
    env = gym.make(CLOCK, max_steps=3).unwrapped
    rng = np.random.default_rng(7)
    wins = 0
    for i in range(episodes):
        env.reset(seed=i)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(rng.integers(385)))
            done = terminated or truncated
            wins += int(terminated)
    env.close()
    return wins / episodes


def test_tabular_q_learns_to_open_the_clock() -> None:
    env = gym.make(CLOCK, max_steps=3).unwrapped
    try:
        _, res = train_tabular_q(env, steps=400, seed=0)
    finally:
        env.close()
    assert res.steps == 400
    half = len(res.successes) // 2
    learned = sum(res.successes[half:]) / (len(res.successes) - half)
    baseline = random_success(60)
    assert baseline < 0.25 < 0.9 < learned  # random taps hit the icon a few % of the time
    assert res.greedy_success == 1.0


def test_the_script_prints_figures(capsys: object) -> None:
    assert main(["--steps", "60", "--reward", "dense"]) == 0
