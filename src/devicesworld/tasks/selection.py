"""Coverage-driven stratified selection of the fixed evaluation set (paper §4.1).

The evaluation set must cover the major device combinations, apps and surfaces,
patterns and difficulty levels while staying small enough to run with real models.
Selection is greedy set cover first — every feature value present in the pool gets
at least ``min_per_feature`` tasks — then a round-robin over (pattern, difficulty)
strata fills the set to its size, so no stratum dominates. A task whose instruction
equals a chosen one after masking its values (``tasks/naturalness.py``) is skipped,
and every scenario family is a feature to cover. Ties are broken by a
seeded shuffle: the same pool and seed give the same set.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from devicesworld.spec.models import Task
from devicesworld.tasks.naturalness import masked


def features(task: Task) -> set[str]:
    kinds = {d.kind for d in task.devices}
    out = {
        f"pattern:{task.metadata.pattern}",
        f"difficulty:{task.metadata.difficulty}",
        f"combo:{task.device_combo}",
        f"classes:{len(kinds)}",
        f"devices:{len(task.devices)}",
    }
    out |= {f"app:{a}" for a in task.metadata.apps}
    out |= {t for t in task.metadata.tags if t.startswith("family:")}
    return out


def select_evaluation_set(
    tasks: Sequence[Task], size: int = 200, seed: int = 0, min_per_feature: int = 2
) -> list[str]:
    """The ids of the evaluation set, in pool order."""
    rng = random.Random(seed)
    pool = list(tasks)
    rng.shuffle(pool)
    feats = {t.id: features(t) for t in pool}
    need: Counter[str] = Counter()
    for t in pool:
        for f in feats[t.id]:
            need[f] = min(min_per_feature, need[f] + 1)
    chosen: list[Task] = []
    taken: set[str] = set()
    said: set[str] = set()
    """Masked instructions chosen so far: no two tasks of the set differ only in their values."""

    def twin(t: Task) -> bool:
        return masked(t.instruction) in said

    while len(chosen) < size:
        open_needs = {f for f, n in need.items() if n > 0}
        if not open_needs:
            break
        best = max(
            (t for t in pool if t.id not in taken and not twin(t)),
            key=lambda t: len(feats[t.id] & open_needs),
            default=None,
        )
        if best is None or not feats[best.id] & open_needs:
            break
        chosen.append(best)
        taken.add(best.id)
        said.add(masked(best.instruction))
        for f in feats[best.id]:
            if need[f] > 0:
                need[f] -= 1
    strata: dict[tuple[str, str], list[Task]] = {}
    for t in pool:
        if t.id not in taken:
            strata.setdefault((t.metadata.pattern, t.metadata.difficulty), []).append(t)
    keys = sorted(strata)
    while len(chosen) < size and any(strata.values()):
        for key in keys:
            while strata[key] and twin(strata[key][-1]):
                strata[key].pop()
            if strata[key] and len(chosen) < size:
                t = strata[key].pop()
                chosen.append(t)
                taken.add(t.id)
                said.add(masked(t.instruction))
    order = {t.id: i for i, t in enumerate(tasks)}
    return sorted(taken, key=order.__getitem__)
