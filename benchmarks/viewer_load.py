"""Viewer and report load times on a large synthetic run (target: a run of thousands opens in seconds).

Writes a run directory of N episodes (default 5,000) with 30 steps each, then times:
opening it in the viewer (index results.jsonl, list tasks), the first metrics request
(bootstrap CIs), failure diagnosis (reads every failed step log), opening one episode,
and the first HTTP response of the task list. Usage: ``python benchmarks/viewer_load.py [N]``.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from devicesworld import jsonl
from devicesworld.viewer import RunStore, make_server, serve_in_thread

STEPS = 30


def write_run(root: Path, n: int) -> Path:
    rng = random.Random(0)
    (root / "episodes").mkdir(parents=True)
    combos = ["android+linux", "androidx2", "linux+smarthome", "android+linux+smarthome", "smarthome"]
    with (root / "results.jsonl").open("w") as res:
        for i in range(n):
            tid = f"task-{i:05d}"
            ok = rng.random() < 0.15
            term = "finished" if ok or rng.random() < 0.6 else "budget_exhausted"
            conds = [
                {
                    "id": f"c{j}",
                    "device": "linux_0" if j % 2 else "android_0",
                    "passed": ok or rng.random() < 0.3,
                    "detail": f"value {j}",
                    "initial_passed": False,
                    "initial_detail": "none",
                }
                for j in range(3)
            ]
            line = {
                "schema_version": 1,
                "task_id": tid,
                "success": ok,
                "score": 1.0 if ok else 0.0,
                "steps": STEPS,
                "duration_s": rng.uniform(5, 500),
                "termination": term,
                "tokens_in": rng.randint(10_000, 600_000),
                "tokens_out": rng.randint(100, 9_000),
                "conditions": conds,
                "agent": "bench",
                "device_combo": rng.choice(combos),
                "pattern": rng.choice(["direct_transfer", "multi_source_integration"]),
                "difficulty": rng.choice(["easy", "medium", "hard"]),
                "apps": ["files", "markor"],
            }
            res.write(jsonl.dumps_line(line))
            ep = root / "episodes" / tid
            ep.mkdir()
            with (ep / "steps.jsonl").open("w") as fh:
                for s in range(1, STEPS + 1):
                    okay = rng.random() < 0.8
                    fh.write(
                        jsonl.dumps_line(
                            {
                                "schema_version": 1,
                                "step": s,
                                "action": {"device": "android_0", "action": "click", "args": {"index": s}},
                                "ok": okay,
                                "message": "clicked" if okay else "stale index",
                                "error_code": None if okay else "STALE_INDEX",
                            }
                        )
                    )
    return root


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    print(f"{label:<42} {time.perf_counter() - t0:8.3f} s")
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        run = timed(f"write synthetic run ({n} episodes)", lambda: write_run(Path(tmp) / "run", n))
        store = RunStore([run])
        entry = store.get(0)
        timed("viewer: open run (index results.jsonl)", lambda: entry.tasks())
        timed("viewer: first metrics request (CIs)", lambda: entry.metrics())
        timed("viewer: failure diagnosis (all failed)", lambda: entry.diagnoses())
        timed("viewer: open one episode", lambda: entry.episode("task-00042"))
        server = timed("HTTP: start server (loads the run)", lambda: make_server([run], port=0))
        serve_in_thread(server)
        try:

            def first_page() -> int:
                with urllib.request.urlopen(server.url + "api/runs/0/tasks") as r:
                    return len(r.read())

            timed("HTTP: first task list response", first_page)
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
