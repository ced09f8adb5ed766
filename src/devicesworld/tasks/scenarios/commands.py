"""``devicesworld tasks scenarios``: list, check and compile scenario families.

The commands a family author needs while writing one: ``check`` loads files (the
shipped ones by default) through the static gate, optionally compiles a few draws
and proves them with ``tasks validate``'s gates; ``compile`` writes a family's
tasks to a JSONL file that every other command (``tasks show``, ``run``) reads.
Heavy modules are imported inside the commands, so ``devicesworld --help`` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from devicesworld.spec.models import Task
    from devicesworld.tasks.scenarios.model import Family


@click.group("scenarios")
def scenarios() -> None:
    """Scenario families: tasks written as data (docs/scenarios.md)."""


@scenarios.command("list")
def scenarios_list() -> None:
    """Every shipped family: pattern, category, roles, phrasings, infeasible variants, tier."""
    from devicesworld.tasks.scenarios.compile import FamilyError
    from devicesworld.tasks.scenarios.loader import shipped_families

    try:
        families = shipped_families()
    except FamilyError as exc:
        raise click.ClickException(str(exc)) from None
    for f in families:
        roles = ", ".join(f"{r}={k}{' (gui)' if r in f.gui else ''}" for r, k in f.roles.items())
        variants = ",".join(v.id for v in f.infeasible) or "-"
        click.echo(
            f"{f.family:<34} {f.pattern:<36} {f.category:<26} {roles}  "
            f"phrasings={len(f.phrasings)} infeasible={variants} tier={f.tier}"
        )
    click.echo(f"{len(families)} families")


def _sourced(paths: tuple[str, ...]) -> list[tuple[Family, Path | None]]:
    """Each family with the file it was read from (``None`` for a shipped name); raises on the first bad one."""
    from devicesworld.tasks.scenarios.loader import family_by_name, load_family_file, shipped_families

    if not paths:
        return [(f, None) for f in shipped_families()]
    out: list[tuple[Family, Path | None]] = []
    for p in paths:
        path = Path(p)
        if path.suffix in (".yaml", ".yml") or path.exists():
            out.append((load_family_file(path), path))
        else:
            out.append((family_by_name(p), None))
    return out


def compile_some(
    family: Family, count: int, *, prefix: str | None = None, file: Path | None = None
) -> tuple[list[Task], list[str]]:
    """``count`` tasks of a family (feasible and each variant in turn), and the draws that failed.

    With ``file`` (where the family was read from) each failure is ``FILE:LINE:COL: field: message``.
    """
    from devicesworld.env.controller import EnvError
    from devicesworld.tasks.scenarios import located
    from devicesworld.tasks.scenarios.build import family_choices
    from devicesworld.tasks.scenarios.compile import FamilyError, compile_task
    from devicesworld.tasks.scenarios.loader import shipped_macros

    doc = located.read(file) if file is not None else None
    tasks: list[Task] = []
    failures: list[str] = []
    for i, choice in enumerate(family_choices(family, seed=0, count=count)):
        draw = f"draw {i} (seed {choice.seed}, variant {choice.variant})"
        try:
            task_id = f"dw-{prefix or family.family.replace('_', '-')}-{i:04d}"
            task = compile_task(family, shipped_macros(), choice, task_id)
            bad_setup = _setup_arg_problems(task)
            if bad_setup:
                raise EnvError(bad_setup[0])
            tasks.append(task)
        except (FamilyError, EnvError) as exc:
            message = str(exc.args[0] if exc.args else exc)
            if file is None:
                failures.append(f"{draw}: {message}")
            else:
                failures += [
                    str(e) for e in located.draw_failure(file, doc, family, choice.variant, draw, message)
                ]
    return tasks, failures


def _setup_arg_problems(task: Task) -> list[str]:
    """Setup ops whose rendered arguments their kind refuses, phrased as the controller would."""
    from pydantic import ValidationError

    from devicesworld.devices.base import describe_validation_error, get_kind

    kinds = {d.id: get_kind(d.kind) for d in task.devices}
    out = []
    for i, op in enumerate(task.setup):
        kind = kinds.get(op.device)
        spec = kind.setup_ops.get(op.op) if kind is not None else None
        if spec is None:
            continue  # the static gate names unknown ops
        try:
            spec.parse_args(op.args)
        except ValidationError as exc:
            out.append(f"setup.{i} ({op.op}): invalid arguments: {describe_validation_error(exc)}")
    return out


@scenarios.command("check")
@click.argument("paths", nargs=-1)
@click.option(
    "--compile", "count", type=click.IntRange(min=0), default=0, help="Also compile N tasks per family."
)
@click.option(
    "--validate", is_flag=True, help="Prove the compiled tasks with every gate of `tasks validate`."
)
def scenarios_check(paths: tuple[str, ...], count: int, validate: bool) -> None:
    """Check family files (or shipped family names; default: all shipped) through the static gate."""
    from devicesworld.tasks.scenarios.compile import FamilyError
    from devicesworld.tasks.validate import validate_task

    bad = 0
    families: list[tuple[Family, Path | None]] = []
    for group in [(p,) for p in paths] if paths else [()]:
        try:
            families += _sourced(group)
        except FamilyError as exc:  # each line FILE:LINE:COL: field: message, as compilers print them
            bad += 1
            click.echo(str(exc), err=True)
            click.echo(f"FAIL {group[0] if group else 'the shipped families'}", err=True)
    for f, file in families:
        problems: list[str] = []
        tasks: list[Task] = []
        if count:
            tasks, problems = compile_some(f, count, file=file)
        if validate:
            for t in tasks:
                report = validate_task(t)
                problems += [f"{t.id}: {p}" for p in report.problems]
        status = "ok" if not problems else "FAIL"
        bad += bool(problems)
        click.echo(f"{status:<4} {f.family} ({len(tasks)} compiled{', validated' if validate else ''})")
        for p in problems[:8]:
            click.echo(p if file is not None else f"     {p}")
    if bad:
        raise SystemExit(1)


@scenarios.command("compile")
@click.argument("family")
@click.option("--count", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="JSONL file (default: stdout).")
@click.option("--validate", is_flag=True, help="Keep only tasks that pass every QC gate.")
def scenarios_compile(family: str, count: int, out: Path | None, validate: bool) -> None:
    """Compile a family (a shipped name or a file) into tasks."""
    from devicesworld import jsonl
    from devicesworld.tasks.scenarios.compile import FamilyError
    from devicesworld.tasks.validate import validate_task

    try:
        ((fam, file),) = _sourced((family,))
    except FamilyError as exc:
        raise click.ClickException(str(exc)) from None
    tasks, failures = compile_some(fam, count, file=file)
    for f in failures:
        click.echo(f"rejected {f}", err=True)
    if validate:
        kept = []
        for t in tasks:
            report = validate_task(t)
            if report.ok:
                kept.append(t)
            else:
                click.echo(f"rejected {t.id}: {report.problems[0]}", err=True)
        tasks = kept
    text = "".join(jsonl.model_line(t) for t in tasks)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"{len(tasks)} tasks -> {out}", err=True)


LOW_SHARE = 0.97
"""A family is flagged LOW when it is expected to keep fewer than this share of its quota."""


@scenarios.command("capacity")
@click.option(
    "--family", "names", multiple=True, help="A shipped family name or a file (repeatable; default: all)."
)
@click.option(
    "--quota",
    type=click.IntRange(min=1),
    default=None,
    help="Tasks asked of each family (default: the full recipe's largest share).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON document per family.")
def scenarios_capacity(names: tuple[str, ...], quota: int | None, as_json: bool) -> None:
    """How many distinct tasks each family's parameters allow (counted, not proven).

    Distinct as the full build dedupes them: instruction, world and setup. `expected` is
    how many distinct tasks a build asking QUOTA of the family can expect to keep.
    """
    from devicesworld.tasks.full import recipe
    from devicesworld.tasks.scenarios.capacity import CAP, family_capacity
    from devicesworld.tasks.scenarios.compile import FamilyError

    try:
        families = [f for f, _ in _sourced(names)]
        share = quota or max(s.count for s in recipe())
    except FamilyError as exc:
        raise click.ClickException(str(exc)) from None
    low = 0
    for f in families:
        cap = family_capacity(f, share)
        narrow = cap.expected < LOW_SHARE * share
        low += narrow
        if as_json:
            click.echo(cap.model_dump_json())
            continue
        shown = f"{cap.distinct}{'' if cap.exact else '+'}" if cap.distinct < CAP else f"{CAP}+"
        flag = "  LOW" if narrow else ""
        click.echo(f"{f.family:<34} distinct={shown:<9} expected@{share}={cap.expected:<7g}{flag}")
    if not as_json:
        click.echo(f"{len(families)} families, {low} expected to repeat more than 3% of {share} draws")
