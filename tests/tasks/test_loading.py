from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.spec import Task, task_json_schema
from devicesworld.tasks.loading import TaskLoadError, dump_tasks_jsonl, load_tasks
from tests.toykind import toy_task


def _write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _issues(path: Path) -> list[str]:
    with pytest.raises(TaskLoadError) as info:
        load_tasks(path)
    return [str(i) for i in info.value.issues]


def test_loads_json_jsonl_and_folder(tmp_path: Path) -> None:
    _write(tmp_path / "a.json", toy_task(id="a"))
    (tmp_path / "more").mkdir()
    lines = [json.dumps(toy_task(id=f"b{i}")) for i in range(3)]
    (tmp_path / "more" / "b.jsonl").write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    assert [t.id for t in load_tasks(tmp_path / "a.json")] == ["a"]
    assert [t.id for t in load_tasks(tmp_path / "more" / "b.jsonl")] == ["b0", "b1", "b2"]
    assert sorted(t.id for t in load_tasks(tmp_path)) == ["a", "b0", "b1", "b2"]


def test_json_file_may_hold_a_list(tmp_path: Path) -> None:
    path = _write(tmp_path / "list.json", [toy_task(id="x"), toy_task(id="y")])
    assert [t.id for t in load_tasks(path)] == ["x", "y"]


def test_defaults_fill_metadata_and_limits(tmp_path: Path) -> None:
    (task,) = load_tasks(_write(tmp_path / "t.json", toy_task()))
    assert task.limits.max_steps == 50
    assert task.metadata.device_kinds == ["toy"]
    assert task.schema_version == 1


def test_every_problem_is_listed_with_file_task_and_field(tmp_path: Path) -> None:
    doc = toy_task(id="broken")
    del doc["instruction"]
    doc["devices"].append({"id": "robot_0", "kind": "robot"})
    doc["setup"].append({"device": "toy_0", "op": "paint", "args": {}})
    doc["evaluation"]["conditions"].append({"id": "c", "device": "toy_0", "check": "is_shiny"})
    path = _write(tmp_path / "bad.json", doc)
    issues = _issues(path)
    joined = "\n".join(issues)
    # structural and registry problems are reported in the same pass
    assert "bad.json [broken] instruction: Field required" in joined
    assert "[broken] devices.1.kind: unknown device kind 'robot'" in joined
    assert "setup.1.op: 'toy' has no setup op 'paint'" in joined
    assert "evaluation.conditions.2.check: 'toy' has no check 'is_shiny'" in joined
    assert all(i.startswith(str(path)) for i in issues)


def test_bad_args_name_the_field(tmp_path: Path) -> None:
    doc = toy_task()
    doc["setup"][0]["args"] = {"value": 99, "colour": "red"}
    doc["solution"][0] = {"device": "toy_0", "action": "fly"}
    doc["solution"][1] = {"device": "toy_9", "action": "press"}
    issues = "\n".join(_issues(_write(tmp_path / "t.json", doc)))
    assert "setup.0.args.value: Input should be less than or equal to 10" in issues
    assert "setup.0.args.colour: unknown field" in issues
    assert "solution.0.action: 'toy' has no action 'fly'" in issues
    assert "solution.1.device: device 'toy_9' is not one of the task's devices" in issues


def test_invalid_json_lines_are_reported_with_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(toy_task(id="ok")) + "\n{not json\n" + json.dumps(toy_task(id="ok")) + "\n")
    issues = _issues(path)
    assert any(":2 (json): invalid JSON" in i for i in issues)
    assert any(":3 [ok] id: duplicate task id" in i for i in issues)


def test_missing_path_is_an_issue_not_a_crash(tmp_path: Path) -> None:
    assert "no such file" in _issues(tmp_path / "nope.json")[0]


def test_device_id_must_match_kind(tmp_path: Path) -> None:
    doc = toy_task()
    doc["devices"] = [{"id": "android_0", "kind": "toy"}]
    assert any("must be 'toy_<n>'" in i for i in _issues(_write(tmp_path / "t.json", doc)))


def test_roundtrip_through_jsonl(tmp_path: Path) -> None:
    task = Task.model_validate(toy_task())
    dump_tasks_jsonl([task], tmp_path / "out.jsonl")
    assert load_tasks(tmp_path / "out.jsonl") == [task]


def test_schema_describes_the_required_fields() -> None:
    schema = task_json_schema()
    assert {"id", "instruction", "devices", "evaluation"} <= set(schema["required"])
    assert "solution" in schema["properties"]


def test_folder_skips_underscore_and_dot_files(tmp_path: Path) -> None:
    _write(tmp_path / "a.json", toy_task(id="a"))
    _write(tmp_path / "_build_report.json", {"built": 1})
    (tmp_path / ".cache").mkdir()
    _write(tmp_path / ".cache" / "x.json", {"junk": True})
    assert [t.id for t in load_tasks(tmp_path)] == ["a"]
