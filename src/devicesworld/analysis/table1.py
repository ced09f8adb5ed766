"""The paper's Table 1 for every report, with the trivial floors of the same task set.

Why: a success rate alone hides what it cost and whether the environment held. Table 1 puts
side by side, per run: success and mean score (over valid episodes), average steps, duration,
budget exhaustion, tokens per task, the cost per task when the model's price is given
(``--price-in``/``--price-out``, USD per million tokens) and the invalid-episode rate (an
episode whose environment failed; a result line without a ``valid`` field counts as valid).
Under it, the floors — runs of ``noop``, ``random`` and ``first-match`` given with
``--floors`` — when they ran the same task set (manifest); a floor of another set is left
out and said so, since its numbers would not be comparable.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field
from rich.markup import escape
from rich.table import Table

from devicesworld.analysis.loading import LoadedRun
from devicesworld.analysis.metrics import is_valid as is_valid  # also importable from here
from devicesworld.analysis.sets import run_set

FLOOR_AGENTS = ("noop", "random", "first-match")
"""The trivial agents whose runs are shown as floors, in this order."""


class Prices(BaseModel):
    """A model's price in USD per million tokens."""

    model_config = ConfigDict(frozen=True)

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class Table1Row(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: str
    floor: bool = False
    task_set: str
    episodes: int
    valid: int
    success_rate: float | None
    mean_score: float | None
    avg_steps: float | None
    avg_duration_s: float | None
    budget_exhaustion_rate: float | None
    avg_tokens: float | None
    cost_per_task_usd: float | None = None
    invalid_rate: float | None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def table1_row(label: str, run: LoadedRun, *, prices: Prices | None = None, floor: bool = False) -> Table1Row:
    every = run.results
    valid = [r for r in every if is_valid(r)]
    cost = None
    if prices is not None and valid:
        cost = _mean([(r.tokens_in * prices.input + r.tokens_out * prices.output) / 1e6 for r in valid])
    return Table1Row(
        label=label,
        floor=floor,
        task_set=run_set(run),
        episodes=len(every),
        valid=len(valid),
        success_rate=_mean([1.0 if r.success else 0.0 for r in valid]),
        mean_score=_mean([r.score for r in valid]),
        avg_steps=_mean([float(r.steps) for r in valid]),
        avg_duration_s=_mean([r.duration_s for r in valid]),
        budget_exhaustion_rate=_mean([1.0 if r.termination == "budget_exhausted" else 0.0 for r in valid]),
        avg_tokens=_mean([float(r.tokens_in + r.tokens_out) for r in valid]),
        cost_per_task_usd=cost,
        invalid_rate=_mean([0.0 if is_valid(r) else 1.0 for r in every]),
    )


def floor_label(run: LoadedRun) -> str:
    config = (run.config or {}).get("config") or {}
    agent = str(config.get("agent") or (run.results[0].agent if run.results else "") or run.run_dir.name)
    return f"floor: {agent}"


def floor_rows(
    floors: Sequence[LoadedRun], task_sets: set[str], *, prices: Prices | None = None
) -> tuple[list[Table1Row], list[str]]:
    """The floors that ran one of ``task_sets`` (noop, random, first-match first); notes on the rest."""
    rows: list[Table1Row] = []
    notes: list[str] = []
    for run in floors:
        label = floor_label(run)
        row = table1_row(label, run, prices=prices, floor=True)
        if row.task_set not in task_sets:
            notes.append(
                f"{run.run_dir}: left out of the floors, it ran {row.task_set}, not {' / '.join(sorted(task_sets))}"
            )
            continue
        rows.append(row)

    def order(row: Table1Row) -> int:
        agent = row.label.removeprefix("floor: ")
        return FLOOR_AGENTS.index(agent) if agent in FLOOR_AGENTS else len(FLOOR_AGENTS)

    return sorted(rows, key=order), notes


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _num(v: float | None, digits: int = 2) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def table1(rows: Sequence[Table1Row]) -> Table:
    table = Table(title="Table 1 (valid episodes; floors of the same task set below)", title_justify="left")
    for col in (
        "Run",
        "Episodes",
        "Success",
        "Mean score",
        "Avg steps",
        "Duration",
        "Budget exh.",
        "Tokens/task",
    ):
        table.add_column(col, justify="left" if col == "Run" else "right")
    with_cost = any(r.cost_per_task_usd is not None for r in rows)
    if with_cost:
        table.add_column("Cost/task", justify="right")
    table.add_column("Invalid", justify="right")
    for r in rows:
        cells = [
            escape(r.label),  # a label is text: `[text-only]` is no markup tag
            str(r.episodes),
            _pct(r.success_rate),
            _num(r.mean_score, 3),
            _num(r.avg_steps, 1),
            "-" if r.avg_duration_s is None else f"{r.avg_duration_s:.1f} s",
            _pct(r.budget_exhaustion_rate),
            _num(r.avg_tokens, 0),
        ]
        if with_cost:
            cells.append("-" if r.cost_per_task_usd is None else f"${r.cost_per_task_usd:.4f}")
        cells.append(_pct(r.invalid_rate))
        table.add_row(*cells, style="dim" if r.floor else None)
    return table
