"""Random and oracle success on the ``bmoca`` suite per profile split (train: 35 presets, test: 10).

Each task is played on ``--per-task`` presets of each split (drawn with a fixed seed;
``--per-task 0`` means every preset). The oracle plays the reference solution
recorded on that profile; the random agent taps, swipes and presses buttons
uniformly from B-MoCA's 385 discrete actions until the task's step budget, through
the Gymnasium environment, so its success is checked after every step.

    python benchmarks/bmoca_splits.py --per-task 3
    python benchmarks/bmoca_splits.py --per-task 0 --oracle-only   # every task on all 45 presets
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.gym.actions import N_DISCRETE
from devicesworld.gym.env import PhoneTaskEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.env_split import split_presets, with_preset
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.suites.bmoca import solution_on


def oracle(task: Task, preset: str) -> bool:
    moved = with_preset(task, preset)
    steps = solution_on(moved) or []
    with CrossDeviceEnv(moved) as env:
        env.reset()
        for step in steps:
            env.step(step)
        return env.evaluate().success


def random_agent(task: Task, preset: str, rng: np.random.Generator, max_steps: int) -> bool:
    env = PhoneTaskEnv(task, max_steps=max_steps)
    try:
        env.reset(seed=0, options={"profile": preset})
        while True:
            _, _, terminated, truncated, _ = env.step(int(rng.integers(N_DISCRETE)))
            if terminated or truncated:
                return terminated
    finally:
        env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-task", type=int, default=3, help="presets per task and split (0: all)")
    parser.add_argument("--max-steps", type=int, default=20, help="random agent's steps per episode")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--oracle-only", action="store_true", help="skip the random agent (the full oracle check)"
    )
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: the whole suite)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    tasks = load_suite("bmoca")
    if args.tasks:
        wanted = set(args.tasks.split(","))
        tasks = [t for t in tasks if t.id in wanted]
    failures: list[str] = []
    rows = []
    for split in ("train", "test"):
        presets = split_presets(split)
        t0 = time.perf_counter()
        n = wins_oracle = wins_random = 0
        for task in tasks:
            chosen = (
                presets if args.per_task <= 0 else list(rng.choice(presets, args.per_task, replace=False))
            )
            for preset in chosen:
                n += 1
                solved = oracle(task, str(preset))
                wins_oracle += solved
                if not solved:
                    failures.append(f"{task.id}@{preset}")
                if not args.oracle_only:
                    wins_random += random_agent(task, str(preset), rng, args.max_steps)
        rows.append(
            {
                "split": split,
                "episodes": n,
                "oracle_success": round(wins_oracle / n, 3),
                "random_success": None if args.oracle_only else round(wins_random / n, 3),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    print(f"{'split':6} {'episodes':>8} {'oracle':>7} {'random':>7} {'seconds':>8}")
    for r in rows:
        rand = "-" if r["random_success"] is None else f"{r['random_success']:.1%}"
        print(f"{r['split']:6} {r['episodes']:>8} {r['oracle_success']:>7.1%} {rand:>7} {r['seconds']:>8}")
    if failures:
        print(f"oracle failed on {len(failures)}: {', '.join(failures[:20])}")
    print(
        json.dumps({"schema_version": 1, "tasks": len(tasks), "oracle_only": args.oracle_only, "rows": rows})
    )


if __name__ == "__main__":
    main()
