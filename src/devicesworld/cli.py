"""The ``devicesworld`` command.

Every expected failure (a malformed task file, an unknown agent, a run directory that
would be overwritten) is printed as a clear message with exit status 2; tracebacks
are for bugs only. ``run`` exits 0 whenever the harness worked, whatever the score;
it exits 1 when it stopped early on consecutive errors or every episode errored.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

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


class _LazyGroup(_Group):
    """A group whose heavy subcommands are imported only when one is called or listed.

    ``devicesworld --version`` and every other command then pay nothing for the server, the
    AndroidWorld bridge or the task compilers (click's lazy-loading pattern: the group knows each
    lazy command's name and how to load it)."""

    def __init__(self, *args: Any, lazy: dict[str, Callable[[], click.Command]] | None = None, **kw: Any):
        super().__init__(*args, **kw)
        self.lazy: dict[str, Callable[[], click.Command]] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        load = self.lazy.pop(cmd_name, None)
        if load is not None:
            self.add_command(load(), cmd_name)
        return super().get_command(ctx, cmd_name)


def _serve() -> click.Command:
    from devicesworld.serve.cli import serve

    return serve


def _androidworld() -> click.Command:
    from devicesworld.compat.androidworld.cli import androidworld

    return androidworld


def _scenarios() -> click.Command:
    from devicesworld.runner.calibrate import scenarios_calibrate
    from devicesworld.tasks.scenarios.commands import scenarios

    scenarios.add_command(scenarios_calibrate)
    return scenarios


def _compile() -> click.Command:
    from devicesworld.tasks.handwritten.cli import compile_command

    return compile_command


def _macros() -> click.Command:
    from devicesworld.tasks.handwritten.cli import macros_command

    return macros_command


@click.group(cls=_LazyGroup, lazy={"serve": _serve, "androidworld": _androidworld})
@click.version_option(package_name="devicesworld")
def main() -> None:
    """DevicesWorld: an executable benchmark for agents that work across phones, desktops and a smart home."""


# --------------------------------------------------------------------------- helpers
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
        # such as the GUI suites, is parsed whole and selected below)
        if (task_ids or filters) and index_rows(name):
            rows = _task_rows(name, None, task_ids, filters)
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


def _source_label(suite: str | None, tasks_path: str | None) -> str:
    return f"file:{tasks_path}" if tasks_path else f"suite:{suite or DEFAULT_SUITE}"


# ------------------------------------------------------------------------------- run
@main.command()
@click.option("--suite", help="A built-in suite, e.g. smoke.")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file (.json/.jsonl) or folder.")
@click.option(
    "--agent",
    required=True,
    help="oracle, noop, random, llm, ..., or your own: module:factory or path/to/file.py:factory "
    "(see docs/writing-an-agent.md).",
)
@click.option("--model", help="Model name for LLM agents.")
@click.option("--base-url", help="OpenAI-compatible endpoint for LLM agents.")
@click.option("--limit", type=click.IntRange(min=1), help="Run only the first N tasks.")
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel episodes."
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="local: this machine's processes; ray: a Ray cluster (pip install 'devicesworld[ray]').",
)
@click.option(
    "--ray-address", help="Ray cluster to use with --backend ray (default: RAY_ADDRESS, else a local one)."
)
@click.option(
    "--episode-timeout",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds after an episode began (its environment set up) before it is stopped and "
    "recorded as time_limit; worker start-up and setup do not count.",
)
@click.option(
    "--agent-call-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=300.0,
    show_default=True,
    help="Seconds one call into the agent (model replies included) may take before its episode "
    "ends as time_limit. The task's max_seconds is enforced while the agent thinks too, counting "
    "the environment's and the agent's own time, not the model's.",
)
@click.option(
    "--prewarm/--no-prewarm",
    default=True,
    show_default=True,
    help="Set up each worker's next episode in the background while the current one runs (while setups take >= 1 ms).",
)
@click.option("--out", type=click.Path(file_okay=False), help="Run directory (default runs/<time>-<agent>).")
@click.option("--resume", is_flag=True, help="Continue a run directory, skipping finished episodes.")
@click.option(
    "--force-resume",
    is_flag=True,
    help="--resume even when the selection, agent, model or seed differs from the run's (rarely right).",
)
@click.option(
    "--trials",
    type=click.IntRange(min=1),
    default=None,
    help="Run each task this many times, each from a fresh reset; the agent's seed is the run's "
    "seed + trial - 1 (report: pass@k, pass^k, flip rate). Default 1.",
)
@click.option(
    "--trial-seeds",
    metavar="S1,S2,...",
    help="The agent's seed in each trial (sets --trials to their number).",
)
@click.option(
    "--retry-errors",
    is_flag=True,
    help="With --resume: run again the episodes that ended in an error or were invalid (their "
    "environment failed).",
)
@click.option(
    "--skip-unavailable",
    is_flag=True,
    help="Drop the tasks whose devices cannot start on this machine (a missing system tool such as "
    "bubblewrap, Xvfb or Wine) and say how many; without it such a run is refused before it starts.",
)
@click.option(
    "--max-errors",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Stop after this many episodes in a row end in an agent or harness error (0: never).",
)
@selection_options
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--screenshots", is_flag=True, help="Save each device's screen after every step (phones, desktops)."
)
@click.option(
    "--log-prompts",
    type=click.Choice(["full", "hash", "none"]),
    default=None,
    help="LLM agents: keep prompts in steps.jsonl in full, as sha256, or not at all (default hash).",
)
@click.option(
    "--agent-opt",
    "agent_opts",
    multiple=True,
    metavar="KEY=VALUE",
    help="An agent option (repeatable), e.g. tools=off, vision=true, timeout_s=30; see docs/agents.md.",
)
@click.option(
    "--env-split",
    type=click.Choice(["train", "test"]),
    help="Put every phone on a B-MoCA training (35) or test (10) profile, chosen per task and seed; "
    "see docs/bmoca.md.",
)
def run(
    suite: str | None,
    tasks_path: str | None,
    agent: str,
    model: str | None,
    base_url: str | None,
    limit: int | None,
    workers: int,
    backend: str,
    ray_address: str | None,
    episode_timeout: float | None,
    agent_call_timeout: float,
    prewarm: bool,
    out: str | None,
    resume: bool,
    force_resume: bool,
    trials: int | None,
    trial_seeds: str | None,
    retry_errors: bool,
    skip_unavailable: bool,
    max_errors: int,
    task_ids: tuple[str, ...],
    filters: tuple[str, ...],
    seed: int,
    screenshots: bool,
    log_prompts: str | None,
    agent_opts: tuple[str, ...],
    env_split: str | None,
) -> None:
    """Run an agent on a suite or task file and write a run directory."""
    from devicesworld.agents.base import AgentOptions
    from devicesworld.agents.registry import get_agent
    from devicesworld.api import default_out_dir
    from devicesworld.progress import progress_bar
    from devicesworld.runner.preflight import LLM_AGENTS, PreflightError, check_endpoint, screenshot_estimate
    from devicesworld.runner.run import RunConfig, execute_run
    from devicesworld.runner.selection import make_selection

    get_agent(agent)  # fail fast on an unknown agent
    resume = resume or force_resume
    seeds = _trial_seeds(trial_seeds, trials)
    trials = len(seeds) if seeds else trials or 1
    if ray_address and backend != "ray":
        raise UserError("--ray-address needs --backend ray")
    if retry_errors and not resume:
        raise UserError("--retry-errors continues a run: use it with --resume --out RUN_DIR")
    extra = _agent_extra(agent_opts, log_prompts)
    _check_agent_options(agent, AgentOptions(seed=seed, model=model, base_url=base_url, extra=extra))
    try:
        check_endpoint(agent, base_url)
    except PreflightError as exc:
        raise UserError(str(exc)) from None
    if agent in LLM_AGENTS:
        extra = _llm_preflight(agent, model, base_url, extra)
    chosen = load_source(suite, tasks_path, task_ids=task_ids, filters=filters)
    tasks = runnable_here(chosen, refuse=None if skip_unavailable else "--skip-unavailable")
    kept = {t.id for t in tasks}
    dropped = [t.id for t in chosen if t.id not in kept]
    source = _source_label(suite, tasks_path)
    if env_split:
        from devicesworld.tasks.env_split import apply_split

        tasks = [apply_split(t, env_split, f"{t.id}#{seed}") for t in tasks]
        source += f" env-split:{env_split}"
    out_dir = Path(out) if out else default_out_dir(agent)
    config = RunConfig(
        agent=agent,
        source=source,
        seed=seed,
        workers=workers,
        backend=backend,
        ray_address=ray_address,
        episode_timeout=episode_timeout,
        agent_call_timeout=agent_call_timeout,
        prewarm=prewarm,
        limit=limit,
        model=model,
        base_url=base_url,
        resume=resume,
        retry_errors=retry_errors,
        max_consecutive_errors=max_errors,
        screenshots=screenshots,
        agent_extra=extra,
        trials=trials,
        force_resume=force_resume,
        selection=make_selection(
            suite=None if tasks_path else suite or DEFAULT_SUITE,
            tasks_path=tasks_path,
            filters=filters,
            task_ids=task_ids,
            limit=limit,
            env_split=env_split,
            agent=agent,
            model=model,
            options=extra,
            seed=seed,
            trials=trials,
            trial_seeds=seeds,
        ),
        skipped_unavailable=dropped,
    )
    total = (min(len(tasks), limit) if limit else len(tasks)) * trials
    if screenshots:
        err_console.print(screenshot_estimate(tasks[:total]), highlight=False)
    if backend == "ray":
        where = ray_address or os.environ.get("RAY_ADDRESS") or "a local cluster"
        err_console.print(f"starting {workers} Ray worker(s) on {where}...", highlight=False)
    passed = errors = 0
    with progress_bar(err_console, f"run {agent}", total) as bar:

        def tick(result: Any) -> None:
            nonlocal passed, errors
            passed += bool(result.success)
            errors += result.termination == "error"
            bar.advance(ok=passed, errors=errors)

        outcome = execute_run(tasks, config, out_dir, on_result=tick, on_start=bar.set_total)
    for warning in outcome.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    if outcome.skipped:
        err_console.print(f"resumed: {outcome.skipped} episode(s) already finished were skipped")
    if outcome.retried_errors:
        err_console.print(f"retried: {outcome.retried_errors} episode(s) that had ended in an error")
    if outcome.results:
        _print_report(out_dir, as_json=False, compare=None)
    console.print(f"run directory: {out_dir}")
    console.print(_summary_line(outcome), highlight=False)
    if outcome.interrupted:
        err_console.print("[yellow]interrupted:[/] finished episodes are saved; continue with --resume")
        raise SystemExit(130)
    if outcome.stopped:
        err_console.print(f"[bold red]stopped:[/] {escape(outcome.stopped)}", highlight=False, soft_wrap=True)
        err_console.print(
            f"fix the cause, then continue with: devicesworld run ... --out {out_dir} --resume --retry-errors",
            highlight=False,
        )
        raise SystemExit(1)
    if outcome.all_errored:
        first = outcome.results[0]
        err_console.print(
            f"[bold red]every episode ended in an error[/] (e.g. {escape(first.task_id)}: "
            f"{escape(first.error or '')}); see {out_dir}/episodes/<task>/steps.jsonl",
            highlight=False,
            soft_wrap=True,
        )
        raise SystemExit(1)


