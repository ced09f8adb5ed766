"""Task documents: size and nesting limits, strict numbers, empty files, bounded messages."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.spec import Step, Task, limits
from devicesworld.spec.limits import MAX_DEPTH, MAX_VALUE_DEPTH, too_deep_at, value_depth
from devicesworld.tasks.loading import TaskLoadError, load_tasks
from tests.toykind import toy_task


def _problems(path: Path) -> str:
    with pytest.raises(TaskLoadError) as info:
        load_tasks(path)
    return str(info.value)


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"x": value}
    return value


def test_a_file_nested_100k_deep_is_a_clear_error_not_a_recursion_error(tmp_path: Path) -> None:
    for name in ("deep.json", "deep.jsonl"):
        path = tmp_path / name
        path.write_text('\n {"a":' + "[" * 100_000, encoding="utf-8")
        message = _problems(path)
        assert f"task file nested deeper than {MAX_DEPTH} levels at line 2, column {MAX_DEPTH + 6}" in message


def test_nesting_is_counted_outside_strings_only() -> None:
    assert too_deep_at('{"a": "[[[[[[", "b": "\\"[[[["}', limit=1) is None
    assert too_deep_at('\n  [[["]]]"]]]', limit=2) == (2, 5)
    assert value_depth(_nested(3)) == 3 and value_depth([[], {"a": []}]) == 3
    assert value_depth(_nested(10_000), limit=5) == 6  # stops counting past the limit


def test_setup_args_nested_deeper_than_the_value_limit_are_rejected(tmp_path: Path) -> None:
    doc = toy_task()
    doc["setup"][0]["args"]["value"] = _nested(MAX_VALUE_DEPTH)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert f"setup.0.args: Value error, nested deeper than {MAX_VALUE_DEPTH} levels" in _problems(path)
    with pytest.raises(ValueError, match="nested deeper"):
        Step(action="press", args={"a": _nested(MAX_VALUE_DEPTH + 5)})


def test_a_file_or_task_over_the_size_limit_is_refused_with_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(toy_task(instruction="x" * 2000)) + "\n", encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_TASK_BYTES", 1000)
    assert f"is larger than {limits.MAX_TASK_MB} MB" in _problems(path)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    assert f"larger than {limits.MAX_FILE_MB} MB (the limit for one task file)" in _problems(path)
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(gzip.compress(b" " * 100_000))
    assert "uncompressed larger than" in _problems(bomb)


def test_a_corrupt_gzip_is_a_clear_error(tmp_path: Path) -> None:
    data = bytearray(gzip.compress((json.dumps(toy_task()) + "\n").encode() * 50))
    data[30:60] = b"\x00" * 30
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(bytes(data))
    assert "not a readable gzip file" in _problems(path)
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_text("not gzip at all", encoding="utf-8")
    assert "not a readable gzip file (Not a gzipped file" in _problems(plain)


@pytest.mark.parametrize(
    ("name", "content"), [("e.jsonl", ""), ("b.jsonl", "\n  \n"), ("e.json", ""), ("l.json", "[]")]
)
def test_a_file_without_tasks_is_an_error(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert f"no tasks in {name}" in _problems(path)


@pytest.mark.parametrize(
    ("where", "field"),
    [(("limits", "max_steps"), "limits.max_steps"), (("setup", 0, "args", "value"), "setup.0.args.value"),
     (("evaluation", "conditions", 0, "args", "equals"), "evaluation.conditions.0.args.equals")],
)  # fmt: skip
@pytest.mark.parametrize(("value", "shown"), [(True, "true"), (False, "false"), ("3", "a string")])
def test_booleans_and_strings_are_not_numbers(
    tmp_path: Path, where: tuple[Any, ...], field: str, value: Any, shown: str
) -> None:
    doc = toy_task()
    target: Any = doc
    for key in where[:-1]:
        target = target.setdefault(key, {}) if isinstance(key, str) else target[key]
    target[where[-1]] = value
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert f"{field}: expected a number, got {shown}" in _problems(path)


def test_numbers_still_load_where_numbers_are_expected() -> None:
    doc = toy_task(limits={"max_steps": 7, "max_seconds": 30})
    assert Task.model_validate(doc).limits.max_seconds == 30.0


def test_a_global_action_naming_a_device_the_task_lacks_is_rejected(tmp_path: Path) -> None:
    doc = toy_task()
    doc["solution"][-1] = {"device": "android_31", "action": "finish"}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert "solution.2.device: device 'android_31' is not one of the task's devices (toy_0)" in _problems(
        path
    )
    ok = copy.deepcopy(doc)
    ok["solution"][-1] = {"device": "toy_0", "action": "finish"}
    path.write_text(json.dumps(ok), encoding="utf-8")
    assert len(load_tasks(path)) == 1


def test_messages_echo_input_bounded(tmp_path: Path) -> None:
    huge = "k" * 100_000
    doc = toy_task(id=huge)
    doc["devices"].append({"id": "robot_0", "kind": huge})
    doc["setup"].append({"device": huge, "op": huge})
    doc["evaluation"]["conditions"][0]["check"] = huge
    doc["solution"].append({"device": "toy_0", "action": huge, "args": {huge: 1}})
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    message = _problems(path)
    assert "(100000 chars)" in message and "(100002 chars)" in message and len(message) < 5000


def test_many_problems_are_listed_on_one_screen(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("{bad\n" * 500, encoding="utf-8")
    with pytest.raises(TaskLoadError) as info:
        load_tasks(path)
    assert len(info.value.issues) == 500
    lines = str(info.value).splitlines()
    assert len(lines) == 22 and lines[-1] == "  ... and 480 more problem(s)"
