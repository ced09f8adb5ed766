"""Metrics, bootstrap confidence intervals, run comparison and reports for DevicesWorld runs.

Typical use (what ``devicesworld report`` does)::

    run = load_run(Path("runs/abc"))
    metrics = compute_metrics(run.results, seed=0)
    render_metrics(metrics, Console())
    print(json.dumps(metrics_to_json(metrics)))
"""

from devicesworld.analysis.bootstrap import bootstrap_ci, bootstrap_distribution
from devicesworld.analysis.compare import PairedDiff, RunComparison, compare_runs
from devicesworld.analysis.errors import ReportError
from devicesworld.analysis.failures import (
    FAILURE_TYPES,
    Diagnosis,
    FailureSummary,
    diagnose,
    diagnose_run,
    summarize_failures,
)
from devicesworld.analysis.loading import LoadedRun, load_results, load_run, read_results, read_run_config
from devicesworld.analysis.metrics import (
    GroupMetrics,
    RunMetrics,
    compute_metrics,
    group_metrics,
    has_partial_progress,
)
from devicesworld.analysis.render import (
    comparison_to_json,
    metrics_to_json,
    render_comparison,
    render_metrics,
)

__all__ = [
    "FAILURE_TYPES",
    "Diagnosis",
    "FailureSummary",
    "GroupMetrics",
    "LoadedRun",
    "PairedDiff",
    "ReportError",
    "RunComparison",
    "RunMetrics",
    "bootstrap_ci",
    "bootstrap_distribution",
    "compare_runs",
    "comparison_to_json",
    "compute_metrics",
    "diagnose",
    "diagnose_run",
    "group_metrics",
    "has_partial_progress",
    "load_results",
    "load_run",
    "metrics_to_json",
    "read_results",
    "read_run_config",
    "render_comparison",
    "render_metrics",
    "summarize_failures",
]
