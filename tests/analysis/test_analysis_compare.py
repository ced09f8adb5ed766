from __future__ import annotations

import pytest

from devicesworld.analysis import compare_runs
from tests.analysis.dw_analysis_builders import ep


def test_paired_counts_and_mean_difference() -> None:
    a = [
        ep("t1", True, score=1.0),
        ep("t2", True, score=1.0),
        ep("t3", False, score=0.5),
        ep("t4", False, score=0.0),
        ep("only_a", True),
    ]
    b = [
        ep("t1", True, score=1.0),
        ep("t2", False, score=0.5),
        ep("t3", True, score=1.0),
        ep("t4", True, score=1.0),
        ep("only_b1", False),
        ep("only_b2", False),
    ]
    c = compare_runs(a, b, seed=0)
    assert c.n_shared == 4
    assert c.n_only_in_a == 1 and c.n_only_in_b == 2 and c.n_not_shared == 3
    assert (c.both_solve, c.only_a_solves, c.only_b_solves, c.neither_solves) == (1, 1, 2, 0)
    assert c.only_a_solves_ids == ["t2"]
    assert c.only_b_solves_ids == ["t3", "t4"]
    # success: A 2/4, B 3/4 on shared tasks -> +0.25
    assert c.success.a_mean == 0.5 and c.success.b_mean == 0.75
    assert c.success.mean_diff == pytest.approx(0.25)
    # score diffs: 0, -0.5, +0.5, +1.0 -> mean 0.25
    assert c.score.mean_diff == pytest.approx(0.25)
    assert c.score.ci95 is not None
    assert c.score.ci95[0] <= 0.25 <= c.score.ci95[1]


def test_paired_ci_is_narrow_for_consistent_improvement() -> None:
    # B solves every task A solves plus 20 more: the paired CI excludes zero even though
    # the two unpaired success rates (0.4 vs 0.6 over 100 tasks) have overlapping CIs.
    a = [ep(f"t{i}", i < 40) for i in range(100)]
    b = [ep(f"t{i}", i < 60) for i in range(100)]
    c = compare_runs(a, b, seed=0)
    assert c.success.mean_diff == pytest.approx(0.2)
    assert c.success.ci95 is not None
    lo, hi = c.success.ci95
    assert 0.0 < lo < 0.2 < hi
    assert c.only_a_solves == 0 and c.only_b_solves == 20
    assert c == compare_runs(a, b, seed=0)


def test_identical_runs_have_zero_difference() -> None:
    a = [ep(f"t{i}", i % 2 == 0, score=0.5 * (i % 3 == 0)) for i in range(30)]
    c = compare_runs(a, a)
    assert c.success.mean_diff == 0.0 and c.success.ci95 == (0.0, 0.0)
    assert c.score.ci95 == (0.0, 0.0)
    assert c.n_not_shared == 0


def test_no_shared_tasks() -> None:
    c = compare_runs([ep("a", True)], [ep("b", True)])
    assert c.n_shared == 0 and c.n_not_shared == 2
    assert c.success.mean_diff is None and c.success.ci95 is None
    assert c.neither_solves == 0
