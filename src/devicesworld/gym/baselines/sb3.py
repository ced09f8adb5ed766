"""DQN or PPO (stable-baselines3) on one phone task, from the hashed text screen, sparse or dense reward.

    python -m devicesworld.gym.baselines.sb3 --algo ppo --task bmoca-open-clock --reward sparse --steps 3000

The policy is an MLP over :class:`~.wrappers.HashedText` features and acts in B-MoCA's
385 discrete actions. By default every episode is on one training preset
(``--preset train_00``), the setting where learning from scratch works (B-MoCA §G:
agents learn to open an app, not longer tasks); ``--split train`` draws a training
preset per episode instead. After training, the greedy policy plays
``--eval-episodes`` episodes (on the preset, or on each split's presets) and a JSON
line reports success, the success of a uniformly random policy, and the time taken.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Literal

import gymnasium as gym
import numpy as np

from devicesworld.gym.baselines.wrappers import HashedText, require_sb3
from devicesworld.gym.env import PhoneTaskEnv
from devicesworld.tasks.env_split import split_presets, with_preset
from devicesworld.tasks.suites import load_suite

SCHEMA_VERSION = 1


class EpisodeLog(gym.Wrapper[Any, Any, Any, Any]):
    """Remembers whether each finished episode succeeded (terminated), for learning curves."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.successes: list[bool] = []

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            self.successes.append(bool(terminated))
        return obs, reward, terminated, truncated, info


def make_env(
    task_id: str,
    *,
    reward: Literal["sparse", "dense"],
    max_steps: int,
    preset: str | None,
    split: Literal["train", "test"] | None,
) -> gym.Env[Any, Any]:
    task = next((t for t in load_suite("bmoca") if t.id == task_id), None)
    if task is None:
        raise SystemExit(f"error: no task {task_id!r} in suite bmoca")
    if preset is not None:
        task = with_preset(task, preset)
    env = PhoneTaskEnv(task, obs_mode="text", reward=reward, max_steps=max_steps, split=split)
    return HashedText(env)


def evaluate(model: Any, env: gym.Env[Any, Any], episodes: int, *, rng: np.random.Generator | None) -> float:
    """Success rate of the greedy policy (or, with ``rng``, of uniformly random actions)."""
    wins = 0
    for ep in range(episodes):
        obs, _ = env.reset(seed=10_000 + ep)
        while True:
            if rng is None:
                action, _ = model.predict(obs, deterministic=True)
            else:
                action = int(rng.integers(env.action_space.n))  # type: ignore[attr-defined]
            obs, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                wins += terminated
                break
    return wins / episodes


def build(algo: str, env: gym.Env[Any, Any], seed: int) -> Any:
    import torch
    from stable_baselines3 import DQN, PPO

    torch.set_num_threads(1)  # a small MLP: extra threads only contend with the phone simulation

    net = {"net_arch": [128]}
    if algo == "dqn":
        return DQN("MlpPolicy", env, learning_rate=1e-3, buffer_size=10_000, learning_starts=300,
                   batch_size=64, train_freq=1, target_update_interval=200, exploration_fraction=0.4,
                   exploration_final_eps=0.05, gamma=0.9, policy_kwargs=net, seed=seed, verbose=0)  # fmt: skip
    return PPO("MlpPolicy", env, learning_rate=1e-3, n_steps=256, batch_size=64, n_epochs=8, gamma=0.9,
               ent_coef=0.01, policy_kwargs=net, seed=seed, verbose=0)  # fmt: skip


def train(
    algo: Literal["dqn", "ppo"],
    task_id: str,
    *,
    reward: Literal["sparse", "dense"] = "sparse",
    steps: int = 3000,
    max_steps: int = 5,
    preset: str | None = "train_00",
    split: Literal["train", "test"] | None = None,
    eval_episodes: int = 10,
    seed: int = 0,
) -> dict[str, Any]:
    """Train and evaluate; the figures the command prints."""
    t0 = time.perf_counter()
    env = EpisodeLog(make_env(task_id, reward=reward, max_steps=max_steps, preset=preset, split=split))
    model = build(algo, env, seed)
    model.learn(total_timesteps=steps)
    seconds = round(time.perf_counter() - t0, 1)
    log = env.successes
    half = log[len(log) // 2 :]
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "algo": algo,
        "task": task_id,
        "reward": reward,
        "steps": steps,
        "episodes": len(log),
        "train_success_first_half": round(float(np.mean(log[: len(log) // 2])), 3) if len(log) > 1 else None,
        "train_success_second_half": round(float(np.mean(half)), 3) if half else None,
        "train_seconds": seconds,
    }
    rng = np.random.default_rng(seed)
    places: dict[str, tuple[str | None, Literal["train", "test"] | None]] = (
        {preset: (preset, None)} if preset is not None else {}
    )
    if split is not None or preset is None:
        places.update({"train": (None, "train"), "test": (None, "test")})
    for name, (p, s) in places.items():
        ev = make_env(task_id, reward=reward, max_steps=max_steps, preset=p, split=s)
        report[f"greedy_success@{name}"] = round(evaluate(model, ev, eval_episodes, rng=None), 3)
        report[f"random_success@{name}"] = round(evaluate(model, ev, eval_episodes, rng=rng), 3)
    env.close()
    return report


def main(argv: list[str] | None = None) -> None:
    require_sb3()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--algo", choices=["dqn", "ppo"], default="ppo")
    parser.add_argument("--task", default="bmoca-open-clock")
    parser.add_argument("--reward", choices=["sparse", "dense"], default="sparse")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--max-steps", type=int, default=5, help="episode length")
    parser.add_argument("--preset", default="train_00", help="one preset for every episode ('' for none)")
    parser.add_argument("--split", choices=["train", "test"], help="draw a preset of this split per episode")
    parser.add_argument("--eval-episodes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.split:
        split_presets(args.split)
    report = train(args.algo, args.task, reward=args.reward, steps=args.steps, max_steps=args.max_steps,
                   preset=args.preset or None, split=args.split, eval_episodes=args.eval_episodes,
                   seed=args.seed)  # fmt: skip
    print(json.dumps(report))


if __name__ == "__main__":
    main()
