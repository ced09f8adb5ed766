"""The handwritten suites as data files, and the check that they compile to the shipped built files.

``smoke`` and ``bmoca`` are written in ``tasks/data/handwritten/*.yaml``
(:data:`SUITE_FILES` gives each suite's files, in order) and ship built
(``tasks/data/<name>-v<N>.jsonl.gz``, :mod:`devicesworld.tasks.shipped`), which is what
:func:`~devicesworld.tasks.suites.load_suite` parses. Compiling runs every task's
setup and records phone solutions (seconds); :func:`check_suite` compares the
result with the shipped file task by task, so a data file and its built file never
drift apart unnoticed.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from devicesworld import jsonl
from devicesworld.spec.models import Task
from devicesworld.tasks.handwritten.compiler import Draft, compile_draft, draft_files

SUITE_FILES: dict[str, tuple[str, ...]] = {
    "smoke": ("smoke-sh.yaml", "smoke-linux.yaml", "smoke-android.yaml"),
    "bmoca": ("bmoca.yaml", "bmoca-more.yaml"),
}
"""Each handwritten suite's data files, in the order their tasks make up the suite."""


def data_dir() -> Path:
    return Path(str(resources.files("devicesworld.tasks") / "data" / "handwritten"))


def suite_paths(name: str) -> list[Path]:
    if name not in SUITE_FILES:
        raise KeyError(f"no handwritten suite {name!r}; handwritten suites: {', '.join(sorted(SUITE_FILES))}")
    return [data_dir() / f for f in SUITE_FILES[name]]


def suite_drafts(name: str) -> list[Draft]:
    """The suite's tasks as drafts (files read and checked, nothing run)."""
    return draft_files(suite_paths(name), suite=name)


@cache
def _drafts_by_id(name: str) -> dict[str, Draft]:
    return {d.task.id: d for d in suite_drafts(name)}


def find_draft(name: str, task_id: str) -> Draft | None:
    """The draft of one task of a handwritten suite (read once per process)."""
    return _drafts_by_id(name).get(task_id)


def compile_suite(name: str) -> list[Task]:
    """The suite compiled from its data files (runs each task's setup; records phone solutions)."""
    return [compile_draft(d) for d in suite_drafts(name)]


@dataclass(frozen=True)
class Difference:
    task_id: str
    problem: str


def shipped_lines(name: str) -> dict[str, str]:
    """Task id to its line in the shipped built file of ``name``."""
    from devicesworld.tasks.shipped import shipped_path

    out: dict[str, str] = {}
    path = shipped_path(name)
    if not path.exists():
        return out
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out[json.loads(line)["id"]] = line
    return out


def differences(name: str, tasks: list[Task]) -> list[Difference]:
    """How compiled ``tasks`` differ from the shipped file of ``name`` (empty: byte for byte the same)."""
    from devicesworld.tasks.shipped import shipped_path, suite_bytes

    shipped = shipped_lines(name)
    compiled = {t.id: jsonl.model_line(t) for t in tasks}
    out: list[Difference] = []
    for task_id, line in compiled.items():
        if task_id not in shipped:
            out.append(Difference(task_id, "compiled but not in the shipped file"))
        elif shipped[task_id] != line:
            out.append(Difference(task_id, _first_difference(json.loads(shipped[task_id]), json.loads(line))))
    out += [Difference(t, "in the shipped file but not compiled") for t in shipped if t not in compiled]
    if not out and list(shipped) != list(compiled):
        out.append(Difference("*", "the same tasks in another order"))
    if not out and shipped_path(name).read_bytes() != suite_bytes(tasks):
        out.append(Difference("*", "the same lines but the file bytes differ"))
    return out


def differences_by_id(shipped: dict[str, str], tasks: list[Task]) -> list[Difference]:
    """Compiled tasks of loose data files against the shipped lines with the same ids."""
    out: list[Difference] = []
    for task in tasks:
        line = jsonl.model_line(task)
        if task.id not in shipped:
            out.append(Difference(task.id, "not in any shipped handwritten suite"))
        elif shipped[task.id] != line:
            out.append(Difference(task.id, _first_difference(json.loads(shipped[task.id]), json.loads(line))))
    return out


def _first_difference(old: object, new: object, path: str = "") -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if key not in old or key not in new or old[key] != new[key]:
                return _first_difference(old.get(key), new.get(key), f"{path}.{key}" if path else str(key))
        return f"{path or 'task'}: key order differs"
    if isinstance(old, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
        return f"{path}: {len(old)} items shipped, {len(new)} compiled"
    return f"{path}: shipped {json.dumps(old)[:80]}, compiled {json.dumps(new)[:80]}"


def compile_part(filename: str) -> list[Task]:
    """The tasks of one data file of the handwritten folder (e.g. ``smoke-sh.yaml``), compiled."""
    from devicesworld.tasks.handwritten.compiler import compile_files

    return compile_files([data_dir() / filename])
