"""What every command module shares: the consoles, the user-error type, the click groups that
turn expected failures into one-line errors and load commands lazily, and the task-source helpers
(``--suite``/``--tasks`` and the selection options)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from devicesworld.spec.models import Task


console = Console()


err_console = Console(stderr=True)


DEFAULT_SUITE = "smoke"


class UserError(click.ClickException):
    """An error the user can fix; shown without a traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        err_console.print(f"[bold red]error:[/] {escape(self.message)}", highlight=False, soft_wrap=True)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException:
            raise
        except Exception as exc:
            # The error types are imported only once one is raised: `tasks show` stays fast.
            from devicesworld.env.controller import EnvError
            from devicesworld.runner.run import RunError
            from devicesworld.tasks.filtering import FilterError
            from devicesworld.tasks.loading import TaskLoadError

            if isinstance(exc, TaskLoadError):
                err_console.print(
                    f"[bold red]error:[/] {len(exc.issues)} problem(s) in task files:", highlight=False
                )
                for shown in exc.shown_lines():
                    err_console.print(escape(shown), highlight=False, soft_wrap=True)
                raise SystemExit(2) from None
            from devicesworld.extras import EXTRAS

            if isinstance(exc, ImportError) and (exc.name or "").split(".")[0] in EXTRAS:
                raise UserError(_missing_extra(exc)) from None
            if isinstance(exc, RunError | EnvError | KeyError | FileNotFoundError | FilterError):
                message = exc.args[0] if exc.args else str(exc)
                raise UserError(str(message)) from None
            raise


class LazyGroup(_Group):
    """A group whose subcommands are imported only when one is called or listed.

    ``devicesworld --version`` and every other command then pay nothing for the commands they do
    not run (click's lazy-loading pattern: the group knows each lazy command's name and where it
    lives, ``"module:attribute"``; an attribute that is not a command is called to make one)."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kw: Any):
        super().__init__(*args, **kw)
        self.lazy: dict[str, str] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = self.lazy.pop(cmd_name, None)
        if where is not None:
            import importlib

            module, _, attr = where.partition(":")
            found = getattr(importlib.import_module(module), attr)
            self.add_command(found if isinstance(found, click.Command) else found(), cmd_name)
        return super().get_command(ctx, cmd_name)


def runnable_here(items: list[Task], *, refuse: str | None = None) -> list[Task]:
    """``items`` without the tasks whose devices cannot start on this machine, each reason said once
    (each device kind answers for itself: ``KindTraits.unavailable``).

    With ``refuse`` (the option that would skip them, e.g. ``--skip-unavailable``), such tasks are
    refused before anything runs: a run must not score a missing tool as the agent's failure. With
    ``DEVICESWORLD_REQUIRE_SYSTEM=1`` a missing system tool is always an error.
    """
    from devicesworld.tasks.availability import REQUIRE_ENV, required, split_runnable

    runnable, skipped = split_runnable(items)
    lines = [
        f"{len(ids)} task(s) need what this machine lacks: {reason} (e.g. {ids[0]})"
        for reason, ids in skipped.items()
    ]
    if lines and required():
        raise UserError(f"{lines[0]}; {REQUIRE_ENV}=1 makes this an error")
    if lines and refuse is not None:
        dropped = len(items) - len(runnable)
        raise UserError(
            f"refusing to run: {'; '.join(lines)}. Install what is missing, or pass {refuse} to run "
            f"without these {dropped} task(s) (the run records how many it dropped)"
        )
    for line in lines:
        err_console.print(f"skipped {line}", highlight=False, markup=False)
    if lines:
        err_console.print(
            f"skipped {len(items) - len(runnable)} of {len(items)} task(s) in all", highlight=False
        )
    if items and not runnable:
        raise UserError("no task of the selection can run on this machine (see the skipped lines above)")
    return runnable


def load_source(
    suite: str | None,
    tasks_path: str | None,
    *,
    default_suite: str | None = DEFAULT_SUITE,
    task_ids: tuple[str, ...] = (),
    filters: tuple[str, ...] = (),
) -> list[Task]:
    """The tasks of ``--suite``/``--tasks``, narrowed by ``--task-ids`` and ``--filter``."""
    from devicesworld.tasks.loading import load_tasks
    from devicesworld.tasks.suites import load_suite

    if suite and tasks_path:
        raise UserError("give either --suite or --tasks, not both")
    if tasks_path:
        items = load_tasks(tasks_path)
    else:
        name = suite or default_suite
        if name is None:
            raise UserError("give --suite NAME or --tasks PATH")
        from devicesworld.tasks.shipped import index_rows, read_rows

        # choose from the index, parsing only the chosen lines (a suite outside the index,
        # such as an archived test version, is parsed whole and selected below)
        if (task_ids or filters) and index_rows(name):
            rows = task_rows(name, None, task_ids, filters)
            if not rows:
                raise UserError(f"no task matches --filter {' '.join(filters)}")
            return read_rows(rows)
        items = load_suite(name)
    if not (task_ids or filters):
        return items
    from devicesworld.api import select
    from devicesworld.tasks.filtering import parse_ids

    chosen = select(items, ids=parse_ids(task_ids), filter=list(filters))
    if not chosen:
        raise UserError(f"no task matches --filter {' '.join(filters)}")
    return chosen


def selection_options(fn: Any) -> Any:
    """``--task-ids`` and ``--filter``, shared by the commands that pick tasks."""
    fn = click.option(
        "--filter",
        "filters",
        multiple=True,
        metavar="KEY=VALUE",
        help="Keep tasks whose id, pattern, difficulty, kind, kinds, split or app matches (repeatable; "
        "globs, commas for any of), e.g. --filter kind=android --filter difficulty=easy.",
    )(fn)
    return click.option(
        "--task-ids",
        "task_ids",
        multiple=True,
        metavar="ID[,ID...]",
        help="Only these tasks, in this order.",
    )(fn)


def lookup_options(fn: Any) -> Any:
    """``--suite`` and ``--tasks`` of a command that finds one task by id (every built-in suite by default)."""
    fn = click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder to look in.")(
        fn
    )
    return click.option("--suite", help="Suite to look in (default: every built-in suite).")(fn)


def choice_option(*names: str, choices: Sequence[str], help: str | None = None) -> Callable[[Any], Any]:
    """An option that takes one of ``choices``, the first by default (``--help`` shows which)."""
    return click.option(
        *names, type=click.Choice(list(choices)), default=choices[0], show_default=True, help=help
    )


def _source_label(suite: str | None, tasks_path: str | None) -> str:
    return f"file:{tasks_path}" if tasks_path else f"suite:{suite or DEFAULT_SUITE}"


def _missing_extra(exc: ImportError) -> str:
    """``No module named 'openai'`` as the pip command that fixes it."""
    from devicesworld.extras import EXTRAS

    top = (exc.name or "").split(".")[0]
    if top in EXTRAS:
        return f"this needs the optional package {top!r}: pip install 'devicesworld[{EXTRAS[top]}]'"
    return str(exc)


def find_task(task_id: str, suite: str | None, tasks_path: str | None) -> Task:
    """A task by id: from the shipped index (one line parsed), or from --tasks."""
    from devicesworld.spec.models import Task

    return Task.model_validate(find_task_doc(task_id, suite, tasks_path))


def _unindexed_suite(name: str) -> list[Any]:
    """A suite's tasks parsed from its file: for suites the shipped index does not list."""
    from devicesworld.tasks.suites import load_suite

    return load_suite(name)


