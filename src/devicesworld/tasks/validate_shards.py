"""Quality control of a whole suite in shards, one report file per scenario family, resumable.

Why: proving every task of ``full`` takes hours on a small machine (a desktop task's variants
replay a GUI), longer than any one sitting. Written one family at a time, each shard is a
finished result the moment it is written: a run stopped half way keeps every family it
finished, and the next run starts at the first family without a shard. Within a family each
finished task is appended to ``<family>.jsonl.part`` at once (a GUI family of 58 tasks is half
an hour), so a stop loses at most the task under way.

A report is taken only for the task it proved: shards and journals record each task's content
hash (:func:`devicesworld.tasks.manifest.task_hash`), and a task rebuilt since is proven again.
"""

from __future__ import annotations

import json
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
    hashes: dict[str, str] = Field(
        default_factory=dict, description="Each task's content hash when it was proven (task id -> hash)."
    )


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


def journal_path(folder: Path, family: str) -> Path:
    """The family's tasks proven so far, one ``{"hash", "report"}`` line each, until its shard is written."""
    return shard_path(folder, family).with_suffix(".jsonl.part")


def _proven(folder: Path, family: str, hashes: dict[str, str]) -> dict[str, TaskReport]:
    """Reports already written for these tasks as they are now: the shard's, then the journal's,
    a later one replacing an earlier (a task proven again after a failure); a report of another
    content of the task, or a line cut by a stop, is not taken."""
    found: dict[str, TaskReport] = {}
    path = shard_path(folder, family)
    if path.exists():
        try:
            done = Shard.model_validate_json(path.read_text())
        except ValueError:
            done = None
        if done is not None:
            for r in done.reports:
                if r.task_id in hashes and done.hashes.get(r.task_id) == hashes[r.task_id]:
                    found[r.task_id] = r
    journal = journal_path(folder, family)
    if journal.exists():
        for line in journal.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                report = TaskReport.model_validate(row["report"])
            except (ValueError, KeyError, TypeError):
                continue
            if report.task_id in hashes and row.get("hash") == hashes[report.task_id]:
                found[report.task_id] = report
    return found


def validate_shards(
    tasks: Sequence[Task],
    folder: Path,
    *,
    workers: int = 1,
    near_miss: bool = True,
    paraphrase: bool = True,
    play_back: bool = True,
    retry_failed: bool = False,
    progress: Callable[[list[TaskReport]], None] | None = None,
) -> list[TaskReport]:
    """Every task's report: read from its family's shard or journal when one holds it for the task's
    current content, else validated (and journaled at once); the family's shard is written
    (atomically) as soon as its last task is done. ``retry_failed``: a failed report is not
    taken but proven again (a machine that stalled a desktop fails a task it would pass)."""
    from devicesworld.tasks.manifest import task_hash

    folder.mkdir(parents=True, exist_ok=True)
    reports: list[TaskReport] = []
    for family, members in by_family(tasks).items():
        hashes = {t.id: task_hash(t) for t in members}
        found = _proven(folder, family, hashes)
        if retry_failed:
            found = {i: r for i, r in found.items() if r.ok}
        todo = [t for t in members if t.id not in found]
        path, journal = shard_path(folder, family), journal_path(folder, family)
        # every task proven and nothing journaled since the shard: the shard stands (a journal
        # left by a stop after the last task is folded into a new shard below)
        if not todo and not journal.exists():
            kept = [found[t.id] for t in members]
            reports += kept
            if progress is not None:
                progress(kept)
            continue
        if found and progress is not None:
            progress([found[t.id] for t in members if t.id in found])
        started = time.perf_counter()

        def note(batch: list[TaskReport], journal: Path = journal, hashes: dict[str, str] = hashes) -> None:
            with journal.open("a", encoding="utf-8") as fh:
                for r in batch:
                    fh.write(
                        json.dumps({"hash": hashes[r.task_id], "report": r.model_dump(mode="json")}) + "\n"
                    )
            if progress is not None:
                progress(batch)

        fresh = validate_many(
            todo,
            workers=workers,
            near_miss=near_miss,
            paraphrase=paraphrase,
            play_back=play_back,
            progress=note,
        )
        found.update({r.task_id: r for r in fresh})
        mine = [found[t.id] for t in members]
        shard = Shard(
            family=family,
            tasks=len(mine),
            failed=sum(not r.ok for r in mine),
            seconds=round(time.perf_counter() - started, 1),
            load=round(os.getloadavg()[0], 1),
            reports=mine,
            hashes=hashes,
        )
        partial = path.with_suffix(".json.part")
        partial.write_text(shard.model_dump_json(indent=1))
        partial.replace(path)
        journal.unlink(missing_ok=True)
        reports += mine
    return reports
