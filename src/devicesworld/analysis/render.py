"""Present metrics and comparisons: rich tables for people, plain dicts for ``report --json``.

Why separate from the computation: ``run`` prints the same table as ``report``,
the dashboard reuses the JSON form, and tests can check numbers without parsing
terminal output. The JSON form keeps rates in 0..1 and CIs as ``[lo, hi]``
lists; ``None`` (an empty run, no failed task) becomes ``null``, never ``NaN``,
so the output is strict JSON.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from devicesworld.analysis.compare import PairedDiff, RunComparison
from devicesworld.analysis.metrics import CI, GroupMetrics, RunMetrics

_DASH = "-"


def _pct(value: float | None) -> str:
    return _DASH if value is None else f"{100.0 * value:.1f}%"


def _pct_ci(ci: CI | None) -> str:
    return _DASH if ci is None else f"[{100.0 * ci[0]:.1f}, {100.0 * ci[1]:.1f}]%"


def _num(value: float | None, digits: int = 3) -> str:
    return _DASH if value is None else f"{value:.{digits}f}"


def _num_ci(ci: CI | None, digits: int = 3) -> str:
    return _DASH if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _signed_pct(value: float | None) -> str:
    return _DASH if value is None else f"{100.0 * value:+.1f} pp"


def _signed_pct_ci(ci: CI | None) -> str:
    return _DASH if ci is None else f"[{100.0 * ci[0]:+.1f}, {100.0 * ci[1]:+.1f}] pp"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return _DASH
    if seconds < 1.0:
        return f"{1000.0 * seconds:.1f} ms"
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60.0:.1f} min"


def _tokens(value: float | None) -> str:
    return _DASH if value is None else f"{value:,.0f}"


def _dur_ci(ci: CI | None) -> str:
    return _DASH if ci is None else f"[{_duration(ci[0])}, {_duration(ci[1])}]"


def _tok_ci(ci: CI | None) -> str:
    return _DASH if ci is None else f"[{_tokens(ci[0])}, {_tokens(ci[1])}]"


def metrics_table(metrics: RunMetrics, *, title: str | None = "Run metrics") -> Table:
    """The main table: one row per metric, its value, and its seeded 95% bootstrap CI over tasks."""
    table = Table(title=title, title_justify="left")
    table.add_column("Metric")
    table.add_column("Value", justify="right")
    table.add_column("95% CI", justify="right")
    m = metrics
    rows: list[tuple[str, str, str]] = [
        ("Tasks", str(m.n), ""),
        ("Success rate (TSR)", _pct(m.success_rate), _pct_ci(m.success_ci95)),
        ("Mean score", _num(m.mean_score), _num_ci(m.score_ci95)),
        ("Avg steps", _num(m.avg_steps, 1), _num_ci(m.avg_steps_ci95, 1)),
        ("Avg duration", _duration(m.avg_duration_s), _dur_ci(m.avg_duration_ci95)),
        ("Budget exhaustion", _pct(m.budget_exhaustion_rate), _pct_ci(m.budget_exhaustion_ci95)),
        ("Time limit", _pct(m.time_limit_rate), _pct_ci(m.time_limit_ci95)),
        ("Errors", _pct(m.error_rate), _pct_ci(m.error_ci95)),
        ("Partial progress (failed)", _pct(m.partial_progress_rate), _pct_ci(m.partial_progress_ci95)),
        ("Avg tokens / task", _tokens(m.avg_tokens), _tok_ci(m.avg_tokens_ci95)),
        ("  input", _tokens(m.avg_tokens_in), ""),
        ("  output", _tokens(m.avg_tokens_out), ""),
    ]
    sub = m.subtasks
    if sub is not None and sub.n_composite:
        rows += [
            ("Composite tasks", str(sub.n_composite), ""),
            ("  TSR (composite)", _pct(sub.tsr_composite), _pct_ci(sub.tsr_composite_ci95)),
            ("  SSR", _pct(sub.ssr), _pct_ci(sub.ssr_ci95)),
            (
                f"  Subtasks passed ({sub.subtasks_passed}/{sub.subtasks_total})",
                _pct(sub.subtask_rate),
                _pct_ci(sub.subtask_rate_ci95),
            ),
        ]
    else:
        rows.append(("SSR", "- (no composite tasks)", ""))
    for row in rows:
        table.add_row(*row)
    return table


def termination_table(metrics: RunMetrics) -> Table:
    """How episodes ended, for all tasks and for failed tasks."""
    table = Table(title="Termination", title_justify="left")
    table.add_column("Termination")
    table.add_column("All", justify="right")
    table.add_column("Failed", justify="right")
    for name, count in metrics.termination_counts.items():
        table.add_row(name, str(count), str(metrics.failed_termination_counts.get(name, 0)))
    return table


def breakdown_table(title: str, groups: dict[str, GroupMetrics]) -> Table:
    """One row per group: n, success rate with CI, mean score, average steps."""
    table = Table(title=title, title_justify="left")
    table.add_column(title.removeprefix("By ").capitalize())
    table.add_column("n", justify="right")
    table.add_column("Success", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("Mean score", justify="right")
    table.add_column("Avg steps", justify="right")
    for name, g in groups.items():
        table.add_row(
            name,
            str(g.n),
            _pct(g.success_rate),
            _pct_ci(g.success_ci95),
            _num(g.mean_score),
            _num(g.avg_steps, 1),
        )
    return table


def render_metrics(metrics: RunMetrics, console: Console, *, title: str | None = "Run metrics") -> None:
    """Print the main metrics table, the termination table and the three breakdown tables."""
    console.print(metrics_table(metrics, title=title))
    if metrics.n == 0:
        console.print("No finished episodes in this run.")
        return
    console.print(termination_table(metrics))
    for label, groups in metrics.breakdowns():
        if groups:
            console.print(breakdown_table(label, groups))


def _diff_row(label: str, diff: PairedDiff, *, percent: bool) -> tuple[str, str, str, str, str]:
    if percent:
        return (
            label,
            _pct(diff.a_mean),
            _pct(diff.b_mean),
            _signed_pct(diff.mean_diff),
            _signed_pct_ci(diff.ci95),
        )
    mean_diff = _DASH if diff.mean_diff is None else f"{diff.mean_diff:+.3f}"
    ci = _DASH if diff.ci95 is None else f"[{diff.ci95[0]:+.3f}, {diff.ci95[1]:+.3f}]"
    return (label, _num(diff.a_mean), _num(diff.b_mean), mean_diff, ci)


def comparison_table(comparison: RunComparison, *, a_label: str = "A", b_label: str = "B") -> Table:
    """Paired differences (B - A) on shared tasks with paired bootstrap CIs."""
    table = Table(
        title=f"{b_label} vs {a_label} on {comparison.n_shared} shared tasks ({b_label} - {a_label})",
        title_justify="left",
    )
    table.add_column("Metric")
    table.add_column(a_label, justify="right")
    table.add_column(b_label, justify="right")
    table.add_column("Difference", justify="right")
    table.add_column("95% CI (paired)", justify="right")
    table.add_row(*_diff_row("Success rate", comparison.success, percent=True))
    table.add_row(*_diff_row("Mean score", comparison.score, percent=False))
    return table


def render_comparison(
    comparison: RunComparison, console: Console, *, a_label: str = "A", b_label: str = "B"
) -> None:
    """Print the paired-difference table and the solved-by counts."""
    console.print(comparison_table(comparison, a_label=a_label, b_label=b_label))
    counts = Table(title="Solved by", title_justify="left")
    counts.add_column("Outcome")
    counts.add_column("Tasks", justify="right")
    counts.add_row(f"only {a_label}", str(comparison.only_a_solves))
    counts.add_row(f"only {b_label}", str(comparison.only_b_solves))
    counts.add_row("both", str(comparison.both_solve))
    counts.add_row("neither", str(comparison.neither_solves))
    console.print(counts)
    if comparison.n_not_shared:
        console.print(
            f"{comparison.n_not_shared} task(s) not in both runs were excluded "
            f"({comparison.n_only_in_a} only in {a_label}, {comparison.n_only_in_b} only in {b_label})."
        )


def metrics_to_json(
    metrics: RunMetrics,
    *,
    run_config: dict[str, Any] | None = None,
    warnings: list[str] | None = None,
) -> dict[str, Any]:
    """The ``report --json`` document: every ``RunMetrics`` field at top level.

    Includes ``n``, ``success_rate``, ``success_ci95``, ``mean_score``, ``avg_steps``,
    ``avg_duration_s``, ``budget_exhaustion_rate``, ``avg_tokens``,
    ``partial_progress_rate``, ``by_device_combo``, ``by_pattern`` and ``by_difficulty``.
    ``run`` (the run.json config) and ``warnings`` are added when given.
    """
    doc: dict[str, Any] = metrics.model_dump(mode="json")
    if run_config is not None:
        doc["run"] = run_config
    if warnings is not None:
        doc["warnings"] = list(warnings)
    return doc


def comparison_to_json(comparison: RunComparison) -> dict[str, Any]:
    """The ``report --compare --json`` document (differences are B - A)."""
    return comparison.model_dump(mode="json")
