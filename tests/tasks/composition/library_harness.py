"""Helpers for the atomic-library tests: compose tiny tasks around one atomic task, record phrasings."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

from devicesworld.spec.models import Task
from devicesworld.tasks.composition.atomic import AtomicTask, InstanceContext, SlotValue
from devicesworld.tasks.composition.compose import Category, Composer, CompositionError
from devicesworld.tasks.composition.library import phrasing
from devicesworld.tasks.composition.library import smarthome as sh
from devicesworld.tasks.composition.library.files import located, make_file
from devicesworld.tasks.composition.library.transfers import TRANSFERS
from devicesworld.tasks.composition.types import DEFAULT_TYPES
from devicesworld.tasks.composition.values import UserValues
from devicesworld.tasks.validate import validate_task

CATEGORY: dict[str, Category] = {
    "s": "single_device_dependent",
    "m": "multi_device_dependent",
    "i": "multi_device_independent",
}


def compose_with(library: Sequence[AtomicTask], target: str, category: str, seeds: int = 12) -> Task:
    """The first composed task (over a few seeds) that uses ``target`` and passes every QC gate."""
    composer = Composer(library, scaffolds={"smarthome": sh.scaffold}, transfers=TRANSFERS)
    reasons: list[str] = []
    for seed in range(seeds):
        try:
            task = composer.compose(seed, CATEGORY[category], max_tasks=len(library))
        except CompositionError as exc:
            reasons.append(str(exc))
            continue
        atoms = {s["atomic"] for s in task.metadata.model_extra["composition"]["subtasks"]}  # type: ignore[index]
        if target not in atoms:
            continue
        report = validate_task(task)
        assert report.ok, (task.instruction, report.problems)
        return task
    pytest.fail(f"no seed composed a task with {target}: {reasons}")


def sample_inputs(task: AtomicTask, rng: random.Random) -> dict[str, SlotValue]:
    """User-stated values for every input of ``task``; a file input is a file in the phone's Download/."""
    values = UserValues(rng)
    out: dict[str, SlotValue] = {}
    for s in task.inputs:
        if DEFAULT_TYPES.is_subtype(s.type, "file"):
            slot_type, ref = make_file(rng, ("memo",))
            ref = located(ref, path=f"Download/{ref['name']}", location="sdcard")
            out[s.name] = SlotValue(slot_type, ref, f"the file {ref['name']}", False, "android_0")
        else:
            out[s.name] = values.make(s.type, DEFAULT_TYPES)
    return out


def check_phrasings(task: AtomicTask, device: str, *modules: ModuleType) -> None:
    """The task's clause (writes) or its outputs' mentions (reads) come from ``say`` with >= 3 phrasings."""
    rng = random.Random(5)
    inputs = sample_inputs(task, rng)
    with recorded_phrasings(*modules) as calls:
        fragment = task.instantiate(InstanceContext(device, rng), inputs)
    texts = {text for _, text in calls}
    assert calls and all(len(templates) >= 3 for templates, _ in calls), task.name
    if fragment.instruction:
        assert fragment.instruction in texts, (task.name, fragment.instruction)
    else:
        assert fragment.outputs and all(v.mention in texts for v in fragment.outputs.values()), task.name


@contextmanager
def recorded_phrasings(*modules: ModuleType) -> Iterator[list[tuple[tuple[str, ...], str]]]:
    """Record every ``say`` call of ``modules``: (templates, text produced)."""
    calls: list[tuple[tuple[str, ...], str]] = []
    original = phrasing.say

    def spy(ctx: InstanceContext, templates: tuple[str, ...], /, **values: Any) -> str:
        text = original(ctx, templates, **values)
        calls.append((templates, text))
        return text

    saved = {m: m.say for m in modules}
    for m in modules:
        m.say = spy  # type: ignore[attr-defined]
    try:
        yield calls
    finally:
        for m, fn in saved.items():
            m.say = fn  # type: ignore[attr-defined]
