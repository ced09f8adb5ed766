"""Run-level metrics of a DevicesWorld run, as defined in the paper (§4.1-4.2).

Why one function over ``EpisodeResult`` records: the report, the ``run`` summary
table, the dashboard and comparisons must all agree on what "success rate" or
"budget exhaustion" means, so the definitions live here once:

* success rate: share of tasks whose required conditions all held (``success``);
* mean score: mean of the per-task score (fraction of scored conditions held);
* budget exhaustion / time limit / error rate: share of *all* tasks whose
  ``termination`` is ``budget_exhausted`` / ``time_limit`` / ``error``;
* average tokens: mean of ``tokens_in + tokens_out`` per task;
* partial progress rate: among *failed* tasks, the share with at least one
  satisfied scored condition (for a record without conditions, ``score > 0``).

Every metric is over *valid* episodes only: an episode whose environment failed (a device
that could not start or answer, a missing system tool, a sandbox crash, a cleanup failure;
``valid`` false in its result line) is neither a success nor a failure. Invalid episodes are
counted apart, by the class of their cause (``invalid_by_cause``), and shown first in every
report, so a machine that lacks the desktop stack cannot pass for a weak agent.

Rates are in 0..1. Success and score carry seeded percentile bootstrap CIs over
tasks. An empty run gives ``n == 0`` and ``None`` for every average and rate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from devicesworld.analysis.bootstrap import bootstrap_ci
from devicesworld.analysis.ssr import SubtaskMetrics, compute_subtask_metrics
from devicesworld.spec.actions import Termination
from devicesworld.spec.records import EpisodeResult

PROFILE_ORDER = ("gui", "hybrid", "api", "none")
TIER_ORDER = ("standard", "long")
"""How the desktop profiles are listed (``devicesworld.tasks.profiles`` gives each result its label)."""

UNKNOWN_GROUP = "unknown"
"""Group label for records that lack the breakdown field (e.g. written by an older runner)."""

TERMINATIONS: tuple[str, ...] = get_args(Termination)
DIFFICULTY_ORDER: tuple[str, ...] = ("easy", "medium", "hard", "expert")

CI = tuple[float, float]


class GroupMetrics(BaseModel):
    """Metrics of one breakdown group (one device combination, pattern or difficulty)."""

    model_config = ConfigDict(frozen=True)

    n: int
    success_rate: float
    success_ci95: CI
    mean_score: float
    avg_steps: float


class RunMetrics(BaseModel):
    """Aggregate metrics of one run; averages and rates are ``None`` when ``n == 0``."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(description="Number of valid episodes in the run (what every other metric is over).")
    n_episodes: int = Field(default=0, description="Every episode of the run, valid or not.")
    n_invalid: int = Field(default=0, description="Episodes whose environment failed (not scored).")
    invalid_rate: float | None = Field(default=None, description="n_invalid over n_episodes.")
    invalid_by_cause: dict[str, int] = Field(
        default_factory=dict,
        description="Invalid episodes per cause class (device_failed, setup_failed, ...).",
    )
    n_success: int
    n_failed: int
    success_rate: float | None
    success_ci95: CI | None
    mean_score: float | None
    score_ci95: CI | None
    avg_steps: float | None
    avg_steps_ci95: CI | None = None
    avg_duration_s: float | None
    avg_duration_ci95: CI | None = None
    budget_exhaustion_rate: float | None = Field(description="Share of all tasks ending budget_exhausted.")
    budget_exhaustion_ci95: CI | None = None
    time_limit_rate: float | None
    time_limit_ci95: CI | None = None
    error_rate: float | None
    error_ci95: CI | None = None
    avg_tokens: float | None = Field(description="Mean of tokens_in + tokens_out per task.")
    avg_tokens_ci95: CI | None = None
    avg_tokens_in: float | None
    avg_tokens_out: float | None
    partial_progress_rate: float | None = Field(
        description="Among failed tasks, the share with at least one satisfied scored condition; "
        "None when no task failed."
    )
    partial_progress_ci95: CI | None = Field(default=None, description="Resampled over failed tasks.")
    tsr: float | None = Field(default=None, description="Total task success rate (= success_rate).")
    tsr_ci95: CI | None = None
    subtasks: SubtaskMetrics | None = Field(default=None, description="TSR/SSR over composite tasks.")
    termination_counts: dict[str, int] = Field(description="Tasks per termination, all kinds listed.")
    failed_termination_counts: dict[str, int] = Field(
        description="Failed tasks per termination (how failures end, paper §4.3.1)."
    )
    by_device_combo: dict[str, GroupMetrics]
    by_desktop_profile: dict[str, GroupMetrics] = Field(
        default_factory=dict,
        description="gui / hybrid / api / none: GUI-only desktops are never pooled with hybrid ones.",
    )
    by_pattern: dict[str, GroupMetrics]
    by_difficulty: dict[str, GroupMetrics]
    by_tier: dict[str, GroupMetrics] = Field(
        default_factory=dict, description="standard / long (issue #34): long tasks are reported apart."
    )
    by_app: dict[str, GroupMetrics] = Field(
        default_factory=dict, description="A task touching several apps counts in each of them."
    )
    seed: int = Field(description="Seed of the bootstrap CIs, so a report can be reproduced.")

    def breakdowns(self) -> list[tuple[str, dict[str, GroupMetrics]]]:
        """The breakdown tables every report shows (terminal and HTML), titled, in their order."""
        return [
            ("By device combination", self.by_device_combo),
            ("By desktop profile", self.by_desktop_profile),
            ("By pattern", self.by_pattern),
            ("By difficulty", self.by_difficulty),
            ("By tier", self.by_tier),
            ("By app", self.by_app),
        ]


