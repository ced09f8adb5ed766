"""Measured difficulty for the kinds' own GUI tasks (task sources), from the task document alone.

Issue #15: the GUI tasks the kinds build (``tasks/kind_sources.py``) carried hand-written
labels (``difficulty="medium"``) that did not track what first-match or any other agent
finds hard. This module grades them with the same :class:`Features` and :func:`grade` as
the scenario families (``tasks/scenarios/difficulty.py``), measured on the finished task:

- a **value to find** is a data value the reference solution writes (a number-like token
  or an e-mail address, what the first-match baseline reads) that the instruction does not
  give: it has to be read from a device. A value the instruction gives is no source;
- **where it sits and what sits ahead of it** comes from the document's optional
  ``metadata.reads`` — ``[{"value": "4821", "where": "first_screen", "ahead": 1}]`` — the
  task-source counterpart of a scenario's ``composition.placement``; a value not declared
  there sits on the first screen with nothing ahead;
- **distractors** are the near-miss values the checks forbid (their ``distractors`` args);
- devices, classes, outputs (scored checks), GUI depth (reference steps) and clutter
  (setup operations per device) as for the scenarios; a GUI task derives nothing, so
  ``reasoning`` is 0.

It is a pure function of the task (no live device, no family), so already-proven GUI
tasks can be relabelled with :func:`relabel` and get the bytes a rebuild gives.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from devicesworld import jsonl
from devicesworld.spec.models import GLOBAL_DEVICE, Task
from devicesworld.tasks.scenarios.difficulty import LOOKALIKE_CAP, WHERE_COST, Features, Grade, grade
from devicesworld.tasks.shipped import write_tasks
from devicesworld.textshape import TOKEN

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
"""An e-mail address (read as one value, as the first-match baseline reads it)."""
UI_KEYS = frozenset({"index", "x", "y", "nth", "direction", "app_name", "element"})
"""Step arguments that point at the interface (an element, a tap's pixels), never a value written;
the same keys the first-match baseline leaves alone (``agents/first_match.py``, a layer above)."""
Where = Literal["first_screen", "scroll", "search", "document"]
NOT_DATA = frozenset({"seconds", "keys"})
"""Step arguments that are timing or key names, never a value written."""
END_ACTIONS = ("finish", "report_infeasible")
SPACED_NUMBER = re.compile(r"\+?\d+(?:[ -]\d+){2,}")
"""A number written in groups (``+44 20 7946 2581``): one value when it has seven digits or more."""


class Read(BaseModel):
    """One value the task's solution reads from a device: where it sits, how many look-alikes are ahead."""

    value: str = Field(min_length=1)
    where: Where = "first_screen"
    ahead: int = Field(default=0, ge=0)


class ReadsError(ValueError):
    """A task's ``metadata.reads`` is malformed or names a value its solution does not read."""


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in UI_KEYS and k not in NOT_DATA:
                yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int | float):
        yield f"{value:g}" if isinstance(value, float) else str(value)
    elif isinstance(value, str):
        yield value


def _values(text: str) -> list[str]:
    """E-mail addresses, spaced phone numbers (one value, not one per digit group), then
    number-like tokens of two or more characters outside them."""
    emails = [m.group(0) for m in EMAIL.finditer(text)]
    rest = EMAIL.sub(" ", text)
    phones = [m.group(0) for m in SPACED_NUMBER.finditer(rest) if sum(c.isdigit() for c in m.group(0)) >= 7]
    for number in phones:
        rest = rest.replace(number, " ")
    return emails + phones + [m.group(0) for m in TOKEN.finditer(rest) if len(m.group(0)) >= 2]


def written_values(task: Task) -> list[str]:
    """The data values the reference solution writes (tokens of two or more characters, e-mail
    addresses), in order, without repeats."""
    out: list[str] = []
    for step in task.solution:
        if step.action not in END_ACTIONS:
            for text in _strings(step.args):
                out += _values(text)
    return list(dict.fromkeys(out))


def declared_reads(task: Task) -> list[Read]:
    raw = task.metadata.reads or []
    try:
        return [Read.model_validate(r.model_dump()) for r in raw]
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ReadsError(f"{task.id}: metadata.reads: {first['msg']} at {list(first['loc'])}") from None


def reads(task: Task) -> list[Read]:
    """The values the task's solution reads from its devices, with their declared places."""
    declared = declared_reads(task)
    written = written_values(task)
    text = "\n".join(str(s.args) for s in task.solution if s.action not in END_ACTIONS)
    for r in declared:
        if r.value not in text:
            raise ReadsError(f"{task.id}: metadata.reads names {r.value!r}, which the solution never writes")
        if r.value in task.instruction:
            raise ReadsError(f"{task.id}: metadata.reads names {r.value!r}, which the instruction gives")
    given = set(_values(task.instruction))
    out = list(declared)
    for v in written:
        if v in given or any(v in r.value for r in declared):
            continue
        out.append(Read(value=v))
    return out


def source_features(task: Task) -> Features:
    """The :class:`Features` of a task-source task, measured on the task alone."""
    found = reads(task)
    scored = [c for c in task.evaluation.conditions if c.scored and c.device != GLOBAL_DEVICE]
    distractors = sum(len(c.args.get("distractors") or []) for c in task.evaluation.conditions)
    steps = [s for s in task.solution if s.action not in END_ACTIONS]
    return Features(
        devices=len(task.devices),
        classes=len({d.kind for d in task.devices}),
        sources=len(found),
        source_cost=sum(WHERE_COST[r.where] for r in found),
        hidden=sum(1 for r in found if r.where != "first_screen"),
        lookalikes=sum(min(LOOKALIKE_CAP, r.ahead) for r in found),
        distractors=distractors,
        clutter=round(len(task.setup) / max(1, len(task.devices)), 2),
        outputs=len({c.subtask or c.id for c in scored}),
        gui_steps=len(steps),
        reasoning=0,
        choices=0,
        infeasible=False,
    )


def source_grade(task: Task) -> Grade:
    return grade(source_features(task))


def relabel(task: Task) -> Task:
    """``task`` with its measured difficulty; idempotent, and the same bytes a rebuild gives."""
    label = source_grade(task)
    if task.metadata.difficulty == label:
        return task
    return task.model_copy(update={"metadata": task.metadata.model_copy(update={"difficulty": label})})


def relabel_file(path: Path) -> tuple[int, int]:
    """Relabel every task of a ``.jsonl`` or ``.jsonl.gz`` file in place (gzip with the shipped
    fixed header); returns (tasks, labels changed). Rows that are not task-source tasks are
    graded too, so use it on files of task-source tasks only."""
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    tasks = [Task.model_validate_json(line) for _, line in jsonl.split_lines(raw)]
    out = [relabel(t) for t in tasks]
    write_tasks(path, out)
    return len(out), sum(1 for a, b in zip(tasks, out, strict=True) if a is not b)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Relabel task-source task files with their measured difficulty."
    )
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    for path in args.files:
        try:
            n, changed = relabel_file(path)
        except (OSError, ValueError) as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            return 2
        print(f"{path}: {n} tasks, {changed} relabelled")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
