"""Value provenance: every value a verifier expects must be findable by the agent.

Paper §3.3, first requirement (complete): whatever a task checks must come from the
instruction, from a device's visible state after setup, or from a declared
transformation of such values. A verifier expecting a value that appears nowhere
would make the task unsolvable except by luck, and such a task is rejected.

What is checked here:

- every string a scored condition expects that carries data (at least three digits:
  codes, phone numbers, references) — not names of attributes, commands or modes,
  which belong to the interface, and not times and numbers, which devices store in
  their own units (a 0-255 brightness, a timer in seconds, a schedule's due
  datetime) and which the reference solution's run already ties to the setup;
- every value the agent must find (``metadata.sources``) that carries such data;
- every declared derivation: it recomputes to its result, and each input is a
  source value, a value the instruction states, or an earlier derivation's result.

A value is *visible* when one of its spellings appears in the instruction, in the
arguments of a setup operation (setup is what puts state on devices), or in the
task's persona world (``task.world``, docs/worlds.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from typing import Any

from devicesworld.spec.models import GLOBAL_DEVICE, Task
from devicesworld.tasks.derivations import OPERATIONS, Derivation
from devicesworld.worlds.model import Member, WorldSize

IGNORED_KEYS = frozenset(
    {
        "tolerance",
        "min_count",
        "max_count",
        "count",
        "nth",
        "index",
        "timeout",
        "min_length",
        "max_length",
        "cues",
    }
)
"""Arguments that tune how a check compares, not what it expects (``cues``: the words that
introduce a slot, :mod:`devicesworld.spec.slots`)."""


def provenance_problems(task: Task) -> list[str]:
    visible = _VisibleText(task)
    sources = {_key(s.value) for s in task.metadata.sources}
    declared, problems = _derivations(task, visible, sources)
    for s in task.metadata.sources:
        if _is_data(s.value) and not visible.contains(s.value):
            problems.append(
                f"source value {s.value!r} ({s.description}) is not placed on {s.device} by setup"
            )
    for c in task.evaluation.conditions:
        if c.device == GLOBAL_DEVICE or not c.scored:
            continue
        for key, value in _leaves(c.args):
            if key in IGNORED_KEYS or not _is_data(value):
                continue
            if visible.contains(value) or any(form in declared for form in _spellings(value)):
                continue
            # a value embedded in a longer expectation (a command, a sentence): each number in it
            runs = re.findall(r"\d[\d.]*\d|\d{3,}", value)
            if (
                len(value) > 12
                and runs
                and all(visible.contains(r) or r in declared or _key(r) in sources for r in runs)
            ):
                continue
            problems.append(
                f"condition {c.id} expects {key}={value!r}, which neither the instruction, the setup "
                "nor a declared transformation provides"
            )
    return problems


def _derivations(task: Task, visible: _VisibleText, sources: set[str]) -> tuple[set[str], list[str]]:
    """Results of declared derivations that recompute correctly from visible (or derived) inputs."""
    composition = task.metadata.composition
    declared: set[str] = set()
    problems: list[str] = []
    for raw in composition.derivations if composition is not None else []:
        d = Derivation(raw.op, tuple(raw.inputs), dict(raw.params), raw.result)
        if d.op not in OPERATIONS:
            problems.append(f"derivation uses an unknown operation {d.op!r}")
            continue
        if _key(d.recompute()) != _key(d.result):
            problems.append(f"derivation {d.op}{list(d.inputs)} gives {d.recompute()!r}, not {d.result!r}")
            continue
        hidden_inputs = [
            v for v in d.inputs if not (visible.contains(v) or _key(v) in declared or _key(v) in sources)
        ]
        if hidden_inputs:
            problems.append(f"derivation {d.op} uses {hidden_inputs!r}, which nothing provides")
            continue
        declared.add(_key(d.result))
    return declared, problems


class _VisibleText:
    """The instruction and every setup argument, as one searchable text."""

    def __init__(self, task: Task) -> None:
        parts = [task.instruction]
        if task.world is not None:  # the persona world is visible state too (docs/worlds.md)
            parts.append(_world_text(task.world.persona_seed, task.world.size, task.start_time))
            for member in sorted(set(task.world.members.values())):  # a household member's phone too
                parts.append(
                    _world_text(
                        task.world.persona_seed, task.world.size, task.start_time, member, task.world.mirrored
                    )
                )
        for op in task.setup:
            parts += [str(v) for _, v in _leaves(op.args)]
            parts += [str(k) for k, _ in _leaves(op.args)]
        self.text = "\n".join(parts)
        self.digits = re.sub(r"\D", "", self.text)

    def contains(self, value: Any) -> bool:
        return any(form in self.text for form in _spellings(value))


@cache
def _world_text(
    seed: int, size: WorldSize, start: datetime, member: Member | None = None, mirrored: bool = False
) -> str:
    from devicesworld.worlds import build_world

    return build_world(seed, size, start=start, member=member, mirrored=mirrored).to_json()


def _spellings(value: Any) -> set[str]:
    forms = {str(value)}
    if isinstance(value, float):
        forms |= {f"{value:g}", f"{value:.2f}", f"{value:.1f}"}
    if isinstance(value, int) and not isinstance(value, bool):
        forms |= {f"{value}.0"}
    if isinstance(value, str):
        stamp = as_datetime(value)
        if stamp is not None:
            forms = {stamp.strftime("%H:%M")}
        if value.startswith("+"):
            forms.add(value[1:])
        if "/" in value:
            forms = {value.rsplit("/", 1)[1]}  # a file is found by its name; folders are conventions
    return {f for f in forms if f}


def as_datetime(value: str) -> datetime | None:
    """``value`` as a date-time when it is an ISO one (with a ``T``), else ``None`` (a date alone is not)."""
    if "T" not in value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _is_data(value: Any) -> bool:
    """A string carrying data that no device re-encodes: a code, a phone number, a reference."""
    if not isinstance(value, str) or sum(ch.isdigit() for ch in value) < 3:
        return False
    return as_datetime(value) is None and re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", value) is None


def _key(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _leaves(obj: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, str(k))
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _leaves(v, key)
    else:
        yield key, obj
