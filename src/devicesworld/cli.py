"""The ``devicesworld`` command.

Every expected failure (a malformed task file, an unknown agent, a run directory that
would be overwritten) is printed as a clear message with exit status 2; tracebacks
are for bugs only. ``run`` exits 0 whenever the harness worked, whatever the score.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from devicesworld.spec.loading import TaskLoadError
from devicesworld.spec.models import Task

console = Console()
err_console = Console(stderr=True)

DEFAULT_SUITE = "smoke"


class UserError(click.ClickException):
    """An error the user can fix; shown without a traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        err_console.print(f"[bold red]error:[/] {escape(self.message)}", highlight=False)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        from devicesworld.env.controller import EnvError
        from devicesworld.runner.run import RunError

        try:
            return super().invoke(ctx)
        except TaskLoadError as exc:
            err_console.print(
                f"[bold red]error:[/] {len(exc.issues)} problem(s) in task files:", highlight=False
            )
            for issue in exc.issues:
                err_console.print(f"  {escape(str(issue))}", highlight=False, soft_wrap=True)
            raise SystemExit(2) from None
        except (RunError, EnvError, KeyError, FileNotFoundError) as exc:
            message = exc.args[0] if exc.args else str(exc)
            raise UserError(str(message)) from None


@click.group(cls=_Group)
@click.version_option(package_name="devicesworld")
def main() -> None:
    """DevicesWorld: an executable benchmark for agents that work across phones, desktops and a smart home."""


# --------------------------------------------------------------------------- helpers
def load_source(
    suite: str | None, tasks_path: str | None, *, default_suite: str | None = DEFAULT_SUITE
) -> list[Task]:
    from devicesworld.spec.loading import load_tasks
    from devicesworld.tasks.suites import load_suite

    if suite and tasks_path:
        raise UserError("give either --suite or --tasks, not both")
    if tasks_path:
        return load_tasks(tasks_path)
    name = suite or default_suite
    if name is None:
        raise UserError("give --suite NAME or --tasks PATH")
    return load_suite(name)


def _source_label(suite: str | None, tasks_path: str | None) -> str:
    return f"file:{tasks_path}" if tasks_path else f"suite:{suite or DEFAULT_SUITE}"


