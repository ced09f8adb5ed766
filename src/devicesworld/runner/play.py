"""``devicesworld play``: a person takes the agent's seat, one step per input line.

The same environment and the same step format as agents use, so a person can check
that a task is solvable and see exactly the feedback an agent would get. ``help``
lists each action with its argument names and types; phone screens show each
element's pixel box (a slider or a point tap needs a position); and every screen is
saved as a PNG whose path is printed, to open beside the terminal.
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
from devicesworld.spec.actions import ANSWER, FINISH, REPORT_INFEASIBLE
from devicesworld.spec.models import Task

_GLOBAL_TEXT_ARG = {REPORT_INFEASIBLE: "reason", ANSWER: "text"}
"""Global actions whose one text argument may follow their name as plain text."""


def _text_or_json_field(rest: str, field: str) -> str:
    """``rest`` as the text, unless it is a JSON object naming ``field`` (``{"reason": "..."}``)."""
    if rest.startswith("{"):
        try:
            doc = jsonl.parse_text(rest)
        except jsonl.LineError:
            return rest
        if isinstance(doc, dict) and isinstance(doc.get(field), str):
            return str(doc[field])
    return rest


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
    if head in _GLOBAL_TEXT_ARG:
        field = _GLOBAL_TEXT_ARG[head]
        return {"action": head, "args": {field: _text_or_json_field(rest.strip(), field)}}
    action, _, raw_args = rest.strip().partition(" ")
    if not action:
        return (
            "expected `DEVICE ACTION {json args}`, a JSON step, `finish`, `report_infeasible REASON`"
            " or `answer TEXT`"
        )
    try:
        args = jsonl.parse_text(raw_args) if raw_args.strip() else {}
    except jsonl.LineError as exc:
        return f"arguments: {exc}"
    if not isinstance(args, dict):
        return "arguments must be a JSON object"
    return {"device": head, "action": action, "args": args}


SCREEN_TEXT = "screen_text"
"""Observation key of a device's screen drawn as text (phones); shown instead of the raw JSON."""


def with_boxes(screen_text: str, elements: Any) -> str:
    """``screen_text`` with each ``[i]`` line followed by element ``i``'s pixel box."""
    if not isinstance(elements, list):
        return screen_text
    lines = []
    for line in screen_text.splitlines():
        index = line[1 : line.find("]")] if line.startswith("[") and "]" in line else ""
        box = None
        if index.isdigit() and int(index) < len(elements) and isinstance(elements[int(index)], dict):
            box = elements[int(index)].get("bbox_pixels")
        if isinstance(box, dict) and {"x_min", "y_min", "x_max", "y_max"} <= box.keys():
            line += f"  @({box['x_min']},{box['y_min']})-({box['x_max']},{box['y_max']})"
        lines.append(line)
    return "\n".join(lines)


OBJECT_MARK = "\ufffc"
"""What an accessible text holds for each embedded child element (Chromium's panels are made of
them); left out of the printed text, since the children are listed themselves."""


def desktop_text(view: dict[str, Any]) -> str | None:
    """A GUI desktop's observation (Linux GUI mode, Windows) as text: the focused window, the
    window list, then one line per element with its index, role, name, text, value, states and
    box — what a player acts on by index; ``None`` for a view without an element list."""
    elements, windows = view.get("elements"), view.get("windows")
    if not isinstance(elements, list) or not isinstance(windows, list):
        return None
    focused = view.get("focused_window")
    lines = [f"focused: {focused.get('title')!r}" if isinstance(focused, dict) else "focused: none"]
    lines += [
        f"window {w.get('title')!r} ({w.get('app')}){' *' if w.get('focused') else ''}"
        for w in windows
        if isinstance(w, dict)
    ]
    for el in elements:
        if not isinstance(el, dict):
            continue
        line = f"[{el.get('index')}] {el.get('role')} {el.get('name')!r}"
        for key in ("text", "value"):
            shown = "" if el.get(key) is None else str(el[key]).replace(OBJECT_MARK, "")
            if shown.strip() and shown != el.get("name"):
                line += f" {key}={shown!r}"
        if el.get("states"):
            line += f" ({', '.join(map(str, el['states']))})"
        box = el.get("box")
        if isinstance(box, list) and len(box) == 4:
            line += f"  @({box[0]},{box[1]}) {box[2]}x{box[3]}"
        lines.append(line)
    if view.get("tree_incomplete"):
        lines.append("(element tree incomplete: observe again)")
    if view.get("error"):
        lines.append(f"error: {view['error']}")
    return "\n".join(lines)