def _trial_seeds(text: str | None, trials: int | None) -> list[int] | None:
    """``--trial-seeds 1,2,3`` as integers; it must agree with ``--trials`` when both are given."""
    if not text:
        return None
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UserError(f"--trial-seeds {text!r}: expected integers separated by commas") from None
    if not seeds:
        raise UserError("--trial-seeds needs at least one seed")
    if trials is not None and trials != len(seeds):
        raise UserError(f"--trials {trials} but --trial-seeds gives {len(seeds)} seed(s)")
    return seeds


def _llm_preflight(
    agent: str, model: str | None, base_url: str | None, extra: dict[str, Any]
) -> dict[str, Any]:
    """One tiny request to the endpoint before any episode (a clear line if it cannot be used);
    ``vision=auto`` becomes what the endpoint takes, so run.json says whether the run was text-only."""
    from devicesworld.agents.llm.preflight import check
    from devicesworld.llmclient import LLMConfig, LLMError

    try:
        config = LLMConfig.from_options(model, base_url, extra)
        found = check(config)
    except LLMError as exc:
        raise UserError(f"agent {agent}: {exc}") from None
    err_console.print(f"endpoint ok: model {config.model!r}; {found.note}", highlight=False, markup=False)
    return {**extra, "vision": found.vision}


