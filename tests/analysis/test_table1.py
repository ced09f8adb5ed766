"""Table 1: valid episodes only, invalid rate, cost when priced, and the floors of the same task set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from devicesworld import cli
from devicesworld.analysis.loading import load_run
from devicesworld.analysis.table1 import Prices, floor_rows, table1_row
from devicesworld.cli import main


def _run(folder: Path, agent: str, lines: list[dict[str, Any]], manifest: str = "sha256:m1") -> Path:
    folder.mkdir(parents=True)
    base = {"score": 0.0, "steps": 2, "duration_s": 1.0, "termination": "finished", "agent": agent}
    text = "".join(json.dumps(base | {"manifest": manifest} | line) + "\n" for line in lines)
    (folder / "results.jsonl").write_text(text)
    config = {"config": {"agent": agent, "selection": {"manifest": "test-v2.1", "manifest_hash": manifest}}}
    (folder / "run.json").write_text(json.dumps(config))
    return folder


def test_invalid_episodes_are_left_out_of_success_and_counted_apart(tmp_path: Path) -> None:
    run = _run(
        tmp_path / "a",
        "llm",
        [
            {"task_id": "t1", "success": True, "score": 1.0, "tokens_in": 1000, "tokens_out": 100},
            {"task_id": "t2", "success": False, "termination": "budget_exhausted", "tokens_in": 3000},
            {"task_id": "t3", "success": False, "valid": False},
        ],
    )
    row = table1_row("llm", load_run(run), prices=Prices(input=2.0, output=10.0))
    assert row.episodes == 3 and row.valid == 2
    assert row.success_rate == 0.5 and row.mean_score == 0.5 and row.budget_exhaustion_rate == 0.5
    assert row.invalid_rate == 1 / 3
    assert row.avg_tokens == 2050
    assert row.cost_per_task_usd is not None
    assert abs(row.cost_per_task_usd - (1000 * 2 + 100 * 10 + 3000 * 2) / 2e6) < 1e-12
    assert table1_row("llm", load_run(run)).cost_per_task_usd is None


def test_floors_of_another_task_set_are_left_out_and_said_so(tmp_path: Path) -> None:
    same = load_run(_run(tmp_path / "noop", "noop", [{"task_id": "t1", "success": False}]))
    other = load_run(
        _run(tmp_path / "rnd", "random", [{"task_id": "t1", "success": False}], manifest="sha256:m2")
    )
    main_set = table1_row("x", same).task_set
    rows, notes = floor_rows([other, same], {main_set})
    assert [r.label for r in rows] == ["floor: noop"] and rows[0].floor
    assert len(notes) == 1 and "left out of the floors" in notes[0]


def test_report_shows_table1_with_floors_and_cost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the CLI's console is made at import; another test may have fixed its width at 80 columns
    monkeypatch.setattr(cli.console, "_width", 200)
    run = _run(tmp_path / "llm", "llm", [{"task_id": "t1", "success": True, "score": 1.0, "tokens_in": 500}])
    noop = _run(tmp_path / "noop", "noop", [{"task_id": "t1", "success": False}])
    first = _run(tmp_path / "fm", "first-match", [{"task_id": "t1", "success": False}])
    args = [
        "report",
        str(run),
        "--floors",
        str(first),
        "--floors",
        str(noop),
        "--price-in",
        "1",
        "--price-out",
        "4",
    ]
    out = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "Table 1" in out.output and "Cost/task" in out.output
    assert out.output.index("floor: noop") < out.output.index("floor: first-match")
    doc = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert [r["label"] for r in doc["table1"]] == ["llm", "floor: noop", "floor: first-match"]
    half = CliRunner().invoke(main, ["report", str(run), "--price-in", "1"])
    assert half.exit_code != 0 and "both --price-in and --price-out" in half.output


def test_a_floor_of_part_of_a_manifest_is_not_taken_for_the_whole(tmp_path: Path) -> None:
    whole = load_run(
        _run(tmp_path / "all", "noop", [{"task_id": f"t{i}", "success": False} for i in range(3)])
    )
    part = _run(tmp_path / "part", "random", [{"task_id": "t1", "success": False}])
    config = json.loads((part / "run.json").read_text())
    config["config"]["selection"]["task_ids"] = ["t1"]
    (part / "run.json").write_text(json.dumps(config))
    part_set = table1_row("r", load_run(part)).task_set
    assert part_set.startswith("test-v2.1 (sha256:m1") and "subset of 1 tasks #" in part_set
    rows, notes = floor_rows([load_run(part)], {table1_row("n", whole).task_set})
    assert rows == [] and "subset of 1 tasks" in notes[0]
    assert floor_rows([load_run(part)], {part_set})[0][0].label == "floor: random"
