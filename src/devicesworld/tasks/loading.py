"""Load tasks from a JSON file, a JSONL file or a folder, reporting every problem at once.

Loading never stops at the first error and never raises a traceback at a user: it
collects :class:`SpecIssue` records (file, line, task id, field, message) and raises
one :class:`TaskLoadError` holding all of them.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from devicesworld import jsonl
from devicesworld.clip import clip
from devicesworld.devices.base import format_validation_error
from devicesworld.spec import limits
from devicesworld.spec.models import Task
from devicesworld.tasks.semantic import TaskParts, semantic_problems


@dataclass(frozen=True)
class SpecIssue:
    file: str
    task_id: str | None
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        """One line, every part bounded (a field path or an id can be as long as the input)."""
        where = self.file + (f":{self.line}" if self.line else "")
        task = f" [{clip(self.task_id, 80)}]" if self.task_id else ""
        return f"{where}{task} {clip(self.field, 300)}: {clip(self.message, 400)}"


SHOWN_ISSUES = 20
"""Problems listed in a :class:`TaskLoadError` message; the rest are counted."""


class TaskLoadError(Exception):
    """One or more task documents are malformed; ``issues`` lists every problem."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        self.issues = issues
        super().__init__("\n".join([f"{len(issues)} problem(s) in task files:", *self.shown_lines()]))

    def shown_lines(self, limit: int = SHOWN_ISSUES) -> list[str]:
        """The first ``limit`` problems, one line each, and a count of the rest: one screen at most."""
        lines = [f"  {issue}" for issue in self.issues[:limit]]
        if len(self.issues) > limit:
            lines.append(f"  ... and {len(self.issues) - limit} more problem(s)")
        return lines


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
                issues.append(SpecIssue(str(file), None, problem[0], problem[1], line))
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
    named = _is_jsonl(path) or path.suffix == ".json"
    return named and path.is_file() and not any(p.startswith(("_", ".")) for p in parts)


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


def _documents(file: Path) -> Iterator[tuple[int | None, Any, tuple[str, str] | None]]:
    """Yield ``(line, document, problem)`` for each task document; a problem is ``(field, message)``.

    Every limit of :mod:`devicesworld.spec.limits` is checked before the text is
    parsed, and JSON is parsed strictly (no ``NaN``, no key twice in one object), so a
    hostile file ends in a problem record, never in an exception. A file that holds no
    document at all is a problem too: an empty file is a mistake, not zero tasks.
    """
    try:
        data = _read_capped(file)
    except _Unreadable as exc:
        yield None, None, ("(file)", str(exc))
        return
    found = 0
    if _is_jsonl(file):
        for n, raw in jsonl.split_lines(data):
            found += 1
            doc, problem = _parse_document(raw, n)
            yield n, doc, _json_problem(problem)
    else:
        found = 1 if data.strip() else 0
        if found:
            doc, problem = _parse_document(data, None)
            if isinstance(doc, list):
                found = len(doc)
                for item in doc:
                    yield None, item, _json_problem(_task_size_problem(item))
            else:
                yield None, doc, _json_problem(problem)
    if not found:
        yield None, None, ("(file)", f"no tasks in {file.name}")


def _json_problem(problem: str | None) -> tuple[str, str] | None:
    return None if problem is None else ("(json)", problem)


class _Unreadable(Exception):
    """The file cannot be read as a task file at all; the message says why."""


def _read_capped(file: Path) -> bytes:
    """The file's bytes (gunzipped for ``.gz``), refusing more than ``MAX_FILE_BYTES``."""
    too_big = (
        f"larger than {limits.MAX_FILE_MB} MB (the limit for one task file); split it into several files"
    )
    try:
        if file.name.endswith(".gz"):
            with gzip.open(file, "rb") as fh:
                data = fh.read(limits.MAX_FILE_BYTES + 1)
            if len(data) > limits.MAX_FILE_BYTES:
                raise _Unreadable(f"uncompressed {too_big}")
            return data
        if not file.is_file():
            raise _Unreadable("not a regular file")
        if file.stat().st_size > limits.MAX_FILE_BYTES:
            raise _Unreadable(f"{limits.mb(file.stat().st_size)}: {too_big}")
        return file.read_bytes()
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise _Unreadable(f"not a readable gzip file ({clip(str(exc) or type(exc).__name__)})") from None
    except OSError as exc:
        raise _Unreadable(f"cannot read file: {clip(exc.strerror or str(exc))}") from None


def _parse_document(raw: bytes, line: int | None) -> tuple[Any, str | None]:
    """One document's JSON, or the problem that stops it from being read."""
    if line is not None and len(raw) > limits.MAX_TASK_BYTES:
        return None, f"task document of {limits.mb(len(raw))} is larger than {limits.MAX_TASK_MB} MB"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 ({exc.reason} at byte {exc.start})"
    where = limits.too_deep_at(text)
    if where is not None:
        at_line = where[0] + (line - 1 if line is not None else 0)
        return (
            None,
            f"task file nested deeper than {limits.MAX_DEPTH} levels at line {at_line}, column {where[1]}",
        )
    try:
        doc = jsonl.parse_line(raw, strict=True)
    except jsonl.LineError as exc:
        return None, str(exc)
    if line is None and not isinstance(doc, list) and len(raw) > limits.MAX_TASK_BYTES:
        return None, f"task document of {limits.mb(len(raw))} is larger than {limits.MAX_TASK_MB} MB"
    return doc, None


def _task_size_problem(doc: Any) -> str | None:
    """For a task inside a ``.json`` list: its size when written back as compact JSON."""
    size = len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if size > limits.MAX_TASK_BYTES:
        return f"task document of {limits.mb(size)} is larger than {limits.MAX_TASK_MB} MB"
    return None


def dump_tasks_jsonl(tasks: list[Task], path: Path) -> None:
    """Write tasks one per line; the file loads back with :func:`load_tasks` (see :mod:`devicesworld.jsonl`)."""
    with path.open("w", encoding="utf-8") as fh:
        for task in tasks:
            fh.write(jsonl.model_line(task, exclude_defaults=False))
