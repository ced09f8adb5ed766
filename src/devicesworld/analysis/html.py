"""A self-contained HTML report: tables plus inline SVG plots, one file, no network, no JS.

Why hand-written SVG rather than matplotlib: the plots are bars and a heatmap, a
few dozen lines each; inline SVG keeps the report one small text file that opens
anywhere (and diffs in review), and keeps a plotting stack out of the dependencies.

Plots: success rate by device combination with 95% CI whiskers (one bar per run),
failed runs by termination mode (the paper's Figure 4, one stacked bar per run), and
the failure-type heatmap per run (Figure 5: B1-B3 within budget-exhausted runs,
D1-D5 within completion-declared runs, each row normalised to 100%).
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from devicesworld.analysis.compare import RunComparison
from devicesworld.analysis.failures import BUDGET_TYPES, DECLARED_TYPES, FAILURE_TYPES, MODES, FailureType
from devicesworld.analysis.metrics import CI, GroupMetrics, RunMetrics
from devicesworld.analysis.report import RunReport, invalid_lines, unique_labels

PALETTE = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5"]
MODE_COLOURS = {"budget_exhausted": "#ff725c", "declared_complete": "#4269d0", "error": "#9a9a9a"}

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem;color:#222;max-width:1200px}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{padding:.2rem .6rem;border-bottom:1px solid #eee;
text-align:right}td:first-child,th:first-child{text-align:left}th{background:#f6f6f6}
.muted{color:#777;font-size:.9em}.legend span{display:inline-block;margin-right:1rem}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}
details{margin:.5rem 0}svg text{font-family:system-ui,sans-serif}
"""


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100.0 * v:.1f}%"


def _pct_ci(ci: CI | None) -> str:
    return "-" if ci is None else f"[{100.0 * ci[0]:.1f}, {100.0 * ci[1]:.1f}]%"


