"""Which tasks a family contributes to a suite, and building them reproducibly.

Task ``i`` of a family comes from the first sub-seed ``crc32(seed:family:i:retry)``
whose compiled task passes quality control — first the coherence gate
(``tasks/coherence.py``: a draw whose instruction, worlds and checks disagree is never
shipped), then every proving gate (a family with GUI roles is proven with its
tool-step twin, :func:`prove`), so tasks are independent: a family's tasks build in
chunks on any number of processes and the same seed gives the same bytes. Phrasings
rotate (task ``i`` uses phrasing ``i mod n``) so every phrasing of a family is used; one task in ``INFEASIBLE_EVERY`` is an infeasible variant when
the family has any (every task, for an ``infeasible_only`` family).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import NamedTuple

from devicesworld.spec.models import Task
from devicesworld.tasks.coherence import coherence_problems
from devicesworld.tasks.scenarios.compile import Choice, FamilyError, compile_task
from devicesworld.tasks.scenarios.loader import shipped_macros
from devicesworld.tasks.scenarios.model import Family
from devicesworld.tasks.validate import TaskReport, validate_task

INFEASIBLE_EVERY = 6
MAX_RETRIES = 12


def sub_seed(seed: int, family: str, index: int, retry: int) -> int:
    return zlib.crc32(f"{seed}:{family}:{index}:{retry}".encode())


def choice_for(family: Family, seed: int, index: int, retry: int = 0) -> Choice:
    variant: str | None = None
    if family.infeasible and (family.infeasible_only or index % INFEASIBLE_EVERY == INFEASIBLE_EVERY - 1):
        slot = index if family.infeasible_only else index // INFEASIBLE_EVERY
        variant = family.infeasible[slot % len(family.infeasible)].id
    n = len(family.phrasings)
    return Choice(
        seed=sub_seed(seed, family.family, index, retry), phrasing=(index + retry) % n, variant=variant
    )


def family_choices(family: Family, *, seed: int, count: int) -> Iterator[Choice]:
    for i in range(count):
        yield choice_for(family, seed, i)


def build_task(family: Family, seed: int, index: int, task_id: str, rejected: dict[str, int]) -> Task | None:
    """Task ``index`` of ``family``: the first draw that compiles and passes every gate (or None)."""
    built = build_proven(family, seed, index, task_id, rejected)
    return built.task if built is not None else None


class Built(NamedTuple):
    """A task, the report of the gates that passed it (near misses counted) and the draw it came from."""

    task: Task
    report: TaskReport
    choice: Choice


def build_proven(
    family: Family, seed: int, index: int, task_id: str, rejected: dict[str, int]
) -> Built | None:
    """:func:`build_task` with its :class:`Built` record."""
    for retry in range(MAX_RETRIES):
        choice = choice_for(family, seed, index, retry)
        try:
            task = compile_task(family, shipped_macros(), choice, task_id)
            twin = (
                compile_task(family, shipped_macros(), choice, task_id, through_gui=False)
                if family.gui
                else None
            )
        except FamilyError as exc:
            _count(rejected, family.family, str(exc))
            continue
        incoherent = coherence_problems(task)
        if incoherent:
            _count(rejected, family.family, f"coherence {incoherent[0].rule}")
            continue
        report = prove(task, twin)
        if not report.ok:
            _count(rejected, family.family, report.problems[0])
            continue
        return Built(task, report, choice)
    return None


def prove(task: Task, twin: Task | None = None) -> TaskReport:
    """Every gate on ``task``; with ``twin`` (its tool-step twin, for a family with GUI roles) the
    near misses run on the twin and ``task`` is proven by its own GUI reference solution.

    The two share their draw, setup and checks, so the near misses (wrong values,
    distractors, hedges, stray changes) judge the same verifier on the same files; each
    costs a few milliseconds on the twin where it would replay the GUI solution on live
    desktops (~15 s each). The GUI task itself must still fail after setup alone and
    pass by its GUI steps alone.
    """
    if twin is None:
        return validate_task(task)
    report = validate_task(twin)
    if not report.ok:
        return report
    own = validate_task(task, near_miss=False)
    return own.model_copy(update={"near_misses": report.near_misses, "mutations": report.mutations})


def _count(rejected: dict[str, int], family: str, message: str) -> None:
    reason = message.split(":")[1].strip() if message.startswith("family ") and ":" in message else message
    key = f"{family}: {reason.split('(')[0].strip()[:80]}"
    rejected[key] = rejected.get(key, 0) + 1
