"""Reset time of a full three-device lived world (phone + desktop + home), issue #13.

For a few persona seeds, one task with an ``android``, a ``linux`` and a ``smarthome``
device names ``world: {persona_seed, size: lived}``; each is reset ``--rounds`` times.
The first reset of a seed builds the world and renders its documents (reported
apart: once per process, or read from the disk cache, docs/performance.md); the others
are what an episode pays. Prints p50/p90/p95 of ``CrossDeviceEnv.reset`` in wall-clock
and CPU time for the same three devices without a world and with a ``small`` and a
``lived`` world (target: lived p50 < 50 ms wall on an idle machine), and the load
average before and after: the line says ``idle`` only when the load stayed under a
quarter of the cores, else the wall figures are those of a busy machine (CPU time is
the steady measure then).

``--gap-ms`` sleeps between resets, as an episode would take: a desktop's sized home
needs a holder process from a small pool that back-to-back resets drain
(docs/performance.md, "Three-device setup").

    .venv/bin/python benchmarks/world_reset.py [--rounds 20] [--gap-ms 0] [--sizes small,lived] [--member-phone]

``--member-phone`` adds rows for four devices: the same three and a second phone that takes
the partner's own lived world (``world.members``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Task

KINDS = ("android", "linux", "smarthome")


def task(seed: int | None, size: str, member_phone: bool = False) -> Task:
    """The three devices; ``member_phone`` adds a second phone that takes the partner's world."""
    devices = [{"id": f"{k}_0", "kind": k} for k in KINDS]
    if member_phone:
        devices.insert(1, {"id": f"{KINDS[0]}_1", "kind": KINDS[0]})
    doc: dict[str, object] = {
        "id": f"world-reset-{seed}",
        "instruction": "benchmark",
        "devices": devices,
        "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
    }
    if seed is not None:
        world: dict[str, object] = {"persona_seed": seed, "size": size}
        if member_phone:
            world["members"] = {f"{KINDS[0]}_1": "partner"}
        doc["world"] = world
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


def line(label: str, wall: list[float], cpu: list[float], first: list[float]) -> str:
    def ms(values: list[float], q: float) -> float:
        return (statistics.median(values) if q == 0.5 else pct(values, q)) * 1000

    return (
        f"{label:12s} reset  wall p50 {ms(wall, 0.5):6.1f} p90 {ms(wall, 0.9):6.1f} p95 {ms(wall, 0.95):6.1f} ms"
        f"   cpu p50 {ms(cpu, 0.5):6.1f} p90 {ms(cpu, 0.9):6.1f} p95 {ms(cpu, 0.95):6.1f} ms"
        f"   (n={len(wall)}; first reset per task {statistics.median(first) * 1000:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--gap-ms", type=float, default=0.0)
    parser.add_argument("--sizes", default="small,lived", help="comma-separated: small, lived")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument(
        "--member-phone",
        action="store_true",
        help="also four devices: a second phone holding the partner's own world (docs/worlds.md, members)",
    )
    args = parser.parse_args()
    sizes = [s for s in args.sizes.split(",") if s]
    if not sizes or any(s not in ("small", "lived") for s in sizes):
        parser.error(f"--sizes {args.sizes!r}: a comma-separated list of small, lived")
    gap = args.gap_ms / 1000
    load_before = os.getloadavg()[0]
    rows = [("no world", [task(None, "lived")])]
    rows += [(f"{size} world", [task(s, size) for s in range(args.seeds)]) for size in sizes]
    if args.member_phone:
        rows += [(f"{size}+member", [task(s, size, True) for s in range(args.seeds)]) for size in sizes]
    for label, tasks in rows:
        print(line(label, *measure(tasks, args.rounds, gap)), flush=True)
    load_after = os.getloadavg()[0]
    cores = os.cpu_count() or 1
    busy = max(load_before, load_after) >= cores / 4
    state = f"under load (load average {load_before:.1f} -> {load_after:.1f} on {cores} cores)"
    print(
        ("measured " + state) if busy else f"measured idle (load average {load_after:.1f} on {cores} cores)"
    )
    print("target: lived world p50 < 50 ms wall on an idle machine")


if __name__ == "__main__":
    main()