def _summary_line(outcome: Any) -> str:
    results = outcome.results
    valid = [r for r in results if r.valid]
    n = len(valid)
    ok = sum(r.success for r in valid)
    errors = sum(r.termination == "error" for r in valid)
    seconds = sum(r.duration_s for r in results)
    rate = f"{100 * ok / n:.1f}%" if n else "n/a"
    line = f"summary: {ok}/{n} succeeded ({rate}), {errors} error(s), {seconds:.1f} s of episodes"
    if len(valid) < len(results):
        line += f"; {len(results) - n} invalid episode(s) not scored (see the report's first line)"
    return line


@main.command()
@click.option("--dry-run", is_flag=True, help="Only list what would be removed.")
@click.option("--json", "as_json", is_flag=True, help="Print what was found as JSON lines.")
@click.option(
    "--caches",
    is_flag=True,
    help="Also remove the cached worlds, rendered documents and proven files (rebuilt when needed).",
)
def clean(dry_run: bool, as_json: bool, caches: bool) -> None:
    """Remove work folders left by runs that were killed (their owner process is gone).

    Folders of live processes are never touched; every `run` does this at its start too.
    With --caches, the disk cache of derived bytes goes too (docs/performance.md).
    """
    from devicesworld.devices.ownership import default_roots, reap

    if caches:
        from devicesworld import diskcache

        folders = diskcache.folders() if dry_run else diskcache.clear()
        if not as_json:
            verb = "would remove" if dry_run else "removed"
            for folder in folders:
                click.echo(f"{verb} cache {folder}")
            gone = "to remove" if dry_run else "removed"
            click.echo(f"{len(folders)} cache folder(s) {gone} in {diskcache.cache_root()}")
    found = reap(dry_run=dry_run)
    if as_json:
        for item in found:
            click.echo(item.model_dump_json())
        return
    for item in found:
        owner = f"pid {item.owner.pid}" if item.owner else "unknown owner"
        state = "would remove" if dry_run else ("removed" if item.removed else "could not remove")
        click.echo(f"{state} {item.path} ({owner}, dead)")  # unwrapped: paths stay whole
    where = ", ".join(str(r) for r in default_roots())
    verb = "to remove" if dry_run else "removed"
    done = sum(1 for i in found if i.removed or dry_run)
    click.echo(f"{done} folder(s) of dead processes {verb} in {where}")


def _check_agent_options(name: str, options: Any) -> None:
    """Build the agent once so that a missing model or key, or a factory that is no agent, fails now."""
    from devicesworld.agents.registry import AGENTS, AgentLoadError, check_agent, get_agent

    if name in AGENTS:
        try:
            AGENTS[name].factory(options)
        except ImportError as exc:
            raise UserError(f"agent {name}: {_missing_extra(exc)}") from None
        except Exception as exc:
            raise UserError(f"agent {name}: {exc}") from None
        return
    try:
        check_agent(get_agent(name), options)
    except AgentLoadError as exc:
        raise UserError(str(exc)) from None


def _missing_extra(exc: ImportError) -> str:
    """``No module named 'openai'`` as the pip command that fixes it."""
    from devicesworld.extras import EXTRAS

    top = (exc.name or "").split(".")[0]
    if top in EXTRAS:
        return f"this needs the optional package {top!r}: pip install 'devicesworld[{EXTRAS[top]}]'"
    return str(exc)


