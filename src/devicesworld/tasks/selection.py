"""Coverage-driven stratified selection of the fixed evaluation set (paper §4.1, issue #15).

The evaluation set must cover the major device combinations, apps and surfaces,
patterns, difficulty levels and scenario families while staying small enough to run
with real models — and, being the set a benchmark is judged on, it must be *hard*:
its difficulty mix is fixed (:data:`DIFFICULTY_MIX`, weighted to hard and expert,
as the paper's best agent solves 12.5 %), not whatever the pool happens to hold.

1. **Quotas.** Each difficulty gets ``round(size * share)`` tasks (at most what the
   pool has; what a grade cannot fill goes to the next harder grade, then easier).
2. **Cover.** Greedy set cover: every feature value in the pool (pattern,
   category, difficulty, device combination, class count, device count, app) gets at
   least its minimum (:data:`MIN_PER_FEATURE`: twice; families are spread, not forced). Among
   tasks covering as much, one whose grade still has quota wins, then the harder
   one; a task of a full grade is taken only when nothing else covers what is left.
3. **Fill.** Round-robin over the patterns within each grade until its quota is met, each
   time taking the task of the family least used so far.

4. **Shape.** With ``targets`` (:class:`~devicesworld.tasks.selection_shape.ShapeTargets`, issue
   #34: a share of long tasks, a median reference solution length, a share of GUI-only desktops),
   chosen tasks are swapped for unchosen ones of the same difficulty and pattern until the targets
   are met (:func:`~devicesworld.tasks.selection_shape.reshape`); no covered feature drops below
   its minimum.

A task whose instruction equals a chosen one after masking its values
(``tasks/naturalness.py``) is skipped. Ties are broken by a seeded shuffle: the same
pool and seed give the same set.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from devicesworld.spec.models import Task
from devicesworld.tasks.naturalness import masked
from devicesworld.tasks.selection_shape import ShapeTargets, reshape

GRADES = ("easy", "medium", "hard", "expert")
DIFFICULTY_MIX = {"easy": 0.03, "medium": 0.12, "hard": 0.40, "expert": 0.45}
"""Share of the evaluation set per difficulty (docs/scenarios.md, "The test split")."""
MIN_PER_FEATURE = {"family": 0}
"""Minimum tasks per feature value, by feature name; others take ``min_per_feature``. Families are
not a coverage constraint (a family of stated values has only easy tasks, and forcing each into
the split would override the mix); they are spread instead: the fill takes the least-used family."""


def features(task: Task) -> set[str]:
    kinds = {d.kind for d in task.devices}
    out = {
        f"pattern:{task.metadata.pattern}",
        f"difficulty:{task.metadata.difficulty}",
        f"combo:{task.device_combo}",
        f"classes:{len(kinds)}",
        f"devices:{len(task.devices)}",
    }
    composition = task.metadata.composition
    if composition is not None and composition.category:
        out.add(f"category:{composition.category}")
    out |= {f"app:{a}" for a in task.metadata.apps}
    out |= {t for t in task.metadata.tags if t.startswith("family:")}
    return out


def _family(task: Task) -> str:
    return next((t for t in task.metadata.tags if t.startswith("family:")), "")


def quotas(tasks: Sequence[Task], size: int, mix: dict[str, float] | None = None) -> dict[str, int]:
    """Tasks per difficulty: the mix's share of ``size``, within what the pool holds."""
    mix = DIFFICULTY_MIX if mix is None else mix
    have: Counter[str] = Counter(str(t.metadata.difficulty) for t in tasks)
    want = {g: min(have[g], round(size * mix.get(g, 0.0))) for g in GRADES}
    left = min(size, len(tasks)) - sum(want.values())
    order = [*GRADES[GRADES.index("hard") :], *reversed(GRADES[: GRADES.index("hard")])]
    while left > 0:
        for g in order:
            if left > 0 and want[g] < have[g]:
                want[g] += 1
                left -= 1
        if all(want[g] >= have[g] for g in GRADES):
            break
    while left < 0:  # rounding gave one too many: take it from the largest share
        g = max(GRADES, key=lambda x: want[x])
        want[g] -= 1
        left += 1
    return want


