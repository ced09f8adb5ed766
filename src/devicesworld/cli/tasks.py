"""``devicesworld tasks``: the group, and the commands that browse tasks (list, show, schema,
compare-value); the heavier subcommands live in their own modules and load when called."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    pass

from devicesworld.cli.common import (
    DEFAULT_SUITE,
    LazyGroup,
    UserError,
    console,
    find_task_doc,
    lookup_options,
    selection_options,
    task_rows,
)


# ----------------------------------------------------------------------------- tasks
@click.group(
    cls=LazyGroup,
    lazy={
        "scenarios": "devicesworld.cli.tasks:scenarios_group",
        "compile": "devicesworld.tasks.handwritten.cli:compile_command",
        "macros": "devicesworld.tasks.handwritten.cli:macros_command",
        "freeze": "devicesworld.cli.tasks_split:tasks_freeze",
        "draw": "devicesworld.cli.tasks_split:tasks_draw",
        "validate": "devicesworld.cli.tasks_quality:tasks_validate",
        "census": "devicesworld.cli.tasks_quality:tasks_census",
        "build": "devicesworld.cli.tasks_build:tasks_build",
        "rebuild": "devicesworld.cli.tasks_build:tasks_rebuild",
        "declare-profiles": "devicesworld.cli.tasks_build:tasks_declare_profiles",
        "refine": "devicesworld.cli.tasks_build:tasks_refine",
    },
)
def tasks() -> None:
    """List, show, validate tasks and print the task JSON Schema."""


@tasks.command("list")
@click.option("--suite", help="A built-in suite (default smoke; with no option at all, the suites).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder.")
@selection_options
@click.option("--instructions", is_flag=True, help="Add each task's instruction.")
@click.option("--json", "as_json", is_flag=True)
def tasks_list(
    suite: str | None,
    tasks_path: str | None,
    task_ids: tuple[str, ...],
    filters: tuple[str, ...],
    instructions: bool,
    as_json: bool,
) -> None:
    """One line per task: id, device kinds, pattern, difficulty, tier, split (read from the task index).

    Without --suite, --tasks or a selection: one line per suite instead (its size, what it is for,
    whether it is frozen)."""
    if not (suite or tasks_path or task_ids or filters):
        _list_suites(as_json)
        return
    rows = [
        {**r, "tier": r.get("tier") or "standard"} for r in task_rows(suite, tasks_path, task_ids, filters)
    ]
    if as_json:
        keys = ("id", "device_kinds", "devices", "pattern", "difficulty", "tier", "split", "apps")
        click.echo(
            json.dumps(
                [
                    {k: r[k] for k in keys} | ({"instruction": r["instruction"]} if instructions else {})
                    for r in rows
                ],
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    table = Table(title=f"{len(rows)} tasks{_manifest_title(suite, tasks_path)}")
    # With instructions the pattern and split make room (they stay in --json).
    columns = (
        ["id", "devices", "difficulty", "tier", "instruction"]
        if instructions
        else ["id", "devices", "pattern", "difficulty", "tier", "split"]
    )
    for col in columns:
        table.add_column(col, overflow="fold", ratio=1 if col == "instruction" else None)
    for r in rows:
        cells = {**r, "devices": ", ".join(r["devices"])}
        table.add_row(*(escape(str(cells[c])) for c in columns))
    console.print(table)


def _list_suites(as_json: bool) -> None:
    from devicesworld.tasks.suites import suite_summaries

    summaries = suite_summaries()
    if as_json:
        keys = ("suite", "tasks", "about", "frozen")
        click.echo(json.dumps([dict(zip(keys, s, strict=True)) for s in summaries], indent=2))
        return
    table = Table(title=f"{len(summaries)} suites (devicesworld tasks list --suite NAME lists one's tasks)")
    for col in ("suite", "tasks", "frozen", "what it is for"):
        table.add_column(col, overflow="fold", justify="right" if col == "tasks" else "left")
    for name, size, about, frozen in summaries:
        table.add_row(name, str(size), "frozen" if frozen else "", escape(about))
    console.print(table)


def _manifest_title(suite: str | None, tasks_path: str | None) -> str:
    """`` · test-v2.1 (sha256:6fbedb91…)`` for a frozen split, else nothing."""
    from devicesworld.tasks.manifest import ManifestError, load_manifest, resolve

    name = suite or DEFAULT_SUITE
    if tasks_path or resolve(name) is None:
        return ""
    try:
        manifest = load_manifest(name)
    except ManifestError as exc:
        raise UserError(str(exc)) from None
    return f" · manifest {manifest.label} ({manifest.hash[:15]}…)"


@tasks.command("show")
@click.argument("task_id")
@lookup_options
@click.option("--json", "as_json", is_flag=True, help="Print the full task document.")
def tasks_show(task_id: str, suite: str | None, tasks_path: str | None, as_json: bool) -> None:
    """Show one task; with --json the document loads again with `run --tasks`."""
    doc = find_task_doc(task_id, suite, tasks_path)
    if as_json:
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    md = doc["metadata"]
    console.print(f"[bold]{escape(doc['id'])}[/]  ({md['pattern']}, {md['difficulty']})")
    console.print(doc["instruction"], highlight=False, markup=False)
    console.print(f"devices: {', '.join(d['id'] for d in doc['devices'])}")
    if doc.get("world"):
        w = doc["world"]
        console.print(
            f"world: persona {w['persona_seed']}, {w.get('size', 'lived')} (docs/worlds.md)", highlight=False
        )
        for device, member in (w.get("members") or {}).items():
            console.print(f"  {device}: the {member}'s own world", highlight=False, markup=False)
    for c in doc["evaluation"]["conditions"]:
        flags = ("required " if c["required"] else "") + ("scored" if c["scored"] else "")
        console.print(
            f"  - {c['id']} [{c['device']}] {c['check']} {json.dumps(c['args'])} ({flags.strip()})",
            highlight=False,
            markup=False,
        )
    console.print(f"reference solution: {len(doc['solution'])} steps")


@tasks.command("schema")
def tasks_schema() -> None:
    """Print the JSON Schema of a task document."""
    from devicesworld.spec.models import task_json_schema

    click.echo(json.dumps(task_json_schema(), indent=2))


@tasks.command("compare-value")
@click.argument("answer")
@click.argument("expected")
@click.option("--type", "kind", default="auto", show_default=True, help="date, time, phone, money, ...")
@click.option("--in-text", is_flag=True, help="Find the value inside ANSWER instead of comparing the whole.")
@click.option("--distractor", "distractors", multiple=True, help="A value the answer must not give.")
@click.option("--locale", default="en-US", show_default=True, help="Reads numeric dates and decimals.")
@click.option("--today", help="The task's date (YYYY-MM-DD), for dates without a year.")
@click.option("--json", "as_json", is_flag=True)
def tasks_compare_value(
    answer: str,
    expected: str,
    kind: str,
    in_text: bool,
    distractors: tuple[str, ...],
    locale: str,
    today: str | None,
    as_json: bool,
) -> None:
    """Would a verifier count ANSWER as EXPECTED? (the value semantics of docs/verifiers.md)"""
    from datetime import date

    from devicesworld.spec import values

    if kind not in values.VALUE_TYPES:
        raise UserError(f"unknown value type {kind!r}; use one of {', '.join(values.VALUE_TYPES)}")
    try:
        day = date.fromisoformat(today) if today else values.ValueContext().today
    except ValueError:
        raise UserError(f"--today {today!r} is not a date like 2026-03-02") from None
    typed = values.TypedValue(value=expected, type=kind)
    with values.using(values.ValueContext(today=day, locale=locale)):
        resolved = values.resolve_type(expected, typed.type)
        if in_text:
            verdict = values.judge_text(answer, [typed], list(distractors), typed.type)
            passed, detail = verdict.passed, verdict.explain()
        else:
            passed = values.judge_field(answer, typed, list(distractors), typed.type)
            detail = "the same value" if passed else "not the same value"
    if as_json:
        click.echo(json.dumps({"passed": passed, "type": resolved, "detail": detail}))
    else:
        console.print(f"{'[green]match[/]' if passed else '[red]no match[/]'} ({resolved}): {escape(detail)}")


def scenarios_group() -> click.Command:
    """``tasks scenarios``, with the runner's ``calibrate`` added to it."""
    from devicesworld.runner.calibrate import scenarios_calibrate
    from devicesworld.tasks.scenarios.commands import scenarios

    scenarios.add_command(scenarios_calibrate)
    return scenarios