def _num(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _num_ci(ci: CI | None, digits: int = 3) -> str:
    return "-" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


# ------------------------------------------------------------------------ tables
def metrics_rows(m: RunMetrics) -> list[list[str]]:
    rows = [
        ["Tasks", str(m.n), ""],
        ["Success rate (TSR)", _pct(m.success_rate), _pct_ci(m.success_ci95)],
        ["Mean score", _num(m.mean_score), _num_ci(m.score_ci95)],
        ["Avg steps", _num(m.avg_steps, 1), _num_ci(m.avg_steps_ci95, 1)],
        ["Avg duration (s)", _num(m.avg_duration_s, 2), _num_ci(m.avg_duration_ci95, 2)],
        ["Budget exhaustion", _pct(m.budget_exhaustion_rate), _pct_ci(m.budget_exhaustion_ci95)],
        ["Partial progress (failed)", _pct(m.partial_progress_rate), _pct_ci(m.partial_progress_ci95)],
        ["Avg tokens / task", _num(m.avg_tokens, 0), _num_ci(m.avg_tokens_ci95, 0)],
    ]
    sub = m.subtasks
    if sub is not None and sub.n_composite:
        rows += [
            ["TSR (composite tasks)", _pct(sub.tsr_composite), _pct_ci(sub.tsr_composite_ci95)],
            ["SSR", _pct(sub.ssr), _pct_ci(sub.ssr_ci95)],
            [
                f"Subtasks passed ({sub.subtasks_passed}/{sub.subtasks_total})",
                _pct(sub.subtask_rate),
                _pct_ci(sub.subtask_rate_ci95),
            ],
        ]
    return rows


def _breakdown(title: str, groups: dict[str, GroupMetrics]) -> str:
    if not groups:
        return ""
    rows = [
        [k, str(g.n), _pct(g.success_rate), _pct_ci(g.success_ci95), _num(g.mean_score), _num(g.avg_steps, 1)]
        for k, g in groups.items()
    ]
    return f"<h3>{escape(title)}</h3>" + _table(
        ["", "n", "Success", "95% CI", "Mean score", "Avg steps"], rows
    )


# ------------------------------------------------------------------------- plots
def success_by_combo_svg(reports: list[RunReport], labels: list[str]) -> str:
    """Grouped bars: success rate per device combination, one bar per run, CI whiskers."""
    combos = sorted({c for r in reports for c in r.metrics.by_device_combo})
    if not combos:
        return "<p class='muted'>No episodes.</p>"
    bar_w, gap, left, top, height = 22, 18, 48, 16, 180
    group_w = bar_w * len(reports) + gap
    width = left + group_w * len(combos) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 80}" role="img">']
    for tick in range(0, 101, 25):
        y = top + height - height * tick / 100
        parts.append(f'<line x1="{left - 4}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e5e5e5"/>')
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{tick}%</text>')
    for gi, combo in enumerate(combos):
        x0 = left + gi * group_w
        for ri, r in enumerate(reports):
            g = r.metrics.by_device_combo.get(combo)
            if g is None:
                continue
            x = x0 + ri * bar_w
            h = height * g.success_rate
            colour = PALETTE[ri % len(PALETTE)]
            tip = f"{labels[ri]} / {combo}: {_pct(g.success_rate)} {_pct_ci(g.success_ci95)}, n={g.n}"
            parts.append(
                f'<rect x="{x}" y="{top + height - h:.1f}" width="{bar_w - 3}" height="{max(h, 0.5):.1f}" '
                f'fill="{colour}"><title>{escape(tip)}</title></rect>'
            )
            lo, hi = g.success_ci95
            y_lo, y_hi = top + height - height * lo, top + height - height * hi
            cx = x + (bar_w - 3) / 2
            parts.append(f'<line x1="{cx}" x2="{cx}" y1="{y_lo:.1f}" y2="{y_hi:.1f}" stroke="#222"/>')
        label_x = x0 + (group_w - gap) / 2
        parts.append(
            f'<text x="{label_x:.1f}" y="{top + height + 14}" font-size="11" text-anchor="end" '
            f'transform="rotate(-30 {label_x:.1f} {top + height + 14})">{escape(combo)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts) + _legend(labels)


def _legend(labels: list[str]) -> str:
    items = "".join(
        f'<span><i class="swatch" style="background:{PALETTE[i % len(PALETTE)]}"></i>{escape(lab)}</span>'
        for i, lab in enumerate(labels)
    )
    return f'<div class="legend">{items}</div>'


def termination_modes_svg(reports: list[RunReport], labels: list[str]) -> str:
    """Figure 4: one 100% stacked horizontal bar per run."""
    left, bar_h, width = 220, 22, 420
    height = 20 + (bar_h + 8) * len(reports)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" role="img">'
    ]
    for i, (label, r) in enumerate(zip(labels, reports, strict=True)):
        y = 10 + i * (bar_h + 8)
        parts.append(
            f'<text x="{left - 8}" y="{y + 15}" font-size="11" text-anchor="end">{escape(label)}</text>'
        )
        n = r.failures.n_failed
        x = float(left)
        for mode in MODES:
            count = r.failures.mode_counts[mode]
            if not n or not count:
                continue
            w = width * count / n
            tip = f"{label}: {mode} {100.0 * count / n:.1f}% ({count}/{n})"
            parts.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{MODE_COLOURS[mode]}">'
                f"<title>{escape(tip)}</title></rect>"
            )
            if w > 36:
                parts.append(
                    f'<text x="{x + w / 2:.1f}" y="{y + 15}" font-size="11" fill="#fff" text-anchor="middle">'
                    f"{100.0 * count / n:.0f}%</text>"
                )
            x += w
        if not n:
            parts.append(f'<text x="{left}" y="{y + 15}" font-size="11" fill="#777">no failed runs</text>')
    parts.append("</svg>")
    legend = "".join(
        f'<span><i class="swatch" style="background:{MODE_COLOURS[m]}"></i>{escape(m.replace("_", " "))}</span>'
        for m in MODES
    )
    return "".join(parts) + f'<div class="legend">{legend}</div>'


def _heat(share: float | None) -> str:
    if share is None:
        return "#f4f4f4"
    # white -> deep blue
    r = round(255 - share * (255 - 33))
    g = round(255 - share * (255 - 102))
    b = round(255 - share * (255 - 172))
    return f"rgb({r},{g},{b})"


def failure_heatmap_svg(reports: list[RunReport], labels: list[str]) -> str:
    """Figure 5: rows are runs, columns B1-B3 (budget exhausted) then D1-D5 (declared)."""
    left, cell, top = 220, 46, 34
    cols: list[tuple[str, FailureType]] = [("budget_exhausted", t) for t in BUDGET_TYPES]
    cols += [("declared_complete", t) for t in DECLARED_TYPES]
    split = left + cell * len(BUDGET_TYPES) + 10
    width = split + cell * len(DECLARED_TYPES) + 20
    height = top + cell * len(reports) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">']
    parts.append(f'<text x="{left}" y="12" font-size="11" fill="#555">(a) budget exhausted</text>')
    parts.append(f'<text x="{split}" y="12" font-size="11" fill="#555">(b) completion declared</text>')
    for ci, (mode, t) in enumerate(cols):
        x = (left + ci * cell) if mode == "budget_exhausted" else (split + (ci - len(BUDGET_TYPES)) * cell)
        parts.append(
            f'<text x="{x + cell / 2}" y="{top - 6}" font-size="11" text-anchor="middle">'
            f"<title>{escape(FAILURE_TYPES[t])}</title>{t}</text>"
        )
    for ri, (label, r) in enumerate(zip(labels, reports, strict=True)):
        y = top + ri * cell
        parts.append(
            f'<text x="{left - 8}" y="{y + cell / 2 + 4}" font-size="11" text-anchor="end">{escape(label)}</text>'
        )
        for ci, (mode, t) in enumerate(cols):
            x = (
                (left + ci * cell)
                if mode == "budget_exhausted"
                else (split + (ci - len(BUDGET_TYPES)) * cell)
            )
            share = r.failures.type_shares[mode][t]
            count = r.failures.type_counts[mode][t]
            text = "-" if share is None else f"{100.0 * share:.0f}%"
            fg = "#fff" if share is not None and share > 0.55 else "#222"
            tip = f"{label}: {t} ({FAILURE_TYPES[t]}) {text}, {count} run(s)"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{_heat(share)}">'
                f"<title>{escape(tip)}</title></rect>"
                f'<text x="{x + cell / 2 - 1}" y="{y + cell / 2 + 4}" font-size="11" fill="{fg}" '
                f'text-anchor="middle">{text}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


