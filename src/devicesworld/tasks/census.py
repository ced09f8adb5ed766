"""The census: what each task's devices hold once set up, read from the live devices.

It answers "is this world lived-in?" with numbers: per device, the counters its kind
declares (``WorldSupport.census`` in the kind's own package — contacts, messages,
files, rooms, ...), and per kind the median of each counter over the tasks. Nothing
here knows a kind; a kind without a census is listed with no counters.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, Field

from devicesworld.devices.base import get_kind
from devicesworld.env.controller import CrossDeviceEnv, EnvError
from devicesworld.spec.models import Task, WorldSpec


class DeviceCensus(BaseModel):
    device: str
    kind: str
    counts: dict[str, int] = Field(default_factory=dict, description="Empty: the kind declares no census.")


class TaskCensus(BaseModel):
    task: str
    world: WorldSpec | None = None
    devices: list[DeviceCensus] = Field(default_factory=list)
    error: str | None = Field(default=None, description="Why the task could not be set up.")


class Census(BaseModel):
    tasks: list[TaskCensus]
    medians: dict[str, dict[str, float]] = Field(
        description="Per kind, the median of each counter over its devices."
    )


def census_task(task: Task) -> TaskCensus:
    """Set the task up, count what each device holds through its getters, and close it."""
    out = TaskCensus(task=task.id, world=task.world)
    try:
        env = CrossDeviceEnv(task)
        with env:
            env.reset()
            for dev in task.devices:
                kind = get_kind(dev.kind)
                support = kind.world if kind is not None else None
                counts = support.census(env.getter_for(dev.id)) if support is not None else {}
                out.devices.append(DeviceCensus(device=dev.id, kind=dev.kind, counts=counts))
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


def take_census(tasks: list[Task], limit: int | None = None) -> Census:
    chosen = tasks if limit is None else tasks[:limit]
    results = [census_task(t) for t in chosen]
    return Census(tasks=results, medians=medians(results))
