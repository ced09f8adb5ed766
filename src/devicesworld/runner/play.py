"""``devicesworld play``: a person takes the agent's seat, one step per input line.

The same environment and the same step format as agents use, so a person can check
that a task is solvable and see exactly the feedback an agent would get.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from devicesworld import jsonl
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.actions import FINISH, REPORT_INFEASIBLE
from devicesworld.spec.models import Task


def parse_command(line: str) -> dict[str, Any] | str:
    """A step from a line of input, or an error message for the player."""
    line = line.strip()
    if line.startswith("{"):
        try:
            doc = jsonl.parse_text(line)
        except jsonl.LineError as exc:
            return str(exc)
        return doc if isinstance(doc, dict) else "a step must be a JSON object"
    head, _, rest = line.partition(" ")
    if head == FINISH:
        return {"action": FINISH}
    if head == REPORT_INFEASIBLE:
        return {"action": REPORT_INFEASIBLE, "args": {"reason": rest.strip()}}
    action, _, raw_args = rest.strip().partition(" ")
    if not action:
        return "expected `DEVICE ACTION {json args}`, a JSON step, `finish`, or `report_infeasible REASON`"
    try:
        args = jsonl.parse_text(raw_args) if raw_args.strip() else {}
    except jsonl.LineError as exc:
        return f"arguments: {exc}"
    if not isinstance(args, dict):
        return "arguments must be a JSON object"
    return {"device": head, "action": action, "args": args}


SCREEN_TEXT = "screen_text"
"""Observation key of a device's screen drawn as text (phones); shown instead of the raw JSON."""


def show_observation(console: Console, observation: dict[str, Any], only: str | None = None) -> None:
    """Print each device's observation: its ``screen_text`` when it has one, JSON otherwise."""
    for device_id, view in observation.items():
        if only is not None and device_id != only:
            continue
        if isinstance(view, dict) and isinstance(view.get(SCREEN_TEXT), str):
            console.rule(device_id, style="dim")
            console.print(view[SCREEN_TEXT], highlight=False, markup=False)
        elif only is None:
            console.print_json(json.dumps({device_id: view}, default=str))


def play_task(
    task: Task, console: Console, stdin: TextIO | None = None, *, record: Path | None = None
) -> None:
    """Play ``task`` from ``stdin``; with ``record``, append the session to that demonstration file."""
    from devicesworld.demos.model import write_demos
    from devicesworld.demos.record import DemoRecorder

    stream = stdin or sys.stdin
    recorder = DemoRecorder(task, source="play") if record is not None else None
    with CrossDeviceEnv(task) as env:
        observation = env.reset()
        console.print(f"[bold]{escape(task.id)}[/]: {escape(task.instruction)}", highlight=False)
        show_observation(console, observation)
        console.print("type `help` for the actions; `finish` when done")
        while not env.done:
            console.print(f"[dim]step {env.steps + 1}/{task.limits.max_steps}[/] > ", end="")
            line = stream.readline()
            if not line:
                console.print("\n(end of input)")
                break
            if line.strip() in ("", "help"):
                for device_id, actions in env.action_spaces().items():
                    for a in actions:
                        console.print(f"  {device_id} {a['name']}: {a['doc']}", highlight=False, markup=False)
                continue
            step = parse_command(line)
            if isinstance(step, str):
                console.print(f"[red]{escape(step)}[/]")
                continue
            before = env.observe() if recorder is not None else {}
            outcome = env.step(step)
            if recorder is not None:
                recorder.record(before, step, outcome.result)
            style = "green" if outcome.result.ok else "red"
            console.print(f"[{style}]{escape(outcome.result.message)}[/]", highlight=False)
            if outcome.result.data is not None:
                console.print_json(json.dumps(outcome.result.data, default=str))
            if not env.done and isinstance(step.get("device"), str):
                show_observation(console, env.observe(), only=step["device"])
        verdict = env.evaluate()
    if recorder is not None and record is not None:
        demo = recorder.finish(verdict.success, verdict.score)
        write_demos(record, [demo], append=True)
        console.print(f"recorded {len(demo.steps)} steps -> {escape(str(record))}", highlight=False)
    console.print(f"[bold]success: {verdict.success}  score: {verdict.score:.2f}[/]")
    for c in verdict.conditions:
        mark = "[green]✓[/]" if c.passed else "[red]✗[/]"
        console.print(f"  {mark} {escape(c.id)}: {escape(c.detail)}", highlight=False)
