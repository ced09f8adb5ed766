"""Quality control of a task's world: the values it reads exist, and their twins are declared.

A task that names world values in ``world.reads`` promises that the near-miss twins
of each (docs/worlds.md) are declared where the verifier reads them, the
``distractors`` argument of its conditions, so an answer giving a twin fails. A
twin counts as declared when its value, or one of its record's fields (the budget in
last year's report), is among the declared distractors. Values whose twins are
devices rather than values (``home_device``) are protected by the collateral guard
instead: touching the heater in the other room fails the task without any argument.
"""

from __future__ import annotations

from typing import Any

from devicesworld.spec.models import Task
from devicesworld.worlds.model import Pick

GUARDED_KINDS = frozenset({"home_device"})
"""Value kinds whose twins the collateral-damage guard protects (no distractor needed)."""


def declared_distractors(task: Task) -> set[str]:
    """Every value declared as a distractor on the task's conditions, case-folded."""
    out: set[str] = set()
    for c in task.evaluation.conditions:
        for item in c.args.get("distractors", []) or []:
            value: Any = item.get("value") if isinstance(item, dict) else item
            out.add(str(value).strip().casefold())
    return out


def twin_values(pick: Pick) -> set[str]:
    """A pick's twins' values and their records' fields, case-folded (what counts as declaring one)."""
    values: set[str] = set()
    for twin in pick.twins:
        values.add(str(twin.value).strip().casefold())
        values |= {str(v).strip().casefold() for v in twin.fields.values() if str(v).strip()}
    return values


def world_problems(task: Task) -> list[str]:
    """One problem per world value the task reads that is missing, or whose twins are not declared."""
    if task.world is None or not task.world.reads:
        return []
    from devicesworld.worlds.generate import build_world

    world = build_world(task.world.persona_seed, task.world.size, task.start_time)
    declared = declared_distractors(task)
    problems: list[str] = []
    for key in task.world.reads:
        try:
            pick = world.value(key)
        except KeyError:
            problems.append(
                f"world.reads names {key!r}, which world {task.world.persona_seed}/{task.world.size} does not hold"
            )
            continue
        if pick.target.kind in GUARDED_KINDS:
            continue
        if not declared & twin_values(pick):
            problems.append(f"world value {key!r} is read but none of its twins is declared as a distractor")
    return problems
