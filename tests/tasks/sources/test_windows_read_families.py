"""The Windows families that read their value from a document: deterministic, honest reads, twins forbidden.

Each family's value sits in a note or letter after a near-miss twin of the same shape; the
tests measure that layout on the task's own setup (not the declaration) and judge a near
miss (the twin written instead, or beside the value) with the kind's checks on a stand-in
drive, so a task whose checks let the twin through fails here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.devices.windows.docs import Run, read_rtf, write_rtf
from devicesworld.devices.windows.paths import parse_path
from devicesworld.spec.models import Task
from devicesworld.tasks.kind_sources import TaskDraw, draw, sources
from devicesworld.tasks.source_difficulty import source_grade
from devicesworld.tasks.sources.compile import older
from devicesworld.textshape import shape

FAMILIES = sorted(
    ["np-fix-code", "np-new-from-doc", "wp-bold-dated", "wp-add-from-doc", "ex-rename-ref", "cmd-move-named"]
)


def _sources() -> dict[str, Any]:
    return {s.name: s for s in sources()}


def _tasks(family: str) -> list[Task]:
    source = _sources()[f"gui-win-{family}"]
    full = [draw(source, TaskDraw(0, i, f"dw-gui-win-{family}-{i:04d}")) for i in range(source.full)]
    return [*full, draw(source, TaskDraw(0, 0, f"smoke-gui-win-{family}-1", smoke=True))]


@pytest.fixture(scope="module")
def built() -> dict[str, list[Task]]:
    return {f: _tasks(f) for f in FAMILIES}


def test_every_family_has_eight_full_tasks_and_a_smoke_task_the_same_on_every_build(
    built: dict[str, list[Task]],
) -> None:
    for family, tasks in built.items():
        assert len(tasks) == 9, family
        assert len({t.instruction for t in tasks}) == 9, family
        again = _tasks(family)
        assert [t.model_dump_json() for t in again] == [t.model_dump_json() for t in tasks]
    assert {f"gui-win-{f}" for f in FAMILIES} <= set(_sources())


def test_a_row_past_the_family_is_a_clear_error() -> None:
    source = _sources()["gui-win-np-fix-code"]
    with pytest.raises(ValueError, match="rows, not a row"):
        source.build(TaskDraw(0, source.full, "x"))


def _document_read_first(task: Task) -> str:
    """The text of the first file the solution opens in Notepad (where the value is read)."""
    opened = next(s.args["path"] for s in task.solution if s.action == "launch_app" and s.args.get("path"))
    key = str(parse_path(opened)).casefold()
    for op in task.setup:
        if str(parse_path(op.args["path"])).casefold() == key:
            return str(op.args["content"])
    raise AssertionError(f"{task.id}: {opened} is not in the setup")


def test_reads_are_declared_as_laid_out_and_the_value_is_not_in_the_instruction(
    built: dict[str, list[Task]],
) -> None:
    for tasks in built.values():
        for task in tasks:
            (r,) = task.metadata.reads or []
            assert r.where == "document" and r.value not in task.instruction
            text = _document_read_first(task)
            at = text.index(r.value)
            token = re.search(r"\d+", r.value)
            assert token is not None
            ahead = [m.group(0) for m in shape(token.group(0)).finditer(text[:at])]
            assert len(ahead) == r.ahead >= 1, (task.id, ahead)


def test_every_task_is_graded_medium_or_harder_and_forbids_its_twins(built: dict[str, list[Task]]) -> None:
    kind = get_kind("windows")
    assert kind is not None
    for tasks in built.values():
        for task in tasks:
            assert source_grade(task) != "easy", task.id
            twins = [d for c in task.evaluation.conditions for d in c.args.get("distractors", [])]
            assert twins, task.id
            for c in task.evaluation.conditions:
                kind.checks[c.check].parse_args(c.args)
            assert len({a for t in tasks for a in t.metadata.apps}) >= 1
            assert len(task.setup) >= 7, "the drive should look lived-in"


# ----------------------------------------------------------------------------- near misses
def _norm(path: str) -> str:
    return str(parse_path(path)).casefold()


def _getter(files: dict[str, Any]) -> Any:
    drive = {_norm(p): v for p, v in files.items()}

    def get(name: str, args: dict[str, Any]) -> Any:
        found = drive.get(_norm(args["path"]))
        if name == "text":
            return found
        if name == "file_info":
            return {"exists": found is not None, "is_dir": False}
        if name == "rtf":
            return None if found is None else read_rtf(found).as_json()
        raise AssertionError(name)

    return get


def _passes(task: Task, files: dict[str, Any]) -> bool:
    kind = get_kind("windows")
    assert kind is not None
    get = _getter(files)
    return all(
        kind.checks[c.check].fn(get, kind.checks[c.check].parse_args(c.args)).passed
        for c in task.evaluation.conditions
    )


def _setup_files(task: Task) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for op in task.setup:
        if op.op == "write_text":
            out[op.args["path"]] = op.args["content"]
        elif op.op == "write_rtf":
            out[op.args["path"]] = write_rtf([[Run(p)] for p in op.args["paragraphs"]])
    return out


def _value_and_twin(task: Task) -> tuple[str, str]:
    """The value read and its twin: the first value the checks forbid, else (a path) the value's twin."""
    value = (task.metadata.reads or [])[0].value
    forbidden = [d for c in task.evaluation.conditions for d in c.args.get("distractors", [])]
    return value, forbidden[0] if re.fullmatch(r"[\w-]+", forbidden[0]) else older(value)


