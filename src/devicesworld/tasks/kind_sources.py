"""The source families (the GUI task families, ``tasks/data/sources/*.yaml``) made into finished tasks.

A source family is data compiled by :mod:`devicesworld.tasks.sources.compile`; this module
names no kind. A source gives a task *document*; a cross-device document may write another
device's steps by meaning, as that device's task-file macros
(``{"device": "<id>", "macro": "open_contact", "args": "Ana Lima"}``,
``devicesworld/macros.py``). :func:`finish_document` expands those macros and records the UI steps they
stand for on a copy of the task holding only that device (its own setup), then puts
the concrete steps where the macros stood. The desktop's steps are GUI actions and
replay as written.

Every source task's difficulty is measured (``tasks/source_difficulty.py``), never the
builder's own label. The sources are listed in the order of ``sources/_order.yaml``, so the
recipes of ``full`` (:mod:`devicesworld.tasks.full`) and ``smoke-gui`` are stable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from devicesworld import macros
from devicesworld.devices.base import get_kind
from devicesworld.spec.models import Evaluation, Step, Task
from devicesworld.tasks.source_difficulty import ReadsError, relabel
from devicesworld.tasks.sources.compile import SourceFileError, TaskDraw, TaskSource, load_sources

__all__ = [
    "SourceError",
    "TaskDraw",
    "TaskSource",
    "draw",
    "finish_document",
    "load_sources",
    "smoke_tasks",
    "source_by_name",
    "sources",
]

SMOKE_PREFIX = "smoke-gui"


class SourceError(ValueError):
    """A source's document cannot be made into a task (the message says which and why)."""


def sources() -> list[TaskSource]:
    """Every source family, in ``_order.yaml``'s order; names must be unique. A family file that
    does not compile is a :class:`~devicesworld.tasks.loading.TaskLoadError` naming it (the CLI
    shows it in one line)."""
    from devicesworld.tasks.loading import SpecIssue, TaskLoadError

    try:
        out = list(load_sources())
    except SourceFileError as exc:
        file, _, message = str(exc).partition(": ")
        raise TaskLoadError([SpecIssue(f"tasks/data/{file}", None, "(source family)", message)]) from None
    names = [s.name for s in out]
    if len(names) != len(set(names)):
        raise SourceError(f"task source names repeat: {sorted(n for n in set(names) if names.count(n) > 1)}")
    return out


def source_by_name(name: str) -> TaskSource:
    for s in sources():
        if s.name == name:
            return s
    raise KeyError(f"no task source {name!r}; known: {', '.join(s.name for s in sources())}")


def _macro_parts(doc: Mapping[str, Any], item: Mapping[str, Any]) -> list[dict[str, Any]]:
    devices = {d["id"]: d for d in doc["devices"]}
    device = item.get("device")
    if not isinstance(device, str) or device not in devices:
        raise SourceError(f"{doc['id']}: macro step {item.get('macro')!r} names no device of the task")
    kind = devices[device]["kind"]
    known = get_kind(kind) is not None  # loading the kind registers its macros
    macro = macros.find(kind, "solution", str(item["macro"])) if known else None
    if macro is None:
        raise SourceError(f"{doc['id']}: the {kind} kind has no solution macro {item['macro']!r}")
    ctx = macros.MacroContext(
        device=device,
        kind=kind,
        profile=devices[device].get("profile") or {},
        setup=tuple(op for op in doc.get("setup", []) if op.get("device") == device),
    )
    try:
        expanded = macro.fn(item.get("args"), ctx)
    except macros.MacroError as exc:
        raise SourceError(f"{doc['id']}: {exc}") from None
    return [{"device": device, **e, "args": e.get("args", {})} for e in expanded]


def finish_document(doc: Mapping[str, Any]) -> Task:
    """The task of a source's document: macro steps expanded and recorded, the rest as written.

    :class:`SourceError` for a macro that does not exist or cannot be played (an element
    not on screen), so a broken source fails its build instead of shipping a bad step.
    """
    solution: list[Mapping[str, Any]] = list(doc.get("solution", []))
    if not any("macro" in s for s in solution):
        return Task.model_validate(doc)
    plain = [s for s in solution if "macro" not in s]
    task = Task.model_validate({**doc, "solution": plain})
    expanded: dict[int, list[Step]] = {}
    by_device: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for position, item in enumerate(solution):
        if "macro" in item:
            for part in _macro_parts(doc, item):
                by_device.setdefault(part["device"], []).append((position, part))
    for device, parts in by_device.items():
        for position, step in _record(task, device, parts):
            expanded.setdefault(position, []).append(step)
    steps: list[Step] = []
    for position, item in enumerate(solution):
        steps += expanded.get(position, []) if "macro" in item else [Step.model_validate(item)]
    return task.model_copy(update={"solution": steps})


def _record(task: Task, device: str, parts: Sequence[tuple[int, dict[str, Any]]]) -> list[tuple[int, Step]]:
    """Play one device's expanded macro parts on a copy of ``task`` with only that device."""
    from devicesworld.tasks.handwritten.recording import ScriptError, ScriptItem, Target, UiStep, record

    world = task.world
    if world is not None and world.devices is not None:
        if device in world.devices:  # the copy holds this device only: its world names it alone
            world = world.model_copy(
                update={
                    "devices": [device],
                    "members": {k: v for k, v in world.members.items() if k == device},
                }
            )
        else:
            world = None  # the world is on another device: this one starts without it
    alone = task.model_copy(
        update={
            "devices": [d for d in task.devices if d.id == device],
            "setup": [op for op in task.setup if op.device == device],
            # recording evaluates nothing: the copy needs no conditions of the other devices
            "evaluation": Evaluation.model_construct(conditions=[]),
            "solution": [],
            # the device plays on what it will hold in the task (a lived phone's longer lists)
            "world": world,
        }
    )
    items: list[ScriptItem] = []
    for _, p in parts:
        if "target" in p:
            items.append(UiStep(device, p["action"], Target(**p["target"]), p["args"], p.get("at_fraction")))
        else:
            items.append(Step(device=device, action=p["action"], args=p["args"]))
    try:
        recorded = record(alone, items)  # one concrete step per item, in order
    except ScriptError as exc:
        raise SourceError(
            f"{task.id}: the {device} steps cannot be played: {str(exc).splitlines()[0]}"
        ) from None
    return [(parts[n][0], step) for n, step in enumerate(recorded)]


def draw(source: TaskSource, d: TaskDraw) -> Task:
    """Task ``d`` of ``source``, finished (macro steps recorded) and graded by its measured
    features (:func:`devicesworld.tasks.source_difficulty.relabel`, not the builder's label);
    not yet validated."""
    try:
        doc = source.build(d)
    except ValueError as exc:
        raise SourceError(f"{source.name}: {exc}") from None
    try:
        return relabel(finish_document(doc))
    except ReadsError as exc:
        raise SourceError(f"{source.name}: {exc}") from None


def smoke_tasks() -> list[Task]:
    """The ``smoke-gui`` suite: every source's smoke draws, ids ``smoke-gui-<source>-<n>``."""
    out: list[Task] = []
    for s in sources():
        for i in range(s.smoke):
            out.append(
                draw(s, TaskDraw(seed=0, index=i, task_id=f"{SMOKE_PREFIX}-{s.name[4:]}-{i + 1}", smoke=True))
            )
    return out
