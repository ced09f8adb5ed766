"""AndroidWorld compatibility: the cost of AndroidWorld's interface over a phone, and the oracle figure.

Measures ``get_state`` without and with pixels, ``execute_action`` (a scroll through
the recorded session, no run directory) on a contacts list of 40, and runs the
reference agent through ``AndroidWorldEnv`` over every single-phone ``smoke`` task,
printing the success rate (the test requires at least 95%).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from devicesworld.compat.androidworld import AndroidWorldEnv
from devicesworld.compat.androidworld.oracle import run_oracle
from devicesworld.spec.models import Task
from devicesworld.tasks.suites import load_suite


def _task() -> Task:
    setup: list[dict[str, Any]] = [
        {
            "device": "android_0",
            "op": "add_contact",
            "args": {"name": f"Person {i:02d}", "phone": f"+1555{i:07d}"},
        }
        for i in range(40)
    ]
    return Task.model_validate(
        {
            "id": "bench-aw",
            "instruction": "bench",
            "devices": [{"id": "android_0", "kind": "android"}],
            "setup": setup,
            "evaluation": {"conditions": [{"id": "f", "device": "env", "check": "finished"}]},
            "limits": {"max_steps": 10_000},
        }
    )


def _ms(values: list[float]) -> str:
    return f"p50 {statistics.median(values) * 1e3:.2f} ms, p95 {statistics.quantiles(values, n=20)[-1] * 1e3:.2f} ms"


def main() -> None:
    for pixels in (False, True):
        env = AndroidWorldEnv(_task(), pixels=pixels)
        env.reset()
        env.execute_action({"action_type": "open_app", "app_name": "Contacts"})
        states, actions = [], []
        for i in range(60):
            t0 = time.perf_counter()
            env.get_state()
            states.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            env.execute_action({"action_type": "scroll", "direction": "down" if i % 10 < 5 else "up"})
            actions.append(time.perf_counter() - t0)
        env.close()
        print(f"get_state ({'with' if pixels else 'without'} pixels): {_ms(states)}")
        if not pixels:
            print(f"execute_action (scroll): {_ms(actions)}")
    tasks = [t for t in load_suite("smoke") if [d.kind for d in t.devices] == ["android"]]
    t0 = time.perf_counter()
    solved = 0
    for task in tasks:
        env = AndroidWorldEnv(task, pixels=False)
        run_oracle(env)
        solved += env.close().success
    print(
        f"oracle through AndroidWorld's interface: {solved}/{len(tasks)} in {time.perf_counter() - t0:.2f} s"
    )


if __name__ == "__main__":
    main()
