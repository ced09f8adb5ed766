"""``devicesworld androidworld``: look at and drive a phone task the way an AndroidWorld agent does.

``state`` prints the AndroidWorld element list of a task's first screen, ``run``
executes ``JSONAction`` lines (a file or stdin) through :class:`AndroidWorldEnv`
into a run directory, and ``oracle`` runs the reference agent over a suite's
single-phone tasks and prints the success rate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

import click

from devicesworld.cli.common import lookup_options
from devicesworld.compat.androidworld.actions import InvalidAction
from devicesworld.compat.androidworld.elements import UIElement


def _element_line(i: int, el: UIElement) -> str:
    flags = [
        name[3:]
        for name in ("is_clickable", "is_editable", "is_scrollable", "is_checked")
        if getattr(el, name)
    ]
    label = el.text or el.content_description or el.hint_text or ""
    short = (el.class_name or "").rsplit(".", 1)[-1]
    rid = f" {el.resource_name}" if el.resource_name else ""
    return f"[{i}] {short} {label!r}{rid}" + (f" ({', '.join(flags)})" if flags else "")


@click.group("androidworld")
def androidworld() -> None:
    """AndroidWorld compatibility: our phones behind AndroidWorld's environment interface."""


@androidworld.command("state")
@click.argument("task_id")
@lookup_options
@click.option("--json", "as_json", is_flag=True, help="Print the elements as JSON (AndroidWorld's fields).")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path), help="Save the pixels as PNG.")
def state_cmd(
    task_id: str, suite: str | None, tasks_path: str | None, as_json: bool, screenshot: Path | None
) -> None:
    """Print the AndroidWorld state of TASK_ID's first screen (after setup)."""
    import dataclasses

    from devicesworld.cli.common import find_task
    from devicesworld.compat.androidworld.env import AndroidWorldEnv

    env = AndroidWorldEnv(find_task(task_id, suite, tasks_path), pixels=screenshot is not None)
    try:
        state = env.reset()
        if screenshot is not None and state.pixels is not None:
            from PIL import Image

            Image.fromarray(state.pixels).save(screenshot)
        if as_json:
            doc = {
                "logical_screen_size": list(env.logical_screen_size),
                "foreground_activity": env.foreground_activity_name,
                "ui_elements": [dataclasses.asdict(el) for el in state.ui_elements],
            }
            click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        else:
            w, h = env.logical_screen_size
            click.echo(f"{env.foreground_activity_name}  {w}x{h}")
            for i, el in enumerate(state.ui_elements):
                click.echo(_element_line(i, el))
    finally:
        env.session.close()


@androidworld.command("run")
@click.argument("task_id")
@lookup_options
@click.option(
    "--actions",
    "actions_path",
    type=click.File("r", encoding="utf-8"),
    default="-",
    show_default=True,
    help="JSONAction dicts, one JSON object per line ('-': stdin).",
)
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), help="Run directory to write."
)
def run_cmd(
    task_id: str, suite: str | None, tasks_path: str | None, actions_path: IO[str], out_dir: Path | None
) -> None:
    """Execute AndroidWorld actions on TASK_ID, then evaluate; one line per action, then the verdict."""
    from devicesworld.cli.common import UserError, console, find_task
    from devicesworld.compat.androidworld.env import AndroidWorldEnv
    from devicesworld.compat.session import SessionError

    task = find_task(task_id, suite, tasks_path)
    env = AndroidWorldEnv(task, out_dir, pixels=False)
    try:
        env.reset()
    except SessionError as exc:
        raise UserError(str(exc)) from None
    try:
        for n, line in enumerate(actions_path, 1):
            if not line.strip():
                continue
            try:
                action = json.loads(line)
                env.execute_action(action)
            except json.JSONDecodeError as exc:
                raise UserError(f"action line {n} is not JSON: {exc.msg}") from None
            except InvalidAction as exc:
                raise UserError(f"action line {n}: {exc}") from None
            result = env.last_result
            mark = "ok " if result is not None and result.ok else "ERR"
            message = result.message if result is not None else ""
            click.echo(f"{env.session.steps:3d} {mark} {action.get('action_type')}: {message}")
            if env.done:
                break
    finally:
        outcome = env.close()
    verdict = "success" if outcome.success else "failure"
    console.print(
        f"{task.id}: {verdict} (score {outcome.score:.2f}, {outcome.steps} steps, {outcome.termination})",
        highlight=False,
    )
    for c in outcome.conditions:
        console.print(f"  {'PASS' if c.passed else 'FAIL'} {c.id}: {c.detail}", highlight=False, markup=False)
    if out_dir is not None:
        console.print(f"recorded in {out_dir}", highlight=False)


@androidworld.command("oracle")
@click.option("--suite", help="Suite (default: smoke).")
@click.option("--tasks", "tasks_path", type=click.Path(), help="A task file or folder instead of a suite.")
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), help="Run directory to write."
)
@click.option(
    "--m3a-shaped",
    is_flag=True,
    help="Run the agent shaped like M3A through AndroidWorld's episode loop (status never executed).",
)
def oracle_cmd(suite: str | None, tasks_path: str | None, out_dir: Path | None, m3a_shaped: bool) -> None:
    """Solve every single-phone task with the reference agent through AndroidWorld's interface."""
    import time

    from devicesworld.cli.common import UserError, console, load_source
    from devicesworld.compat.androidworld.env import AndroidWorldEnv
    from devicesworld.compat.androidworld.oracle import M3AShapedOracle, OracleError, run_oracle
    from devicesworld.compat.androidworld.runner import run_agent
    from devicesworld.compat.session import SessionError

    tasks = [t for t in load_source(suite, tasks_path) if [d.kind for d in t.devices] == ["android"]]
    if not tasks:
        raise UserError("no single-phone tasks in the source")
    t0 = time.perf_counter()
    passed = 0
    for task in tasks:
        env = AndroidWorldEnv(task, out_dir, pixels=False)
        note = ""
        try:
            if m3a_shaped:
                agent = M3AShapedOracle(env)
                try:
                    run_agent(agent, env)
                finally:
                    agent.close()
            else:
                run_oracle(env)
        except OracleError as exc:
            note = f" ({exc})"
        except SessionError as exc:
            raise UserError(str(exc)) from None
        finally:
            result = env.close() if env.session.started else None
        if result is None:
            continue
        passed += result.success
        if not result.success:
            failed = "; ".join(c.detail for c in result.conditions if not c.passed)
            console.print(f"FAIL {task.id}: {failed}{note}", highlight=False, markup=False)
    rate = passed / len(tasks)
    console.print(
        f"{passed}/{len(tasks)} single-phone tasks solved through the AndroidWorld interface "
        f"({rate:.1%}) in {time.perf_counter() - t0:.1f} s",
        highlight=False,
    )
    if out_dir is not None:
        console.print(f"recorded in {out_dir}", highlight=False)


__all__ = ["androidworld"]
