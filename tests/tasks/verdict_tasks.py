"""The 20 tasks whose quality-control reports are recorded in ``validate_verdicts.json``, by id:
one loader for the tests that replay, play back or shard them."""

from __future__ import annotations

from pathlib import Path

from devicesworld.spec.models import Task
from devicesworld.tasks.profiles import read_tasks

VERDICT_TASKS: dict[str, Task] = {
    t.id: t for t in read_tasks(Path(__file__).parent / "validate_verdicts_tasks.jsonl")
}
