"""A task source's pick of a persona world for one of its devices, by the task's id.

The kinds' own GUI families (Linux, Windows) are not compiled from scenario files, so they
name a world in each draw themselves. The persona is drawn from the task id by a generator
of its own (salted per device role), so adding the world does not move the family's other
draws, and the same id always gets the same person.
"""

from __future__ import annotations

import random
from typing import Any

TASK_PERSONAS = 40
"""A drawn world is one of the first 40 personas (``WorldSpec.persona_seed`` 0..39)."""


def drawn_world(task_id: str, devices: list[str], salt: str) -> dict[str, Any]:
    """The ``world`` block of a task: a lived persona world on ``devices``, seeded by ``salt`` and ``task_id``."""
    return {
        "persona_seed": random.Random(f"{salt}:{task_id}").randrange(TASK_PERSONAS),
        "size": "lived",
        "devices": list(devices),
    }
