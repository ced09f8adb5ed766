"""Measured difficulty of the kinds' GUI tasks: values the instruction gives are no sources,
values read behind a twin grade higher, the grade is a pure function of the task, and every
value a source declares a look-alike for is guarded by a check's distractor."""

from __future__ import annotations

import gzip
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from devicesworld import jsonl
from devicesworld.spec.metadata import ReadRecord
from devicesworld.spec.models import Task
from devicesworld.tasks import kind_sources
from devicesworld.tasks.kind_sources import TaskDraw
from devicesworld.tasks.scenarios.difficulty import points
from devicesworld.tasks.source_difficulty import (
    ReadsError,
    reads,
    relabel,
    relabel_file,
    source_features,
    source_grade,
)


@cache
def drawn(name: str, index: int = 0) -> Task:
    source = kind_sources.source_by_name(name)
    return kind_sources.draw(source, TaskDraw(seed=7 + index, index=index, task_id=f"dw-{name}-{index:04d}"))


def _with_reads(task: Task, declared: list[dict[str, object]]) -> Task:
    typed = [ReadRecord.model_validate(r) for r in declared]
    return task.model_copy(update={"metadata": task.metadata.model_copy(update={"reads": typed})})


def test_values_the_instruction_gives_are_no_sources() -> None:
    task = drawn("gui-lx-editor-append")
    typed = [s.args["text"] for s in task.solution if s.action == "type_text"]
    assert any(ch.isdigit() for ch in typed[0])  # it does type a number, the instruction's
    assert reads(task) == []
    # the same task, with the number gone from the instruction, reads it from the device
    number = next(tok for tok in typed[0].split() if tok.isdigit())
    hidden = task.model_copy(update={"instruction": task.instruction.replace(number, "some")})
    assert [r.value for r in reads(hidden)] == [number]
    assert points(source_features(hidden)) > points(source_features(task))


def test_a_value_read_behind_a_twin_grades_higher_than_one_the_instruction_gives() -> None:
    given = drawn("gui-lx-editor-append")
    behind_twin = drawn("gui-lx-desktop-file-sms")
    [read] = reads(behind_twin)
    assert read.ahead == 1 and read.value not in behind_twin.instruction
    f = source_features(behind_twin)
    assert f.sources == 1 and f.lookalikes == 1 and f.distractors >= 1
    assert points(f) > points(source_features(given))
    assert source_grade(given) == "easy" and source_grade(behind_twin) != "easy"
    # without the twin (no declared look-alike, no distractor) it grades lower
    plain = _with_reads(behind_twin, [])
    assert points(source_features(plain)) < points(f)


def test_the_grade_is_a_pure_function_of_the_task() -> None:
    task = drawn("gui-lx-phone-contact-form")
    again = Task.model_validate_json(jsonl.model_line(task))
    assert source_features(again) == source_features(task)
    assert jsonl.model_line(relabel(again)) == jsonl.model_line(relabel(task))
    assert relabel(relabel(task)) == relabel(task)
    wrong = task.model_copy(update={"metadata": task.metadata.model_copy(update={"difficulty": "expert"})})
    assert relabel(wrong).metadata.difficulty == source_grade(task) != "expert"


def test_drawn_source_tasks_carry_their_measured_grade() -> None:
    for name in ("gui-lx-editor-append", "gui-lx-web-from-file", "gui-win-np-new", "gui-win-linux-notepad"):
        task = drawn(name)
        assert task.metadata.difficulty == source_grade(task), name


@pytest.mark.parametrize(
    "name",
    [
        "gui-lx-phone-code-editor",
        "gui-lx-phone-contact-editor",
        "gui-lx-phone-contact-writer",
        "gui-lx-phone-contact-form",
        "gui-lx-desktop-file-sms",
        "gui-lx-web-from-file",
    ],
)
def test_a_declared_look_alike_is_a_distractor_of_a_check(name: str) -> None:
    task = drawn(name)
    declared = [r for r in reads(task) if r.ahead]
    assert declared, name
    twins = [d for c in task.evaluation.conditions for d in c.args.get("distractors") or []]
    assert len(twins) >= len(declared)
    setup_text = jsonl.model_line(task).split('"evaluation"')[0]
    for twin in twins:  # each twin sits on a device, and the reference solution never writes it
        assert str(twin) in setup_text
        assert all(str(twin) not in str(s.args) for s in task.solution)


def test_bad_declared_reads_are_clear_errors() -> None:
    task = drawn("gui-lx-desktop-file-sms")
    with pytest.raises(ReadsError, match="never writes"):
        reads(_with_reads(task, [{"value": "QQ-not-there"}]))
    with pytest.raises(ReadsError, match=r"metadata\.reads"):
        reads(_with_reads(task, [{"value": "x", "where": "under the sofa"}]))
    doc = kind_sources.source_by_name("gui-lx-editor-append").build(TaskDraw(1, 0, "dw-x-0000"))
    doc["metadata"]["reads"] = [{"value": "nowhere-99"}]
    source = kind_sources.source_by_name("gui-lx-editor-append")
    with pytest.raises(kind_sources.SourceError, match="never writes"):
        kind_sources.draw(replace(source, build=lambda d: doc), TaskDraw(1, 0, "dw-x-0000"))


def test_relabel_file_rewrites_labels_in_place_and_keeps_the_rest(tmp_path: Path) -> None:
    tasks = [drawn("gui-lx-editor-append"), drawn("gui-lx-phone-contact-form")]
    stale = [
        t.model_copy(update={"metadata": t.metadata.model_copy(update={"difficulty": "expert"})})
        for t in tasks
    ]
    path = tmp_path / "rows.jsonl.gz"
    path.write_bytes(gzip.compress("".join(jsonl.model_line(t) for t in stale).encode(), mtime=0))
    assert relabel_file(path) == (2, 2)
    again = [Task.model_validate_json(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert again == [relabel(t) for t in tasks]
    first = path.read_bytes()
    assert relabel_file(path) == (2, 0) and path.read_bytes() == first