def is_valid(result: EpisodeResult) -> bool:
    """The episode counts: its environment held (lines written before validity existed count)."""
    return bool(getattr(result, "valid", True))


def cause_class(result: EpisodeResult) -> str:
    """The class of an invalid episode's cause: the text before the first colon
    (``device_failed: DESKTOP_FAILED: ...`` -> ``device_failed``)."""
    cause = (result.invalid_cause or "").strip()
    return cause.split(":", 1)[0].strip() or "unknown"


def invalid_counts(results: Sequence[EpisodeResult]) -> dict[str, int]:
    """Invalid episodes per cause class, most frequent first."""
    counts: dict[str, int] = {}
    for r in results:
        if not is_valid(r):
            counts[cause_class(r)] = counts.get(cause_class(r), 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def invalid_line(results: Sequence[EpisodeResult]) -> str:
    """The first line of every report: how many episodes are invalid, and why."""
    total = len(results)
    counts = invalid_counts(results)
    n = sum(counts.values())
    share = f"{100.0 * n / total:.1f}%" if total else "-"
    line = f"Invalid episodes: {n}/{total} ({share})"
    if counts:
        line += ": " + ", ".join(f"{cause} {count}" for cause, count in counts.items())
        line += " (environment failures, not scored; rerun them with --resume --retry-errors)"
    return line


def has_partial_progress(result: EpisodeResult) -> bool:
    """True when at least one scored condition of the episode held.

    Records without conditions (e.g. an episode that crashed before evaluation
    but was still scored) fall back to ``score > 0``.
    """
    if result.conditions:
        return any(c.passed and c.scored for c in result.conditions)
    return result.score > 0.0


def device_combo_of(result: EpisodeResult) -> str:
    """The record's ``device_combo``, else one derived from ``device_kinds`` as the task spec does."""
    if result.device_combo:
        return result.device_combo
    if result.device_kinds:
        counts: dict[str, int] = {}
        for kind in result.device_kinds:
            counts[kind] = counts.get(kind, 0) + 1
        return "+".join(k if c == 1 else f"{k}x{c}" for k, c in sorted(counts.items()))
    return UNKNOWN_GROUP


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _ci(values: Sequence[float], seed: int) -> CI | None:
    if not values:
        return None
    lo, hi = bootstrap_ci(values, seed=seed)
    return (lo, hi) if not (math.isnan(lo) or math.isnan(hi)) else None


def _group_sort_key(order: Sequence[str]) -> Callable[[str], tuple[int, str]]:
    rank = {name: i for i, name in enumerate(order)}
    return lambda key: (rank.get(key, len(rank)), key)


def group_metrics(
    results: Sequence[EpisodeResult],
    key: Callable[[EpisodeResult], str | Sequence[str]],
    *,
    seed: int = 0,
    order: Sequence[str] = (),
) -> dict[str, GroupMetrics]:
    """Split ``results`` by ``key`` and compute ``GroupMetrics`` per group.

    ``key`` returns one label, or several (a task touching two apps is in both groups).
    Groups are ordered by ``order`` first (e.g. difficulty levels), then by name.
    Empty keys become ``"unknown"``.
    """
    groups: dict[str, list[EpisodeResult]] = {}
    for r in results:
        labels = key(r)
        for label in [labels] if isinstance(labels, str) else list(labels) or [""]:
            groups.setdefault(label or UNKNOWN_GROUP, []).append(r)
    out: dict[str, GroupMetrics] = {}
    for name in sorted(groups, key=_group_sort_key(order)):
        members = groups[name]
        success = [1.0 if r.success else 0.0 for r in members]
        lo, hi = bootstrap_ci(success, seed=seed)
        out[name] = GroupMetrics(
            n=len(members),
            success_rate=float(np.mean(success)),
            success_ci95=(lo, hi),
            mean_score=float(np.mean([r.score for r in members])),
            avg_steps=float(np.mean([r.steps for r in members])),
        )
    return out


def compute_metrics(results: Sequence[EpisodeResult], *, seed: int = 0) -> RunMetrics:
    """Compute ``RunMetrics`` over the valid ones of ``results`` (one record per episode; see
    ``load_results``); the invalid ones are only counted, by cause."""
    every = results
    results = [r for r in every if is_valid(r)]
    invalid = invalid_counts(every)
    n = len(results)
    success = [1.0 if r.success else 0.0 for r in results]
    scores = [r.score for r in results]
    failed = [r for r in results if not r.success]

    termination_counts = dict.fromkeys(TERMINATIONS, 0)
    failed_termination_counts = dict.fromkeys(TERMINATIONS, 0)
    for r in results:
        termination_counts[r.termination] = termination_counts.get(r.termination, 0) + 1
        if not r.success:
            failed_termination_counts[r.termination] = failed_termination_counts.get(r.termination, 0) + 1

    def flags(pred: Callable[[EpisodeResult], bool], pool: Sequence[EpisodeResult]) -> list[float]:
        return [1.0 if pred(r) else 0.0 for r in pool]

    steps = [float(r.steps) for r in results]
    durations = [r.duration_s for r in results]
    tokens = [float(r.tokens_in + r.tokens_out) for r in results]
    budget = flags(lambda r: r.termination == "budget_exhausted", results)
    time_limit = flags(lambda r: r.termination == "time_limit", results)
    errors = flags(lambda r: r.termination == "error", results)
    partial = flags(has_partial_progress, failed)
    return RunMetrics(
        n=n,
        n_episodes=len(every),
        n_invalid=len(every) - n,
        invalid_rate=(len(every) - n) / len(every) if every else None,
        invalid_by_cause=invalid,
        n_success=n - len(failed),
        n_failed=len(failed),
        success_rate=_mean(success),
        success_ci95=_ci(success, seed),
        mean_score=_mean(scores),
        score_ci95=_ci(scores, seed),
        avg_steps=_mean(steps),
        avg_steps_ci95=_ci(steps, seed),
        avg_duration_s=_mean(durations),
        avg_duration_ci95=_ci(durations, seed),
        budget_exhaustion_rate=_mean(budget),
        budget_exhaustion_ci95=_ci(budget, seed),
        time_limit_rate=_mean(time_limit),
        time_limit_ci95=_ci(time_limit, seed),
        error_rate=_mean(errors),
        error_ci95=_ci(errors, seed),
        avg_tokens=_mean(tokens),
        avg_tokens_ci95=_ci(tokens, seed),
        avg_tokens_in=_mean([float(r.tokens_in) for r in results]),
        avg_tokens_out=_mean([float(r.tokens_out) for r in results]),
        partial_progress_rate=_mean(partial),
        partial_progress_ci95=_ci(partial, seed),
        tsr=_mean(success),
        tsr_ci95=_ci(success, seed),
        subtasks=compute_subtask_metrics(results, seed=seed),
        termination_counts=termination_counts,
        failed_termination_counts=failed_termination_counts,
        by_device_combo=group_metrics(results, device_combo_of, seed=seed),
        by_desktop_profile=group_metrics(
            results, lambda r: r.desktop_profile, seed=seed, order=PROFILE_ORDER
        ),
        by_pattern=group_metrics(results, lambda r: r.pattern, seed=seed),
        by_difficulty=group_metrics(results, lambda r: r.difficulty, seed=seed, order=DIFFICULTY_ORDER),
        by_tier=group_metrics(results, lambda r: r.tier or "standard", seed=seed, order=TIER_ORDER),
        by_app=group_metrics(results, lambda r: r.apps, seed=seed),
        seed=seed,
    )
