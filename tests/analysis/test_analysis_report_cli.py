"""`devicesworld report` on a real smoke run with the random agent, and `view` argument errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main

METRIC_ROWS = [
    "Success rate (TSR)",
    "Mean score",
    "Avg steps",
    "Avg duration",
    "Budget exhaustion",
    "Partial progress (failed)",
    "Avg tokens / task",
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("report")
    runner = CliRunner()
    for agent in ("random", "oracle"):
        res = runner.invoke(main, ["run", "--suite", "smoke", "--agent", agent, "--out", str(base / agent)])
        assert res.exit_code == 0, res.output
    return base / "random", base / "oracle"


def test_report_shows_every_metric_with_ci_and_the_failure_table(runs: tuple[Path, Path]) -> None:
    res = CliRunner().invoke(main, ["report", str(runs[0])], terminal_width=200)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    for name in METRIC_ROWS:
        row = next(line for line in lines if name in line)
        assert row.count("[") >= 1, f"no CI on {name!r}: {row}"
    assert "Fig. 4: failed runs by termination mode" in res.output
    assert "Fig. 5a: budget exhausted" in res.output and "Fig. 5b: completion declared" in res.output
    for t in ("B1", "B2", "B3", "D1", "D2", "D3", "D4", "D5"):
        assert t in res.output
    assert "By app" in res.output


def test_report_json_has_cis_and_failures(runs: tuple[Path, Path]) -> None:
    res = CliRunner().invoke(main, ["report", str(runs[0]), "--json"])
    doc = json.loads(res.output)
    for key in (
        "success_ci95",
        "score_ci95",
        "avg_steps_ci95",
        "avg_duration_ci95",
        "budget_exhaustion_ci95",
        "avg_tokens_ci95",
    ):
        assert doc[key] is not None and len(doc[key]) == 2, key
    assert doc["tsr"] == doc["success_rate"] and "subtasks" in doc and "by_app" in doc
    f = doc["failures"]
    assert f["n_failed"] == doc["n_failed"] == len(doc["diagnoses"])
    assert sum(f["mode_counts"].values()) == f["n_failed"]
    assert {d["failure_type"] for d in doc["diagnoses"]} <= {"B1", "B2", "B3", "D1", "D2", "D3", "D4", "D5"}
    assert all(d["reason"] for d in doc["diagnoses"])


def test_several_runs_and_html(runs: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    res = CliRunner().invoke(main, ["report", *map(str, runs), "--json", "--html", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [r["n_success"] for r in doc["runs"]] == [0, 38]
    html = out.read_text()
    assert html.count("<svg") == 3 and "http" not in html.split("<body>")[1].replace(
        "http://www.w3.org/2000/svg", ""
    )
    assert "random" in html and "oracle" in html and "D4" in html


def test_compare_still_works(runs: tuple[Path, Path]) -> None:
    res = CliRunner().invoke(main, ["report", str(runs[0]), "--compare", str(runs[1]), "--json"])
    doc = json.loads(res.output)
    assert doc["compare"]["only_b_solves"] == 38


def test_view_of_a_missing_run_is_a_clear_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["view", str(tmp_path / "nope"), "--port", "0"])
    assert res.exit_code == 2 and "does not exist" in res.output and "Traceback" not in res.output