# ------------------------------------------------------------------------------- run
@main.command()
@click.option("--suite", help="A built-in suite, e.g. smoke.")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file (.json/.jsonl) or folder.")
@click.option("--agent", required=True, help="oracle, noop, random, ...")
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
    help="Seconds after which a running episode is stopped and recorded as time_limit.",
)
@click.option(
    "--prewarm/--no-prewarm",
    default=True,
    show_default=True,
    help="Set up each worker's next episode in the background while the current one runs (while setups take >= 1 ms).",
)
@click.option("--out", type=click.Path(file_okay=False), help="Run directory (default runs/<time>-<agent>).")
@click.option("--resume", is_flag=True, help="Continue a run directory, skipping finished episodes.")
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
    prewarm: bool,
    out: str | None,
    resume: bool,
    seed: int,
    screenshots: bool,
    log_prompts: str | None,
    agent_opts: tuple[str, ...],
    env_split: str | None,
) -> None:
    """Run an agent on a suite or task file and write a run directory."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from devicesworld.agents.base import AgentOptions
    from devicesworld.agents.registry import get_agent
    from devicesworld.runner.run import RunConfig, execute_run

    get_agent(agent)  # fail fast on an unknown agent
    if ray_address and backend != "ray":
        raise UserError("--ray-address needs --backend ray")
    extra = _agent_extra(agent_opts, log_prompts)
    _check_agent_options(agent, AgentOptions(seed=seed, model=model, base_url=base_url, extra=extra))
    tasks = load_source(suite, tasks_path)
    source = _source_label(suite, tasks_path)
    if env_split:
        from devicesworld.tasks.env_split import apply_split

        tasks = [apply_split(t, env_split, f"{t.id}#{seed}") for t in tasks]
        source += f" env-split:{env_split}"
    out_dir = Path(out) if out else Path("runs") / f"{datetime.now():%Y%m%d-%H%M%S}-{agent}"
    config = RunConfig(
        agent=agent,
        source=source,
        seed=seed,
        workers=workers,
        backend=backend,
        ray_address=ray_address,
        episode_timeout=episode_timeout,
        prewarm=prewarm,
        limit=limit,
        model=model,
        base_url=base_url,
        resume=resume,
        screenshots=screenshots,
        agent_extra=extra,
    )
    total = min(len(tasks), limit) if limit else len(tasks)
    if backend == "ray":
        where = ray_address or os.environ.get("RAY_ADDRESS") or "a local cluster"
        err_console.print(f"starting {workers} Ray worker(s) on {where}...", highlight=False)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[ok]} ok"),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
    ) as progress:
        bar = progress.add_task(f"{agent}", total=total, ok=0)
        passed = 0

        def tick(result: Any) -> None:
            nonlocal passed
            passed += bool(result.success)
            progress.update(bar, advance=1, ok=passed)

        outcome = execute_run(tasks, config, out_dir, on_result=tick)
    for warning in outcome.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    if outcome.skipped:
        err_console.print(f"resumed: {outcome.skipped} episode(s) already finished were skipped")
    _print_report(out_dir, as_json=False, compare=None)
    console.print(f"run directory: {out_dir}")
    if outcome.interrupted:
        err_console.print("[yellow]interrupted:[/] finished episodes are saved; continue with --resume")
        raise SystemExit(130)


def _check_agent_options(name: str, options: Any) -> None:
    """Build a built-in agent once so that a missing model or key fails before the run starts."""
    from devicesworld.agents.registry import AGENTS

    if name not in AGENTS:
        return
    try:
        AGENTS[name].factory(options)
    except Exception as exc:
        raise UserError(f"agent {name}: {exc}") from None


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
def report(
    run_dirs: tuple[str, ...], as_json: bool, compare: str | None, html_out: str | None, seed: int
) -> None:
    """Metrics of one or more runs, with bootstrap confidence intervals and failure diagnosis."""
    _print_report(
        [Path(d) for d in run_dirs],
        as_json=as_json,
        compare=Path(compare) if compare else None,
        html_out=Path(html_out) if html_out else None,
        seed=seed,
    )


def _print_report(
    run_dirs: Path | list[Path],
    *,
    as_json: bool,
    compare: Path | None,
    html_out: Path | None = None,
    seed: int = 0,
) -> None:
    from devicesworld import analysis
    from devicesworld.analysis.report import build_report, render_reports, report_to_json

    dirs = [run_dirs] if isinstance(run_dirs, Path) else run_dirs
    try:
        reports = [build_report(d, seed=seed) for d in dirs]
        other = analysis.load_run(compare) if compare else None
    except analysis.ReportError as exc:
        raise UserError(str(exc)) from None
    for warning in [w for r in reports for w in r.run.warnings] + (other.warnings if other else []):
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    comparison = analysis.compare_runs(reports[0].run.results, other.results, seed=seed) if other else None
    if html_out is not None:
        from devicesworld.analysis.html import write_html_report

        write_html_report(reports, html_out, comparison=comparison)
        err_console.print(f"HTML report: {html_out}")
    if as_json:
        docs = [report_to_json(r) for r in reports]
        doc: dict[str, Any] = docs[0] if len(docs) == 1 else {"runs": docs}
        if comparison is not None:
            doc["compare"] = comparison.model_dump(mode="json")
        click.echo(json.dumps(doc, indent=2))
        return
    render_reports(reports, console)
    if comparison is not None:
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


# ----------------------------------------------------------------------------- tasks
@main.group()
def tasks() -> None:
    """List, show, validate tasks and print the task JSON Schema."""


@tasks.command("list")
@click.option("--suite", help="A built-in suite (default smoke).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder.")
@click.option("--json", "as_json", is_flag=True)
def tasks_list(suite: str | None, tasks_path: str | None, as_json: bool) -> None:
    """One line per task: id, device kinds, pattern, difficulty, split."""
    items = load_source(suite, tasks_path)
    rows: list[dict[str, Any]] = [
        {
            "id": t.id,
            "device_kinds": [d.kind for d in t.devices],
            "devices": t.device_ids(),
            "pattern": t.metadata.pattern,
            "difficulty": t.metadata.difficulty,
            "split": t.metadata.split,
            "apps": t.metadata.apps,
        }
        for t in items
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table(title=f"{len(rows)} tasks")
    for col in ("id", "devices", "pattern", "difficulty", "split"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"], ", ".join(r["devices"]), r["pattern"], r["difficulty"], r["split"])
    console.print(table)


@tasks.command("show")
@click.argument("task_id")
@click.option("--suite", help="Suite to look in (default: every built-in suite).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder to look in.")
@click.option("--json", "as_json", is_flag=True, help="Print the full task document.")
def tasks_show(task_id: str, suite: str | None, tasks_path: str | None, as_json: bool) -> None:
    """Show one task; with --json the document loads again with `run --tasks`."""
    task = find_task(task_id, suite, tasks_path)
    if as_json:
        click.echo(task.model_dump_json(indent=2))
        return
    console.print(f"[bold]{escape(task.id)}[/]  ({task.metadata.pattern}, {task.metadata.difficulty})")
    console.print(task.instruction, highlight=False, markup=False)
    console.print(f"devices: {', '.join(f'{d.id}' for d in task.devices)}")
    for c in task.evaluation.conditions:
        flags = ("required " if c.required else "") + ("scored" if c.scored else "")
        console.print(
            f"  - {c.id} [{c.device}] {c.check} {json.dumps(c.args)} ({flags.strip()})", highlight=False
        )
    console.print(f"reference solution: {len(task.solution)} steps")


def find_task(task_id: str, suite: str | None, tasks_path: str | None) -> Task:
    from devicesworld.tasks.suites import load_suite, suite_names

    if suite or tasks_path:
        pools = [load_source(suite, tasks_path)]
    else:
        pools = [load_suite(name) for name in suite_names()]
    for pool in pools:
        for task in pool:
            if task.id == task_id:
                return task
    raise UserError(f"no task {task_id!r} found")


@tasks.command("schema")
def tasks_schema() -> None:
    """Print the JSON Schema of a task document."""
    from devicesworld.spec.models import task_json_schema

    click.echo(json.dumps(task_json_schema(), indent=2))


@tasks.command("validate")
@click.argument("path", required=False, type=click.Path())
@click.option("--suite", help="A built-in suite (default smoke when no PATH).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
@click.option("--no-near-misses", is_flag=True, help="Skip the near-miss gate (faster, weaker).")
@click.option("--json", "as_json", is_flag=True)
def tasks_validate(
    path: str | None, suite: str | None, workers: int, no_near_misses: bool, as_json: bool
) -> None:
    """Prove every task: setup alone fails, the solution passes, near misses fail, cleanup is clean."""
    from devicesworld.tasks.validate import mutation_counts
    from devicesworld.tasks.validate_many import validate_many

    items = load_source(suite, path)
    started = time.perf_counter()
    reports = validate_many(items, workers=workers, near_miss=not no_near_misses)
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
                console.print(f"  {name:<15} {runs:>6} on {tasks_with} task(s)")
    if bad:
        raise SystemExit(1)


@tasks.command("build")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option("--suite", type=click.Choice(["full"]), help="Rebuild a shipped suite byte for byte.")
@click.option("--seed", type=int, default=None, help="Seed (default 0; the suite's own seed with --suite).")
@click.option("--count", type=click.IntRange(min=1), default=50, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
def tasks_build(out_dir: str, suite: str | None, seed: int | None, count: int, workers: int) -> None:
    """Compose tasks and keep those that pass quality control; --suite full rebuilds the full suite."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if suite == "full":
        _build_full_suite(out, seed, workers)
        return
    from devicesworld.spec.loading import dump_tasks_jsonl
    from devicesworld.tasks.build import build_composed

    built, report = build_composed(seed or 0, count)
    dump_tasks_jsonl(built, out / "tasks.jsonl")
    (out / "_build_report.json").write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    console.print(
        f"built {report.built}/{report.requested} tasks in {report.attempts} attempts -> {out / 'tasks.jsonl'}"
    )
    for reason, n in sorted(report.rejected.items(), key=lambda kv: -kv[1]):
        console.print(f"  rejected {n:4d}  {reason}", highlight=False, markup=False)


