"""A corpus of malformed task files, each given to ``tasks validate`` and ``run`` through the CLI.

Every case must end with a non-zero exit, a message that names the problem, no
traceback and output that fits on one screen. The corpus is generated here (not
stored) so each file is small to read and its fault is stated next to it.
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from tests.toykind import toy_task

MAX_OUTPUT_LINES = 30
MAX_OUTPUT_CHARS = 12_000


@dataclass(frozen=True)
class Case:
    name: str
    filename: str
    content: bytes | None
    """``None``: ``filename`` is a folder (made by ``folder``) or a missing path."""
    expect: str
    folder: Callable[[Path], None] | None = None


def _doc(change: Callable[[dict[str, Any]], Any] | None = None, **fields: Any) -> dict[str, Any]:
    doc = toy_task(**fields)
    if change is not None:
        change(doc)
    return doc


def _j(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def _jl(*docs: Any) -> bytes:
    return b"".join(json.dumps(d, ensure_ascii=False).encode("utf-8") + b"\n" for d in docs)


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"x": value}
    return value


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets the dotted ``path`` (list indices as numbers) to ``value``."""

    def change(doc: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = doc
        for key in parents:
            target = target[key] if not isinstance(key, str) or key in target else target.setdefault(key, {})
        target[last] = value

    return change


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = doc
        for key in parents:
            target = target[key]
        del target[last]

    return change


def _append(path: str, item: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in [int(p) if p.isdigit() else p for p in path.split(".")]:
            target = target[key]
        target.append(item)

    return change


def _gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def _corrupt_gz() -> bytes:
    data = bytearray(_gz(_jl(*[toy_task(id=f"t{i}") for i in range(30)])))
    data[25:70] = b"\xa5" * 45
    return bytes(data)


def _only_hidden_files(root: Path) -> None:
    (root / "_draft.json").write_bytes(_j(toy_task()))
    (root / "notes.txt").write_text("not a task", encoding="utf-8")


GOOD = toy_task()
HUGE = "h" * 200_000


def corpus() -> list[Case]:
    c: list[Case] = []

    def add(name: str, content: bytes, expect: str, filename: str = "t.jsonl") -> None:
        c.append(Case(name, filename, content, expect))

    # wrong types
    add("id-number", _jl(_doc(id=7)), "id: Input should be a valid string")
    add("instruction-list", _jl(_doc(instruction=["a"])), "instruction: Input should be a valid string")
    add("devices-object", _jl(_doc(devices={"id": "toy_0"})), "devices: Input should be a valid list")
    add("devices-empty", _jl(_doc(devices=[])), "devices: List should have at least 1 item")
    five = [{"id": f"toy_{i}", "kind": "toy"} for i in range(5)]
    add("devices-five", _jl(_doc(devices=five)), "devices: List should have at most 4 items")
    add(
        "conditions-empty",
        _jl(_doc(evaluation={"conditions": []})),
        "evaluation.conditions: List should have at least 1",
    )
    add(
        "scored-list",
        _jl(_doc(_set("evaluation.conditions.0.scored", [1]))),
        "scored: Input should be a valid boolean",
    )
    add(
        "max-steps-true",
        _jl(_doc(limits={"max_steps": True})),
        "limits.max_steps: expected a number, got true",
    )
    add("max-steps-string", _jl(_doc(limits={"max_steps": "50"})), "expected a number, got a string")
    add(
        "max-steps-zero",
        _jl(_doc(limits={"max_steps": 0})),
        "limits.max_steps: Input should be greater than or equal to 1",
    )
    add(
        "max-seconds-negative",
        _jl(_doc(limits={"max_seconds": -5})),
        "limits.max_seconds: Input should be greater than 0",
    )
    add(
        "arg-true-for-int",
        _jl(_doc(_set("setup.0.args.value", True))),
        "setup.0.args.value: expected a number, got true",
    )
    add(
        "arg-out-of-range",
        _jl(_doc(_set("setup.0.args.value", 11))),
        "setup.0.args.value: Input should be less than or equal to 10",
    )
    add(
        "check-arg-false",
        _jl(_doc(_set("evaluation.conditions.0.args.equals", False))),
        "expected a number, got false",
    )
    add("start-time-words", _jl(_doc(start_time="yesterday")), "start_time: Input should be a valid datetime")
    add(
        "difficulty-unknown",
        _jl(_doc(_set("metadata.difficulty", "impossible"))),
        "metadata.difficulty: Input should be",
    )
    add("schema-version-3", _jl(_doc(schema_version=3)), "schema_version: Input should be 1 or 2")
    add("setup-string", _jl(_doc(setup="set value 1")), "setup: Input should be a valid list")
    add(
        "step-args-list",
        _jl(_doc(_set("solution.0.args", [1]))),
        "solution.0.args: Input should be a valid dictionary",
    )
    # missing fields
    for field in ("id", "instruction", "devices", "evaluation"):
        add(f"missing-{field}", _jl(_doc(_delete(field))), f"{field}: Field required")
    add(
        "condition-no-check",
        _jl(_doc(_delete("evaluation.conditions.0.check"))),
        "evaluation.conditions.0.check: Field required",
    )
    add("op-no-op", _jl(_doc(_delete("setup.0.op"))), "setup.0.op: Field required")
    add("step-no-action", _jl(_doc(_delete("solution.0.action"))), "solution.0.action: Field required")
    # unknown kinds and names
    add(
        "kind-unknown",
        _jl(_doc(devices=[{"id": "fridge_0", "kind": "fridge"}])),
        "unknown device kind 'fridge'",
    )
    add("op-unknown", _jl(_doc(_set("setup.0.op", "paint"))), "'toy' has no setup op 'paint'")
    add(
        "check-unknown",
        _jl(_doc(_set("evaluation.conditions.0.check", "is_shiny"))),
        "'toy' has no check 'is_shiny'",
    )
    add("action-unknown", _jl(_doc(_set("solution.0.action", "fly"))), "'toy' has no action 'fly'")
    add("field-unknown", _jl(_doc(instructions="typo")), "instructions: unknown field")
    add("arg-unknown", _jl(_doc(_set("setup.0.args.colour", "red"))), "setup.0.args.colour: unknown field")
    # bad ids
    add(
        "device-id-pattern",
        _jl(_doc(devices=[{"id": "toy0", "kind": "toy"}])),
        "devices.0.id: String should match pattern",
    )
    add(
        "device-id-kind",
        _jl(_doc(devices=[{"id": "android_0", "kind": "toy"}])),
        "must be 'toy_<n>' for kind 'toy'",
    )
    add("task-id-pattern", _jl(_doc(id="bad id!")), "id: String should match pattern")
    add("task-id-line-separator", _jl(_doc(id="a\u2028b")), "id: String should match pattern")
    add("device-ids-duplicate", _jl(_doc(devices=[GOOD["devices"][0]] * 2)), "duplicate device ids: toy_0")
    add(
        "condition-ids-duplicate",
        _jl(_doc(_append("evaluation.conditions", GOOD["evaluation"]["conditions"][0]))),
        "duplicate condition id 'is3'",
    )
    add(
        "condition-device-undeclared",
        _jl(_doc(_set("evaluation.conditions.0.device", "toy_1"))),
        "device 'toy_1' is not one of the task's devices",
    )
    add(
        "op-device-undeclared",
        _jl(_doc(_set("setup.0.device", "toy_9"))),
        "setup.0.device: device 'toy_9' is not one",
    )
    add(
        "finish-device-undeclared",
        _jl(_doc(_set("solution.2.device", "android_31"))),
        "solution.2.device: device 'android_31' is not one",
    )
    add("task-ids-duplicate", _jl(GOOD, GOOD), "duplicate task id")
    add(
        "source-device-undeclared",
        _jl(_doc(_set("metadata.sources", [{"device": "linux_4", "value": "x"}]))),
        "metadata.sources name devices the task does not have: linux_4",
    )
    # deep nesting
    add(
        "nested-100k",
        b'{"id": ' + b"[" * 100_000,
        "task file nested deeper than 64 levels at line 1, column 71",
        "deep.json",
    )
    add(
        "nested-100k-jsonl",
        _jl(GOOD) + b"[" * 100_000,
        "t.jsonl:2 (json): task file nested deeper than 64 levels",
    )
    add(
        "args-nested-40",
        _jl(_doc(_set("setup.0.args.value", _nested(40)))),
        "setup.0.args: Value error, nested deeper than 32 levels",
    )
    add(
        "args-nested-300",
        _jl(_doc(_set("setup.0.args.value", _nested(300)))),
        "task file nested deeper than 64 levels",
    )
    add(
        "profile-nested-40",
        _jl(_doc(_set("devices.0.profile", {"p": _nested(40)}))),
        "devices.0.profile: Value error, nested deeper than 32 levels",
    )
    # huge strings
    add("instruction-3mb", _jl(_doc(instruction="x" * 3_000_000)), "is larger than 1 MB")
    add("kind-huge", _jl(_doc(devices=[{"id": "toy_0", "kind": HUGE}])), "unknown device kind 'hhhh")
    add("arg-key-huge", _jl(_doc(_set(f"setup.0.args.{HUGE}", 1))), "(200000 chars): unknown field")
    add("action-huge", _jl(_doc(_set("solution.0.action", HUGE))), "has no action 'hhhh")
    # bad UTF-8
    add(
        "utf8-invalid-jsonl",
        _jl(GOOD)[:-1] + b"\n" + b'{"id": "\xff\xfe"}\n',
        "t.jsonl:2 (json): not UTF-8 (invalid start byte",
    )
    add(
        "utf8-invalid-json",
        _j(GOOD).replace(b"Make", b"M\xc3ke"),
        "not UTF-8 (invalid continuation byte",
        "t.json",
    )
    add("latin1", _j(_doc(instruction="café")).replace("é".encode(), b"\xe9"), "not UTF-8", "t.json")
    # byte order marks
    add("bom-json", b"\xef\xbb\xbf" + _j(GOOD), "byte order mark", "t.json")
    add("bom-jsonl", b"\xef\xbb\xbf" + _jl(GOOD), "t.jsonl:1 (json): starts with a UTF-8 byte order mark")
    # NaN and infinities
    nan = _j(_doc(limits={"max_seconds": 1.5})).replace(b"1.5", b"NaN")
    add("nan", nan, "NaN is not a JSON number", "t.json")
    add("infinity", nan.replace(b"NaN", b"Infinity"), "Infinity is not a JSON number", "t.json")
    add(
        "minus-infinity-arg",
        _j(_doc(_set("setup.0.args.value", 1))).replace(b'"value": 1', b'"value": -Infinity'),
        "-Infinity is not a JSON number",
        "t.json",
    )
    add("number-overflow", nan.replace(b"NaN", b"1e400"), "number 1e400 is out of range", "t.json")
    add(
        "integer-5000-digits",
        nan.replace(b"NaN", b"1" * 5000),
        "invalid JSON: Exceeds the limit (4300 digits)",
        "t.json",
    )
    # duplicate keys
    add(
        "duplicate-id-key",
        _j(GOOD).replace(b'{"id": "toy-1"', b'{"id": "toy-1", "id": "toy-2"'),
        "duplicate key 'id' in one object",
        "t.json",
    )
    add(
        "duplicate-arg-key",
        _jl(GOOD).replace(b'{"value": 1}', b'{"value": 1, "value": 2}'),
        "duplicate key 'value'",
    )
    # U+2028 and friends
    add(
        "line-separator-as-whitespace",
        _jl(GOOD).replace(b'", "devices"', '",\u2028"devices"'.encode()),
        "invalid JSON: Expecting property name",
    )
    torn = _jl(_doc(instruction="one\u2028two")).decode().splitlines()
    add(
        "line-split-by-splitlines",
        "\n".join(torn).encode() + b"\n",
        "t.jsonl:1 (json): invalid JSON: Unterminated string",
    )
    add(
        "control-character-raw",
        _jl(_doc(instruction="a")).replace(b'"a"', b'"a\x01"'),
        "invalid JSON: Invalid control character",
    )
    # compressed files
    add(
        "gz-truncated",
        _gz(_jl(GOOD))[:25],
        "t.jsonl.gz (file): not a readable gzip file (Compressed file ended",
        "t.jsonl.gz",
    )
    add("gz-corrupt", _corrupt_gz(), "not a readable gzip file", "t.jsonl.gz")
    add("gz-not-gzip", _jl(GOOD), "not a readable gzip file (Not a gzipped file", "t.jsonl.gz")
    add("gz-empty-content", _gz(b""), "no tasks in t.jsonl.gz", "t.jsonl.gz")
    add("gz-bad-line", _gz(_jl(GOOD) + b"{oops\n"), "t.jsonl.gz:2 (json): invalid JSON", "t.jsonl.gz")
    # empty files
    add("empty-jsonl", b"", "t.jsonl (file): no tasks in t.jsonl")
    add("blank-jsonl", b"\n  \n\t\n", "t.jsonl (file): no tasks in t.jsonl")
    add("empty-json", b"", "t.json (file): no tasks in t.json", "t.json")
    add("empty-list-json", b"[]", "t.json (file): no tasks in t.json", "t.json")
    add("empty-object-json", b"{}", "id: Field required", "t.json")
    # truncated files
    add("truncated-jsonl", _jl(GOOD) + _jl(_doc(id="two"))[:40], "t.jsonl:2 (json): invalid JSON")
    add("truncated-json", _j(GOOD)[:-7], "invalid JSON: Unterminated string", "t.json")
    add("trailing-garbage", _jl(GOOD) + b"garbage\n", "t.jsonl:2 (json): invalid JSON: Expecting value")
    add(
        "jsonl-in-json-file", _jl(GOOD, _doc(id="b")), "invalid JSON: Extra data (line 2, column 1)", "t.json"
    )
    # wrong top-level types
    add("top-string", b'"a task"', "a task must be a JSON object, not str", "t.json")
    add("top-number", b"42", "a task must be a JSON object, not int", "t.json")
    add("top-null", b"null", "a task must be a JSON object, not NoneType", "t.json")
    add("list-of-numbers", b"[1, 2]", "a task must be a JSON object, not int", "t.json")
    add("jsonl-array-line", _jl(GOOD, [GOOD]), "t.jsonl:2 (root): a task must be a JSON object, not list")
    # paths
    add("many-bad-lines", b"{bad\n" * 5000, "... and 4980 more problem(s)")
    c.append(
        Case(
            "folder-without-tasks",
            "folder",
            None,
            "no .json, .jsonl or .jsonl.gz task files here",
            _only_hidden_files,
        )
    )
    c.append(Case("missing-path", "nowhere.jsonl", None, "no such file or folder"))
    return c  # fmt: skip


CORPUS = corpus()


def test_the_corpus_covers_at_least_59_files_with_distinct_names() -> None:
    names = [case.name for case in CORPUS]
    assert len(names) >= 59 and len(set(names)) == len(names)


def _materialise(case: Case, root: Path) -> Path:
    path = root / case.filename
    if case.folder is not None:
        path.mkdir()
        case.folder(path)
    elif case.content is not None:
        path.write_bytes(case.content)
    return path


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_a_malformed_file_gets_a_clear_bounded_message_from_validate_and_run(
    tmp_path: Path, case: Case
) -> None:
    path = _materialise(case, tmp_path)
    runner = CliRunner()
    out = tmp_path / "run"
    for args in (
        ["tasks", "validate", str(path)],
        ["run", "--tasks", str(path), "--agent", "oracle", "--out", str(out)],
    ):
        result = runner.invoke(main, args)
        text = result.output
        assert result.exit_code == 2, (args[0], result.exit_code, text[-2000:])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in text
        assert case.expect in text, text[:3000]
        assert len(text) <= MAX_OUTPUT_CHARS and len(text.splitlines()) <= MAX_OUTPUT_LINES, len(text)
    assert not out.exists()


def test_the_good_document_the_corpus_breaks_is_itself_valid(tmp_path: Path) -> None:
    path = tmp_path / "good.jsonl"
    path.write_bytes(_jl(copy.deepcopy(GOOD)))
    result = CliRunner().invoke(main, ["tasks", "validate", str(path)])
    assert result.exit_code == 0, result.output
