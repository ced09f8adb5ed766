"""TSR/SSR over composite tasks (conditions with subtask labels), resampled by task."""

from __future__ import annotations

import pytest

from devicesworld.analysis import compute_metrics
from devicesworld.analysis.ssr import compute_subtask_metrics, pooled_ratio_ci, subtask_outcomes
from devicesworld.spec.records import ConditionRecord
from tests.analysis.dw_analysis_builders import ep


def c(cid: str, passed: bool, subtask: str | None, **kw: object) -> ConditionRecord:
    return ConditionRecord(id=cid, device="linux_0", passed=passed, detail="", subtask=subtask, **kw)


def test_subtask_passes_when_all_required_conditions_hold() -> None:
    out = subtask_outcomes(
        [
            c("a1", True, "A"),
            c("a2", False, "A", required=False),
            c("b1", True, "B"),
            c("b2", False, "B"),
            c("x", False, None),
        ]
    )
    assert out == {"A": True, "B": False}


def test_tsr_ssr_and_pooled_rate() -> None:
    results = [
        ep("t1", True, conditions=[c("a", True, "A"), c("b", True, "B")]),
        ep(
            "t2",
            False,
            conditions=[c("a", True, "A"), c("b", False, "B"), c("d", False, "C"), c("e", True, "D")],
        ),
        ep("atomic", True, conditions=[c("a", True, None)]),
    ]
    m = compute_subtask_metrics(results)
    assert m.n_composite == 2 and m.tsr_composite == 0.5
    assert m.ssr == pytest.approx((1.0 + 0.5) / 2)
    assert (m.subtasks_passed, m.subtasks_total) == (4, 6) and m.subtask_rate == pytest.approx(4 / 6)
    assert m.ssr_ci95 is not None and m.ssr is not None and m.ssr_ci95[0] <= m.ssr <= m.ssr_ci95[1]
    full = compute_metrics(results)
    assert full.subtasks == m and full.tsr == pytest.approx(2 / 3)


def test_no_composite_tasks() -> None:
    m = compute_subtask_metrics([ep("t", True)])
    assert m.n_composite == 0 and m.ssr is None and m.ssr_ci95 is None and m.subtask_rate_ci95 is None


def test_pooled_ci_resamples_whole_tasks() -> None:
    # Two tasks: one with 9/9 subtasks, one with 0/1. Resampling subtasks independently would
    # give a narrow interval around 0.9; resampling tasks spans from 0 to 1.
    lo, hi = pooled_ratio_ci([9, 0], [9, 1], seed=1) or (0.0, 0.0)
    assert lo == 0.0 and hi == 1.0
    assert pooled_ratio_ci([], []) is None


def test_by_app_counts_a_task_in_each_app() -> None:
    m = compute_metrics(
        [ep("t1", True, apps=["calendar", "files"]), ep("t2", False, apps=["files"]), ep("t3", False)]
    )
    assert {k: g.n for k, g in m.by_app.items()} == {"calendar": 1, "files": 2, "unknown": 1}
    assert m.by_app["files"].success_rate == 0.5
