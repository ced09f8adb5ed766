"""Behaviour cloning into a stable-baselines3 policy (an MLP over hashed text features), torch on the CPU.

    python -m devicesworld.gym.baselines.bc_sb3 --tasks bmoca-open-clock,bmoca-call911 --demo-presets 7

Demonstrations are the reference solutions replayed as B-MoCA discrete actions on the
first ``--demo-presets`` training presets (:mod:`devicesworld.gym.demos`). The actor of
a PPO ``MlpPolicy`` is fitted to them by maximum likelihood (B-MoCA §E.3 clones 210
human demonstrations into its VLM-encoder agent the same way), so the clone can be
evaluated with ``model.predict`` or fine-tuned by PPO afterwards. One policy serves
every task (the instruction's words are among its features). The JSON line reports
greedy success on the demonstrated presets, the other training presets and the test
presets — cloning generalises poorly to unseen device configurations (B-MoCA §4).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from devicesworld.gym.baselines.wrappers import FEATURES, HashedText, require_sb3
from devicesworld.gym.bc import collect, features, preset_success
from devicesworld.gym.env import PhoneTaskEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.env_split import split_presets
from devicesworld.tasks.suites import load_suite

SCHEMA_VERSION = 1


def fit_policy(
    tasks: list[Task], demo_presets: list[str], *, epochs: int = 300, seed: int = 0
) -> tuple[Any, int]:
    """A PPO model whose policy is cloned from the tasks' demonstrations; also the number of (obs, action) pairs."""
    import torch
    from stable_baselines3 import PPO

    torch.set_num_threads(1)  # a small MLP: extra threads only contend with the phone simulation
    demos = collect(tasks, demo_presets)
    instructions = {t.id: t.instruction for t in tasks}
    x = np.stack([features(o, instructions[d.task_id], FEATURES) for d in demos for o in d.observations])
    y = np.array([a for d in demos for a in d.actions], dtype=np.int64)
    env = HashedText(PhoneTaskEnv(tasks[0], max_steps=10))
    model = PPO("MlpPolicy", env, policy_kwargs={"net_arch": [256]}, seed=seed, verbose=0)
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    obs_t, act_t = torch.as_tensor(x), torch.as_tensor(y)
    policy.train()
    for _ in range(epochs):
        _, log_prob, _ = policy.evaluate_actions(obs_t, act_t)
        loss = -log_prob.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    policy.eval()
    env.close()
    return model, len(y)


def success(model: Any, task: Task, presets: list[str], max_steps: int = 10) -> float:
    """Greedy success of the model on ``task`` over ``presets``."""
    env = HashedText(PhoneTaskEnv(task, max_steps=max_steps))
    return preset_success(env, presets, lambda obs: int(model.predict(obs, deterministic=True)[0]))


def main(argv: list[str] | None = None) -> None:
    require_sb3()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", default="bmoca-open-clock,bmoca-airplane-on,bmoca-call911")
    parser.add_argument("--demo-presets", type=int, default=7, help="training presets with demonstrations")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    wanted = [t for t in args.tasks.split(",") if t]
    tasks = [t for t in load_suite("bmoca") if t.id in wanted]
    if len(tasks) != len(wanted):
        raise SystemExit(f"error: unknown task(s) in {args.tasks!r}")
    t0 = time.perf_counter()
    train = split_presets("train")
    seen, unseen = train[: args.demo_presets], train[args.demo_presets :]
    model, pairs = fit_policy(tasks, seen, epochs=args.epochs, seed=args.seed)
    fit_s = round(time.perf_counter() - t0, 1)
    rows = {
        t.id: {
            "train_seen": round(success(model, t, seen), 3),
            "train_unseen": round(success(model, t, unseen), 3),
            "test": round(success(model, t, split_presets("test")), 3),
        }
        for t in tasks
    }
    print(
        json.dumps({"schema_version": SCHEMA_VERSION, "pairs": pairs, "fit_seconds": fit_s, "success": rows})
    )


if __name__ == "__main__":
    main()
