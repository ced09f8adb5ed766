"""One run's full report (metrics + failure diagnosis), and its terminal and JSON forms.

``devicesworld report`` accepts several run directories, typically one per agent on
the same suite; each becomes a :class:`RunReport`, and the failure distributions are
laid side by side as in the paper's Figures 4 and 5 (one row per run). The same
objects feed the HTML report and the viewer, so every surface shows the same numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from devicesworld.analysis.failures import (
    BUDGET_TYPES,
    DECLARED_TYPES,
    FAILURE_TYPES,
    MODES,
    Diagnosis,
    FailureSummary,
    diagnose_run,
    summarize_failures,
)
from devicesworld.analysis.loading import LoadedRun, load_run
from devicesworld.analysis.metrics import RunMetrics, compute_metrics, invalid_line, is_valid
from devicesworld.analysis.render import metrics_to_json, render_metrics
from devicesworld.analysis.table1 import Prices, Table1Row, floor_rows, table1, table1_row
from devicesworld.analysis.trials import TrialMetrics, compute_trials


class RunReport(BaseModel):
    """Everything shown about one run."""

    model_config = ConfigDict(frozen=True)

    label: str
    run: LoadedRun
    metrics: RunMetrics
    failures: FailureSummary
    diagnoses: list[Diagnosis]
    trials: TrialMetrics | None = None


def run_label(run: LoadedRun) -> str:
    """``agent (dir name)`` from run.json when available, else the directory name; ``[text-only]``
    after it when the agent's model was sent no images."""
    agent = ""
    if run.config:
        cfg = run.config.get("config")
        if isinstance(cfg, dict):
            agent = str(cfg.get("agent") or "")
    if not agent and run.results:
        agent = run.results[0].agent
    name = run.run_dir.name
    label = f"{agent} ({name})" if agent and agent not in name else name
    return f"{label} [text-only]" if _text_only(run) else label


def _text_only(run: LoadedRun) -> bool:
    """An llm run whose model got no images (``vision`` false in run.json's agent options:
    asked for, or what ``vision=auto``'s preflight found the endpoint takes)."""
    cfg = run.config.get("config") if run.config else None
    extra = cfg.get("agent_extra") if isinstance(cfg, dict) else None
    return isinstance(extra, dict) and extra.get("vision") is False


def build_report(run_dir: Path, *, seed: int = 0) -> RunReport:
    """Load, measure and diagnose one run directory (raises ``ReportError`` when unreadable)."""
    run = load_run(run_dir)
    valid = [r for r in run.results if is_valid(r)]  # an invalid episode is no agent failure
    diagnoses = diagnose_run(run.run_dir, valid)
    return RunReport(
        label=run_label(run),
        run=run,
        metrics=compute_metrics(run.results, seed=seed),
        failures=summarize_failures(diagnoses),
        diagnoses=diagnoses,
        trials=compute_trials(valid, seed=seed),
    )


def unique_labels(reports: list[RunReport]) -> list[str]:
    """Labels for display; duplicates get their directory path appended."""
    labels = [r.label for r in reports]
    return [
        lab if labels.count(lab) == 1 else f"{lab} [{r.run.run_dir}]"
        for lab, r in zip(labels, reports, strict=True)
    ]


# ---------------------------------------------------------------------- terminal
def _share(count: int, total: int) -> str:
    return "-" if total == 0 else f"{100.0 * count / total:.1f}% ({count})"


def termination_mode_table(reports: list[RunReport]) -> Table:
    """Figure 4: failed runs by termination mode, one row per run, rows sum to 100%."""
    table = Table(title="Fig. 4: failed runs by termination mode", title_justify="left")
    table.add_column("Run")
    table.add_column("Failed", justify="right")
    for mode in MODES:
        table.add_column(mode.replace("_", " "), justify="right")
    table.add_column("Partial progress", justify="right")
    for label, r in zip(unique_labels(reports), reports, strict=True):
        f = r.failures
        pp = "-" if f.partial_progress_share is None else f"{100.0 * f.partial_progress_share:.1f}%"
        table.add_row(
            escape(label), str(f.n_failed), *[_share(f.mode_counts[m], f.n_failed) for m in MODES], pp
        )
    return table


def failure_type_table(reports: list[RunReport], mode: str) -> Table:
    """Figure 5 (a) or (b): primary failure types within one termination mode."""
    types = BUDGET_TYPES if mode == "budget_exhausted" else DECLARED_TYPES
    title = "Fig. 5a: budget exhausted" if mode == "budget_exhausted" else "Fig. 5b: completion declared"
    table = Table(title=title, title_justify="left")
    table.add_column("Run")
    table.add_column("n", justify="right")
    for t in types:
        table.add_column(t, justify="right")
    for label, r in zip(unique_labels(reports), reports, strict=True):
        counts = r.failures.type_counts[mode]
        n = sum(counts.values())
        table.add_row(escape(label), str(n), *[_share(counts[t], n) for t in types])
    return table


def legend_table() -> Table:
    table = Table(title="Failure types", title_justify="left", show_header=False)
    table.add_column("Type")
    table.add_column("Definition")
    for t, text in FAILURE_TYPES.items():
        table.add_row(t, text)
    return table