def find_task_doc(task_id: str, suite: str | None, tasks_path: str | None) -> dict[str, Any]:
    """A task's JSON document: a shipped one from the index without parsing a model, or from --tasks."""
    from devicesworld.tasks.shipped import find_indexed_doc, index_rows
    from devicesworld.tasks.suites import suite_names, unknown_suite

    if tasks_path:
        for task in load_source(None, tasks_path):
            if task.id == task_id:
                doc: dict[str, Any] = task.model_dump(mode="json")
                return doc
        raise UserError(f"no task {task_id!r} in {tasks_path}")
    if suite and suite not in suite_names():
        raise UserError(unknown_suite(suite))
    if suite and not index_rows(suite):  # a suite shipped outside the index (an archived test version)
        for task in _unindexed_suite(suite):
            if task.id == task_id:
                shown: dict[str, Any] = task.model_dump(mode="json")
                return shown
        raise UserError(f"no task {task_id!r} in suite {suite}")
    if suite and not any(r["id"] == task_id for r in index_rows(suite)):
        raise UserError(f"no task {task_id!r} in suite {suite}")
    found = find_indexed_doc(task_id)
    if found is None:
        for name in (n for n in suite_names() if not index_rows(n)):
            for task in _unindexed_suite(name):
                if task.id == task_id:
                    doc = task.model_dump(mode="json")
                    return doc
    if found is None:
        import difflib

        close = difflib.get_close_matches(task_id, [r["id"] for r in index_rows()], n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else " (devicesworld tasks list shows the ids)"
        raise UserError(f"no task {task_id!r} found{hint}")
    return found


def task_rows(
    suite: str | None, tasks_path: str | None, task_ids: tuple[str, ...], filters: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Listing rows: a shipped suite's from the index (no task is parsed), a file's from its tasks."""
    from devicesworld.tasks.filtering import parse_filter, parse_ids, select_rows
    from devicesworld.tasks.shipped import index_rows, task_row
    from devicesworld.tasks.suites import suite_names, unknown_suite

    if suite and tasks_path:
        raise UserError("give either --suite or --tasks, not both")
    name = suite or DEFAULT_SUITE
    if tasks_path:
        rows = [task_row(t) for t in load_source(None, tasks_path)]
    elif name not in suite_names():
        raise UserError(unknown_suite(name))
    else:
        rows = index_rows(name) or [task_row(t) for t in _unindexed_suite(name)]
    picked = select_rows(rows, parse_ids(task_ids), [parse_filter(f) for f in filters])
    return [rows[i] for i in picked]
