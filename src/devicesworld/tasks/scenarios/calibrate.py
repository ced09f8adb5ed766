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
Episodes run in this process, without run folders (nothing is written).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

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