# ------------------------------------------------------------------------ report
def _run_section(label: str, r: RunReport) -> str:
    m = r.metrics
    out = [f"<h2>{escape(label)}</h2>", f"<p class='muted'>{escape(str(r.run.run_dir))}</p>"]
    out.append(_table(["Metric", "Value", "95% CI"], metrics_rows(m)))
    for title, groups in m.breakdowns():
        out.append(_breakdown(title, groups))
    if r.diagnoses:
        rows = [[d.task_id, d.mode.replace("_", " "), d.failure_type, d.reason] for d in r.diagnoses]
        out.append(
            f"<details><summary>Diagnosis of {len(r.diagnoses)} failed episode(s)</summary>"
            + _table(["Task", "Mode", "Type", "Evidence"], rows)
            + "</details>"
        )
    if r.run.warnings:
        out.append("<p class='muted'>" + "<br>".join(escape(w) for w in r.run.warnings) + "</p>")
    return "".join(out)


def _comparison_section(c: RunComparison, labels: list[str]) -> str:
    def row(name: str, d: Any, pct: bool) -> list[str]:
        f = _pct if pct else _num
        ci = "-" if d.ci95 is None else (_pct_ci(d.ci95) if pct else _num_ci(d.ci95))
        return [name, f(d.a_mean), f(d.b_mean), f(d.mean_diff), ci]

    return (
        f"<h2>Paired comparison on {c.n_shared} shared tasks (other - {escape(labels[0])})</h2>"
        + _table(
            ["Metric", labels[0], "other", "Difference", "95% CI (paired)"],
            [row("Success rate", c.success, True), row("Mean score", c.score, False)],
        )
        + _table(
            ["Outcome", "Tasks"],
            [
                ["only " + labels[0], str(c.only_a_solves)],
                ["only other", str(c.only_b_solves)],
                ["both", str(c.both_solve)],
                ["neither", str(c.neither_solves)],
            ],
        )
    )


def render_html_report(reports: list[RunReport], *, comparison: RunComparison | None = None) -> str:
    """The whole report as one HTML string."""
    labels = unique_labels(reports)
    legend = _table(["Type", "Definition"], [[t, d] for t, d in FAILURE_TYPES.items()])
    summary_rows = [
        [
            lab,
            str(r.metrics.n),
            _pct(r.metrics.success_rate),
            _pct_ci(r.metrics.success_ci95),
            _num(r.metrics.mean_score),
        ]
        for lab, r in zip(labels, reports, strict=True)
    ]
    body = [
        "<h1>DevicesWorld report</h1>",
        *(f"<p class='invalid-line'>{escape(line)}</p>" for line in invalid_lines(reports)),
        f"<p class='muted'>Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"95% CIs are seeded percentile bootstraps over tasks (seed {reports[0].metrics.seed}).</p>",
        _table(["Run", "Valid episodes", "Success", "95% CI", "Mean score"], summary_rows),
        "<h2>Success by device combination</h2>",
        success_by_combo_svg(reports, labels),
        "<h2>Failed runs by termination mode</h2>",
        termination_modes_svg(reports, labels),
        "<h2>Primary failure types (share within each termination mode)</h2>",
        failure_heatmap_svg(reports, labels),
        legend,
    ]
    body += [_run_section(lab, r) for lab, r in zip(labels, reports, strict=True)]
    if comparison is not None:
        body.append(_comparison_section(comparison, labels))
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<title>DevicesWorld report</title>"
        f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )


def write_html_report(
    reports: list[RunReport], out: Path, *, comparison: RunComparison | None = None
) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_html_report(reports, comparison=comparison), encoding="utf-8")
    return out
