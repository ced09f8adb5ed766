"""Setup time of three-device tasks (phone + desktop + home), until the suite has its own.

Each synthetic task joins the devices and setup ops of one phone, one desktop and one
SmartHome task of the ``smoke`` suite, so its reset does exactly the work those three
tasks do together. Prints p50/p95 of ``CrossDeviceEnv.reset`` (target: p50 < 20 ms).
"""

from __future__ import annotations

import statistics
import time

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Condition, Evaluation, Task
from devicesworld.tasks.suites import load_suite


def combined_tasks(limit: int = 12) -> list[Task]:
    smoke = load_suite("smoke")
    by_kind = {
        kind: [t for t in smoke if [d.kind for d in t.devices] == [kind]]
        for kind in ("android", "linux", "smarthome")
    }
    out: list[Task] = []
    for i, (phone, desk, home) in enumerate(zip(*by_kind.values(), strict=False)):
        if i >= limit:
            break
        out.append(
            Task(
                id=f"three-{i}",
                instruction="benchmark",
                devices=[*phone.devices, *desk.devices, *home.devices],
                setup=[*phone.setup, *desk.setup, *home.setup],
                evaluation=Evaluation(conditions=[Condition(id="c", device="env", check="finished")]),
            )
        )
    return out


def main(rounds: int = 20) -> None:
    times: list[float] = []
    for task in combined_tasks():
        env = CrossDeviceEnv(task)
        for _ in range(rounds):
            t0 = time.perf_counter()
            env.reset()
            times.append(time.perf_counter() - t0)
        env.close()
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"three-device setup (android+linux+smarthome)  p50 {statistics.median(times) * 1000:.2f} ms"
        f"   p95 {p95 * 1000:.2f} ms   (n={len(times)}; target p50 < 20 ms)"
    )


if __name__ == "__main__":
    main()
