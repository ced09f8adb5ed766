"""Quality control of a whole suite in shards, one report file per scenario family, resumable.

Why: proving every task of ``full`` takes hours on a small machine (a desktop task's variants
replay a GUI), longer than any one sitting. Written one family at a time, each shard is a
finished result the moment it is written: a run stopped half way keeps every family it
finished, and the next run starts at the first family without a shard.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task
from devicesworld.tasks.validate import TaskReport
from devicesworld.tasks.validate_many import validate_many


class Shard(BaseModel):
    """The reports of one family's tasks, as written to ``<family>.json``."""

    family: str
    tasks: int
    failed: int
    seconds: float = Field(description="Wall time of the family's run.")
    load: float = Field(description="The machine's 1-minute load average when the family ended.")
    reports: list[TaskReport]


def family_of(task: Task) -> str:
    """The task's scenario family (its composition's, or its ``family:`` tag), else ``other``."""
    composition = task.metadata.composition
    if composition is not None and composition.family:
        return composition.family
    tag = next((t for t in task.metadata.tags if t.startswith("family:")), None)
    return tag.removeprefix("family:") if tag else "other"


def by_family(tasks: Sequence[Task]) -> dict[str, list[Task]]:
    """The tasks grouped by family, families in the order their first task comes."""
    out: dict[str, list[Task]] = {}
    for t in tasks:
        out.setdefault(family_of(t), []).append(t)
    return out


def shard_path(folder: Path, family: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in family)
    return folder / f"{safe}.json"


def validate_shards(
    tasks: Sequence[Task],
    folder: Path,
    *,
    workers: int = 1,
    near_miss: bool = True,
    paraphrase: bool = True,
    play_back: bool = True,
    progress: Callable[[list[TaskReport]], None] | None = None,
) -> list[TaskReport]:
    """Every task's report: read from its family's shard when one exists, else validated and the
    family's shard written (atomically) as soon as its last task is done."""
    folder.mkdir(parents=True, exist_ok=True)
    reports: list[TaskReport] = []
    for family, members in by_family(tasks).items():
        path = shard_path(folder, family)
        if path.exists():
            done = Shard.model_validate_json(path.read_text())
            wanted = {t.id for t in members}
            kept = [r for r in done.reports if r.task_id in wanted]
            if len(kept) == len(wanted):
                reports += kept
                if progress is not None:
                    progress(kept)
                continue
        started = time.perf_counter()
        mine = validate_many(
            members,
            workers=workers,
            near_miss=near_miss,
            paraphrase=paraphrase,
            play_back=play_back,
            progress=progress,
        )
        shard = Shard(
            family=family,
            tasks=len(mine),
            failed=sum(not r.ok for r in mine),
            seconds=round(time.perf_counter() - started, 1),
            load=round(os.getloadavg()[0], 1),
            reports=mine,
        )
        partial = path.with_suffix(".json.part")
        partial.write_text(shard.model_dump_json(indent=1))
        partial.replace(path)
        reports += mine
    return reports
