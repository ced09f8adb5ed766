"""Paired comparison of two runs on the tasks they share.

Why paired: two agents evaluated on the same tasks are correlated through task
difficulty; comparing per-task differences removes that shared variance, so a
paired interval is much narrower than two independent intervals would suggest,
and a difference is reported only for tasks both runs attempted.

The paired bootstrap resamples task indices jointly for A and B. For the mean
difference this is the same as bootstrapping the vector of per-task
differences, which is what :func:`compare_runs` does. Differences are B - A,
positive when run B is better.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from devicesworld.analysis.bootstrap import bootstrap_ci
from devicesworld.spec.records import EpisodeResult

CI = tuple[float, float]


class PairedDiff(BaseModel):
    """Mean of per-task differences (B - A) with its paired bootstrap CI."""

    model_config = ConfigDict(frozen=True)

    a_mean: float | None
    b_mean: float | None
    mean_diff: float | None
    ci95: CI | None


class RunComparison(BaseModel):
    """How run B differs from run A on their shared tasks."""

    model_config = ConfigDict(frozen=True)

    n_shared: int = Field(description="Tasks present in both runs; all statistics below use only these.")
    n_only_in_a: int = Field(description="Tasks in run A but not in run B (excluded).")
    n_only_in_b: int = Field(description="Tasks in run B but not in run A (excluded).")
    n_not_shared: int
    success: PairedDiff
    score: PairedDiff
    only_a_solves: int
    only_b_solves: int
    both_solve: int
    neither_solves: int
    only_a_solves_ids: list[str] = Field(default_factory=list)
    only_b_solves_ids: list[str] = Field(default_factory=list)
    seed: int


def _by_task(results: Sequence[EpisodeResult]) -> dict[str, EpisodeResult]:
    """Index by task id; a later record of the same task replaces an earlier one."""
    return {r.task_id: r for r in results}


def _paired(a: list[float], b: list[float], seed: int) -> PairedDiff:
    if not a:
        return PairedDiff(a_mean=None, b_mean=None, mean_diff=None, ci95=None)
    diffs = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    lo, hi = bootstrap_ci(diffs, seed=seed)
    ci = None if math.isnan(lo) else (lo, hi)
    return PairedDiff(
        a_mean=float(np.mean(a)), b_mean=float(np.mean(b)), mean_diff=float(np.mean(diffs)), ci95=ci
    )


def compare_runs(
    a_results: Sequence[EpisodeResult], b_results: Sequence[EpisodeResult], *, seed: int = 0
) -> RunComparison:
    """Compare run B against run A on the tasks both contain (differences are B - A)."""
    a_by, b_by = _by_task(a_results), _by_task(b_results)
    shared = sorted(a_by.keys() & b_by.keys())
    a_succ = [1.0 if a_by[t].success else 0.0 for t in shared]
    b_succ = [1.0 if b_by[t].success else 0.0 for t in shared]
    only_a = [t for t in shared if a_by[t].success and not b_by[t].success]
    only_b = [t for t in shared if b_by[t].success and not a_by[t].success]
    both = sum(1 for t in shared if a_by[t].success and b_by[t].success)
    n_only_in_a = len(a_by.keys() - b_by.keys())
    n_only_in_b = len(b_by.keys() - a_by.keys())
    return RunComparison(
        n_shared=len(shared),
        n_only_in_a=n_only_in_a,
        n_only_in_b=n_only_in_b,
        n_not_shared=n_only_in_a + n_only_in_b,
        success=_paired(a_succ, b_succ, seed),
        score=_paired([a_by[t].score for t in shared], [b_by[t].score for t in shared], seed),
        only_a_solves=len(only_a),
        only_b_solves=len(only_b),
        both_solve=both,
        neither_solves=len(shared) - len(only_a) - len(only_b) - both,
        only_a_solves_ids=only_a,
        only_b_solves_ids=only_b,
        seed=seed,
    )
