"""``devicesworld tasks build``: compose candidate tasks, keep those that pass quality control.

Every candidate goes through the same gates as ``tasks validate``; rejected ones are
counted per builder and reason, so a builder that produces many bad candidates is
visible rather than silently filtered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import cycle

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task
from devicesworld.tasks.composition.compose import Category, Composer, CompositionError
from devicesworld.tasks.composition.library import android, linux, smarthome
from devicesworld.tasks.composition.library.smarthome_common import KIND as HOME_KIND
from devicesworld.tasks.composition.library.transfers import TRANSFERS
from devicesworld.tasks.validate import validate_task

CATEGORIES: tuple[Category, ...] = (
    "single_device_dependent",
    "multi_device_dependent",
    "multi_device_independent",
)


class BuildReport(BaseModel):
    seed: int
    requested: int
    built: int
    attempts: int
    rejected: dict[str, int] = Field(default_factory=dict, description="'builder: reason' -> count")


def default_composer() -> Composer:
    """Every built-in library, the SmartHome scaffold, and transfers between file-holding kinds."""
    return Composer(
        [*smarthome.LIBRARY, *linux.LIBRARY, *android.LIBRARY],
        scaffolds={HOME_KIND: smarthome.scaffold},
        transfers=TRANSFERS,
    )


def build_composed(
    seed: int,
    count: int,
    *,
    composer: Composer | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Task], BuildReport]:
    """Up to ``count`` composite tasks from consecutive sub-seeds of ``seed``, cycling the categories.

    ``progress(built, attempts)`` is called after every attempt.
    """
    composer = composer or default_composer()
    tasks: list[Task] = []
    rejected: Counter[str] = Counter()
    attempts = 0
    categories = cycle(CATEGORIES)
    max_attempts = count * 20
    while len(tasks) < count and attempts < max_attempts:
        category = next(categories)
        sub_seed = seed * 1_000_003 + attempts
        attempts += 1
        builder = f"compose/{category}"
        try:
            task = composer.compose(
                sub_seed,
                category,
                max_tasks=2 + (attempts // len(CATEGORIES)) % 3,
                task_id=f"comp-{seed}-{len(tasks):05d}",
            )
        except CompositionError as exc:
            rejected[f"{builder}: {rejection_reason(str(exc))}"] += 1
        else:
            report = validate_task(task)
            if report.ok:
                tasks.append(task)
            else:
                rejected[f"{builder}: {rejection_reason(report.problems[0])}"] += 1
        if progress is not None:
            progress(len(tasks), attempts)
    return tasks, BuildReport(
        seed=seed, requested=count, built=len(tasks), attempts=attempts, rejected=dict(rejected)
    )


def rejection_reason(message: str) -> str:
    """A message with its specifics (ids, values) cut, so equal causes count together."""
    return message.split(":")[0].split("(")[0].strip()
