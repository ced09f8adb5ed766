"""Held-out collateral probe: the reference solution plus one change the task never mentions.

For every task of a suite (default ``test``) and every device of the task, a fresh
environment replays the reference solution (what the oracle agent does), then makes
one *removing* change on that device to something outside the task's write set — it
deletes an unrelated desktop file, switches an unrelated home device, deletes an
unrelated contact or event (the kind's ``stray`` change of kind ``remove``; the
near-miss QC uses the other kind, ``add``, so this probe is not what QC trained on).

Printed figures:

- oracle success: the reference solution alone (target 100%);
- probe success with the guard: target 0%;
- probe success *without* the guard (the same verdict minus the
  ``no_collateral_damage`` conditions), to show what the guard adds.

Run: ``.venv/bin/python benchmarks/collateral_probe.py [--suite test] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.suites import load_suite
from devicesworld.verify.collateral import COLLATERAL_CHECK
from devicesworld.verify.evaluate import EvaluationResult


def _replay(task: Task) -> CrossDeviceEnv:
    env = CrossDeviceEnv(task)
    env.reset()
    for step in task.solution:
        if env.done:
            break
        env.step(step)
    return env


def _without_guard(verdict: EvaluationResult) -> bool:
    return all(c.passed for c in verdict.conditions if c.required and c.check != COLLATERAL_CHECK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="test")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    tasks = load_suite(opts.suite)
    started = time.perf_counter()
    oracle_ok = 0
    probes = passed = passed_unguarded = not_applicable = 0
    by_kind: Counter[str] = Counter()
    by_kind_passed: Counter[str] = Counter()
    leaks: list[str] = []
    for task in tasks:
        env = _replay(task)
        try:
            oracle_ok += env.evaluate().success
        finally:
            env.close()
        for device in task.devices:
            env = _replay(task)
            try:
                what = env.stray_change(device.id, "remove")
                if what is None:
                    not_applicable += 1
                    continue
                verdict = env.evaluate()
            finally:
                env.close()
            probes += 1
            by_kind[device.kind] += 1
            passed_unguarded += _without_guard(verdict)
            if verdict.success:
                passed += 1
                by_kind_passed[device.kind] += 1
                leaks.append(f"{task.id} {device.id}: {what}")
    seconds = time.perf_counter() - started
    figures = {
        "suite": opts.suite,
        "tasks": len(tasks),
        "oracle_success_rate": oracle_ok / len(tasks) if tasks else 0.0,
        "probes": probes,
        "probes_not_applicable": not_applicable,
        "probe_success_rate": passed / probes if probes else 0.0,
        "probe_success_rate_without_guard": passed_unguarded / probes if probes else 0.0,
        "probes_by_kind": {
            k: {"probes": n, "succeeded": by_kind_passed[k]} for k, n in sorted(by_kind.items())
        },
        "leaks": leaks,
        "seconds": round(seconds, 1),
    }
    if opts.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"suite {opts.suite}: {len(tasks)} tasks, {probes} probes ({not_applicable} devices had nothing to change)"
    )
    print(f"oracle success:                {figures['oracle_success_rate']:.1%}")
    print(f"probe success with the guard:  {figures['probe_success_rate']:.1%} ({passed}/{probes})")
    print(
        f"probe success without guard:   {figures['probe_success_rate_without_guard']:.1%} "
        f"({passed_unguarded}/{probes})"
    )
    for kind, row in figures["probes_by_kind"].items():  # type: ignore[attr-defined]
        print(f"  {kind:<10} {row['succeeded']}/{row['probes']} probes succeeded")
    for leak in leaks:
        print(f"  LEAK {leak}")
    print(f"in {seconds:.1f} s")


if __name__ == "__main__":
    main()
