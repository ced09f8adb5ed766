"""Suites as shipped files, and the index that finds a task without loading its suite.

Building ``smoke`` or ``bmoca`` runs every task's setup (setup-satisfied guards,
recorded phone solutions), which took seconds and, on a machine without bubblewrap,
printed a sandbox warning per Linux task. So every named suite ships built, like
``full``: ``tasks/data/<name>-v<N>.jsonl.gz`` (gzip with a fixed header, one task per
line), and loading a suite only parses that file — it never runs a device setup.
``devicesworld tasks build --suite NAME`` rebuilds a file from its builders byte for
byte, and a test fails when a shipped file no longer matches its builders.

``tasks/data/index-v1.json.gz`` lists every shipped task with the facts that
``tasks list``, ``tasks show`` and selection need (suite, line, pattern, difficulty,
kinds, split, apps, instruction), so ``tasks show ID`` decompresses one file and
parses one line instead of validating 6,500 documents.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devicesworld import jsonl

if TYPE_CHECKING:  # parsing tasks needs pydantic; finding one in the index does not
    from devicesworld.spec.models import Task

SHIPPED_VERSION = {"smoke": 1, "smoke-gui": 1, "bmoca": 1, "full": 2, "full-v1": 1}
"""The suites shipped as files, and the version in each file's name. ``full-v1`` is the
first ``full`` suite (typed composition), frozen for comparison with version 2."""
COMPOSED = {"smoke": ("smoke", "smoke-gui")}
"""Suites made of several shipped files: ``smoke`` is its handwritten file and the kinds' GUI smoke tasks."""
SHIPPED_FILES = {"full-v1": "full-v1.jsonl.gz"}
"""Suites whose file name is not ``<name>-v<N>.jsonl.gz``."""
INDEX_VERSION = 1


def data_dir() -> Path:
    return Path(str(resources.files("devicesworld.tasks") / "data"))


def shipped_path(name: str) -> Path:
    return data_dir() / SHIPPED_FILES.get(name, f"{name}-v{SHIPPED_VERSION[name]}.jsonl.gz")


def index_path() -> Path:
    return data_dir() / f"index-v{INDEX_VERSION}.json.gz"


def suite_bytes(tasks: Iterable[Task]) -> bytes:
    """The shipped form: one JSON document per line, gzip with a fixed header (no name, no time)."""
    raw = "".join(jsonl.model_line(t) for t in tasks).encode("utf-8")
    return _gzip(raw)


def write_tasks(path: Path, tasks: Iterable[Task]) -> None:
    """Write a task file: the shipped form when ``path`` ends in ``.gz``, plain JSON Lines otherwise.

    The in-place rewriters (profile declaration, difficulty relabelling) use it, so that a
    rewritten shipped file differs from a rebuilt one only where the tasks do.
    """
    raw = "".join(jsonl.model_line(t) for t in tasks).encode("utf-8")
    path.write_bytes(_gzip(raw) if path.suffix == ".gz" else raw)


