"""TSR and SSR, the JarvisGUI metrics for composite tasks (§5.1, Table 9).

A *composite* task is one whose conditions carry ``subtask`` labels (set by typed
composition, or by hand). A subtask *passes* when all its required conditions hold
(a subtask with no required condition: all its scored conditions).

- **TSR** (total task success rate) is the success rate over tasks; it is reported
  over all tasks and over the composite tasks alone.
- **SSR** (sub-task success rate, JarvisGUI eq. 3) is the mean over composite tasks of
  ``passed subtasks / subtasks``.
- The pooled subtask rate (Table 9's "composite subtask" column, e.g. 74/442) is
  ``all passed subtasks / all subtasks``.

Why resample by composite task: subtasks of one task share a trajectory and are not
independent; treating them as separate draws would make the interval too narrow. So
every CI here draws whole composite tasks with replacement (a cluster bootstrap),
and the pooled rate is recomputed as a ratio of sums in each replicate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from devicesworld.analysis.bootstrap import bootstrap_ci
from devicesworld.spec.records import ConditionRecord, EpisodeResult

CI = tuple[float, float]


class SubtaskMetrics(BaseModel):
    """TSR/SSR over the composite tasks of a run; rates are ``None`` without composite tasks."""

    model_config = ConfigDict(frozen=True)

    n_composite: int = Field(description="Tasks whose conditions carry subtask labels.")
    tsr_composite: float | None
    tsr_composite_ci95: CI | None
    ssr: float | None = Field(description="Mean per-task share of passed subtasks (JarvisGUI eq. 3).")
    ssr_ci95: CI | None
    subtasks_passed: int
    subtasks_total: int
    subtask_rate: float | None = Field(description="Pooled: all passed subtasks over all subtasks.")
    subtask_rate_ci95: CI | None


def subtask_outcomes(conditions: Sequence[ConditionRecord]) -> dict[str, bool]:
    """Per subtask label, whether the subtask passed; empty for a non-composite task."""
    groups: dict[str, list[ConditionRecord]] = {}
    for c in conditions:
        if c.subtask:
            groups.setdefault(c.subtask, []).append(c)
    out: dict[str, bool] = {}
    for name, members in groups.items():
        deciding = [c for c in members if c.required] or [c for c in members if c.scored] or members
        out[name] = all(c.passed for c in deciding)
    return out


def _ci(values: Sequence[float], seed: int) -> CI | None:
    if not values:
        return None
    lo, hi = bootstrap_ci(values, seed=seed)
    return None if math.isnan(lo) else (lo, hi)


def pooled_ratio_ci(
    passed: Sequence[int], total: Sequence[int], *, n_resamples: int = 2000, seed: int = 0
) -> CI | None:
    """Cluster-bootstrap CI of ``sum(passed) / sum(total)``, resampling clusters (tasks)."""
    p = np.asarray(passed, dtype=np.float64)
    t = np.asarray(total, dtype=np.float64)
    if p.size == 0 or t.sum() == 0:
        return None
    if p.size == 1:
        v = float(p[0] / t[0])
        return (v, v)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, p.size, size=(n_resamples, p.size))
    ratios = p[idx].sum(axis=1) / np.maximum(t[idx].sum(axis=1), 1.0)
    lo, hi = np.quantile(ratios, [0.025, 0.975])
    return (float(lo), float(hi))


def compute_subtask_metrics(results: Sequence[EpisodeResult], *, seed: int = 0) -> SubtaskMetrics:
    per_task = [(r, subtask_outcomes(r.conditions)) for r in results]
    composite = [(r, o) for r, o in per_task if o]
    success = [1.0 if r.success else 0.0 for r, _ in composite]
    ratios = [sum(o.values()) / len(o) for _, o in composite]
    passed = [sum(o.values()) for _, o in composite]
    total = [len(o) for _, o in composite]
    n_total = sum(total)
    return SubtaskMetrics(
        n_composite=len(composite),
        tsr_composite=float(np.mean(success)) if success else None,
        tsr_composite_ci95=_ci(success, seed),
        ssr=float(np.mean(ratios)) if ratios else None,
        ssr_ci95=_ci(ratios, seed),
        subtasks_passed=sum(passed),
        subtasks_total=n_total,
        subtask_rate=sum(passed) / n_total if n_total else None,
        subtask_rate_ci95=pooled_ratio_ci(passed, total, seed=seed),
    )
