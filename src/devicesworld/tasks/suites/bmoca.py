"""Suite ``bmoca``: B-MoCA's daily phone tasks (§2.3, B.1), written in ``tasks/data/handwritten/bmoca*.yaml``.

Each task is one phone and a rule-based success detector, in B-MoCA's five
categories, starting on the launcher. The phone's look comes from its profile:
``devicesworld run --env-split train|test`` or the gym ``split`` argument put every
phone on one of the 35 training or 10 test presets, and since solutions are
index-based (some indexes and every pixel depend on the profile),
:func:`solution_on` records a task's solution again on the profile it was moved to,
from the same script (the phone's macros read the profile: 12- or 24-hour pickers,
sliders mirrored right to left). Each task's ``metadata.gym_name`` names its
Gymnasium environment ``devicesworld/Bmoca<Name>-v0``.
"""

from __future__ import annotations

from devicesworld.spec.models import Step, Task

CATEGORIES = ("system", "web_shopping", "communication", "utility", "event")


def task_names() -> dict[str, str]:
    """Gym environment names (``Bmoca<Name>``) to task ids, from the shipped suite; builds no phone."""
    from devicesworld.tasks.suites import load_suite

    return {str(t.metadata.gym_name): t.id for t in load_suite("bmoca")}


def solution_on(task: Task) -> list[Step] | None:
    """The reference solution of a ``bmoca`` task recorded on the task's own profile; None for other tasks."""
    from devicesworld.tasks.handwritten.compiler import solve
    from devicesworld.tasks.handwritten.recording import ScriptError
    from devicesworld.tasks.handwritten.suites import find_draft

    draft = find_draft("bmoca", task.id)
    if draft is None:
        return None
    try:
        return solve(draft, task)
    except ScriptError:
        # scripts name elements by their English text; on a phone in another language the
        # same profile in English has the same layout, so its recorded indexes fit
        english = [d.model_copy(update={"profile": {**d.profile, "language": "en"}}) for d in task.devices]
        return solve(draft, task.model_copy(update={"devices": english}))