def render_failures(reports: list[RunReport], console: Console) -> None:
    """The failure-type tables: termination modes, then types within each mode, then the legend."""
    if not any(r.failures.n_failed for r in reports):
        console.print("No failed episodes: nothing to diagnose.")
        return
    console.print(termination_mode_table(reports))
    console.print(failure_type_table(reports, "budget_exhausted"))
    console.print(failure_type_table(reports, "declared_complete"))
    errors = sum(r.failures.mode_counts["error"] for r in reports)
    if errors:
        console.print(
            f"{errors} failed run(s) ended on an agent or harness error (counted as B3, mode 'error')."
        )
    console.print(legend_table())


TRIAL_ROWS = 30
"""Per-task trial rows shown in the terminal (all tasks up to this many, else only the flipped)."""


def trials_table(trials: TrialMetrics, title: str) -> Table:
    k = trials.k
    table = Table(
        title=f"{title}: {trials.n_tasks} tasks, pass@k and pass^k at k = {k}", title_justify="left"
    )
    for col in ("Metric", "Value", "95% CI"):
        table.add_column(col, justify="left" if col == "Metric" else "right")

    def pct(v: float) -> str:
        return f"{100 * v:.1f}%"

    for name, value, ci in (
        ("pass@1", trials.pass_at_1, trials.pass_at_1_ci95),
        (f"pass@{k}", trials.pass_at_k, trials.pass_at_k_ci95),
        (f"pass^{k}", trials.pass_hat_k, trials.pass_hat_k_ci95),
        ("Flip rate", trials.flip_rate, trials.flip_rate_ci95),
    ):
        table.add_row(name, pct(value), f"[{pct(ci[0])}, {pct(ci[1])}]")
    return table


def task_trials_table(trials: TrialMetrics) -> Table | None:
    rows = trials.tasks if len(trials.tasks) <= TRIAL_ROWS else [t for t in trials.tasks if t.flipped]
    if not rows:
        return None
    k = trials.k
    which = "per task" if len(rows) == len(trials.tasks) else "tasks that flipped"
    table = Table(title=f"Trials {which}", title_justify="left")
    for col in ("Task", "Succeeded", "pass@1", f"pass@{k}", f"pass^{k}", "Flipped"):
        table.add_column(col, justify="left" if col == "Task" else "right")
    for t in rows:
        table.add_row(
            t.task_id,
            f"{t.c}/{t.n}",
            f"{t.pass_at_1:.2f}",
            f"{t.pass_at_k:.2f}",
            f"{t.pass_hat_k:.2f}",
            "yes" if t.flipped else "",
        )
    return table


def table1_rows(
    reports: list[RunReport], floors: list[LoadedRun] | None = None, prices: Prices | None = None
) -> tuple[list[Table1Row], list[str]]:
    """Table 1's rows: the runs, then the floors of the same task set; notes on floors left out."""
    rows = [
        table1_row(label, r.run, prices=prices)
        for label, r in zip(unique_labels(reports), reports, strict=True)
    ]
    below, notes = floor_rows(floors or [], {r.task_set for r in rows}, prices=prices)
    return rows + below, notes


def render_reports(
    reports: list[RunReport],
    console: Console,
    *,
    floors: list[LoadedRun] | None = None,
    prices: Prices | None = None,
) -> None:
    """The whole terminal report; its first line(s) say how many episodes are invalid, and why."""
    for line in invalid_lines(reports):
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    for label, r in zip(unique_labels(reports), reports, strict=True):
        render_metrics(r.metrics, console, title=escape(label))
        if r.trials is not None:
            console.print(trials_table(r.trials, f"Trials of {escape(label)}"))
            per_task = task_trials_table(r.trials)
            if per_task is not None:
                console.print(per_task)
    rows, notes = table1_rows(reports, floors, prices)
    console.print(table1(rows))
    for note in notes:
        console.print(f"note: {note}", highlight=False, markup=False)
    render_failures(reports, console)


def invalid_lines(reports: list[RunReport]) -> list[str]:
    """One line per run: invalid episodes over all, by cause (the report's first lines)."""
    if len(reports) == 1:
        return [invalid_line(reports[0].run.results)]
    return [
        f"{label}: {invalid_line(r.run.results)}"
        for label, r in zip(unique_labels(reports), reports, strict=True)
    ]


# --------------------------------------------------------------------------- JSON
def report_to_json(report: RunReport, *, include_diagnoses: bool = True) -> dict[str, Any]:
    """The ``report --json`` document of one run: metrics at top level, plus ``failures``."""
    doc = metrics_to_json(report.metrics, run_config=report.run.config, warnings=report.run.warnings)
    doc["label"] = report.label
    doc["run_dir"] = str(report.run.run_dir)
    doc["failures"] = report.failures.model_dump(mode="json")
    doc["trials"] = report.trials.model_dump(mode="json") if report.trials is not None else None
    if include_diagnoses:
        doc["diagnoses"] = [d.model_dump(mode="json") for d in report.diagnoses]
    return doc
