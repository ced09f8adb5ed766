"""The apps and surfaces a task touches, read off its setup and reference solution.

Breakdowns by app (paper Fig. 5) and the coverage-driven test selection need them,
and built tasks cannot be trusted to declare them by hand. What counts as a surface is
the kind's business (a phone app the solution opens, a desktop surface an action uses,
a home appliance category that setup adds and a condition or step touches): each kind
says it with :attr:`KindTraits.surfaces <devicesworld.devices.traits.KindTraits.surfaces>`,
and this module only gathers every kind's use of the task.
"""

from __future__ import annotations

from devicesworld.devices.base import traits_of
from devicesworld.devices.traits import KindUse
from devicesworld.spec.models import Task


def task_surfaces(task: Task) -> list[str]:
    """``["<kind>:<surface>", ...]``, sorted: every surface the task's kinds find in it."""
    kinds = {d.id: d.kind for d in task.devices}
    conditions = [c.args for c in task.evaluation.conditions]
    uses = {kind: KindUse(conditions=conditions) for kind in dict.fromkeys(kinds.values())}
    for op in task.setup:
        if op.device in kinds:
            uses[kinds[op.device]].setup.append((op.op, op.args))
    for step in task.solution:
        kind = kinds.get(step.device or "")
        if kind is not None:
            uses[kind].steps.append((step.action, step.args))
    out: set[str] = set()
    for name, use in uses.items():
        surfaces = traits_of(name).surfaces
        if surfaces is not None:
            out |= surfaces(use)
    return sorted(out)
