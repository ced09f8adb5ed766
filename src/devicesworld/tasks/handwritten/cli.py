"""``devicesworld tasks compile`` and ``tasks macros``: the handwritten data files from the command line.

Kept out of ``cli.py`` so that the main CLI only registers the commands; everything
heavy is imported when a command runs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click


def _fail(text: str) -> None:
    click.echo(text, err=True)
    raise SystemExit(2)


@click.command("compile")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--suite", help="Compile every data file of a handwritten suite (smoke, bmoca).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), help="Folder to write.")
@click.option(
    "--check", is_flag=True, help="Compare with the shipped built files; exit 1 naming each difference."
)
def compile_command(files: tuple[Path, ...], suite: str | None, out_dir: Path | None, check: bool) -> None:
    """Compile handwritten task data files (YAML/JSON) to tasks; --check compares with the shipped suites."""
    from devicesworld import jsonl
    from devicesworld.tasks.handwritten.compiler import compile_files
    from devicesworld.tasks.handwritten.suites import (
        SUITE_FILES,
        differences,
        differences_by_id,
        shipped_lines,
        suite_paths,
    )
    from devicesworld.tasks.handwritten.yamlfile import DataFileError, DataFileErrors
    from devicesworld.tasks.shipped import shipped_path, suite_bytes

    if files and suite:
        _fail("give data files or --suite, not both")
    if suite is not None and suite not in SUITE_FILES:
        _fail(f"no handwritten suite {suite!r}; handwritten suites: {', '.join(sorted(SUITE_FILES))}")
    if not files and suite is None and not check:
        _fail("nothing to compile: give data files, --suite NAME, or --check (every handwritten suite)")
    names = [suite] if suite else [] if files else sorted(SUITE_FILES)
    jobs: list[tuple[str | None, list[Path]]] = [(name, suite_paths(name)) for name in names]
    jobs = jobs or [(None, list(files))]
    differing = 0
    for name, paths in jobs:
        started = time.perf_counter()
        try:
            tasks = compile_files(paths)
        except (DataFileErrors, DataFileError) as exc:
            _fail(str(exc))
        label = f"suite {name}" if name else f"{len(paths)} file(s)"
        click.echo(f"compiled {label}: {len(tasks)} tasks in {time.perf_counter() - started:.1f} s")
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            if name:
                target = out_dir / shipped_path(name).name
                target.write_bytes(suite_bytes(tasks))
            else:
                target = out_dir / "tasks.jsonl"
                target.write_text("".join(jsonl.model_line(t) for t in tasks), encoding="utf-8")
            click.echo(f"  wrote {target}")
        if not check:
            continue
        if name:
            found = differences(name, tasks)
        else:
            shipped = {tid: line for n in SUITE_FILES for tid, line in shipped_lines(n).items()}
            found = differences_by_id(shipped, tasks)
        for d in found:
            click.echo(f"  DIFFERS {d.task_id}: {d.problem}", err=True)
        differing += len(found)
        if not found:
            click.echo(f"  identical to the shipped {shipped_path(name).name if name else 'tasks'}")
    if differing:
        click.echo(
            f"{differing} difference(s) from the shipped files: fix the data file, or rebuild the shipped file with "
            "`devicesworld tasks compile --suite NAME --out DIR`, copy it to src/devicesworld/tasks/data/ and run "
            "`python -m devicesworld.tasks.shipped` (and bump the suite's version if results stop being comparable)",
            err=True,
        )
        sys.exit(1)


@click.command("macros")
def macros_command() -> None:
    """List the macros a task file may use: each kind's (docs/task-format.md, "Data files"), then the
    scenario families' step templates (docs/scenarios.md, "Step templates")."""
    from devicesworld import macros
    from devicesworld.devices.base import get_kind, kind_names
    from devicesworld.tasks.scenarios.loader import shipped_macros

    for name in kind_names():
        get_kind(name)  # loading a kind registers its macros
    for kind in macros.kinds_with_macros():
        click.echo(f"{kind}:")
        for m in macros.macros_of(kind):
            click.echo(f"  {m.section:<8} {m.doc}")
    click.echo("scenario step templates (tasks/data/scenarios/_macros*.yaml, `macro: NAME` in a family):")
    for name, template in sorted(shipped_macros().items()):
        args = f"({', '.join(template.args)})" if template.args else ""
        click.echo(f"  {template.kind:<9} {name}{args}: {template.doc}")
