"""Behaviour cloning in numpy: a softmax classifier from the text screen to B-MoCA's discrete actions.

Features are hashed ``(line number, word)`` pairs of the ``text`` observation, so
the model sees *where* in the element list a word is, which is what a tap's grid
cell depends on. Demonstrations come from the reference solutions
(:mod:`devicesworld.gym.demos`) on training profiles; evaluating on the test
profiles shows how far cloning generalises to unseen devices (B-MoCA §4: not far).

``python -m devicesworld.gym.bc --tasks bmoca-open-clock,bmoca-airplane-on --demo-profiles 8``
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray

from devicesworld.gym.actions import N_DISCRETE
from devicesworld.gym.demos import Demo, discrete_demo
from devicesworld.gym.env import PhoneTaskEnv
from devicesworld.spec.models import Task

DIM = 4096


def features(text: str, instruction: str, dim: int = DIM) -> NDArray[np.float32]:
    """Hashed bag of ``(line, word)`` pairs of the screen plus the instruction's words, L2-normalised."""
    vec = np.zeros(dim, dtype=np.float32)
    tokens = [f"i:{w}" for w in instruction.casefold().split()]
    for n, line in enumerate(text.splitlines()[1:]):  # the first line is the device header
        tokens += [f"{n}:{w}" for w in line.casefold().split()[1:]]
    for tok in tokens:
        vec[zlib.crc32(tok.encode("utf-8")) % dim] += 1.0
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


@dataclass
class SoftmaxPolicy:
    weights: NDArray[np.float32]

    def act(self, text: str, instruction: str) -> int:
        return int(np.argmax(features(text, instruction) @ self.weights))


def fit(
    x: NDArray[np.float32], y: NDArray[np.int64], *, epochs: int = 500, lr: float = 20.0
) -> SoftmaxPolicy:
    """Multinomial logistic regression by full-batch gradient descent."""
    w = np.zeros((x.shape[1], N_DISCRETE), dtype=np.float32)
    onehot = np.eye(N_DISCRETE, dtype=np.float32)[y]
    for _ in range(epochs):
        logits = x @ w
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        w -= lr * (x.T @ (p - onehot)) / len(y)
    return SoftmaxPolicy(w)


def collect(tasks: list[Task], presets: list[str]) -> list[Demo]:
    """Successful discrete demonstrations of each task on each preset (tasks without one are skipped)."""
    demos: list[Demo] = []
    for task in tasks:
        if not task.solution:
            continue
        env = PhoneTaskEnv(task, max_steps=30)
        try:
            for preset in presets:
                from devicesworld.tasks.env_split import with_preset
                from devicesworld.tasks.suites.bmoca import solution_on

                steps = solution_on(with_preset(task, preset)) or task.solution
                demo = discrete_demo(env, steps, profile=preset)
                if demo is not None and demo.success:
                    demos.append(demo)
        finally:
            env.close()
    return demos


def train(demos: list[Demo], instructions: dict[str, str], **kw: Any) -> SoftmaxPolicy:
    x = np.stack([features(o, instructions[d.task_id]) for d in demos for o in d.observations])
    y = np.array([a for d in demos for a in d.actions], dtype=np.int64)
    return fit(x, y, **kw)


def preset_success(env: gym.Env[Any, Any], presets: list[str], act: Callable[[Any], int]) -> float:
    """Share of ``presets`` on which ``act`` (observation to action) ends an episode by success; closes ``env``.

    One loop for every cloned policy (numpy here, stable-baselines3 in ``baselines.bc_sb3``),
    so that they are scored the same way: one episode per preset, seed 0, success = terminated.
    """
    wins = 0
    try:
        for preset in presets:
            obs, _ = env.reset(seed=0, options={"profile": preset})
            while True:
                obs, _, terminated, truncated, _ = env.step(act(obs))
                if terminated or truncated:
                    wins += int(terminated)
                    break
    finally:
        env.close()
    return wins / len(presets) if presets else 0.0


def evaluate(policy: SoftmaxPolicy, task: Task, presets: list[str], max_steps: int = 10) -> float:
    """Success rate of the cloned policy on ``task`` over ``presets``."""
    env = PhoneTaskEnv(task, max_steps=max_steps)
    return preset_success(env, presets, lambda obs: policy.act(obs, task.instruction))


def main(argv: list[str] | None = None) -> int:
    from devicesworld.tasks.env_split import split_presets
    from devicesworld.tasks.suites import load_suite

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="bmoca-open-clock,bmoca-airplane-on,bmoca-call911")
    parser.add_argument("--demo-profiles", type=int, default=8, help="training presets with demonstrations")
    args = parser.parse_args(argv)
    wanted = args.tasks.split(",")
    tasks = [t for t in load_suite("bmoca") if t.id in wanted]
    train_presets = split_presets("train")
    demos = collect(tasks, train_presets[: args.demo_profiles])
    policy = train(demos, {t.id: t.instruction for t in tasks})
    rows = {
        t.id: {
            "train_seen": evaluate(policy, t, train_presets[: args.demo_profiles]),
            "train_unseen": evaluate(policy, t, train_presets[args.demo_profiles :]),
            "test": evaluate(policy, t, split_presets("test")),
        }
        for t in tasks
    }
    print(json.dumps({"schema_version": 1, "demos": len(demos), "success": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
