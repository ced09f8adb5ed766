"""``tasks validate`` and ``tasks census``: every quality gate on tasks, and what their worlds hold."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from devicesworld.spec.models import Task

from devicesworld.cli.common import (
    console,
    err_console,
    load_source,
    runnable_here,
    selection_options,
)


@click.command("validate")
@click.argument("path", required=False, type=click.Path())
@click.option("--suite", help="A built-in suite (default smoke when no PATH).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
@click.option("--no-near-misses", is_flag=True, help="Skip the near-miss gate (faster, weaker).")
@click.option("--no-paraphrases", is_flag=True, help="Skip the paraphrase gate (correct variants must pass).")
@click.option(
    "--no-play-back",
    is_flag=True,
    help="Replay every device of every variant (slower; the default plays back the devices a variant "
    "leaves as recorded, with the same verdict: docs/performance.md).",
)
@click.option(
    "--gate",
    type=click.Choice(["run", "coherence"]),
    default="run",
    show_default=True,
    help="run: play every task on its devices; coherence: read instruction, worlds and checks for one story "
    "(no device starts; counts per rule).",
)
@click.option(
    "--report-dir",
    type=click.Path(file_okay=False),
    help="Write one JSON report per scenario family there, and take the families already written "
    "from it (a long run resumes where it stopped).",
)
@click.option(
    "--retry-failed",
    is_flag=True,
    help="With --report-dir: prove again the tasks whose written report failed (take the passed ones).",
)
@selection_options
@click.option("--json", "as_json", is_flag=True)
def tasks_validate(
    path: str | None,
    suite: str | None,
    workers: int,
    no_near_misses: bool,
    no_paraphrases: bool,
    no_play_back: bool,
    gate: str,
    report_dir: str | None,
    retry_failed: bool,
    task_ids: tuple[str, ...],
    filters: tuple[str, ...],
    as_json: bool,
) -> None:
    """Prove every task: setup alone fails, the solution passes, near misses fail, correct variants
    pass, cleanup is clean."""
    if retry_failed and report_dir is None:
        raise click.UsageError("--retry-failed proves again the failures written to a --report-dir: give one")
    if gate == "coherence":
        _validate_coherence(load_source(suite, path, task_ids=task_ids, filters=filters), as_json)
        return
    from devicesworld.progress import progress_bar
    from devicesworld.tasks.validate import mutation_counts, paraphrase_counts
    from devicesworld.tasks.validate_many import validate_many

    items = runnable_here(load_source(suite, path, task_ids=task_ids, filters=filters))
    started = time.perf_counter()
    failed = 0
    with progress_bar(err_console, "validate", len(items)) as bar:

        def tick(batch: list[Any]) -> None:
            nonlocal failed
            failed += sum(not r.ok for r in batch)
            bar.advance(len(batch), failed=failed)

        options: dict[str, Any] = {
            "workers": workers,
            "near_miss": not no_near_misses,
            "paraphrase": not no_paraphrases,
            "play_back": not no_play_back,
            "progress": tick,
        }
        if report_dir is not None:
            from pathlib import Path

            from devicesworld.tasks.validate_shards import validate_shards

            reports = validate_shards(items, Path(report_dir), retry_failed=retry_failed, **options)
        else:
            reports = validate_many(items, **options)
    seconds = time.perf_counter() - started
    bad = [r for r in reports if not r.ok]
    if as_json:
        click.echo(json.dumps([r.model_dump() for r in reports], indent=2))
    else:
        for r in bad:
            err_console.print(f"[red]FAIL[/] {escape(r.task_id)}", highlight=False)
            for p in r.problems:
                err_console.print(f"    {escape(p)}", highlight=False)
        misses = sum(r.near_misses for r in reports)
        console.print(
            f"{len(reports) - len(bad)}/{len(reports)} tasks valid ({misses} near misses failed as they must) "
            f"in {seconds:.1f} s with {workers} worker(s)"
        )
        if misses:
            console.print("near misses per mutation (run, all failed as they must unless listed above):")
            for name, (runs, tasks_with) in mutation_counts(reports).items():
                console.print(f"  {name:<17} {runs:>6} on {tasks_with} task(s)")
        variants = sum(sum(r.paraphrases.values()) for r in reports)
        if variants:
            skipped = sum(r.paraphrases_skipped for r in reports)
            console.print(
                f"correct variants per paraphrase gate (run, all passed as they must unless listed above; "
                f"{skipped} skipped whose steps did not run):"
            )
            for name, (runs, tasks_with) in paraphrase_counts(reports).items():
                console.print(f"  {name:<17} {runs:>6} on {tasks_with} task(s)")
        played = sum(r.played_back for r in reports)
        if played:
            console.print(f"{played} variant(s) ran with the devices they leave as recorded played back")
    if bad:
        raise SystemExit(1)


def _validate_coherence(items: list[Task], as_json: bool) -> None:
    """The coherence gate (``tasks/coherence.py``) on every task: problems, then counts per rule."""
    from devicesworld.tasks.coherence import check_coherence

    report = check_coherence(items)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        for problem in report.problems:
            err_console.print(
                f"[red]INCOHERENT[/] {escape(problem.task_id)}: {escape(problem.line())}", highlight=False
            )
        console.print(f"{report.coherent}/{report.total} tasks coherent")
        for rule, count in report.tasks_per_rule.items():
            console.print(f"  {rule:<22} {count:>6} task(s)")
    if report.coherent < report.total:
        raise SystemExit(1)


@click.command("census")
@click.option("--suite", help="A built-in suite (default smoke).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder.")
@selection_options
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N tasks.")
@click.option("--json", "as_json", is_flag=True)
def tasks_census(
    suite: str | None,
    tasks_path: str | None,
    task_ids: tuple[str, ...],
    filters: tuple[str, ...],
    limit: int | None,
    as_json: bool,
) -> None:
    """Set up each task and print what its devices hold (contacts, messages, files, rooms, ...)."""
    from devicesworld.tasks.census import take_census

    result = take_census(load_source(suite, tasks_path, task_ids=task_ids, filters=filters), limit)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    table = Table(title=f"census of {len(result.tasks)} tasks")
    for col in ("task", "world", "device", "holds"):
        table.add_column(col, overflow="fold")
    for t in result.tasks:
        world = f"{t.world.persona_seed}/{t.world.size}" if t.world else "-"
        if t.error:
            table.add_row(escape(t.task), world, "", escape(f"setup failed: {t.error}"))
        for d in t.devices:
            holds = ", ".join(f"{k} {v}" for k, v in d.counts.items()) or "(no census)"
            table.add_row(escape(t.task), world, escape(d.device), escape(holds))
    console.print(table)
    for kind, counters in result.medians.items():
        shown = ", ".join(f"{k} {v:g}" for k, v in counters.items())
        console.print(f"median per {escape(kind)}: {escape(shown)}", highlight=False)
    if result.summary is not None:
        free, cover = result.summary.unmentioned, result.summary.distractors
        share = "-" if free.share is None else f"{free.share:.0%}"
        console.print(
            f"unmentioned items: {free.with_unmentioned} of {free.tasks} tasks with listed items ({share}); "
            f"distractors: {cover.covered} of {cover.tasks} reading tasks cover every value read",
            highlight=False,
        )
        for task_id, values in cover.uncovered.items():
            console.print(f"  uncovered {escape(task_id)}: {escape('; '.join(values))}", highlight=False)
    if any(t.error for t in result.tasks):
        raise SystemExit(1)
