"""``devicesworld run``: run an agent on tasks, with its option checks and the LLM preflight."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape

if TYPE_CHECKING:
    pass

from devicesworld.cli.common import (
    DEFAULT_SUITE,
    UserError,
    _missing_extra,
    _source_label,
    choice_option,
    console,
    err_console,
    load_source,
    runnable_here,
    selection_options,
)


# ------------------------------------------------------------------------------- run
@click.command()
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
@choice_option(
    "--backend",
    choices=["local", "ray"],
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
        from devicesworld.cli.results import print_report

        print_report(out_dir, as_json=False, compare=None)
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
