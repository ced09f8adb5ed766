"""Task tiers: what a family that claims to be ``long`` must measure up to (issue #34, item 4).

A scenario family declares ``tier: long`` when its tasks are meant to be long and deep,
not merely broad. A claim is not enough: every compiled task of such a family is measured
here on its recorded reference solution (after the GUI roles' steps are expanded), and a
draw that misses any requirement is refused with a message naming what it misses
(``compile.compile_task`` raises it as a :class:`FamilyError`, so ``tasks scenarios check
--compile``, ``tasks scenarios compile`` and the build report it like any other draw failure).

The requirements (:data:`LONG`), each measured, never declared:

- ``steps``: the reference solution has at least 20 steps (the end action not counted);
- ``devices``: those steps act on at least 3 devices;
- ``conditions``: at least 4 required conditions;
- ``carry``: a value read on one device is needed more than 10 steps after the agent last
  looked at that device (the value has to be kept, not re-read): for each source value,
  each step that writes it (or a value derived from it) is measured from the last step
  before it on the source's device;
- ``hidden``: at least one source sits behind a search, a scroll or inside a document
  (the measured placement, ``placement.py``);
- ``combine``: at least one derived value combines two sources (a decision, sum or time
  computed from two values read on the devices).

Tasks of the default tier (``standard``) are not measured and carry no ``tier`` in their
metadata, so every earlier task keeps its bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from devicesworld.spec.metadata import LongMeasures
from devicesworld.spec.models import GLOBAL_DEVICE, Task
from devicesworld.textshape import forms

Tier = Literal["standard", "long"]
TIERS: tuple[Tier, ...] = ("standard", "long")
END_ACTIONS = frozenset({"finish", "report_infeasible", "answer"})


def task_tier(task: Task) -> str:
    """The tier a task is listed and reported under (``standard`` when its metadata names none)."""
    return task.metadata.tier or "standard"


class LongRequirements(BaseModel):
    steps: int = 20
    devices: int = 3
    conditions: int = 4
    carry: int = 10
    """A value must be needed *more than* this many steps after its device was last looked at."""


LONG = LongRequirements()


def _text(args: Any) -> str:
    if isinstance(args, dict):
        return " ".join(_text(v) for v in args.values())
    if isinstance(args, list):
        return " ".join(_text(v) for v in args)
    return str(args)


def source_closure(name: str, derive: Mapping[str, list[str]], sources: set[str]) -> set[str]:
    """The source params a value depends on (itself when it is one; a derived value's inputs, transitively)."""
    if name in sources:
        return {name}
    out: set[str] = set()
    for parent in derive.get(name, []):
        out |= source_closure(parent, derive, sources)
    return out


def measure_long(
    task: Task,
    *,
    sources: list[tuple[str, str, Any, str]],
    derived: Mapping[str, tuple[list[str], Any]],
) -> LongMeasures:
    """Measure a compiled task. ``sources``: (param, device, value, description) per source;
    ``derived``: derived param -> (its inputs, its value)."""
    steps = [s for s in task.solution if s.action not in END_ACTIONS]
    devices = {s.device for s in steps if s.device not in (None, GLOBAL_DEVICE)}
    required = [c for c in task.evaluation.conditions if c.required]
    names = {p for p, _, _, _ in sources}
    derive = {name: inputs for name, (inputs, _) in derived.items()}
    texts = [_text(s.args) for s in steps]
    carry, carried = 0, ""
    for param, device, value, description in sources:
        needing = [value] + [v for n, (_, v) in derived.items() if param in source_closure(n, derive, names)]
        written = [f for v in needing for f in forms(v) if len(f) >= 2]
        for i, text in enumerate(texts):
            if not any(f in text for f in written):
                continue
            looked = [j for j in range(i) if steps[j].device == device]
            if looked and i - looked[-1] > carry:
                carry, carried = i - looked[-1], description
    combine = sum(1 for n in derived if len(source_closure(n, derive, names)) >= 2)
    composition = task.metadata.composition
    placement = composition.placement if composition is not None else {}
    hidden = sum(1 for p in placement.values() if p.where != "first_screen")
    return LongMeasures(
        steps=len(steps),
        devices=len(devices),
        conditions=len(required),
        carry=carry,
        carried=carried,
        hidden=hidden,
        combine=combine,
    )


def long_misses(m: LongMeasures, need: LongRequirements = LONG) -> list[str]:
    """What a task misses of the long tier, one phrase per requirement (empty: it is long)."""
    out = []
    if m.steps < need.steps:
        out.append(f"steps: the reference solution has {m.steps} steps, needs at least {need.steps}")
    if m.devices < need.devices:
        out.append(
            f"devices: the reference solution acts on {m.devices} devices, needs at least {need.devices}"
        )
    if m.conditions < need.conditions:
        out.append(f"conditions: {m.conditions} required conditions, needs at least {need.conditions}")
    if m.carry <= need.carry:
        out.append(
            f"carry: no value read on a device is needed more than {need.carry} steps later "
            f"(longest: {m.carry})"
        )
    if m.hidden < 1:
        out.append(
            "hidden: every source is on its device's first screen (none behind search, scroll or a document)"
        )
    if m.combine < 1:
        out.append("combine: no derived value combines two sources")
    return out