def _gzip(raw: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as fh:
        fh.write(raw)
    return out.getvalue()


def _missing(name: str, path: Path) -> FileNotFoundError:
    return FileNotFoundError(
        f"the {name} suite file {path.name} is missing from the package; rebuild it with "
        f"`devicesworld tasks build --suite {name} --out DIR` and copy it to {path.parent}"
    )


def read_suite(name: str) -> list[Task]:
    """The tasks of a shipped suite, parsed from its file (no setup runs)."""
    from devicesworld.spec.models import Task

    path = shipped_path(name)
    if not path.exists():
        raise _missing(name, path)
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [Task.model_validate_json(line) for line in fh if line.strip()]


def read_line(name: str, line: int) -> dict[str, Any]:
    """Task number ``line`` (0-based) of a shipped suite as its JSON document, reading only that line."""
    path = shipped_path(name)
    if not path.exists():
        raise _missing(name, path)
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for i, text in enumerate(fh):
            if i == line:
                doc: dict[str, Any] = json.loads(text)
                return doc
    raise KeyError(f"{path.name} has no line {line}; the task index is stale")


def read_rows(rows: list[dict[str, Any]]) -> list[Task]:
    """The tasks of index ``rows`` (any suites, in the rows' order), parsing only their lines."""
    from devicesworld.spec.models import Task

    wanted: dict[tuple[str, int], int] = {(r["suite"], r["line"]): i for i, r in enumerate(rows)}
    out: list[Task | None] = [None] * len(rows)
    for name in sorted({suite for suite, _ in wanted}):
        lines = {line for suite, line in wanted if suite == name}
        last = max(lines)
        with gzip.open(shipped_path(name), "rt", encoding="utf-8") as fh:
            for i, text in enumerate(fh):
                if i in lines:
                    out[wanted[(name, i)]] = Task.model_validate_json(text)
                if i >= last:
                    break
    missing = [rows[i]["id"] for i, t in enumerate(out) if t is None]
    if missing:
        raise KeyError(f"the task index is stale: {', '.join(missing[:5])} not found at their lines")
    return [t for t in out if t is not None]


# --------------------------------------------------------------------------- index
def task_row(task: Task) -> dict[str, Any]:
    """The facts of a task that listing and selection use (also for tasks not in the index)."""
    from devicesworld.tasks.scenarios.tiers import task_tier

    md = task.metadata
    return {
        "id": task.id,
        "pattern": md.pattern,
        "difficulty": md.difficulty,
        "tier": task_tier(task),
        "device_kinds": [d.kind for d in task.devices],
        "devices": task.device_ids(),
        "split": md.split,
        "apps": list(md.apps),
        "instruction": task.instruction,
    }


def build_index() -> dict[str, Any]:
    """The index of every shipped suite, read from the shipped files."""
    rows: list[dict[str, Any]] = []
    for name in sorted(SHIPPED_VERSION):
        for line, task in enumerate(read_suite(name)):
            rows.append({"suite": name, "line": line, **task_row(task)})
    return {"schema_version": INDEX_VERSION, "suites": dict(sorted(SHIPPED_VERSION.items())), "tasks": rows}


def index_bytes(index: dict[str, Any]) -> bytes:
    return _gzip((json.dumps(index, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))


_INDEX: dict[str, Any] | None = None


def load_index() -> dict[str, Any]:
    """The shipped index (read once per process)."""
    global _INDEX
    if _INDEX is None:
        path = index_path()
        if not path.exists():
            raise FileNotFoundError(
                f"the task index {path.name} is missing; rebuild it with `python -m devicesworld.tasks.shipped`"
            )
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            _INDEX = json.load(fh)
    return _INDEX


def index_rows(suite: str | None = None) -> list[dict[str, Any]]:
    """Index rows of one suite (``test`` and ``test-v2.1`` are the rows of their manifest's tasks,
    in its order), or of all."""
    rows: list[dict[str, Any]] = load_index()["tasks"]
    if suite is None:
        return rows
    from devicesworld.tasks.manifest import load_manifest, resolve

    if (path := resolve(suite)) is not None:
        from devicesworld.tasks.manifest import archive_path

        if archive_path(path.stem).exists():
            return []  # a superseded version: its archive holds its tasks, not the indexed suite
        manifest = load_manifest(suite)
        by_id = {r["id"]: r for r in rows if r["suite"] == manifest.source}
        return [by_id[i] for i in manifest.ids if i in by_id]
    parts = COMPOSED.get(suite, (suite,))
    if any(part not in load_index()["suites"] for part in parts):
        return []  # not (wholly) indexed: callers parse the suite itself
    return [r for part in parts for r in rows if r["suite"] == part]


def find_indexed_doc(task_id: str) -> dict[str, Any] | None:
    """A shipped task's JSON document by id, or None; reads one line of one file, parses no model."""
    for row in load_index()["tasks"]:
        if row["id"] == task_id:
            return read_line(row["suite"], row["line"])
    return None


def find_indexed(task_id: str) -> Task | None:
    """A shipped task by id, or None."""
    from devicesworld.spec.models import Task

    doc = find_indexed_doc(task_id)
    return Task.model_validate(doc) if doc is not None else None


def write_index() -> Path:
    """Rewrite the shipped index from the shipped suite files (run after rebuilding one)."""
    path = index_path()
    path.write_bytes(index_bytes(build_index()))
    return path


if __name__ == "__main__":
    print(f"wrote {write_index()}")
