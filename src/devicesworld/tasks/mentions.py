"""Which things a device holds that a task never mentions: the items collateral damage could hit.

A lived-in world earns its keep when a task's devices hold files and appliances the task
has no business touching: only then can an agent that tidies, switches or overwrites too
much be caught by the collateral guard. An item is *mentioned* when one of its spellings
(a device id or its name; a file's path or its name), case-folded, occurs in the task's
instruction, its reference solution or its checks; every other item is unmentioned.
Each kind lists its items and their spellings in its own package
(``WorldSupport.items``); nothing here knows a kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from devicesworld.spec.models import Task


def task_text(task: Task) -> str:
    """Everything a task says: instruction, solution steps and check arguments, case-folded."""
    parts = [task.instruction]
    parts += [json.dumps({"action": s.action, "args": s.args}, sort_keys=True) for s in task.solution]
    parts += [json.dumps(c.args, sort_keys=True) for c in task.evaluation.conditions]
    parts += [json.dumps(task.evaluation.writes, sort_keys=True)]
    return "\n".join(parts).casefold()


def unmentioned(items: Mapping[str, list[str]], text: str) -> list[str]:
    """The keys of ``items`` none of whose spellings occurs in ``text`` (already case-folded)."""
    return [key for key, spellings in items.items() if not any(s and s.casefold() in text for s in spellings)]
