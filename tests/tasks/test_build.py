from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.tasks.build import build_composed
from devicesworld.tasks.loading import load_tasks


def test_build_writes_valid_tasks_and_a_report(tmp_path: Path) -> None:
    out = tmp_path / "built"
    result = CliRunner().invoke(main, ["tasks", "build", "--out", str(out), "--seed", "5", "--count", "12"])
    assert result.exit_code == 0, result.output
    assert "built 12/12 tasks" in result.output
    tasks = load_tasks(out)
    assert len(tasks) == 12
    report = json.loads((out / "_build_report.json").read_text())
    assert report["built"] == 12 and report["attempts"] >= 12
    assert sum(report["rejected"].values()) == report["attempts"] - 12
    validated = CliRunner().invoke(main, ["tasks", "validate", str(out)])
    assert validated.exit_code == 0 and "12/12 tasks valid" in validated.output


def test_rebuild_from_seed_is_byte_identical(tmp_path: Path) -> None:
    runner = CliRunner()
    for name in ("a", "b"):
        runner.invoke(main, ["tasks", "build", "--out", str(tmp_path / name), "--seed", "9", "--count", "8"])
    assert (tmp_path / "a" / "tasks.jsonl").read_bytes() == (tmp_path / "b" / "tasks.jsonl").read_bytes()
    other, _ = build_composed(10, 8)
    assert [t.model_dump_json() for t in other] != [
        line for line in (tmp_path / "a" / "tasks.jsonl").read_text().splitlines()
    ]
