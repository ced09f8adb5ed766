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
from devicesworld.analysis.metrics import RunMetrics, compute_metrics
from devicesworld.analysis.render import metrics_to_json, render_metrics


class RunReport(BaseModel):
    """Everything shown about one run."""

    model_config = ConfigDict(frozen=True)

    label: str
    run: LoadedRun
    metrics: RunMetrics
    failures: FailureSummary
    diagnoses: list[Diagnosis]


def run_label(run: LoadedRun) -> str:
    """``agent (dir name)`` from run.json when available, else the directory name."""
    agent = ""
    if run.config:
        cfg = run.config.get("config")
        if isinstance(cfg, dict):
            agent = str(cfg.get("agent") or "")
    if not agent and run.results:
        agent = run.results[0].agent
    name = run.run_dir.name
    return f"{agent} ({name})" if agent and agent not in name else name


def build_report(run_dir: Path, *, seed: int = 0) -> RunReport:
    """Load, measure and diagnose one run directory (raises ``ReportError`` when unreadable)."""
    run = load_run(run_dir)
    diagnoses = diagnose_run(run.run_dir, run.results)
    return RunReport(
        label=run_label(run),
        run=run,
        metrics=compute_metrics(run.results, seed=seed),
        failures=summarize_failures(diagnoses),
        diagnoses=diagnoses,
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
        table.add_row(label, str(f.n_failed), *[_share(f.mode_counts[m], f.n_failed) for m in MODES], pp)
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
        table.add_row(label, str(n), *[_share(counts[t], n) for t in types])
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


def render_reports(reports: list[RunReport], console: Console) -> None:
    for label, r in zip(unique_labels(reports), reports, strict=True):
        render_metrics(r.metrics, console, title=label)
    render_failures(reports, console)


# --------------------------------------------------------------------------- JSON
def report_to_json(report: RunReport, *, include_diagnoses: bool = True) -> dict[str, Any]:
    """The ``report --json`` document of one run: metrics at top level, plus ``failures``."""
    doc = metrics_to_json(report.metrics, run_config=report.run.config, warnings=report.run.warnings)
    doc["label"] = report.label
    doc["run_dir"] = str(report.run.run_dir)
    doc["failures"] = report.failures.model_dump(mode="json")
    if include_diagnoses:
        doc["diagnoses"] = [d.model_dump(mode="json") for d in report.diagnoses]
    return doc