def _agent_extra(pairs: tuple[str, ...], log_prompts: str | None) -> dict[str, Any]:
    """``KEY=VALUE`` options; a value is read as JSON when it parses (numbers, true/false)."""
    extra: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--agent-opt {pair!r}: expected KEY=VALUE")
        try:
            extra[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            extra[key.strip()] = value
    if log_prompts is not None:
        extra["log_prompts"] = log_prompts
    return extra


# ---------------------------------------------------------------------------- report
@main.command()
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
@click.option("--compare", type=click.Path(), help="Another run directory to compare against, task by task.")
@click.option(
    "--html", "html_out", type=click.Path(dir_okay=False), help="Also write a self-contained HTML report."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap CIs.")
@click.option(
    "--allow-mixed",
    is_flag=True,
    help="Report or compare runs of different task sets (manifests) together; refused otherwise.",
)
@click.option(
    "--floors",
    "floor_dirs",
    multiple=True,
    type=click.Path(),
    help="Runs of the trivial agents (noop, random, first-match) shown under Table 1 when they ran "
    "the same task set (repeatable).",
)
@click.option(
    "--price-in", type=click.FloatRange(min=0), help="The model's input price, USD per million tokens."
)
@click.option(
    "--price-out", type=click.FloatRange(min=0), help="The model's output price, USD per million tokens."
)
def report(
    run_dirs: tuple[str, ...],
    as_json: bool,
    compare: str | None,
    html_out: str | None,
    seed: int,
    allow_mixed: bool,
    floor_dirs: tuple[str, ...],
    price_in: float | None,
    price_out: float | None,
) -> None:
    """Metrics of one or more runs, with bootstrap confidence intervals and failure diagnosis;
    Table 1 with the floors of the same task set; pass@k, pass^k and flips when --trials were run."""
    from devicesworld.analysis.table1 import Prices

    if (price_in is None) != (price_out is None):
        raise UserError("give both --price-in and --price-out (USD per million tokens), or neither")
    _print_report(
        [Path(d) for d in run_dirs],
        as_json=as_json,
        compare=Path(compare) if compare else None,
        html_out=Path(html_out) if html_out else None,
        seed=seed,
        allow_mixed=allow_mixed,
        floor_dirs=[Path(d) for d in floor_dirs],
        prices=Prices(input=price_in, output=price_out)
        if price_in is not None and price_out is not None
        else None,
    )


def _print_report(
    run_dirs: Path | list[Path],
    *,
    as_json: bool,
    compare: Path | None,
    html_out: Path | None = None,
    seed: int = 0,
    allow_mixed: bool = False,
    floor_dirs: list[Path] | None = None,
    prices: Any = None,
) -> None:
    from devicesworld import analysis
    from devicesworld.analysis.report import build_report, render_reports, report_to_json, table1_rows
    from devicesworld.analysis.sets import mixed_sets

    dirs = [run_dirs] if isinstance(run_dirs, Path) else run_dirs
    try:
        reports = [build_report(d, seed=seed) for d in dirs]
        other = analysis.load_run(compare) if compare else None
        floors = [analysis.load_run(d) for d in floor_dirs or []]
    except analysis.ReportError as exc:
        raise UserError(str(exc)) from None
    runs = {str(d): r.run for d, r in zip(dirs, reports, strict=True)} | (
        {str(compare): other} if other else {}
    )
    mixed = mixed_sets(runs)
    if mixed and not allow_mixed:
        raise UserError(
            f"{mixed}; their numbers are not comparable (pass --allow-mixed to report them anyway)"
        )
    if mixed:
        err_console.print(f"[yellow]warning:[/] mixing task sets: {escape(mixed)}", highlight=False)
    for warning in [w for r in reports for w in r.run.warnings] + (other.warnings if other else []):
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    comparison = (
        analysis.compare_runs(
            [r for r in reports[0].run.results if r.valid], [r for r in other.results if r.valid], seed=seed
        )
        if other
        else None
    )
    if html_out is not None:
        from devicesworld.analysis.html import write_html_report

        write_html_report(reports, html_out, comparison=comparison)
        err_console.print(f"HTML report: {html_out}")
    if as_json:
        docs = [report_to_json(r) for r in reports]
        doc: dict[str, Any] = docs[0] if len(docs) == 1 else {"runs": docs}
        rows, notes = table1_rows(reports, floors, prices)
        doc["table1"] = [row.model_dump(mode="json") for row in rows]
        doc["table1_notes"] = notes
        if comparison is not None:
            doc["compare"] = {"a": str(dirs[0]), "b": str(compare)} | comparison.model_dump(mode="json")
        click.echo(json.dumps(doc, indent=2))
        return
    render_reports(reports, console, floors=floors, prices=prices)
    if comparison is not None and other is not None:
        a_agent = reports[0].run.results[0].agent if reports[0].run.results else ""
        b_agent = other.results[0].agent if other.results else ""
        console.print(
            f"comparing A = {dirs[0]} ({a_agent or '?'}) with B = {compare} ({b_agent or '?'}); "
            "differences are B minus A",
            highlight=False,
            markup=False,
        )
        analysis.render_comparison(comparison, console)


# ------------------------------------------------------------------------------ view
@main.command()
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0 picks a free port."
)
@click.option("--open/--no-open", "open_browser", default=False, help="Open the dashboard in a web browser.")
def view(run_dirs: tuple[str, ...], port: int, open_browser: bool) -> None:
    """Serve a web dashboard of one or more runs on 127.0.0.1 (Ctrl-C stops it)."""
    from devicesworld.viewer import ViewerError, make_server

    try:
        server = make_server([Path(d) for d in run_dirs], port)
    except ViewerError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc} (try --port 0)") from None
    console.print(f"DevicesWorld viewer: [bold]{server.url}[/] (Ctrl-C to stop)", highlight=False)
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# ----------------------------------------------------------------------------- kinds
@main.command()
@click.argument("names", nargs=-1)
@click.option("--check", is_flag=True, help="Run check_kind on each kind; exit 1 if any does not conform.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def kinds(names: tuple[str, ...], check: bool, as_json: bool) -> None:
    """The registered device kinds: their declarations and traits (--check: their conformance)."""
    from devicesworld.devices import check_kind
    from devicesworld.devices.base import get_kind, kind_names

    chosen = list(names) or kind_names()
    unknown = [n for n in chosen if get_kind(n) is None]
    if unknown:
        raise UserError(f"no device kind named {', '.join(unknown)}; registered: {', '.join(kind_names())}")
    rows: list[dict[str, Any]] = []
    for name in chosen:
        kind = get_kind(name)
        assert kind is not None
        t = kind.traits
        row: dict[str, Any] = {
            "kind": name,
            "actions": len(kind.actions),
            "setup_ops": len(kind.setup_ops) + len(kind.cleanup_ops),
            "getters": len(kind.getters),
            "checks": len(kind.checks),
            "noun": t.noun,
            "surfaces": t.surfaces is not None,
            "env_split": t.env_split is not None,
            "screenshots": t.screenshots,
        }
        if check:
            row["problems"] = check_kind(kind)
        rows.append(row)
    failed = [r["kind"] for r in rows if r.get("problems")]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        table = Table(
            "kind",
            "actions",
            "ops",
            "getters",
            "checks",
            "noun",
            "traits",
            *(["check_kind"] if check else []),
        )
        for r in rows:
            traits = ", ".join(k for k in ("surfaces", "env_split") if r[k]) + (
                f", screenshots {r['screenshots']}" if r["screenshots"] != "never" else ""
            )
            cells = [r["kind"], str(r["actions"]), str(r["setup_ops"]), str(r["getters"]), str(r["checks"])]
            cells += [r["noun"] or "-", traits.strip(", ") or "-"]
            if check:
                cells.append("ok" if not r["problems"] else f"{len(r['problems'])} problem(s)")
            table.add_row(*(escape(c) for c in cells))
        console.print(table)
        for r in rows:
            for problem in r.get("problems") or []:
                console.print(f"{escape(r['kind'])}: {escape(problem)}", highlight=False)
    if failed:
        raise SystemExit(1)


# ----------------------------------------------------------------------------- tasks
@main.group(cls=_LazyGroup, lazy={"scenarios": _scenarios, "compile": _compile, "macros": _macros})
def tasks() -> None:
    """List, show, validate tasks and print the task JSON Schema."""


@tasks.command("list")
@click.option("--suite", help="A built-in suite (default smoke).")
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
    """One line per task: id, device kinds, pattern, difficulty, tier, split (read from the task index)."""
    rows = [
        {**r, "tier": r.get("tier") or "standard"} for r in _task_rows(suite, tasks_path, task_ids, filters)
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


def _task_rows(
    suite: str | None, tasks_path: str | None, task_ids: tuple[str, ...], filters: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Listing rows: a shipped suite's from the index (no task is parsed), a file's from its tasks."""
    from devicesworld.tasks.filtering import parse_filter, parse_ids, select_rows
    from devicesworld.tasks.shipped import index_rows, task_row
    from devicesworld.tasks.suites import suite_names

    if suite and tasks_path:
        raise UserError("give either --suite or --tasks, not both")
    name = suite or DEFAULT_SUITE
    if tasks_path:
        rows = [task_row(t) for t in load_source(None, tasks_path)]
    elif name not in suite_names():
        raise UserError(f"unknown suite {name!r}; known suites: {', '.join(suite_names())}")
    else:
        rows = index_rows(name) or [task_row(t) for t in _unindexed_suite(name)]
    picked = select_rows(rows, parse_ids(task_ids), [parse_filter(f) for f in filters])
    return [rows[i] for i in picked]


@tasks.command("freeze")
@click.option("--name", default="test", show_default=True, help="The split to freeze.")
@click.option("--version", "version", help="The new version (default: the next minor one, 2.1 -> 2.2).")
@click.option(
    "--size", type=click.IntRange(min=1), default=200, show_default=True, help="Tasks in the selection."
)
@click.option("--seed", type=int, default=2026, show_default=True, help="Seed of the stratified selection.")
@click.option("--description", default="", help="What changed, for the manifest and the changelog.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Folder to write to (default: the package's tasks/data/manifests).",
)
@click.option(
    "--same-ids",
    is_flag=True,
    help="Keep the newest version's ids (those still in `full`) with their current hashes: a new version "
    "after tasks were rebuilt in place, not a new selection. The old version's tasks are archived first "
    "(<name>-v<old>.jsonl.gz) so it still loads as frozen.",
)
def tasks_freeze(
    name: str, version: str | None, size: int, seed: int, description: str, out: str | None, same_ids: bool
) -> None:
    """Select a new evaluation split from `full` and write it as a new manifest version.

    The old versions stay loadable by name (--suite test-v2.1); runs record which one they ran.
    """
    from devicesworld.tasks.manifest import build_manifest, manifest_text, manifests_dir, next_version
    from devicesworld.tasks.selection import select_evaluation_set
    from devicesworld.tasks.shipped import read_suite

    folder = Path(out) if out else manifests_dir()
    version = version or next_version(name, folder)
    path = folder / f"{name}-v{version}.json"
    if path.exists():
        raise UserError(f"{path} exists: a frozen version is never rewritten; choose another --version")
    pool = read_suite("full")
    if same_ids:
        from devicesworld.tasks.manifest import archive_path, load_manifest

        previous = load_manifest(name, folder)
        if not archive_path(previous.label, folder).exists():
            raise UserError(
                f"archive {previous.label}'s tasks first ({archive_path(previous.label, folder).name}): "
                "the rebuilt `full` no longer holds them as frozen"
            )
        by_id = {t.id: t for t in pool}
        kept = [by_id[i] for i in previous.ids if i in by_id]
        manifest = build_manifest(name, version, kept, description=description)
    else:
        chosen = set(select_evaluation_set(pool, size=size, seed=seed))
        manifest = build_manifest(name, version, [t for t in pool if t.id in chosen], description=description)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(manifest_text(manifest), encoding="utf-8")
    click.echo(f"wrote {path}: {len(manifest.tasks)} tasks, {manifest.hash}")
    click.echo("add a changelog line saying why the split changed; old versions stay loadable by name")


@tasks.command("draw")
@click.option("--like", default="test", show_default=True, help="The frozen split whose strata to draw in.")
@click.option("--seed", type=int, required=True, help="The draw's seed (keep it private until published).")
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="The JSONL file to write.")
@click.option(
    "--count",
    type=click.IntRange(min=1),
    help="Draw this many strata: fewer spread evenly over the split, more repeat strata evenly "
    "(default: one per task of the split).",
)
@click.option(
    "--only",
    metavar="GLOB",
    help="Only the strata whose family matches, e.g. 'family:*' (no kind GUI sources) or 'family:grocery*'.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Processes drawing families side by side (default: the CPUs, at most 4). Same bytes for any number.",
)
@click.option("--restart", is_flag=True, help="Forget the journal of an interrupted draw and start over.")
def tasks_draw(
    like: str, seed: int, out: str, count: int | None, only: str | None, workers: int | None, restart: bool
) -> None:
    """Draw a fresh private split: unseen instances of the families, strata and difficulty mix of
    a frozen split, each proven by every QC gate; writes OUT and OUT's manifest (.manifest.json).

    The same seed gives the same bytes. Every finished family is kept in OUT's journal
    (.journal.jsonl): an interrupted draw (Ctrl+C, SIGTERM, a crash) continues when the same
    command runs again. Run the split with `devicesworld run --tasks OUT`.
    """
    import os
    import signal
    import time
    from types import FrameType

    from devicesworld import jsonl
    from devicesworld.progress import progress_bar
    from devicesworld.tasks.draw import (
        DrawError,
        content_key,
        draw_split,
        journal_path,
        private_manifest,
        spread,
        strata,
    )
    from devicesworld.tasks.manifest import ManifestError, load_manifest, manifest_text
    from devicesworld.tasks.shipped import read_suite
    from devicesworld.tasks.suites import load_suite

    try:
        manifest = load_manifest(like)
    except ManifestError as exc:
        raise UserError(str(exc)) from None
    target = Path(out)
    try:
        plan = spread(strata(load_suite(like), only), count)
    except DrawError as exc:
        raise UserError(str(exc)) from None
    if not plan:
        raise UserError(f"no stratum of {manifest.label} matches --only {only}")
    journal = journal_path(target)
    if restart:
        journal.unlink(missing_ok=True)
    elif journal.exists():
        err_console.print(f"continuing the draw kept in {journal}", highlight=False)
    seen = {content_key(t) for t in read_suite(manifest.source)}
    n_workers = workers or max(1, min(4, os.cpu_count() or 1))
    started = time.monotonic()

    def interrupt(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)  # SIGTERM stops the draw as Ctrl+C does
    try:
        with progress_bar(err_console, f"draw like {manifest.label}", len(plan)) as bar:
            drawn, stats, notes = draw_split(
                plan,
                seed,
                seen,
                workers=n_workers,
                journal=journal,
                progress=lambda n, builder: bar.advance(n, last=builder.split(":", 1)[-1]),
            )
    except DrawError as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        err_console.print(
            f"interrupted: the finished families are kept in {journal}; run the same command to continue",
            highlight=False,
        )
        raise SystemExit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    for note in notes:
        err_console.print(f"note: {note}", highlight=False, markup=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(jsonl.model_line(t) for t in drawn), encoding="utf-8")
    written = private_manifest(drawn, seed, manifest.label, target.name, manifest.run_protocol)
    manifest_path = target.with_suffix(".manifest.json")
    manifest_path.write_text(manifest_text(written), encoding="utf-8")
    journal.unlink(missing_ok=True)
    rejected = sum(stats.rejected.values())
    click.echo(
        f"{len(drawn)} proven tasks drawn like {manifest.label} (seed {seed}, {rejected} draw(s) rejected by the "
        f"gates) in {time.monotonic() - started:.0f} s with {n_workers} worker(s) -> {target}; "
        f"manifest {manifest_path} ({written.hash})"
    )


@tasks.command("show")
@click.argument("task_id")
@click.option("--suite", help="Suite to look in (default: every built-in suite).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder to look in.")
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
    from devicesworld.tasks.suites import suite_names

    if tasks_path:
        for task in load_source(None, tasks_path):
            if task.id == task_id:
                doc: dict[str, Any] = task.model_dump(mode="json")
                return doc
        raise UserError(f"no task {task_id!r} in {tasks_path}")
    if suite and suite not in suite_names():
        raise UserError(f"unknown suite {suite!r}; known suites: {', '.join(suite_names())}")
    if suite and not index_rows(suite):  # a suite shipped outside the index (the GUI suites)
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


@tasks.command("validate")
@click.argument("path", required=False, type=click.Path())
@click.option("--suite", help="A built-in suite (default smoke when no PATH).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
@click.option("--no-near-misses", is_flag=True, help="Skip the near-miss gate (faster, weaker).")
@click.option("--no-paraphrases", is_flag=True, help="Skip the paraphrase gate (correct variants must pass).")
@click.option(
    "--gate",
    type=click.Choice(["run", "coherence"]),
    default="run",
    show_default=True,
    help="run: play every task on its devices; coherence: read instruction, worlds and checks for one story "
    "(no device starts; counts per rule).",
)
@selection_options
@click.option("--json", "as_json", is_flag=True)
def tasks_validate(
    path: str | None,
    suite: str | None,
    workers: int,
    no_near_misses: bool,
    no_paraphrases: bool,
    gate: str,
    task_ids: tuple[str, ...],
    filters: tuple[str, ...],
    as_json: bool,
) -> None:
    """Prove every task: setup alone fails, the solution passes, near misses fail, correct variants
    pass, cleanup is clean."""
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

        reports = validate_many(
            items,
            workers=workers,
            near_miss=not no_near_misses,
            paraphrase=not no_paraphrases,
            progress=tick,
        )
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


@tasks.command("census")
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


@tasks.command("build")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option(
    "--suite",
    type=click.Choice(["full", "smoke", "smoke-gui", "bmoca"]),
    help="The shipped suite to rebuild byte for byte (required).",
)
@click.option(
    "--seed", type=int, default=None, help="With --suite full: another seed (default: the suite's)."
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
@click.option(
    "--shards",
    "shard_pattern",
    help="With --suite full: build a sample, only the shards whose builder matches this glob "
    "(e.g. 'source:gui-*' for the GUI tasks); not the shipped file.",
)
@click.option(
    "--per-shard",
    type=click.IntRange(min=1),
    help="With --suite full: at most this many tasks per shard (a sample).",
)
def tasks_build(
    out_dir: str,
    suite: str | None,
    seed: int | None,
    workers: int,
    shard_pattern: str | None,
    per_shard: int | None,
) -> None:
    """Rebuild a shipped suite from its data files; --suite full builds the full suite (or a sample)."""
    if suite is None:
        raise UserError(
            "give --suite full|smoke|smoke-gui|bmoca: every task is built from data files now "
            "(the v1 engine that composed tasks without --suite is retired; full-v1 ships frozen)"
        )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if (shard_pattern or per_shard) and suite != "full":
        raise UserError("--shards and --per-shard sample the full suite: give --suite full")
    if suite == "full":
        _build_full_suite(out, seed, workers, shard_pattern, per_shard)
        return
    _build_named_suite(out, suite)


@tasks.command("rebuild")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option(
    "--base",
    type=click.Path(exists=True, dir_okay=False),
    help="The full suite file to start from (default: the shipped one); chain batches through it.",
)
@click.option("--ids", "id_list", multiple=True, help="Task ids to rebuild (repeatable).")
@click.option(
    "--take",
    "take_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Tasks rebuilt earlier (another rebuild's journal DIR/rebuilt.jsonl, or `build --shards` output): "
    "each replaces the task of its id, or joins the suite if it was left out, so give only rebuilt "
    "tasks, not a whole suite (repeatable).",
)
@click.option("--incoherent", is_flag=True, help="Rebuild every task that fails the coherence gate.")
@click.option(
    "--shards", "shard_pattern", help="Only tasks of the recipe shards whose builder matches this glob."
)
@click.option(
    "--drop-incoherent",
    is_flag=True,
    help="Leave out every task that still fails the coherence gate (a task failing it is not shipped).",
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
def tasks_rebuild(
    out_dir: str,
    base: str | None,
    id_list: tuple[str, ...],
    take_files: tuple[str, ...],
    incoherent: bool,
    shard_pattern: str | None,
    drop_incoherent: bool,
    workers: int,
) -> None:
    """Rebuild chosen tasks of `full` in place from the current builders (each proven as in a full build).

    A full rebuild proves every GUI task on live desktops (an hour of both cores); after a family or
    a gate changes, rebuilding only the tasks it touches gives the same tasks a full build would.
    """
    import gzip
    from fnmatch import fnmatchcase

    from devicesworld.progress import progress_bar
    from devicesworld.spec.models import Task
    from devicesworld.tasks import full
    from devicesworld.tasks.coherence import check_coherence

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if base is None:
        pool = full.load_full()
    else:
        with gzip.open(base, "rt", encoding="utf-8") as fh:
            pool = [Task.model_validate_json(line) for line in fh if line.strip()]
    before = check_coherence(pool)
    taken: dict[str, Task] = {}
    for name in take_files:
        with (
            gzip.open(name, "rt", encoding="utf-8") if name.endswith(".gz") else open(name, encoding="utf-8")
        ) as fh:
            taken.update((t.id, t) for t in (Task.model_validate_json(line) for line in fh if line.strip()))
    pool = full.with_test_split(full.with_taken(pool, taken))
    wanted = list(id_list)
    if incoherent:
        wanted += sorted({p.task_id for p in before.problems})
    if shard_pattern is not None:
        wanted = [
            i
            for i in wanted
            if (found := full.shard_of(i)) is not None and fnmatchcase(found[0].builder, shard_pattern)
        ]
    unknown = [i for i in wanted if full.shard_of(i) is None]
    if unknown:
        raise UserError(f"not a task id of the full recipe: {', '.join(unknown[:5])}")
    with progress_bar(err_console, "rebuild (chunks)", max(1, -(-len(wanted) // 4))) as bar:

        def progress(done: int, total: int) -> None:
            if done > bar.done:
                bar.advance(done - bar.done)

        try:
            tasks_built, stats, lost = full.rebuild_tasks(
                pool, wanted, workers=workers, progress=progress, journal=out / "rebuilt.jsonl"
            )
        except full.SourceUnavailable as exc:
            raise UserError(str(exc)) from None
    after = check_coherence(tasks_built)
    left_out: list[str] = []
    if drop_incoherent:
        bad = {p.task_id for p in after.problems}
        left_out = [t.id for t in tasks_built if t.id in bad]
        tasks_built = [t for t in tasks_built if t.id not in bad]
    target = out / full.shipped_path().name
    target.write_bytes(full.suite_bytes(tasks_built))
    report = {
        "rebuilt": len(wanted) - len(lost),
        "taken": len(taken),
        "lost": lost,
        "left_out_incoherent": left_out,
        "seconds": round(time.perf_counter() - started),
        "gate_before": {"total": before.total, "coherent": before.coherent, **before.tasks_per_rule},
        "gate_after": {"total": after.total, "coherent": after.coherent, **after.tasks_per_rule},
        "stats": stats.model_dump(),
    }
    (out / "_rebuild_report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    console.print(
        f"rebuilt {len(wanted) - len(lost)}/{len(wanted)} tasks ({len(lost)} no longer valid, left out) "
        f"in {report['seconds']} s; {len(left_out)} incoherent left out; {len(tasks_built)} tasks -> {target}"
    )
    console.print(f"coherent before {before.coherent}/{before.total}, after {after.coherent}/{after.total}")
    for rule in after.tasks_per_rule:
        console.print(
            f"  {rule:<22} {before.tasks_per_rule.get(rule, 0):>6} -> {after.tasks_per_rule[rule]:>6} task(s)"
        )


def _build_named_suite(out: Path, name: str) -> None:
    """Rebuild ``smoke`` or ``bmoca`` from its builders and say whether it matches the shipped file."""
    from devicesworld.tasks.shipped import shipped_path, suite_bytes
    from devicesworld.tasks.suites import build_suite

    started = time.perf_counter()
    data = suite_bytes(build_suite(name))
    target = out / shipped_path(name).name
    target.write_bytes(data)
    console.print(f"built suite {name} ({time.perf_counter() - started:.1f} s) -> {target}")
    shipped = shipped_path(name)
    same = shipped.exists() and shipped.read_bytes() == data
    console.print(f"identical to the shipped {shipped.name}: {'yes' if same else 'NO'}")
    if not same:
        console.print(
            f"  to ship it: cp {target} {shipped} && python -m devicesworld.tasks.shipped  (rewrites the index)",
            highlight=False,
            markup=False,
        )


def _build_full_suite(
    out: Path, seed: int | None, workers: int, shard_pattern: str | None = None, per_shard: int | None = None
) -> None:
    from devicesworld.progress import progress_bar
    from devicesworld.tasks import full

    started = time.perf_counter()
    shards = full.sample_shards(shard_pattern, per_shard)
    if not shards:
        raise UserError(f"no shard of the full recipe matches {shard_pattern!r}")
    chunks = full.chunk_count(shards)
    with progress_bar(err_console, "build full (chunks)", chunks) as bar:

        def progress(done: int, total: int) -> None:
            if done > bar.done:
                bar.advance(done - bar.done)

        try:
            tasks_built, stats = full.build_full(
                seed if seed is not None else full.FULL_SEED,
                shards=shards,
                workers=workers,
                progress=progress,
            )
        except full.SourceUnavailable as exc:
            raise UserError(str(exc)) from None
    target = out / full.shipped_path().name
    target.write_bytes(full.suite_bytes(tasks_built))
    report = {"stats": stats.model_dump(), "counts": full.counts(tasks_built)}
    (out / "_build_report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    console.print(
        f"built {len(tasks_built)} tasks in {sum(stats.attempts.values())} attempts "
        f"({time.perf_counter() - started:.0f} s) -> {target}"
    )
    for reason, n in sorted(stats.rejected.items(), key=lambda kv: -kv[1]):
        console.print(f"  rejected {n:4d}  {reason}", highlight=False, markup=False)
    shipped = full.shipped_path()
    if shard_pattern is not None or per_shard is not None:
        console.print("a sample of the full recipe (--shards/--per-shard), not the shipped file")
    elif shipped.exists():
        same = shipped.read_bytes() == target.read_bytes()
        console.print(f"identical to the shipped {shipped.name}: {'yes' if same else 'NO'}")


# ------------------------------------------------------------------------------ play
@main.command()
@click.argument("task_id")
@click.option("--suite", help="Suite to look in (default: every built-in suite).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder to look in.")
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append the session to this demonstration file (JSONL; see docs/bmoca.md).",
)
@click.option("--preset", help="Put the task's phones on this profile preset (e.g. train_03, test_01).")
@click.option(
    "--screens",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the screen PNGs after each step (default: a new temporary folder).",
)
def play(
    task_id: str,
    suite: str | None,
    tasks_path: str | None,
    record: Path | None,
    preset: str | None,
    screens: Path | None,
) -> None:
    """Play a task yourself, one step per line.

    A step is JSON ({"device": ..., "action": ..., "args": {...}}) or the short form
    `DEVICE ACTION {json args}`; `finish` and `report_infeasible REASON` end the episode,
    `answer TEXT` answers a question; `help` lists the actions. `--record FILE` saves the session as a demonstration.
    """
    from devicesworld.runner.play import play_task

    task = find_task(task_id, suite, tasks_path)
    if preset is not None:
        from devicesworld.tasks.env_split import all_presets, with_preset

        if preset not in all_presets():
            raise click.BadParameter(f"unknown preset {preset!r}; e.g. train_00..train_34, test_00..test_09")
        task = with_preset(task, preset)
    if screens is None:
        import tempfile

        screens = Path(tempfile.mkdtemp(prefix=f"devicesworld-play-{task.id}-"))
    play_task(task, console, record=record, screens=screens)


# ---------------------------------------------------------------------- tasks refine
@tasks.command("declare-profiles")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option(
    "--count", is_flag=True, help="Only count: tasks per profile now and as declared; write nothing."
)
@click.option("--suite", "suite_name", help="Count a suite by name (with --count), e.g. test.")
@click.option(
    "--take",
    "take_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="With --count: rebuilt tasks (a rebuild journal) counted in place of the tasks of their ids.",
)
def tasks_declare_profiles(
    files: tuple[str, ...], count: bool, suite_name: str | None, take_files: tuple[str, ...]
) -> None:
    """State every desktop's narrowest profile and write the tasks as schema_version 2 (issue #34).

    A desktop whose reference solution uses no shell on it is declared `desktop: gui` (GUI-only),
    else `hybrid`; nothing else in a task changes. Without FILES it rewrites the shipped `full` in
    place: the one command to run at integration, after the rebuild journals are taken.
    """
    from collections import Counter

    from devicesworld.tasks import full
    from devicesworld.tasks.profiles import count_tasks, declare_file, read_tasks

    if suite_name is not None and (not count or files):
        raise UserError("--suite counts a suite by name: give it with --count and no FILES")
    if take_files and not count:
        raise UserError(
            "--take only counts (with --count): the rebuilt tasks are applied by `tasks rebuild --take`"
        )
    taken = {t.id: t for name in take_files for t in _read_declared(name, read_tasks)}
    if suite_name is not None:
        from devicesworld.tasks.suites import load_suite

        try:
            chosen = load_suite(suite_name)
        except (KeyError, ValueError, OSError) as exc:
            raise UserError(f"cannot load suite {suite_name}: {exc.args[0] if exc.args else exc}") from None
        targets: list[tuple[str, Counter[str]]] = [
            (suite_name, count_tasks([taken.get(t.id, t) for t in chosen]))
        ]
    else:
        paths = [Path(f) for f in files] or [full.shipped_path()]
        targets = []
        for path in paths:
            if not path.exists():
                raise UserError(f"{path}: no such task file")
            try:
                counts = (
                    count_tasks([taken.get(t.id, t) for t in read_tasks(path)])
                    if count
                    else declare_file(path)
                )
            except (OSError, ValueError) as exc:
                raise UserError(f"{path}: {exc}") from None
            targets.append((str(path), counts))
    for name, counts in targets:
        shares = ""
        if count and counts["with_desktop"]:
            gui, desk = counts["every_desktop_gui"], counts["with_desktop"]
            shares = f"; every desktop GUI-only: {gui}/{desk} ({100 * gui / desk:.1f}%) of the tasks with a desktop"
        listed = ", ".join(
            f"{k} {v}" for k, v in sorted(counts.items()) if k not in ("with_desktop", "every_desktop_gui")
        )
        verb = "" if count else "declared (schema 2): "
        click.echo(f"{name}: {verb}{listed}{shares}")


def _read_declared(name: str, read: Any) -> list[Any]:
    try:
        return list(read(Path(name)))
    except (OSError, ValueError) as exc:
        raise UserError(f"{name}: {exc}") from None


@tasks.command("refine")
@click.option(
    "--tasks", "tasks_path", required=True, type=click.Path(), help="Tasks to refine (JSONL/folder)."
)
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option("--rewrite", is_flag=True, help="Rewrite instructions into natural requests (guarded).")
@click.option("--judge", is_flag=True, help="Score realism, coherence, evaluability; drop low scores.")
@click.option("--model", help="Model name (or DEVICESWORLD_MODEL).")
@click.option("--base-url", help="OpenAI-compatible endpoint (or DEVICESWORLD_BASE_URL).")
@click.option(
    "--api-key-env",
    help="Read the API key from this variable (default DEVICESWORLD_API_KEY, OPENAI_API_KEY).",
)
@click.option(
    "--min-score",
    type=click.IntRange(1, 5),
    default=3,
    show_default=True,
    help="Lowest score kept, per axis.",
)
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N tasks.")
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Concurrent requests."
)
@click.option("--max-retries", type=click.IntRange(min=0), default=2, show_default=True, help="Per request.")
@click.option(
    "--timeout",
    "timeout_s",
    type=click.FloatRange(min=1),
    default=60.0,
    show_default=True,
    help="Seconds per request.",
)
def tasks_refine(
    tasks_path: str,
    out_dir: str,
    rewrite: bool,
    judge: bool,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None,
    min_score: int,
    limit: int | None,
    workers: int,
    max_retries: int,
    timeout_s: float,
) -> None:
    """Optional LLM stages (off by default): guarded instruction rewriting and an LLM-as-judge filter."""
    if not (rewrite or judge):
        raise UserError(
            "the LLM stages are off by default: pass --rewrite and/or --judge (and --model, --base-url)"
        )
    from devicesworld.tasks.loading import dump_tasks_jsonl, load_tasks
    from devicesworld.tasks.refine import EndpointError, RefineOptions, open_endpoint, refine_tasks

    items = load_tasks(tasks_path)[:limit]
    options = RefineOptions(rewrite=rewrite, judge=judge, min_score=min_score, workers=workers)

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            err_console.print(f"  {done}/{total} tasks refined", highlight=False)

    try:
        chat = open_endpoint(
            model, base_url, api_key_env=api_key_env, timeout_s=timeout_s, max_retries=max_retries
        )
        kept, report = refine_tasks(items, chat, options, progress=progress)
    except EndpointError as exc:
        raise UserError(str(exc)) from None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dump_tasks_jsonl(kept, out / "tasks.jsonl")
    (out / "_refine_report.json").write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    console.print(
        f"{report.tasks_out}/{report.tasks_in} tasks kept -> {out / 'tasks.jsonl'}", highlight=False
    )
    if rewrite:
        reasons = ", ".join(f"{k} {v}" for k, v in report.kept.items()) or "none"
        console.print(
            f"  rewritten {report.rewritten}; kept original: {reasons}", highlight=False, markup=False
        )
    if judge:
        console.print(
            f"  judged {report.judged}, unjudged {report.unjudged}, filtered {report.filtered} "
            f"(min score {min_score})",
            highlight=False,
        )
    if report.errors:
        console.print(
            f"  endpoint errors {report.errors} (those tasks pass through unchanged)", highlight=False
        )
    console.print(
        f"  {report.calls} calls, {report.tokens_in} tokens in, {report.tokens_out} out", highlight=False
    )
