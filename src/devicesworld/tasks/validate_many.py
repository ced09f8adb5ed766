"""Quality control of many tasks on several processes.

Tasks travel to workers as their JSON documents and reports come back as JSON, so
nothing but plain text crosses the process boundary. Order is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from devicesworld.spec.models import Task
from devicesworld.tasks.validate import TaskReport, validate_task

CHUNK = 20


def _validate_chunk(job: tuple[list[str], bool, bool, bool]) -> list[str]:
    docs, near_miss, paraphrase, play_back = job
    return [
        validate_task(
            Task.model_validate_json(doc), near_miss=near_miss, paraphrase=paraphrase, play_back=play_back
        ).model_dump_json()
        for doc in docs
    ]


def validate_many(
    tasks: Sequence[Task],
    *,
    workers: int = 1,
    near_miss: bool = True,
    paraphrase: bool = True,
    play_back: bool = True,
    progress: Callable[[list[TaskReport]], None] | None = None,
) -> list[TaskReport]:
    """Every task's report, in order; ``progress`` gets each batch of reports as it is done."""
    reports: list[TaskReport] = []
    if workers <= 1 or len(tasks) <= CHUNK:
        for t in tasks:
            reports.append(validate_task(t, near_miss=near_miss, paraphrase=paraphrase, play_back=play_back))
            if progress is not None:
                progress(reports[-1:])
        return reports
    docs = [t.model_dump_json() for t in tasks]
    jobs = [(docs[i : i + CHUNK], near_miss, paraphrase, play_back) for i in range(0, len(docs), CHUNK)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for chunk in pool.map(_validate_chunk, jobs):
            batch = [TaskReport.model_validate_json(line) for line in chunk]
            reports += batch
            if progress is not None:
                progress(batch)
    return reports
