"""The shared JSONL module: what it writes stays one line per record for every reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from devicesworld import jsonl
from devicesworld.analysis.loading import read_results
from devicesworld.analysis.trajectory import read_trajectory
from devicesworld.demos.model import Demonstration, read_demos, write_demos
from devicesworld.runner.resultsfile import append_result
from devicesworld.spec import Task
from devicesworld.spec.records import EpisodeResult, StepRecord
from devicesworld.tasks.loading import dump_tasks_jsonl, load_tasks
from tests.toykind import toy_task

BREAKS = "a\u2028b\u2029c\u0085d\x0be\x0cf\x1cg\x1dh\x1ei\rj"
"""Every character except \\n that str.splitlines treats as a line break."""


def test_every_splitlines_break_is_escaped_so_a_record_stays_one_line() -> None:
    text = jsonl.dumps_line({"v": BREAKS}, ensure_ascii=False)
    assert len(text.splitlines()) == 1 and text.endswith("\n")
    assert json.loads(text) == {"v": BREAKS}


def test_a_line_refuses_indented_json() -> None:
    with pytest.raises(ValueError, match="raw newlines"):
        jsonl.line('{\n "a": 1\n}')
    with pytest.raises(ValueError, match="indented"):
        jsonl.dumps_line({"a": 1}, indent=2)


def test_lines_are_split_on_newline_only_and_numbered() -> None:
    data = '{"a": "x\u2028y"}\n\n  \n[1]\n'.encode()
    assert [(n, jsonl.parse_line(raw)) for n, raw in jsonl.split_lines(data)] == [
        (1, {"a": "x\u2028y"}),
        (4, [1]),
    ]
    assert jsonl.last_line_number(data) == 4 and jsonl.last_line_number(b"\n\n") == 0


@pytest.mark.parametrize(
    ("raw", "reason"),
    [(b'{"a": NaN}', "NaN is not a JSON number"), (b'{"a": -Infinity}', "-Infinity"),
     (b'{"a": 1, "a": 2}', "duplicate key 'a'"), (b"\xff{}", "not UTF-8"),
     (b'\xef\xbb\xbf{"a": 1}', "byte order mark"), (b"[" * 100_000, "invalid JSON"),
     (b'{"a": ', "invalid JSON: Expecting value (column 7)")],
)  # fmt: skip
def test_strict_parsing_names_the_problem(raw: bytes, reason: str) -> None:
    with pytest.raises(jsonl.LineError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        jsonl.parse_line(raw, strict=True)


def test_lenient_parsing_still_reads_nan_and_repeated_keys() -> None:
    assert jsonl.parse_line(b'{"a": 1, "a": 2}') == {"a": 2}


def test_tasks_with_line_separators_in_values_load_back(tmp_path: Path) -> None:
    tasks = [Task.model_validate(toy_task(id=f"t{i}", instruction=f"Make it 3.{BREAKS}")) for i in range(3)]
    path = tmp_path / "tasks.jsonl"
    dump_tasks_jsonl(tasks, path)
    assert path.read_bytes().count(b"\n") == 3
    assert [t.instruction for t in load_tasks(path)] == [t.instruction for t in tasks]


def test_step_logs_with_line_separators_lose_no_step(tmp_path: Path) -> None:
    folder = tmp_path / "episodes" / "t"
    folder.mkdir(parents=True)
    steps = [StepRecord(step=i, action={"action": "x"}, ok=True, message=f"said {BREAKS}") for i in (1, 2)]
    lines = [jsonl.model_line(s) for s in steps]
    (folder / "steps.jsonl").write_text(lines[0] + "{torn\n" + '"a string"\n' + lines[1], encoding="utf-8")
    traj = read_trajectory(tmp_path, "t")
    assert [s.message for s in traj.steps] == [f"said {BREAKS}"] * 2
    assert traj.skipped_lines == 2
    assert traj.skipped[0].startswith("line 2: invalid JSON") and traj.skipped[1] == (
        "line 3: expected a JSON object, got str"
    )


def test_results_and_demonstrations_with_line_separators_read_back(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    for i in range(2):
        append_result(
            results,
            EpisodeResult(
                task_id=f"t{i}",
                success=False,
                score=0,
                steps=0,
                duration_s=0,
                termination="error",
                error=BREAKS,
            ),
        )
    read, warnings = read_results(results)
    assert [r.error for r in read] == [BREAKS, BREAKS] and warnings == []
    demos = tmp_path / "demos.jsonl"
    write_demos(demos, [Demonstration(task_id="t", instruction=BREAKS)])
    assert [d.instruction for d in read_demos(demos)] == [BREAKS]


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 100_000 + "1" + "}" * 100_000,
        "[" * (jsonl.MAX_BODY_DEPTH + 1) + "]" * (jsonl.MAX_BODY_DEPTH + 1),
        "{nope",
        b"\xff\xfe",
    ],
)
def test_parse_body_refuses_deep_and_bad_bodies_with_a_reason(body: str | bytes) -> None:
    with pytest.raises(jsonl.BodyError) as caught:
        jsonl.parse_body(body)
    assert "Recursion" not in str(caught.value) and len(str(caught.value)) < 200


def test_parse_body_accepts_ordinary_bodies_and_brackets_inside_strings() -> None:
    assert jsonl.parse_body(b'{"a": [1, {"b": "[[[[{{"}]}') == {"a": [1, {"b": "[[[[{{"}]}
    assert jsonl.parse_body("  ", empty={}) == {}
    ok = "[" * jsonl.MAX_BODY_DEPTH + "]" * jsonl.MAX_BODY_DEPTH
    assert jsonl.parse_body(ok) is not None
