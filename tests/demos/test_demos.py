"""Demonstration files: the oracle's and a person's sessions, written and read back with their schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from devicesworld.demos import read_demos, write_demos
from devicesworld.demos.model import DemoError
from devicesworld.demos.oracle import main as oracle_main
from devicesworld.demos.oracle import oracle_demo
from devicesworld.runner.play import play_task
from devicesworld.tasks.suites import load_suite


def _task(task_id: str):  # type: ignore[no-untyped-def]
    return next(t for t in load_suite("bmoca") if t.id == task_id)


def test_oracle_demo_records_each_step_and_success(tmp_path: Path) -> None:
    demo = oracle_demo(_task("bmoca-call911"), profile="test_03")
    assert demo.success and demo.source == "oracle" and demo.profile == "test_03"
    first = demo.steps[0]
    assert first.action["action"] == "open_app" and first.result.ok
    assert "android_0" in first.observation and first.observation["android_0"].screen_text
    taps = [s for s in demo.steps if s.action["action"] == "click"]
    assert taps and all(s.observation["android_0"].elements for s in taps)
    path = tmp_path / "d.jsonl"
    write_demos(path, [demo, demo])
    back = read_demos(path)
    assert len(back) == 2 and back[0] == demo
    assert json.loads(path.read_text().splitlines()[0])["schema_version"] == 1


def test_oracle_cli_makes_a_dataset_on_split_presets(tmp_path: Path) -> None:
    out = tmp_path / "set.jsonl"
    rc = oracle_main(["--tasks", "bmoca-open-clock,bmoca-airplane-on", "--split", "train", "--per-task", "2",
                      "--out", str(out)])  # fmt: skip
    demos = read_demos(out)
    assert rc == 0 and len(demos) == 4 and all(d.success for d in demos)
    assert all(isinstance(d.profile, str) and d.profile.startswith("train_") for d in demos)
    assert oracle_main(["--tasks", "no-such-task", "--out", str(out)]) == 2


def test_play_records_a_session(tmp_path: Path) -> None:
    out = tmp_path / "play.jsonl"
    moves = '\n'.join([
        'android_0 open_app {"app_name": "Clock"}',
        "android_0 no_such_action {}",
        "finish",
    ]) + "\n"  # fmt: skip
    console = Console(file=io.StringIO(), width=120)
    play_task(_task("bmoca-open-clock"), console, io.StringIO(moves), record=out)
    (demo,) = read_demos(out)
    assert demo.source == "play" and demo.task_id == "bmoca-open-clock" and demo.success is True
    assert [s.action["action"] for s in demo.steps] == ["open_app", "no_such_action", "finish"]
    assert [s.result.ok for s in demo.steps] == [True, False, True]
    assert "recorded 3 steps" in console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json\n", "invalid JSON"), ('{"schema_version": 9}\n', "schema_version 9"),
     ('{"schema_version": 1, "task_id": "x"}\n', "not a demonstration")],
)  # fmt: skip
def test_bad_files_get_a_clear_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(DemoError, match=message):
        read_demos(path)
    with pytest.raises(DemoError, match="no demonstration file"):
        read_demos(tmp_path / "missing.jsonl")
