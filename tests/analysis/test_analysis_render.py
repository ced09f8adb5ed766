from __future__ import annotations

import json

from rich.console import Console

from devicesworld.analysis import (
    compare_runs,
    comparison_to_json,
    compute_metrics,
    metrics_to_json,
    render_comparison,
    render_metrics,
)
from devicesworld.spec.records import EpisodeResult
from tests.analysis.dw_analysis_builders import cond, ep

REQUIRED_KEYS = {
    "n",
    "success_rate",
    "success_ci95",
    "mean_score",
    "avg_steps",
    "avg_duration_s",
    "budget_exhaustion_rate",
    "avg_tokens",
    "partial_progress_rate",
    "by_device_combo",
    "by_pattern",
    "by_difficulty",
}


def _results() -> list[EpisodeResult]:
    return [
        ep("t1", True, device_combo="android+linux", pattern="direct_transfer", difficulty="easy"),
        ep(
            "t2",
            False,
            score=0.5,
            termination="budget_exhausted",
            device_combo="smarthome",
            pattern="device_state_control",
            difficulty="hard",
            conditions=[cond("c1", True), cond("c2", False)],
            tokens_in=1200,
            tokens_out=300,
        ),
    ]


def test_json_has_required_keys_and_is_strict_json() -> None:
    doc = metrics_to_json(compute_metrics(_results()), run_config={"agent": "noop"}, warnings=["w"])
    assert doc.keys() >= REQUIRED_KEYS
    text = json.dumps(doc, allow_nan=False)
    back = json.loads(text)
    assert back["n"] == 2
    assert back["success_rate"] == 0.5
    assert isinstance(back["success_ci95"], list) and len(back["success_ci95"]) == 2
    assert back["budget_exhaustion_rate"] == 0.5
    assert back["partial_progress_rate"] == 1.0
    assert back["avg_tokens"] == 750.0
    assert back["by_difficulty"]["hard"]["n"] == 1
    assert back["run"] == {"agent": "noop"} and back["warnings"] == ["w"]


def test_empty_run_json_uses_null() -> None:
    doc = metrics_to_json(compute_metrics([]))
    assert doc.keys() >= REQUIRED_KEYS
    assert doc["success_rate"] is None and doc["success_ci95"] is None
    json.dumps(doc, allow_nan=False)


def test_render_metrics_prints_values_and_breakdowns() -> None:
    console = Console(record=True, width=160)
    render_metrics(compute_metrics(_results()), console)
    out = console.export_text()
    assert "Success rate" in out and "50.0%" in out
    assert "Budget exhaustion" in out
    assert "android+linux" in out and "device_state_control" in out and "hard" in out
    assert "Avg tokens / task" in out and "750" in out


def test_render_comparison_prints_difference_and_counts() -> None:
    a = [ep("t1", False), ep("t2", True), ep("x", True)]
    b = [ep("t1", True), ep("t2", True)]
    c = compare_runs(a, b)
    console = Console(record=True, width=160)
    render_comparison(c, console, a_label="noop", b_label="oracle")
    out = console.export_text()
    assert "+50.0 pp" in out
    assert "only oracle" in out and "1 task(s) not in both runs" in out
    assert comparison_to_json(c)["only_b_solves"] == 1
