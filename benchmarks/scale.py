"""Scale benchmark: throughput, setup and step latency, worker memory, pre-warming, Ray overhead.

Prints (figures, not pass/fail):

* tasks per second for an oracle run of a suite (every episode through the real
  harness: workers, results file, step logs) at 1 and 2 local workers, wall time
  including worker start-up, best of ``--rounds``; pre-warming adaptive (the
  default), forced on every episode, and off; with the CPU time per episode of the
  driver and its worker processes (less sensitive than wall time to a busy machine);
* setup (``CrossDeviceEnv.reset``) p50/p95 by device combination;
* step latency (``CrossDeviceEnv.step``) p50/p95 by device kind of the step's target;
* peak resident memory of each worker process;
* episodes that wait — setup on the machine, the agent on a model (a synthetic kind,
  ``synthetic_kind.py``; the real suites' setup is too cheap to show it) — at 1 and 2
  workers with pre-warming on and off;
* Ray against local processes on the same machine, same suite, same worker count.

    python benchmarks/scale.py --suite smoke [--copies 10] [--rounds 3] [--no-ray]

``--copies`` repeats the suite under fresh ids so that short suites give stable rates.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.runner.run import RunConfig, RunOutcome, execute_run
from devicesworld.spec import Task
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.validate import validate_task

MS = 1000.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def copies_of(tasks: list[Task], copies: int) -> list[Task]:
    return [t.model_copy(update={"id": f"{t.id}-c{c}"}) for c in range(copies) for t in tasks]


LAST_CPU_S = 0.0
"""CPU seconds of this process and its (finished) worker processes during the last timed run."""


def _cpu_s() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_run(tasks: list[Task], config: RunConfig) -> tuple[float, RunOutcome]:
    """Wall seconds of one run; its CPU seconds (driver + local workers) go to ``LAST_CPU_S``."""
    global LAST_CPU_S
    with tempfile.TemporaryDirectory(prefix="dw-bench-") as tmp:
        cpu0, t0 = _cpu_s(), time.perf_counter()
        outcome = execute_run(tasks, config, Path(tmp) / "run")
        wall = time.perf_counter() - t0
        LAST_CPU_S = _cpu_s() - cpu0
        return wall, outcome


def throughput(tasks: list[Task], rounds: int) -> None:
    print(f"\n## Oracle run throughput ({len(tasks)} episodes, local backend, best of {rounds})")
    modes = {"auto": {}, "forced": {"prewarm_min_setup_ms": 0.0}, "off": {"prewarm": False}}
    for workers in (1, 2):
        for mode, extra in modes.items():
            best = cpu = float("inf")
            outcome: RunOutcome | None = None
            for _ in range(rounds):
                config = RunConfig(agent="oracle", source="bench", workers=workers, **extra)  # type: ignore[arg-type]
                seconds, outcome = timed_run(tasks, config)
                best, cpu = min(best, seconds), min(cpu, LAST_CPU_S)
            assert outcome is not None and all(r.success for r in outcome.results)
            rss = sorted(outcome.worker_peak_rss_kb.values())
            print(
                f"workers={workers} prewarm={mode:6s}  {len(tasks) / best:8.1f} tasks/s"
                f"   wall {best:6.2f} s   CPU {cpu / len(tasks) * MS:5.2f} ms/episode"
                f"   prewarmed {outcome.prewarmed:4d}/{len(tasks)}"
                f"   peak RSS per worker {', '.join(f'{kb / 1024:.0f} MiB' for kb in rss)}"
            )
    t0 = time.perf_counter()
    n_ok = sum(validate_task(t).ok for t in tasks)
    seconds = time.perf_counter() - t0
    print(
        f"tasks validate (QC gates, serial, in-process): {len(tasks) / seconds:8.1f} tasks/s ({n_ok}/{len(tasks)} ok)"
    )


def setup_and_steps(tasks: list[Task], resets_per_task: int) -> None:
    setup: dict[str, list[float]] = defaultdict(list)
    steps: dict[str, list[float]] = defaultdict(list)
    for task in tasks:
        env = CrossDeviceEnv(task)
        for _ in range(resets_per_task):
            env.reset()
            setup[task.device_combo].append(env.setup_seconds)
        kinds = {d.id: d.kind for d in task.devices}
        for step in task.solution:
            t0 = time.perf_counter()
            env.step(step)
            steps[kinds.get(step.device or "", "* (global)")].append(time.perf_counter() - t0)
        env.close()
    print(f"\n## Setup (CrossDeviceEnv.reset: create devices + setup ops), {resets_per_task} resets per task")
    for combo, values in sorted(setup.items()):
        print(
            f"{combo:24s} p50 {statistics.median(values) * MS:7.3f} ms   p95 {pct(values, 0.95) * MS:7.3f} ms   (n={len(values)})"
        )
    print("\n## Step latency (CrossDeviceEnv.step of the reference solutions) by device kind")
    for kind, values in sorted(steps.items()):
        print(
            f"{kind:24s} p50 {statistics.median(values) * MS:7.4f} ms   p95 {pct(values, 0.95) * MS:7.4f} ms   (n={len(values)})"
        )


# --------------------------------------------------------------- pre-warming, synthetic
def prewarm_effect(n: int, rounds: int) -> None:
    """Episodes that wait (setup on the machine, the agent on a model): 1 and 2 workers, pre-warming on/off."""
    from synthetic_kind import SETUP_WAIT_S, STEPS, THINK_S, waiting_tasks

    tasks = waiting_tasks(n)
    print(
        f"\n## Waiting episodes ({n}; setup waits {SETUP_WAIT_S * MS:.0f} ms as a sandbox start does,"
        f" the agent {THINK_S * MS:.0f} ms per step as a model call does, {STEPS} steps; best of {rounds})"
    )
    walls: dict[tuple[int, bool], float] = {}
    for workers in (1, 2):
        for prewarm in (False, True):
            best = float("inf")
            for _ in range(rounds):
                config = RunConfig(
                    agent="synthetic_kind:ThinkingAgent", source="bench", workers=workers, prewarm=prewarm
                )
                seconds, outcome = timed_run(tasks, config)
                best = min(best, seconds)
                assert all(r.success for r in outcome.results), outcome.results[0]
            walls[workers, prewarm] = best
            print(
                f"workers={workers} prewarm={'on ' if prewarm else 'off'}  wall {best:5.2f} s"
                f"   {best / n * MS:6.1f} ms per episode   {n / best:6.1f} tasks/s   prewarmed {outcome.prewarmed}/{n}"
            )
    for workers in (1, 2):
        saved = 1 - walls[workers, True] / walls[workers, False]
        print(f"pre-warming saved {saved:.0%} at {workers} worker(s)", end="; ")
    print(f"setup is {SETUP_WAIT_S / (SETUP_WAIT_S + STEPS * THINK_S):.0%} of a cold episode")


# ------------------------------------------------------------------------------- ray
def ray_overhead(tasks: list[Task], rounds: int) -> None:
    try:
        import ray
    except ImportError:
        print("\n## Ray: not installed (pip install 'devicesworld[ray]'), skipped")
        return
    print(f"\n## Ray against local processes (2 workers, {len(tasks)} oracle episodes, best of {rounds})")
    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    print(
        f"local Ray cluster start: {time.perf_counter() - t0:.2f} s (once per run when the backend starts it)"
    )
    try:
        for backend in ("local", "ray"):
            best = float("inf")
            for _ in range(rounds):
                seconds, outcome = timed_run(
                    tasks, RunConfig(agent="oracle", source="bench", workers=2, backend=backend)
                )
                best = min(best, seconds)
                assert all(r.success for r in outcome.results)
            rss = sorted(outcome.worker_peak_rss_kb.values())
            print(
                f"{backend:5s} 2 workers  wall {best:6.2f} s  {len(tasks) / best:8.1f} tasks/s"
                f"  peak RSS per worker {', '.join(f'{kb / 1024:.0f} MiB' for kb in rss)}"
            )
            if backend == "local":
                local_best = best
        per_episode = (best - local_best) / len(tasks)
        print(
            f"Ray overhead: {best - local_best:+.2f} s per run ({per_episode * MS:+.2f} ms per episode),"
            " worker start-up included, cluster start excluded"
        )
    finally:
        ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--suite", default="smoke")
    parser.add_argument(
        "--copies", type=int, default=10, help="Repeat the suite this many times (fresh ids)."
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--resets", type=int, default=50, help="Resets per task for the setup figures.")
    parser.add_argument("--waiting", type=int, default=120, help="Episodes in the waiting-episodes section.")
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    suite = load_suite(args.suite)
    tasks = copies_of(suite, args.copies)
    print(f"suite {args.suite}: {len(suite)} tasks x {args.copies} copies")
    throughput(tasks, args.rounds)
    setup_and_steps(suite, args.resets)
    prewarm_effect(args.waiting, args.rounds)
    if not args.no_ray:
        ray_overhead(tasks, args.rounds)


if __name__ == "__main__":
    main()
