"""CPU seconds per proven task: ``validate_task`` on a sample of the ``test`` split (issue #13).

Proving a task runs its setup alone, its reference solution and every near miss on
fresh environments; building ``full`` proves 6,200 tasks on 2 cores, so each 0.1 CPU-s
per task is ten CPU-minutes of the build. Each measure runs in a fresh process (its
imports and per-process caches count, as in a build worker) with the disk cache
(:mod:`devicesworld.diskcache`) in one of three states:

- ``cold``: an empty cache folder (a first build on a new machine: each persona world
  is built, rendered and its documents opened once, then read back);
- ``warm``: the same folder after a first pass (a rebuild, or a second worker);
- ``off``: ``DEVICESWORLD_DISK_CACHE=0`` (per-process caches only: the old behaviour).

Prints process CPU seconds per task (the validation loop; loading the suite and the
imports before it are printed apart). ``--check FILE`` compares every report with a
recorded one (``--record FILE`` writes them): the verdicts and near-miss kinds must not
change when the code gets faster.

    .venv/bin/python benchmarks/validate_cost.py [--sample 20] [--modes cold,warm,off]
        [--check tests/tasks/validate_verdicts.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def sample_ids(n: int) -> list[str]:
    from devicesworld.tasks.suites import load_suite

    tasks = load_suite("test")
    step = max(1, len(tasks) // n)
    return [t.id for t in tasks[::step][:n]]


def child(ids: list[str], out: Path) -> None:
    """Validate ``ids`` in this process; write the reports and the CPU figures to ``out``."""
    c0 = time.process_time()
    from devicesworld.spec.models import Task
    from devicesworld.tasks.suites import load_suite
    from devicesworld.tasks.validate import validate_task

    wanted = set(ids)
    tasks = [t for t in load_suite("test") if t.id in wanted]
    kept = Path(__file__).resolve().parents[1] / "tests" / "tasks" / "validate_verdicts_tasks.jsonl"
    if kept.exists():  # the recorded tasks, where a rebuilt `full` no longer holds them
        have = {t.id for t in tasks}
        tasks += [
            t
            for t in (Task.model_validate_json(line) for line in kept.read_text().splitlines())
            if t.id in wanted and t.id not in have
        ]
    c1, w1 = time.process_time(), time.perf_counter()
    reports = {t.id: validate_task(t).model_dump(mode="json") for t in tasks}
    c2, w2 = time.process_time(), time.perf_counter()
    out.write_text(
        json.dumps(
            {"load_cpu": c1 - c0, "cpu": c2 - c1, "wall": w2 - w1, "n": len(tasks), "reports": reports}
        )
    )


def run_child(ids: list[str], env: dict[str, str]) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        cmd = [sys.executable, __file__, "--child", str(out), "--ids", ",".join(ids)]
        subprocess.run(cmd, env=env, check=True)
        result: dict[str, object] = json.loads(out.read_text())
        return result


def compare(reports: dict[str, object], recorded: dict[str, object]) -> list[str]:
    diffs = []
    for task_id, want in recorded.items():
        got = reports.get(task_id)
        if got is None:
            diffs.append(f"{task_id}: not validated")
        elif got != want:
            diffs.append(
                f"{task_id}: {json.dumps(got, sort_keys=True)} != recorded {json.dumps(want, sort_keys=True)}"
            )
    return diffs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=20, help="tasks, evenly spaced over the test split")
    parser.add_argument("--modes", default="cold,warm,off")
    parser.add_argument("--check", type=Path, help="recorded reports to compare with")
    parser.add_argument("--record", type=Path, help="write the reports of the first mode here")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.ids.split(","), args.child)
        return
    recorded = json.loads(args.check.read_text()) if args.check else None
    ids = sorted(recorded) if recorded else sample_ids(args.sample)
    failed = False
    with tempfile.TemporaryDirectory() as cache:
        for mode in args.modes.split(","):
            env = dict(os.environ, DEVICESWORLD_CACHE_DIR=cache)
            if mode == "off":
                env["DEVICESWORLD_DISK_CACHE"] = "0"
            elif mode not in ("cold", "warm"):
                parser.error(f"unknown mode {mode!r}: cold, warm or off")
            elif mode == "warm" and not any(Path(cache).iterdir()):
                run_child(ids, env)  # fill it first
            result = run_child(ids, env)
            n = int(str(result["n"]))
            cpu, wall, load = (float(str(result[k])) for k in ("cpu", "wall", "load_cpu"))
            print(
                f"{mode:5s} cache: {cpu / n:.3f} CPU-s per task ({n} tasks, {cpu:.1f} CPU-s, {wall:.1f} s wall;"
                f" imports and load_suite {load:.2f} CPU-s apart)",
                flush=True,
            )
            reports = result["reports"]
            assert isinstance(reports, dict)
            if args.record and mode == args.modes.split(",")[0]:
                args.record.write_text(json.dumps(reports, indent=1, sort_keys=True) + "\n")
            if recorded is not None:
                diffs = compare(reports, recorded)
                failed |= bool(diffs)
                print(
                    f"      reports {'differ' if diffs else 'match the recorded ones'}",
                    *diffs,
                    sep="\n      ",
                )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; target: <= 0.7 CPU-s per task")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
