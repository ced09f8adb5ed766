"""The shape issue #34 asks of ``test``: long tasks, long reference solutions, GUI-only desktops.

Why a module apart from the stratified selection (:mod:`devicesworld.tasks.selection`): the strata
decide *which kinds* of task the split covers (patterns, devices, apps, difficulty mix); these
targets are about *how much work each task is* — at least a share of the ``long`` tier, a median
reference solution of at least N steps, and at least a share of the tasks with a desktop running
every desktop GUI-only. They are met after the strata by swapping a chosen task for an unchosen
one of the same difficulty and pattern (else the same difficulty, else any), never dropping a
covered feature below its floor, so the strata stay what the selection made them.

* :class:`ShapeTargets` — the targets (zero: no target), and the split's step budget: a long task
  whose reference solution does not fit the budget the split is run with is left out, as no agent
  could solve it.
* :func:`split_shape` — the figures of a set of tasks (what ``tasks freeze`` reports).
* :func:`unmet` — the targets a set misses, in words.
* :func:`reshape` — the swaps.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task
from devicesworld.tasks.profiles import every_desktop_gui

LONG_TIER = "long"


@dataclass(frozen=True)
class ShapeTargets:
    """What the split must reach (issue #34's Done-when: 0.25, 15, 0.8); zero leaves a target out."""

    long_share: float = 0.0
    min_median_steps: int = 0
    gui_only_share: float = 0.0
    max_steps: int = 0
    """The split's step budget (``test``: the paper's 50, ``manifest.SPLIT_PROTOCOLS``): a task whose
    reference solution is longer cannot be solved within it, so it is never chosen."""

    @property
    def any(self) -> bool:
        return bool(self.long_share or self.min_median_steps or self.gui_only_share or self.max_steps)

    def fits_budget(self, task: Task) -> bool:
        return not self.max_steps or len(task.solution) <= self.max_steps


ISSUE_34 = ShapeTargets(long_share=0.25, min_median_steps=15, gui_only_share=0.8)
"""The Done-when figures of issue #34 for ``test``."""


class SplitShape(BaseModel):
    """The figures of a split the targets are judged on."""

    size: int
    long: int = Field(description="Tasks of the long tier.")
    long_share: float
    median_steps: float = Field(description="Median length of the reference solutions.")
    desktop_tasks: int = Field(description="Tasks with at least one desktop.")
    gui_only: int = Field(description="Tasks whose every desktop runs GUI-only.")
    gui_only_share: float = Field(description="gui_only / desktop_tasks (1.0 without desktops).")
    difficulty: dict[str, int]
    classes: dict[str, int] = Field(description="Tasks per number of device kinds.")
    patterns: dict[str, int]
    long_families: int = Field(description="Long families with a task in the split.")


def is_long(task: Task) -> bool:
    return task.metadata.tier == LONG_TIER


def steps(task: Task) -> int:
    return len(task.solution)


def _family(task: Task) -> str:
    return next((t for t in task.metadata.tags if t.startswith("family:")), "")


def split_shape(tasks: Sequence[Task]) -> SplitShape:
    gui = [every_desktop_gui(t) for t in tasks]
    desk = [g for g in gui if g is not None]
    n_long = sum(is_long(t) for t in tasks)
    return SplitShape(
        size=len(tasks),
        long=n_long,
        long_share=round(n_long / len(tasks), 4) if tasks else 0.0,
        median_steps=float(statistics.median(steps(t) for t in tasks)) if tasks else 0.0,
        desktop_tasks=len(desk),
        gui_only=sum(desk),
        gui_only_share=round(sum(desk) / len(desk), 4) if desk else 1.0,
        difficulty=dict(sorted(Counter(str(t.metadata.difficulty) for t in tasks).items())),
        classes=dict(sorted(Counter(str(len({d.kind for d in t.devices})) for t in tasks).items())),
        patterns=dict(sorted(Counter(t.metadata.pattern for t in tasks).items())),
        long_families=len({_family(t) for t in tasks if is_long(t)}),
    )


def unmet(tasks: Sequence[Task], targets: ShapeTargets) -> list[str]:
    """The targets ``tasks`` misses, each as a sentence with the figure reached."""
    shape = split_shape(tasks)
    out = []
    if shape.long_share < targets.long_share:
        out.append(f"long tier {shape.long_share:.0%} < {targets.long_share:.0%} ({shape.long} tasks)")
    if shape.median_steps < targets.min_median_steps:
        out.append(f"median reference solution {shape.median_steps:g} < {targets.min_median_steps} steps")
    if shape.gui_only_share < targets.gui_only_share:
        out.append(
            f"GUI-only {shape.gui_only_share:.0%} < {targets.gui_only_share:.0%} of {shape.desktop_tasks} "
            "tasks with a desktop"
        )
    return out


Fits = Callable[[Task, Task], bool]
"""Whether chosen task ``out`` may give its place to unchosen task ``in``."""


class _Swapper:
    """The chosen set under swaps: masked-instruction twins and coverage floors stay respected."""

    def __init__(
        self,
        chosen: list[Task],
        pool: Sequence[Task],
        twin_key: Callable[[Task], str],
        feats: Mapping[str, set[str]],
        floor: Callable[[str], int],
    ) -> None:
        self.chosen = chosen
        self.pool = pool
        self.twin_key = twin_key
        self.feats = feats
        self.floor = floor
        self.said: Counter[str] = Counter(twin_key(t) for t in chosen)
        self.have: Counter[str] = Counter(f for t in chosen for f in feats[t.id])

    def _keeps_cover(self, out: Task, into: Task) -> bool:
        return all(self.have[f] > self.floor(f) for f in self.feats[out.id] - self.feats[into.id])

    def _no_twin(self, out: Task, into: Task) -> bool:
        key = self.twin_key(into)
        return self.said[key] == 0 or (key == self.twin_key(out) and self.said[key] == 1)

    def swap(self, out_ok: Callable[[Task], bool], in_ok: Callable[[Task], bool], fits: Fits) -> bool:
        """One swap of a chosen task ``out_ok`` for an unchosen ``in_ok``; False when none is possible.

        The task given up is of the pattern the set holds most of, the shortest of those: the
        patterns keep their spread (infeasible requests, short by nature, are not the first to go)."""
        taken = {t.id for t in self.chosen}
        held = Counter(t.metadata.pattern for t in self.chosen)
        outs = sorted(
            (t for t in self.chosen if out_ok(t)), key=lambda t: (-held[t.metadata.pattern], steps(t))
        )
        ins = [u for u in self.pool if u.id not in taken and in_ok(u)]
        levels: tuple[Callable[[Task], object], ...] = (
            lambda t: (t.metadata.difficulty, t.metadata.pattern),
            lambda t: t.metadata.difficulty,
            lambda t: None,
        )
        for level in levels:
            by_key: dict[object, list[Task]] = {}
            for u in ins:
                by_key.setdefault(level(u), []).append(u)
            for t in outs:
                for u in by_key.get(level(t), []):
                    if fits(t, u) and self._no_twin(t, u) and self._keeps_cover(t, u):
                        self._replace(t, u)
                        return True
        return False

    def _replace(self, out: Task, into: Task) -> None:
        self.chosen[self.chosen.index(out)] = into
        self.said[self.twin_key(out)] -= 1
        self.said[self.twin_key(into)] += 1
        self.have.subtract(self.feats[out.id])
        self.have.update(self.feats[into.id])


def reshape(
    chosen: Sequence[Task],
    pool: Sequence[Task],
    targets: ShapeTargets,
    *,
    twin_key: Callable[[Task], str],
    feats: Mapping[str, set[str]],
    floor: Callable[[str], int],
) -> list[Task]:
    """``chosen`` with tasks swapped for unchosen ones of ``pool`` until ``targets`` are met (or no
    swap brings them closer). Long tasks are swapped in first (for the shortest chosen tasks), then
    long-enough solutions for short ones, then GUI-only desktops for tasks with a shell; each swap
    keeps what the earlier targets reached."""
    sw = _Swapper(list(chosen), pool, twin_key, feats, floor)
    need = targets.min_median_steps

    def gui(t: Task) -> bool | None:
        return every_desktop_gui(t)

    def no_worse_gui(t: Task, u: Task) -> bool:
        return not targets.gui_only_share or gui(u) is not False or gui(t) is False

    def no_shorter(t: Task, u: Task) -> bool:
        return steps(t) < need or steps(u) >= need

    while split_shape(sw.chosen).long_share < targets.long_share:
        if not sw.swap(lambda t: not is_long(t), is_long, no_worse_gui):
            break
    while split_shape(sw.chosen).median_steps < need:
        if not sw.swap(
            lambda t: not is_long(t) and steps(t) < need,
            lambda u: steps(u) >= need,
            no_worse_gui,
        ):
            break
    while split_shape(sw.chosen).gui_only_share < targets.gui_only_share:
        if not sw.swap(
            lambda t: gui(t) is False and not is_long(t), lambda u: gui(u) is not False, no_shorter
        ):
            break
    return sw.chosen
