"""Does every value a task reads come with a declared distractor? (issue #13: "every task has at
least one declared distractor per value it reads").

A task reads the values it declares as ``metadata.sources`` (what the agent must find on a
device) and the persona-world values in ``world.reads``. A value is *covered* when

- it is a world value whose near-miss twin is declared (``tasks/worldqc.py``), or a world
  value the collateral guard protects instead (a device in another room);
- or it, or a value derived from it (``metadata.composition.derivations``, followed
  transitively), is checked by a condition that declares ``distractors``; a value that
  only steers a derivation (a decision's threshold, recorded in its ``params``) derives
  its result just as an input does, so the decision outcome's check covers it;
- or it is itself declared as a distractor (the task reads it in order to reject it:
  the older of two messages, the other grandparent's time);
- or it is the target of a covered world value.

Infeasible tasks read nothing. The census lists the tasks with uncovered values, and says
of each whether the conditions that check it could take distractors at all: a check
without a ``distractors`` argument (a command that must have been issued) cannot
be hedged, but it declares no twin either.
"""

from __future__ import annotations

import json
from typing import Any

from devicesworld.spec.models import Task
from devicesworld.tasks.worldqc import GUARDED_KINDS, declared_distractors, twin_values
from devicesworld.verify.registry import find_check


def _forms(value: Any) -> set[str]:
    text = str(value).strip().casefold()
    out = {text}
    if isinstance(value, float):
        out.add(f"{value:g}")
    if text.startswith("+"):
        out.add(text[1:])
    return {f for f in out if f}


def _args_text(args: dict[str, Any]) -> str:
    """A condition's arguments without its distractors, case-folded; a time given as separate
    ``hour`` and ``minute`` (an alarm) is also spelled ``HH:MM``, so the check names it."""
    rest = {k: v for k, v in args.items() if k != "distractors"}
    hour, minute = rest.get("hour"), rest.get("minute")
    if isinstance(hour, int) and isinstance(minute, int):
        rest["_time"] = f"{hour:02d}:{minute:02d}"
    return json.dumps(rest, sort_keys=True, default=str).casefold()


def _checks_text(task: Task) -> list[tuple[str, str, bool]]:
    """Per condition: its check, its arguments (no distractors) case-folded, whether it takes distractors."""
    kinds = {d.id: d.kind for d in task.devices}
    out = []
    for c in task.evaluation.conditions:
        spec = find_check(kinds.get(c.device, c.device), c.check)
        takes = spec is not None and "distractors" in spec.args_model.model_fields
        out.append((c.check, _args_text(c.args), takes))
    return out


def _guarded_text(task: Task) -> list[str]:
    """Per condition that declares distractors: its arguments (without the distractors), case-folded."""
    out = []
    for c in task.evaluation.conditions:
        if c.args.get("distractors"):
            out.append(_args_text(c.args))
    return out


def _derived_from(task: Task, value: Any) -> list[Any]:
    """``value`` and every value computed from it, following the task's recorded derivations."""
    composition = task.metadata.composition
    derivations = composition.derivations if composition is not None else []
    found = [value]
    seen = _forms(value)
    changed = True
    while changed:
        changed = False
        for d in derivations:
            inputs = list(d.inputs)
            inputs += [v for v in d.params.values() if isinstance(v, str | int | float)]
            result = d.result
            if result is None or _forms(result) <= seen:
                continue
            if any(_forms(i) & seen for i in inputs):
                found.append(result)
                seen |= _forms(result)
                changed = True
    return found


def uncovered_values(task: Task) -> list[str]:
    """What the task reads without any declared distractor, one description per value."""
    out: list[str] = []
    covered_targets: set[str] = set()
    if task.world is not None and task.world.reads:
        from devicesworld.worlds.generate import build_world

        world = build_world(task.world.persona_seed, task.world.size, task.start_time)
        declared = declared_distractors(task)
        for key in task.world.reads:
            try:
                pick = world.value(key)
            except KeyError:
                out.append(f"world value {key} (not in the world)")
                continue
            if pick.target.kind in GUARDED_KINDS or declared & twin_values(pick):
                covered_targets |= _forms(pick.target.value)
            else:
                out.append(f"world value {key}")
    checked = _guarded_text(task)
    rejected = declared_distractors(task)
    for source in task.metadata.sources:
        if _forms(source.value) & (covered_targets | rejected):
            continue
        values = _derived_from(task, source.value)
        if any(f in text for v in values for f in _forms(v) for text in checked):
            continue
        what = f"source {source.value!r} on {source.device} ({source.description or 'no description'})"
        by = {
            check
            for check, text, _ in _checks_text(task)
            if any(f in text for v in values for f in _forms(v))
        }
        if not by:
            what += ": no check names it"
        elif not any(takes for check, _, takes in _checks_text(task) if check in by):
            what += f": checked by {', '.join(sorted(by))}, which take no distractors"
        else:
            what += f": checked by {', '.join(sorted(by))} with no distractor declared"
        out.append(what)
    return out