def _build_full_suite(out: Path, seed: int | None, workers: int) -> None:
    from devicesworld.tasks import full

    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            err_console.print(
                f"  {done}/{total} chunks, {time.perf_counter() - started:.0f} s", highlight=False
            )

    tasks_built, stats = full.build_full(
        seed if seed is not None else full.FULL_SEED, workers=workers, progress=progress
    )
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
    if shipped.exists():
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
def play(
    task_id: str, suite: str | None, tasks_path: str | None, record: Path | None, preset: str | None
) -> None:
    """Play a task yourself, one step per line.

    A step is JSON ({"device": ..., "action": ..., "args": {...}}) or the short form
    `DEVICE ACTION {json args}`; `finish` and `report_infeasible REASON` end the episode;
    `help` lists the actions. `--record FILE` saves the session as a demonstration.
    """
    from devicesworld.runner.play import play_task

    task = find_task(task_id, suite, tasks_path)
    if preset is not None:
        from devicesworld.devices.android.profiles import preset_names
        from devicesworld.tasks.env_split import with_preset

        if preset not in preset_names():
            raise click.BadParameter(f"unknown preset {preset!r}; e.g. train_00..train_34, test_00..test_09")
        task = with_preset(task, preset)
    play_task(task, console, record=record)


# ---------------------------------------------------------------------- tasks refine
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
    from devicesworld.spec.loading import dump_tasks_jsonl, load_tasks
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
