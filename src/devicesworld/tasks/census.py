"""The census: what each task's devices hold once set up, read from the live devices.

It answers "is this world lived-in?" with numbers: per device, the counters its kind
declares (``WorldSupport.census`` in the kind's own package — contacts, messages,
files, rooms, ...), and per kind the median of each counter over the tasks. Nothing
here knows a kind; a kind without a census is listed with no counters.

The summary answers issue #13's other two questions: in what share of the tasks whose
devices list their items (a desktop's files, a home's devices) the world holds an item
the task never mentions (``tasks/mentions.py``: collateral damage is possible and must be
caught), and which tasks read a value with no declared distractor
(``tasks/readcover.py``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, Field

from devicesworld.devices.base import get_kind
from devicesworld.env.controller import CrossDeviceEnv, EnvError
from devicesworld.spec.models import Task, WorldSpec
from devicesworld.tasks.mentions import task_text, unmentioned
from devicesworld.tasks.readcover import uncovered_values


class DeviceCensus(BaseModel):
    device: str
    kind: str
    counts: dict[str, int] = Field(default_factory=dict, description="Empty: the kind declares no census.")
    unmentioned: int | None = Field(
        default=None,
        description="How many of the device's items (files, appliances) the task never mentions; "
        "None: the kind lists no items.",
    )


class TaskCensus(BaseModel):
    task: str
    world: WorldSpec | None = None
    devices: list[DeviceCensus] = Field(default_factory=list)
    error: str | None = Field(default=None, description="Why the task could not be set up.")
    uncovered: list[str] = Field(
        default_factory=list, description="Values the task reads that have no declared distractor."
    )


class UnmentionedSummary(BaseModel):
    tasks: int = Field(description="Tasks with a device that lists its items (a desktop, a home).")
    with_unmentioned: int = Field(
        description="Of those, tasks whose devices hold an item the task never mentions."
    )
    share: float | None = Field(description="with_unmentioned / tasks (None: no such task); target >= 0.8.")
    without: list[str] = Field(default_factory=list, description="The tasks whose every item is mentioned.")


class DistractorSummary(BaseModel):
    tasks: int = Field(description="Tasks that read at least one value (sources or world values).")
    covered: int = Field(description="Of those, tasks where every value read has a declared distractor.")
    uncovered: dict[str, list[str]] = Field(
        default_factory=dict, description="Task -> the values it reads without a declared distractor."
    )


class CensusSummary(BaseModel):
    medians: dict[str, dict[str, float]] = Field(description="Per kind, the median of each counter.")
    unmentioned: UnmentionedSummary
    distractors: DistractorSummary


class Census(BaseModel):
    tasks: list[TaskCensus]
    medians: dict[str, dict[str, float]] = Field(
        description="Per kind, the median of each counter over its devices."
    )
    summary: CensusSummary | None = None


def census_task(task: Task) -> TaskCensus:
    """Set the task up, count what each device holds through its getters, and close it."""
    out = TaskCensus(task=task.id, world=task.world, uncovered=uncovered_values(task))
    text = task_text(task)
    try:
        env = CrossDeviceEnv(task)
        with env:
            env.reset()
            for dev in task.devices:
                kind = get_kind(dev.kind)
                support = kind.world if kind is not None else None
                get = env.getter_for(dev.id)
                counts = support.census(get) if support is not None else {}
                free = None
                if support is not None and support.items is not None:
                    free = len(unmentioned(support.items(get), text))
                out.devices.append(
                    DeviceCensus(device=dev.id, kind=dev.kind, counts=counts, unmentioned=free)
                )
    except EnvError as exc:
        out.error = str(exc)
    return out


def medians(results: Iterable[TaskCensus]) -> dict[str, dict[str, float]]:
    values: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        for d in r.devices:
            for name, n in d.counts.items():
                values[d.kind][name].append(n)
    return {
        kind: {name: float(statistics.median(ns)) for name, ns in sorted(counters.items())}
        for kind, counters in sorted(values.items())
    }


def summarise(results: list[TaskCensus], reading: Iterable[str]) -> CensusSummary:
    """Medians, the unmentioned-item share and the distractor coverage (``reading``: tasks that read a value)."""
    listing = [r for r in results if any(d.unmentioned is not None for d in r.devices)]
    free = [r for r in listing if any((d.unmentioned or 0) > 0 for d in r.devices)]
    readers = set(reading)
    read = [r for r in results if r.task in readers]
    return CensusSummary(
        medians=medians(results),
        unmentioned=UnmentionedSummary(
            tasks=len(listing),
            with_unmentioned=len(free),
            share=round(len(free) / len(listing), 4) if listing else None,
            without=[r.task for r in listing if r not in free],
        ),
        distractors=DistractorSummary(
            tasks=len(read),
            covered=sum(not r.uncovered for r in read),
            uncovered={r.task: r.uncovered for r in read if r.uncovered},
        ),
    )


def reads_values(task: Task) -> bool:
    return bool(task.metadata.sources) or bool(task.world is not None and task.world.reads)


def take_census(tasks: list[Task], limit: int | None = None) -> Census:
    chosen = tasks if limit is None else tasks[:limit]
    results = [census_task(t) for t in chosen]
    summary = summarise(results, (t.id for t in chosen if reads_values(t)))
    return Census(tasks=results, medians=summary.medians, summary=summary)