def show_observation(console: Console, observation: dict[str, Any], only: str | None = None) -> None:
    """Print each device's observation: a phone's ``screen_text`` (with element boxes), a GUI
    desktop's windows and element list, JSON for any other."""
    for device_id, view in observation.items():
        if only is not None and device_id != only:
            continue
        if isinstance(view, dict) and isinstance(view.get(SCREEN_TEXT), str):
            console.rule(device_id, style="dim")
            text = with_boxes(view[SCREEN_TEXT], view.get("ui_elements"))
            console.print(text, highlight=False, markup=False)
        elif isinstance(view, dict) and (desktop := desktop_text(view)) is not None:
            console.rule(device_id, style="dim")
            console.print(desktop, highlight=False, markup=False)
        elif only is None:
            console.print_json(json.dumps({device_id: view}, default=str))


def signature(action: dict[str, Any]) -> str:
    """``name(arg: type, optional?: type)`` from an action's published JSON Schema."""
    schema = action.get("args_schema") or {}
    required = set(schema.get("required", []))
    parts = []
    for name, prop in (schema.get("properties") or {}).items():
        types = [prop.get("type")] if "type" in prop else [p.get("type") for p in prop.get("anyOf", [])]
        shown = "|".join(t for t in types if t and t != "null") or "any"
        if "enum" in prop:
            shown = "|".join(map(str, prop["enum"]))
        parts.append(f"{name}{'' if name in required else '?'}: {shown}")
    return f"{action['name']}({', '.join(parts)})"


def save_screens(env: CrossDeviceEnv, folder: Path | None, step: int) -> list[Path]:
    """Each device's screen after ``step`` as ``step<NNN>_<device>.png`` in ``folder``."""
    if folder is None:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for device_id, png in env.screenshots().items():
        path = folder / f"step{step:03d}_{device_id}.png"
        path.write_bytes(png)
        paths.append(path)
    return paths


def play_task(
    task: Task,
    console: Console,
    stdin: TextIO | None = None,
    *,
    record: Path | None = None,
    screens: Path | None = None,
) -> None:
    """Play ``task`` from ``stdin``; with ``record``, append the session to that demonstration file.

    With ``screens``, every phone/desktop screen is saved there after each step and its path printed.
    """
    from devicesworld.demos.model import write_demos
    from devicesworld.demos.record import DemoRecorder

    stream = stdin or sys.stdin
    recorder = DemoRecorder(task, source="play") if record is not None else None
    with CrossDeviceEnv(task) as env:
        observation = env.reset()
        console.print(f"[bold]{escape(task.id)}[/]: {escape(task.instruction)}", highlight=False)
        show_observation(console, observation)
        for path in save_screens(env, screens, 0):
            console.print(f"screenshot: {escape(str(path))}", highlight=False, soft_wrap=True)
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
                        console.print(
                            f"  {device_id} {signature(a)}: {a['doc']}", highlight=False, markup=False
                        )
                console.print(
                    '  e.g. android_0 click {"index": 5}  or  android_0 click {"x": 540, "y": 1200}',
                    highlight=False,
                    markup=False,
                )
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
            for path in save_screens(env, screens, env.steps):
                console.print(f"screenshot: {escape(str(path))}", highlight=False, soft_wrap=True)
        verdict = env.evaluate()
    if recorder is not None and record is not None:
        demo = recorder.finish(verdict.success, verdict.score)
        write_demos(record, [demo], append=True)
        console.print(f"recorded {len(demo.steps)} steps -> {escape(str(record))}", highlight=False)
    console.print(f"[bold]success: {verdict.success}  score: {verdict.score:.2f}[/]")
    for c in verdict.conditions:
        mark = "[green]✓[/]" if c.passed else "[red]✗[/]"
        console.print(f"  {mark} {escape(c.id)}: {escape(c.detail)}", highlight=False)
