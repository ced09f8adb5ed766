"""Conditions that already hold after setup are guards, not progress.

"The curtain stays closed" or "the dryer is left alone" must hold for success, but an
agent that does nothing satisfies them, so scoring them would hand out partial credit
for inaction and inflate the partial-progress rate. Builders call
:func:`unscore_setup_satisfied` on each task; the validator rejects any task where a
scored condition holds after setup alone.
"""

from __future__ import annotations

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task


def setup_satisfied(task: Task) -> set[str]:
    """Ids of the conditions that hold right after setup, before any step."""
    with CrossDeviceEnv(task) as env:
        env.reset()
        verdict = env.evaluate()
    return {c.id for c in verdict.conditions if c.passed}


def unscore_setup_satisfied(task: Task) -> Task:
    """The task with every setup-satisfied condition kept required but no longer scored."""
    held = setup_satisfied(task)
    if not any(c.scored and c.id in held for c in task.evaluation.conditions):
        return task
    conditions = [
        c.model_copy(update={"scored": False}) if c.id in held else c for c in task.evaluation.conditions
    ]
    return task.model_copy(
        update={"evaluation": task.evaluation.model_copy(update={"conditions": conditions})}
    )
