"""A tiny learner for the discrete action set: tabular Q-learning keyed by the screen text.

It is the smallest thing that shows a phone environment gives a learning signal
(random taps open the right app about 3% of the time; after a few hundred steps the
greedy policy does it every time) and runs in seconds on a CPU with numpy only.
Larger baselines (behaviour cloning, DQN, PPO with stable-baselines3) belong behind
their own optional extras.

``python -m devicesworld.gym.tabular --env devicesworld/BmocaOpenClock-v0 --steps 400``
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray


@dataclass
class TrainResult:
    steps: int
    episodes: int
    successes: list[bool] = field(default_factory=list)
    """Whether each training episode ended in success, in order."""
    greedy_success: float = 0.0
    """Success rate of the greedy policy after training."""


def _key(obs: Any) -> str:
    return obs if isinstance(obs, str) else str(obs.get("text", "")) if isinstance(obs, dict) else ""


class TabularQ:
    """Q-values per screen text; unseen screens start at zero, ties break at random."""

    def __init__(self, n_actions: int, rng: np.random.Generator) -> None:
        self.n_actions = n_actions
        self.rng = rng
        self.q: dict[str, NDArray[np.float64]] = {}

    def values(self, state: str) -> NDArray[np.float64]:
        if state not in self.q:
            self.q[state] = np.zeros(self.n_actions)
        return self.q[state]

    def greedy(self, state: str) -> int:
        v = self.values(state)
        return int(self.rng.choice(np.flatnonzero(v == v.max())))

    def act(self, state: str, epsilon: float) -> int:
        if self.rng.random() < epsilon:
            return int(self.rng.integers(self.n_actions))
        return self.greedy(state)


def train_tabular_q(
    env: gym.Env[Any, Any],
    *,
    steps: int = 400,
    epsilon: float = 0.1,
    alpha: float = 0.5,
    gamma: float = 0.9,
    seed: int = 0,
    eval_episodes: int = 5,
) -> tuple[TabularQ, TrainResult]:
    """Q-learning for ``steps`` environment steps, then ``eval_episodes`` greedy episodes."""
    space = env.action_space
    if not isinstance(space, gym.spaces.Discrete):
        raise ValueError("tabular Q-learning needs the discrete action set (action_set='discrete')")
    rng = np.random.default_rng(seed)
    agent = TabularQ(int(space.n), rng)
    result = TrainResult(steps=0, episodes=0)
    obs, _ = env.reset(seed=seed)
    while result.steps < steps:
        state = _key(obs)
        action = agent.act(state, epsilon)
        obs, reward, terminated, truncated, _ = env.step(action)
        result.steps += 1
        target = float(reward) + (0.0 if terminated else gamma * float(agent.values(_key(obs)).max()))
        q = agent.values(state)
        q[action] += alpha * (target - q[action])
        if terminated or truncated:
            result.episodes += 1
            result.successes.append(bool(terminated))
            obs, _ = env.reset()
    wins = 0
    for i in range(eval_episodes):
        obs, _ = env.reset(seed=seed + 1000 + i)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(agent.greedy(_key(obs)))
            done = terminated or truncated
            wins += int(terminated)
    result.greedy_success = wins / eval_episodes if eval_episodes else 0.0
    return agent, result


def main(argv: list[str] | None = None) -> int:
    import devicesworld.gym  # noqa: F401  (registers the environments)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="devicesworld/BmocaOpenClock-v0")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--max-steps", type=int, default=3, help="episode length")
    parser.add_argument("--reward", choices=["sparse", "dense"], default="sparse")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = gym.make(args.env, max_steps=args.max_steps, reward=args.reward).unwrapped
    try:
        _, res = train_tabular_q(env, steps=args.steps, seed=args.seed)
    finally:
        env.close()
    half = len(res.successes) // 2
    first = sum(res.successes[:half]) / max(half, 1)
    last = sum(res.successes[half:]) / max(len(res.successes) - half, 1)
    print(json.dumps({"schema_version": 1, "env": args.env, "steps": res.steps, "episodes": res.episodes,
                      "success_first_half": round(first, 3), "success_second_half": round(last, 3),
                      "greedy_success": res.greedy_success}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
