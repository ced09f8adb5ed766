"""Repeated trials (``run --trials k``): pass@1, pass@k, pass^k and the flip rate.

Why: one run of a stochastic agent is one draw; peers report pass@k (solved at least once in k
tries), pass^k (solved every time) and how many tasks flip between trials. The environment
here is deterministic (every trial starts from the same reset), so a flip is the agent's own
variance, never the machine's. With ``n`` trials of a task of which ``c`` succeeded, the
unbiased estimators are ``pass@k = 1 - C(n-c, k) / C(n, k)`` and ``pass^k = C(c, k) / C(n, k)``
(for ``n == k`` they are "any" and "all"); a task flips when ``0 < c < n``. Suite figures are
means over tasks with seeded percentile bootstrap CIs over tasks.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.analysis.bootstrap import bootstrap_ci
from devicesworld.spec.records import EpisodeResult

CI = tuple[float, float]


class TaskTrials(BaseModel):
    model_config = ConfigDict(frozen=True)

    task_id: str
    n: int = Field(description="Trials run.")
    c: int = Field(description="Trials that succeeded.")
    pass_at_1: float
    pass_at_k: float
    pass_hat_k: float
    flipped: bool


class TrialMetrics(BaseModel):
    """Suite-level figures over tasks (each task weighs the same, whatever its trials)."""

    model_config = ConfigDict(frozen=True)

    k: int = Field(description="The k of pass@k and pass^k: the fewest trials any task has.")
    n_tasks: int
    pass_at_1: float
    pass_at_1_ci95: CI
    pass_at_k: float
    pass_at_k_ci95: CI
    pass_hat_k: float
    pass_hat_k_ci95: CI
    flip_rate: float = Field(description="Share of tasks whose outcome differs between trials.")
    flip_rate_ci95: CI
    tasks: list[TaskTrials]
    seed: int


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k: the chance that at least one of k trials drawn from the n succeeds."""
    if k > n:
        raise ValueError(f"k={k} exceeds the {n} trial(s) run")
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased pass^k: the chance that all k trials drawn from the n succeed."""
    if k > n:
        raise ValueError(f"k={k} exceeds the {n} trial(s) run")
    return comb(c, k) / comb(n, k)


def compute_trials(
    results: Sequence[EpisodeResult], *, seed: int = 0, k: int | None = None
) -> TrialMetrics | None:
    """The trial metrics of a run, or None when no task ran more than once."""
    by_task: dict[str, list[bool]] = {}
    for r in results:
        by_task.setdefault(r.task_id, []).append(r.success)
    if not by_task or max(len(v) for v in by_task.values()) < 2:
        return None
    k = k or min(len(v) for v in by_task.values())
    rows = [
        TaskTrials(
            task_id=task_id,
            n=len(outcomes),
            c=sum(outcomes),
            pass_at_1=sum(outcomes) / len(outcomes),
            pass_at_k=pass_at_k(len(outcomes), sum(outcomes), k),
            pass_hat_k=pass_hat_k(len(outcomes), sum(outcomes), k),
            flipped=0 < sum(outcomes) < len(outcomes),
        )
        for task_id, outcomes in by_task.items()
    ]

    columns = {
        "pass_at_1": [t.pass_at_1 for t in rows],
        "pass_at_k": [t.pass_at_k for t in rows],
        "pass_hat_k": [t.pass_hat_k for t in rows],
        "flip_rate": [1.0 if t.flipped else 0.0 for t in rows],
    }
    figures: dict[str, Any] = {}  # each figure and its ``<name>_ci95``
    for name, values in columns.items():
        lo, hi = bootstrap_ci(values, seed=seed)
        figures[name], figures[f"{name}_ci95"] = sum(values) / len(values), (float(lo), float(hi))
    return TrialMetrics(k=k, n_tasks=len(rows), tasks=rows, seed=seed, **figures)
