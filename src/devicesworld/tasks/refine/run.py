"""Run the optional LLM stages over a list of tasks and account for every one.

Order: rewrite first, then judge the instruction that will ship. A task leaves as it
came unless a stage changes it on purpose (an accepted rewrite, the judge's scores in
``metadata.judge``); a task the judge scores below the threshold is left out.

The first task is refined alone: when the endpoint cannot be reached or refuses the
configuration, the run stops there with :class:`EndpointError` instead of failing
every task the same way. After that, an endpoint error on one task is counted and
that task passes through untouched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task
from devicesworld.tasks.refine.endpoint import Chat, EndpointError
from devicesworld.tasks.refine.judge import Verdict, judge_task
from devicesworld.tasks.refine.rewrite import RewriteOutcome, rewrite_task

SCHEMA_VERSION = 1


class RefineOptions(BaseModel):
    rewrite: bool = False
    judge: bool = False
    min_score: int = Field(default=3, ge=1, le=5)
    workers: int = Field(default=1, ge=1)


class TaskRecord(BaseModel):
    """What the stages did to one task (one entry of the report)."""

    task_id: str
    rewrite: RewriteOutcome | None = None
    judge: Verdict | None = None
    filtered: bool = False
    error: str | None = None


class RefineReport(BaseModel):
    schema_version: Literal[1] = 1
    model: str
    stages: list[str]
    min_score: int
    tasks_in: int = 0
    tasks_out: int = 0
    rewritten: int = 0
    kept: dict[str, int] = Field(default_factory=dict, description="Rewrites refused, by reason.")
    judged: int = 0
    unjudged: int = 0
    filtered: int = 0
    errors: int = 0
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    records: list[TaskRecord] = Field(default_factory=list)


def refine_one(task: Task, chat: Chat, options: RefineOptions) -> tuple[Task, TaskRecord, list[int]]:
    """One task through the enabled stages; returns the task, its record and [calls, in, out]."""
    record = TaskRecord(task_id=task.id)
    cost = [0, 0, 0]
    if options.rewrite:
        task, record.rewrite, answer = rewrite_task(task, chat)
        cost = [cost[0] + 1, cost[1] + answer.tokens_in, cost[2] + answer.tokens_out]
    if options.judge:
        verdict, answers = judge_task(task, chat, min_score=options.min_score)
        record.judge = verdict
        record.filtered = verdict.status == "judged" and not verdict.passed
        for a in answers:
            cost = [cost[0] + 1, cost[1] + a.tokens_in, cost[2] + a.tokens_out]
        judged = task.metadata.model_copy(update={"judge": verdict.model_dump(exclude_none=True)})
        task = Task.model_validate(task.model_copy(update={"metadata": judged}).model_dump(mode="json"))
    return task, record, cost


def refine_tasks(
    tasks: Sequence[Task],
    chat: Chat,
    options: RefineOptions,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Task], RefineReport]:
    """The tasks that survive, in input order, and the report; see the module doc for errors."""
    stages = [s for s, on in (("rewrite", options.rewrite), ("judge", options.judge)) if on]
    report = RefineReport(model=chat.model, stages=stages, min_score=options.min_score, tasks_in=len(tasks))
    if not tasks:
        return [], report

    def attempt(task: Task) -> tuple[Task, TaskRecord, list[int]]:
        try:
            return refine_one(task, chat, options)
        except EndpointError as exc:
            return task, TaskRecord(task_id=task.id, error=str(exc)), [0, 0, 0]

    first = refine_one(tasks[0], chat, options)  # an unusable endpoint stops the run here
    results = [first]
    if progress:
        progress(1, len(tasks))
    with ThreadPoolExecutor(max_workers=options.workers) as pool:
        for done, result in enumerate(pool.map(attempt, tasks[1:]), start=2):
            results.append(result)
            if progress:
                progress(done, len(tasks))
    kept: Counter[str] = Counter()
    out: list[Task] = []
    for task, record, (calls, tokens_in, tokens_out) in results:
        report.records.append(record)
        report.calls += calls
        report.tokens_in += tokens_in
        report.tokens_out += tokens_out
        if record.error:
            report.errors += 1
        if record.rewrite is not None:
            if record.rewrite.status == "rewritten":
                report.rewritten += 1
            elif record.rewrite.reason:
                kept[record.rewrite.reason] += 1
        if record.judge is not None:
            report.judged += record.judge.status == "judged"
            report.unjudged += record.judge.status == "unjudged"
        if record.filtered:
            report.filtered += 1
        else:
            out.append(task)
    report.kept = dict(sorted(kept.items()))
    report.tasks_out = len(out)
    return out, report