def _typed(task: Task) -> str:
    return str(
        next(s.args["text"] for s in task.solution if s.action == "type_text" and s.args["text"].strip())
    )


def _end_states(task: Task, family: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The drive after the reference solution, after writing the twin instead, after writing both."""
    files = _setup_files(task)
    value, twin = _value_and_twin(task)
    if family in ("np-fix-code", "np-new-from-doc"):
        target = next(c.args["path"] for c in task.evaluation.conditions if c.scored)
        text = _typed(task)
        return (
            {**files, target: text},
            {**files, target: text.replace(value, twin)},
            {**files, target: text.replace(value, f"{value} {twin}")},
        )
    if family == "wp-add-from-doc":
        (c,) = task.evaluation.conditions
        paras = [*c.args["contains"]]

        def doc(ps: list[str]) -> bytes:
            return write_rtf([[Run(p)] for p in ps])

        return (
            {**files, c.args["path"]: doc(paras)},
            {**files, c.args["path"]: doc([*paras[:-1], paras[-1].replace(value, twin)])},
            {**files, c.args["path"]: doc([*paras, paras[-1].replace(value, twin)])},
        )
    if family == "wp-bold-dated":
        c = task.evaluation.conditions[0]
        path, line, near = c.args["path"], c.args["text"], c.args["distractors"][0]
        (op,) = [o for o in task.setup if o.op == "write_rtf"]
        paras = op.args["paragraphs"]

        def styled(bold: set[str]) -> bytes:
            return write_rtf([[Run(p, bold=p in bold)] for p in paras])

        return (
            {**files, path: styled({line})},
            {**files, path: styled({near})},
            {**files, path: styled({line, near})},
        )
    if family == "ex-rename-ref":
        old = next(c.args["path"] for c in task.evaluation.conditions if c.id == "old_gone")
        new = next(c.args["path"] for c in task.evaluation.conditions if c.id == "renamed")
        content = files.pop(old)
        twin_path = new.replace(value, twin)
        return (
            {**files, new: content},
            {**files, twin_path: content},
            {**files, new: content, twin_path: content},
        )
    if family == "cmd-move-named":
        moved = next(c.args["path"] for c in task.evaluation.conditions if c.id == "moved")
        src = next(c.args["path"] for c in task.evaluation.conditions if c.id == "source_gone")
        twin_src = src.replace(value, twin)
        rest = {p: v for p, v in files.items() if _norm(p) != _norm(src)}
        no_twin = {p: v for p, v in rest.items() if _norm(p) != _norm(twin_src)}
        return (
            {**rest, moved: files[src]},
            {
                **{p: v for p, v in files.items() if _norm(p) != _norm(twin_src)},
                moved.replace(value, twin): files[twin_src],
            },
            {**no_twin, moved: files[src], moved.replace(value, twin): files[twin_src]},
        )
    raise AssertionError(family)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_reference_end_state_passes_and_a_near_miss_writing_the_twin_fails(
    family: str, built: dict[str, list[Task]]
) -> None:
    for task in built[family]:
        right, twin, both = _end_states(task, family)
        assert _passes(task, right), task.id
        assert not _passes(task, twin), task.id
        assert not _passes(task, both), task.id
        assert not _passes(task, _setup_files(task)), f"{task.id}: holds before anything is done"
