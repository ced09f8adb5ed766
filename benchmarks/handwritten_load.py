"""How long the handwritten suites take to load, read and compile (target: loading < 1 s).

Each figure is timed in a fresh Python process (imports included), the median of
``--runs`` runs (default 5) for the fast ones and one run for compiling:

- ``load_suite(NAME)`` — what every command that runs a suite does: parse the shipped
  built file (``tasks/data/NAME-v1.jsonl.gz``); no setup runs.
- reading the data files — ``suite_drafts(NAME)``: every YAML file parsed, defaults,
  fragments and macros applied and every task checked against the registry; no setup runs.
- compiling — ``compile_suite(NAME)``: each task's setup runs once and phone solutions
  are recorded on the simulator (``devicesworld tasks compile``); the old Python builders
  did the same work when the suite was built.

Usage: ``python benchmarks/handwritten_load.py [--runs N] [--no-compile]``; prints a
Markdown table and one JSON line per figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

SNIPPETS = {
    "load_suite": "from devicesworld.tasks.suites import load_suite; n = len(load_suite({name!r}))",
    "read data files": "from devicesworld.tasks.handwritten.suites import suite_drafts; n = len(suite_drafts({name!r}))",
    "compile": "from devicesworld.tasks.handwritten.suites import compile_suite; n = len(compile_suite({name!r}))",
}


def timed(code: str) -> tuple[float, float, int]:
    """Wall and CPU seconds of ``code`` in a fresh interpreter (imports included), and its ``n``.

    CPU time is this process's own (not the sandboxes a compile starts); on a loaded
    machine it is the steadier figure.
    """
    program = (
        "import time; w, c = time.perf_counter(), time.process_time()\n"
        f"{code}\nprint(time.perf_counter() - w, time.process_time() - c, n)"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    wall, cpu, n = out.stdout.split()[-3:]
    return float(wall), float(cpu), int(n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    rows = []
    for name in ("smoke", "bmoca"):
        for what, snippet in SNIPPETS.items():
            if what == "compile" and args.no_compile:
                continue
            runs = 1 if what == "compile" else args.runs
            results = [timed(snippet.format(name=name)) for _ in range(runs)]
            wall = statistics.median(w for w, _, _ in results)
            cpu = statistics.median(c for _, c, _ in results)
            tasks = results[0][2]
            rows.append(
                {
                    "suite": name,
                    "what": what,
                    "tasks": tasks,
                    "wall_s": round(wall, 3),
                    "cpu_s": round(cpu, 3),
                }
            )
    print("| suite | what | tasks | wall s (median) | CPU s (median) |\n|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['suite']} | {r['what']} | {r['tasks']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} |")
    for r in rows:
        print(json.dumps(r))


if __name__ == "__main__":
    main()
