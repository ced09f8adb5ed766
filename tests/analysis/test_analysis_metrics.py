from __future__ import annotations

import pytest

from devicesworld.analysis import compute_metrics, has_partial_progress
from tests.analysis.dw_analysis_builders import cond, ep


def test_three_of_four_successes() -> None:
    results = [ep("t1", True), ep("t2", True), ep("t3", True), ep("t4", False)]
    m = compute_metrics(results)
    assert m.n == 4
    assert m.n_success == 3 and m.n_failed == 1
    assert m.success_rate == 0.75
    assert m.success_ci95 is not None
    lo, hi = m.success_ci95
    assert 0.0 <= lo <= 0.75 <= hi <= 1.0


def test_averages_and_rates() -> None:
    results = [
        ep("a", True, score=1.0, steps=10, duration_s=2.0, tokens_in=100, tokens_out=10),
        ep("b", False, score=0.5, steps=50, duration_s=6.0, termination="budget_exhausted", tokens_in=300),
        ep("c", False, score=0.0, steps=20, duration_s=4.0, termination="time_limit", tokens_out=30),
        ep("d", False, score=0.0, steps=0, duration_s=0.0, termination="error", error="boom"),
    ]
    m = compute_metrics(results)
    assert m.mean_score == pytest.approx(0.375)
    assert m.avg_steps == pytest.approx(20.0)
    assert m.avg_duration_s == pytest.approx(3.0)
    assert m.budget_exhaustion_rate == 0.25
    assert m.time_limit_rate == 0.25
    assert m.error_rate == 0.25
    assert m.avg_tokens_in == pytest.approx(100.0)
    assert m.avg_tokens_out == pytest.approx(10.0)
    assert m.avg_tokens == pytest.approx(110.0)
    assert m.termination_counts == {
        "finished": 1,
        "infeasible_reported": 0,
        "budget_exhausted": 1,
        "time_limit": 1,
        "error": 1,
    }
    assert m.failed_termination_counts["finished"] == 0
    assert m.failed_termination_counts["budget_exhausted"] == 1


def test_partial_progress_only_over_failed_runs() -> None:
    results = [
        # Successes with satisfied conditions must not count toward partial progress.
        ep("s1", True, conditions=[cond("c1", True)]),
        ep("s2", True, conditions=[cond("c1", True)]),
        # Failed with one satisfied scored condition: partial progress.
        ep("f1", False, score=0.5, conditions=[cond("c1", True), cond("c2", False)]),
        # Failed; the only satisfied condition is unscored: no partial progress.
        ep("f2", False, conditions=[cond("c1", True, scored=False), cond("c2", False)]),
        # Failed, nothing satisfied.
        ep("f3", False, conditions=[cond("c1", False)]),
        # Failed without condition records: falls back to score > 0.
        ep("f4", False, score=0.25),
    ]
    m = compute_metrics(results)
    assert m.n_failed == 4
    assert m.partial_progress_rate == pytest.approx(2 / 4)
    assert [has_partial_progress(r) for r in results[2:]] == [True, False, False, True]


def test_partial_progress_is_none_when_nothing_failed() -> None:
    m = compute_metrics([ep("a", True), ep("b", True)])
    assert m.partial_progress_rate is None
    assert m.success_ci95 == (1.0, 1.0)


def test_breakdowns_group_correctly() -> None:
    results = [
        ep("1", True, device_combo="android+linux", pattern="direct_transfer", difficulty="hard", steps=4),
        ep("2", False, device_combo="android+linux", pattern="direct_transfer", difficulty="easy", steps=8),
        ep("3", True, device_combo="smarthome", pattern="device_state_control", difficulty="easy", steps=2),
        ep("4", False, device_kinds=["android", "android", "linux"], pattern="", difficulty="medium"),
    ]
    m = compute_metrics(results)
    assert set(m.by_device_combo) == {"android+linux", "smarthome", "androidx2+linux"}
    combo = m.by_device_combo["android+linux"]
    assert combo.n == 2
    assert combo.success_rate == 0.5
    assert combo.avg_steps == pytest.approx(6.0)
    assert combo.mean_score == pytest.approx(0.5)
    assert m.by_device_combo["smarthome"].success_ci95 == (1.0, 1.0)
    assert m.by_pattern["direct_transfer"].n == 2
    assert m.by_pattern["unknown"].n == 1
    # Difficulty in its natural order, not alphabetical.
    assert list(m.by_difficulty) == ["easy", "medium", "hard"]
    assert m.by_difficulty["easy"].n == 2
    assert m.by_difficulty["easy"].success_rate == 0.5
    assert sum(g.n for g in m.by_pattern.values()) == m.n


def test_empty_run() -> None:
    m = compute_metrics([])
    assert m.n == 0
    assert m.success_rate is None and m.success_ci95 is None
    assert m.avg_tokens is None and m.partial_progress_rate is None
    assert m.by_pattern == {}


def test_seeded_metrics_are_reproducible_and_ci_contains_estimate() -> None:
    results = [ep(f"t{i}", i % 3 == 0, score=(i % 5) / 4) for i in range(60)]
    a = compute_metrics(results, seed=11)
    b = compute_metrics(results, seed=11)
    assert a == b
    assert a.seed == 11
    assert a.score_ci95 is not None and a.mean_score is not None
    assert a.score_ci95[0] < a.mean_score < a.score_ci95[1]


def test_results_are_split_by_desktop_profile_gui_first() -> None:
    results = [
        ep("1", True, desktop_profile="hybrid"),
        ep("2", False, desktop_profile="gui"),
        ep("3", True, desktop_profile="gui"),
        ep("4", True, desktop_profile="none"),
        ep("5", True),  # a run recorded before profiles
    ]
    m = compute_metrics(results)
    assert list(m.by_desktop_profile) == ["gui", "hybrid", "none", "unknown"]
    assert m.by_desktop_profile["gui"].n == 2 and m.by_desktop_profile["gui"].success_rate == 0.5
    assert m.by_desktop_profile["hybrid"].success_rate == 1.0
