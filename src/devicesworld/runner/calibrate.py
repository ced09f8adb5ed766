"""Calibrating difficulty against baseline agents whose weaknesses are known.

Difficulty labels must mean something: the success of simple agents should fall
from easy to expert. Two baselines are run on a set of tasks:

- ``random`` (seeded random valid actions within the task's step budget): a floor;
- ``first-match`` (``agents/first_match.py``): follows the reference plan but reads
  each value as the first same-shaped value on a device's first screen, so it fails
  exactly where sources sit behind scrolling, search or documents, where a twin
  comes first, or where the value must be computed.

:func:`calibration_table` gives, per difficulty, the number of tasks and each
baseline's success rate; docs/scenarios.md reports it for the shipped ``test``.
Episodes run in this process, without run folders (nothing is written). It sits in the
runner layer because it runs episodes; ``devicesworld tasks scenarios calibrate`` is
:func:`scenarios_calibrate`, added to the scenario commands by the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

import click
from pydantic import BaseModel

from devicesworld.agents.base import AgentOptions
from devicesworld.agents.registry import AGENTS
from devicesworld.runner.episode import run_episode
from devicesworld.spec.models import Task

BASELINES = ("random", "first-match")
GRADES = ("easy", "medium", "hard", "expert")


class Row(BaseModel):
    difficulty: str
    tasks: int
    success: dict[str, float]
    """Baseline name -> share of tasks it solved."""


def baseline_successes(
    tasks: Sequence[Task], agents: Sequence[str] = BASELINES, progress: Callable[[int], None] | None = None
) -> dict[str, dict[str, bool]]:
    """Agent -> task id -> success, each episode run once with seed 0."""
    out: dict[str, dict[str, bool]] = {}
    done = 0
    for name in agents:
        entry = AGENTS[name]
        results: dict[str, bool] = {}
        for task in tasks:
            result = run_episode(task, entry, AgentOptions(seed=0), None)
            results[task.id] = result.success
            done += 1
            if progress is not None:
                progress(done)
        out[name] = results
    return out


def calibration_table(tasks: Sequence[Task], successes: dict[str, dict[str, bool]]) -> list[Row]:
    rows = []
    for grade in GRADES:
        ids = [t.id for t in tasks if t.metadata.difficulty == grade]
        rows.append(
            Row(
                difficulty=grade,
                tasks=len(ids),
                success={
                    name: round(sum(by_id[i] for i in ids) / len(ids), 3) if ids else 0.0
                    for name, by_id in successes.items()
                },
            )
        )
    return rows


def monotone(rows: Sequence[Row], agent: str) -> bool:
    """Success never rises from one difficulty to the next (over the grades that have tasks)."""
    rates = [r.success[agent] for r in rows if r.tasks]
    return all(a >= b for a, b in pairwise(rates))


@click.command("calibrate")
@click.option("--suite", help="A built-in suite (default: test).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder instead.")
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the table as JSON.",
)
def scenarios_calibrate(suite: str | None, tasks_path: str | None, json_out: Path | None) -> None:
    """Run the random and first-match baselines; success per difficulty (docs/scenarios.md)."""
    from devicesworld.tasks.loading import load_tasks
    from devicesworld.tasks.suites import load_suite

    tasks = load_tasks(Path(tasks_path)) if tasks_path else load_suite(suite or "test")
    successes = baseline_successes(tasks)
    rows = calibration_table(tasks, successes)
    click.echo(f"{'difficulty':<11} {'tasks':>6}  " + "  ".join(f"{b:>12}" for b in BASELINES))
    for r in rows:
        click.echo(
            f"{r.difficulty:<11} {r.tasks:>6}  " + "  ".join(f"{r.success[b]:>12.1%}" for b in BASELINES)
        )
    overall = {b: sum(successes[b].values()) / max(1, len(tasks)) for b in BASELINES}
    click.echo(f"{'all':<11} {len(tasks):>6}  " + "  ".join(f"{overall[b]:>12.1%}" for b in BASELINES))
    for b in BASELINES:
        click.echo(
            f"{b}: success {'falls' if monotone(rows, b) else 'does NOT fall'} monotonically from easy to expert"
        )
    if json_out is not None:
        doc = {"tasks": len(tasks), "overall": overall, "rows": [r.model_dump() for r in rows]}
        json_out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
