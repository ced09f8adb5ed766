"""Reset time of a full three-device lived world (phone + desktop + home), issue #13.

For a few persona seeds, one task with an ``android``, a ``linux`` and a ``smarthome``
device names ``world: {persona_seed, size: lived}``; each is reset ``--rounds`` times.
The first reset of a seed builds the world and renders its documents (reported
apart: once per process); the others are what an episode pays. Prints p50/p95 of
``CrossDeviceEnv.reset`` in wall-clock and CPU time, next to the same three devices
without a world (target: p50 < 50 ms).

``--gap-ms`` sleeps between resets, as an episode would take: a desktop's sized home
needs a holder process from a small pool that back-to-back resets drain
(docs/performance.md, "Three-device setup").

    .venv/bin/python benchmarks/world_reset.py [--rounds 20] [--gap-ms 0] [--size lived]
"""

from __future__ import annotations

import argparse
import statistics
import time

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Task

KINDS = ("android", "linux", "smarthome")


def task(seed: int | None, size: str) -> Task:
    doc: dict[str, object] = {
        "id": f"world-reset-{seed}",
        "instruction": "benchmark",
        "devices": [{"id": f"{k}_0", "kind": k} for k in KINDS],
        "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
    }
    if seed is not None:
        doc["world"] = {"persona_seed": seed, "size": size}
    return Task.model_validate(doc)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(tasks: list[Task], rounds: int, gap: float) -> tuple[list[float], list[float], list[float]]:
    wall: list[float] = []
    cpu: list[float] = []
    first: list[float] = []
    for t in tasks:
        env = CrossDeviceEnv(t)
        t0 = time.perf_counter()
        env.reset()
        first.append(time.perf_counter() - t0)
        for _ in range(rounds):
            if gap:
                time.sleep(gap)
            w0, c0 = time.perf_counter(), time.process_time()
            env.reset()
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
        env.close()
    return wall, cpu, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--gap-ms", type=float, default=0.0)
    parser.add_argument("--size", default="lived", choices=["small", "lived"])
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    gap = args.gap_ms / 1000
    for label, tasks in (
        ("no world", [task(None, args.size)]),
        (f"{args.size} world", [task(s, args.size) for s in range(args.seeds)]),
    ):
        wall, cpu, first = measure(tasks, args.rounds, gap)
        print(
            f"{label:12s} reset  wall p50 {statistics.median(wall) * 1000:6.1f} ms  p95 {pct(wall, 0.95) * 1000:6.1f} ms"
            f"   cpu p50 {statistics.median(cpu) * 1000:6.1f} ms  p95 {pct(cpu, 0.95) * 1000:6.1f} ms"
            f"   (n={len(wall)}; first reset per task {statistics.median(first) * 1000:.0f} ms)"
        )
    print("target: lived world p50 < 50 ms")


if __name__ == "__main__":
    main()
