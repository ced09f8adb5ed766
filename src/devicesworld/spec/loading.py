"""Load tasks from a JSON file, a JSONL file or a folder, reporting every problem at once.

Loading never stops at the first error and never raises a traceback at a user: it
collects :class:`SpecIssue` records (file, line, task id, field, message) and raises
one :class:`TaskLoadError` holding all of them.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from devicesworld.devices.base import format_validation_error
from devicesworld.spec.models import Task
from devicesworld.spec.semantic import TaskParts, semantic_problems


@dataclass(frozen=True)
class SpecIssue:
    file: str
    task_id: str | None
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        task = f" [{self.task_id}]" if self.task_id else ""
        return f"{where}{task} {self.field}: {self.message}"


class TaskLoadError(Exception):
    """One or more task documents are malformed; ``issues`` lists every problem."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        self.issues = issues
        super().__init__(f"{len(issues)} problem(s) in task files:\n" + "\n".join(f"  {i}" for i in issues))


def load_tasks(path: str | Path) -> list[Task]:
    """All tasks under ``path``; raises :class:`TaskLoadError` listing every problem."""
    root = Path(path)
    if not root.exists():
        raise TaskLoadError([SpecIssue(str(root), None, "(file)", "no such file or folder")])
    files = sorted(p for p in root.rglob("*") if _is_task_file(p, root)) if root.is_dir() else [root]
    if not files:
        raise TaskLoadError(
            [SpecIssue(str(root), None, "(file)", "no .json, .jsonl or .jsonl.gz task files here")]
        )
    tasks: list[Task] = []
    issues: list[SpecIssue] = []
    first_seen: dict[str, str] = {}
    for file in files:
        for line, doc, problem in _documents(file):
            if problem is not None:
                issues.append(SpecIssue(str(file), None, "(json)", problem, line))
                continue
            task, found = validate_document(doc, str(file), line)
            issues += found
            if task is None:
                continue
            where = f"{file}" + (f":{line}" if line else "")
            if task.id in first_seen:
                issues.append(
                    SpecIssue(
                        str(file), task.id, "id", f"duplicate task id (first in {first_seen[task.id]})", line
                    )
                )
                continue
            first_seen[task.id] = where
            tasks.append(task)
    if issues:
        raise TaskLoadError(issues)
    return tasks


def _is_task_file(path: Path, root: Path) -> bool:
    """In a folder, task files are .json/.jsonl; names starting with ``_`` or ``.`` are not tasks."""
    parts = path.relative_to(root).parts
    return (_is_jsonl(path) or path.suffix == ".json") and not any(p.startswith(("_", ".")) for p in parts)


def _is_jsonl(path: Path) -> bool:
    """``.jsonl``, or ``.jsonl.gz`` as suites ship."""
    return path.suffix == ".jsonl" or path.name.endswith(".jsonl.gz")


def validate_document(
    doc: Any, file: str = "<memory>", line: int | None = None
) -> tuple[Task | None, list[SpecIssue]]:
    """Validate one task document structurally and against the device registry."""
    task_id = doc.get("id") if isinstance(doc, dict) and isinstance(doc.get("id"), str) else None
    if not isinstance(doc, dict):
        return None, [
            SpecIssue(file, None, "(root)", f"a task must be a JSON object, not {type(doc).__name__}", line)
        ]
    try:
        task = Task.model_validate(doc)
    except ValidationError as exc:
        structural = format_validation_error(exc)
        seen = {loc for loc, _ in structural}
        extra = [(f, m) for f, m in semantic_problems(TaskParts.salvage(doc)) if f not in seen]
        # An unknown kind is the cause; the id rule it also breaks would only repeat it.
        bad_kinds = {
            f.removesuffix(".kind") for f, _ in extra if f.startswith("devices.") and f.endswith(".kind")
        }
        structural = [(loc, msg) for loc, msg in structural if loc not in bad_kinds]
        return None, [SpecIssue(file, task_id, loc, msg, line) for loc, msg in [*structural, *extra]]
    problems = semantic_problems(task)
    return (None if problems else task), [SpecIssue(file, task.id, f, m, line) for f, m in problems]


def _documents(file: Path) -> Iterator[tuple[int | None, Any, str | None]]:
    """Yield ``(line, document, problem)`` for each task document in a file."""
    try:
        if file.name.endswith(".gz"):
            with gzip.open(file, "rt", encoding="utf-8") as fh:
                text = fh.read()
        else:
            text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        yield None, None, f"cannot read file: {exc}"
        return
    if _is_jsonl(file):
        for n, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                yield n, json.loads(raw), None
            except json.JSONDecodeError as exc:
                yield n, None, f"invalid JSON: {exc.msg} (column {exc.colno})"
        return
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        yield exc.lineno, None, f"invalid JSON: {exc.msg} (column {exc.colno})"
        return
    if isinstance(data, list):
        for doc in data:
            yield None, doc, None
    else:
        yield None, data, None


def dump_tasks_jsonl(tasks: list[Task], path: Path) -> None:
    """Write tasks one per line; the file loads back with :func:`load_tasks`."""
    with path.open("w", encoding="utf-8") as fh:
        for task in tasks:
            fh.write(task.model_dump_json(exclude_defaults=False) + "\n")
