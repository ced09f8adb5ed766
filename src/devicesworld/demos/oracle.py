"""Demonstrations from reference solutions, so datasets can be made without a person.

    python -m devicesworld.demos.oracle --suite bmoca --tasks bmoca-call911,bmoca-alarm-simple \\
        --split train --per-task 3 --out demos.jsonl

Each task is played on ``--per-task`` presets of the split (drawn with ``--seed``;
without ``--split`` on its own profile) by its reference solution — for ``bmoca`` tasks
recorded again on that preset (:func:`~devicesworld.tasks.suites.bmoca.solution_on`)
— and every step is recorded as :mod:`devicesworld.demos.record` does for a person.
Failed replays are kept out of the file unless ``--keep-failed``, as B-MoCA drops
failed human demonstrations (§E.1).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from devicesworld.demos.model import Demonstration, write_demos
from devicesworld.demos.record import DemoRecorder
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Step, Task


def solution_for(task: Task) -> list[Step]:
    """The task's reference solution, recorded again on its profile for ``bmoca`` tasks."""
    from devicesworld.tasks.suites.bmoca import solution_on

    steps = solution_on(task)
    return list(task.solution or []) if steps is None else steps


def oracle_demo(task: Task, *, profile: str | None = None, seed: int = 0) -> Demonstration:
    """Play ``task`` (on preset ``profile`` when given) by its reference solution, recording each step."""
    from devicesworld.tasks.env_split import with_preset

    played = with_preset(task, profile) if profile else task
    recorder = DemoRecorder(played, source="oracle", profile=profile)
    with CrossDeviceEnv(played, seed=seed) as env:
        observation = env.reset()
        for step in solution_for(played):
            if env.done:
                break
            outcome = env.step(step)
            recorder.record(observation, step, outcome.result)
            observation = env.observe()
        verdict = env.evaluate()
    return recorder.finish(verdict.success, verdict.score)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--suite", default="bmoca")
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: the whole suite)")
    parser.add_argument("--split", choices=["train", "test"], help="play on presets of this split")
    parser.add_argument(
        "--per-task", type=int, default=1, help="presets per task (0: every preset of the split)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--append", action="store_true")
    parser.add_argument("--keep-failed", action="store_true")
    args = parser.parse_args(argv)

    from devicesworld.tasks.env_split import split_presets
    from devicesworld.tasks.suites import load_suite

    try:
        suite = load_suite(args.suite)
    except Exception as exc:  # unknown suite names
        print(f"error: {exc}", file=sys.stderr)
        return 2
    wanted = [t for t in args.tasks.split(",") if t]
    by_id = {t.id: t for t in suite}
    missing = [t for t in wanted if t not in by_id]
    if missing:
        print(f"error: not in suite {args.suite}: {', '.join(missing)}", file=sys.stderr)
        return 2
    tasks = [by_id[t] for t in wanted] if wanted else suite
    rng = random.Random(args.seed)
    demos: list[Demonstration] = []
    failed = 0
    for task in tasks:
        if args.split is None:
            profiles: list[str | None] = [None]
        else:
            presets = split_presets(args.split)
            n = len(presets) if args.per_task <= 0 else min(args.per_task, len(presets))
            profiles = list(rng.sample(presets, n))
        for profile in profiles:
            demo = oracle_demo(task, profile=profile, seed=args.seed)
            if demo.success or args.keep_failed:
                demos.append(demo)
            failed += not demo.success
    n = write_demos(args.out, demos, append=args.append)
    print(
        f"wrote {n} demonstrations ({failed} failed replays{' kept' if args.keep_failed else ' dropped'}) -> {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