def unseen_pool(full: Sequence[Task], previous: Sequence[str], held_out: Sequence[Task]) -> list[Task]:
    """The tasks a new version of a frozen split may draw without taking any task out of ``train``:
    the previous version's ids still in ``full`` and the ``held_out`` tasks (built past the seeds
    ``full`` held as train, ``tasks build --skip``; one of the same id replaces the ``full`` task), in
    ``full``'s order then the held-out ones'."""
    ids = {t.id for t in held_out}
    keep = set(previous) - ids
    return [t for t in full if t.id in keep] + list(held_out)


def select_evaluation_set(
    tasks: Sequence[Task],
    size: int = 200,
    seed: int = 0,
    min_per_feature: int = 2,
    mix: dict[str, float] | None = None,
    targets: ShapeTargets | None = None,
) -> list[str]:
    """The ids of the evaluation set, in pool order."""
    rng = random.Random(seed)
    pool = [t for t in tasks if targets is None or targets.fits_budget(t)]
    rng.shuffle(pool)
    feats = {t.id: features(t) for t in pool}
    quota = quotas(pool, size, mix)
    rank = {g: i for i, g in enumerate(GRADES)}
    need: Counter[str] = Counter()

    def cap(feature: str) -> int:
        return MIN_PER_FEATURE.get(feature.split(":", 1)[0], min_per_feature)

    for t in pool:
        for f in feats[t.id]:
            need[f] = min(cap(f), need[f] + 1)
    floor = dict(need)
    chosen: list[Task] = []
    taken: set[str] = set()
    said: set[str] = set()
    """Masked instructions chosen so far: no two tasks of the set differ only in their values."""

    def twin(t: Task) -> bool:
        return masked(t.instruction) in said

    used: Counter[str] = Counter()

    def take(t: Task) -> None:
        used[_family(t)] += 1
        chosen.append(t)
        taken.add(t.id)
        said.add(masked(t.instruction))
        quota[t.metadata.difficulty] = quota.get(t.metadata.difficulty, 0) - 1
        for f in feats[t.id]:
            if need[f] > 0:
                need[f] -= 1

    while len(chosen) < size:
        open_needs = {f for f, n in need.items() if n > 0}
        if not open_needs:
            break
        best = max(
            (t for t in pool if t.id not in taken and not twin(t)),
            key=lambda t: (
                bool(feats[t.id] & open_needs),
                quota.get(t.metadata.difficulty, 0) > 0,
                len(feats[t.id] & open_needs),
                rank.get(t.metadata.difficulty, 0),
            ),
            default=None,
        )
        if best is None or not feats[best.id] & open_needs:
            break
        take(best)
    strata: dict[tuple[str, str], list[Task]] = {}
    for t in pool:
        if t.id not in taken:
            strata.setdefault((t.metadata.difficulty, t.metadata.pattern), []).append(t)
    for grade in sorted(GRADES, key=lambda g: -rank[g]):
        keys = sorted(k for k in strata if k[0] == grade)
        while len(chosen) < size and quota.get(grade, 0) > 0 and any(strata[k] for k in keys):
            for key in keys:
                strata[key] = [t for t in strata[key] if not twin(t)]
                if strata[key] and len(chosen) < size and quota.get(grade, 0) > 0:
                    least = min(range(len(strata[key])), key=lambda i: used[_family(strata[key][i])])
                    take(strata[key].pop(least))
    rest = [t for t in pool if t.id not in taken]
    rest.sort(key=lambda t: -rank.get(t.metadata.difficulty, 0))
    for t in rest:  # a grade's quota could not be met without a masked twin: fill from the rest
        if len(chosen) >= size:
            break
        if not twin(t):
            take(t)
    if targets is not None and targets.any:
        shaped = reshape(
            chosen,
            pool,
            targets,
            twin_key=lambda t: masked(t.instruction),
            feats=feats,
            floor=floor.__getitem__,
        )
        taken = {t.id for t in shaped}
    order = {t.id: i for i, t in enumerate(tasks)}
    return sorted(taken, key=order.__getitem__)
