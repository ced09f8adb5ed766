"""Compiling task data files (``docs/task-format.md``, "Data files") to tasks.

A data file says what a task is; this module fills in what is mechanical: device
kinds from ids, shared defaults, fragments, the kind's macros (read from
:mod:`devicesworld.macros`, so no kind is named here), the element indexes of UI
steps (recorded on the simulator by :func:`~devicesworld.tasks.handwritten.recording.record`),
the final ``finish``, and unscoring conditions that hold after setup alone.

Compiling is two steps so that a task's solution can be recorded again on another
device profile (``bmoca``'s randomized configurations): :func:`draft_file` reads a
file into :class:`Draft` objects without running anything, and :func:`solve` /
:func:`compile_draft` expand the solution for a given task and record it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from devicesworld import macros
from devicesworld.devices.base import format_validation_error, get_kind, kind_of_device_id
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.models import GLOBAL_DEVICE, Step, Task
from devicesworld.tasks.handwritten.yamlfile import (
    DataFileError,
    DataFileErrors,
    Map,
    Pos,
    load_file,
    plain,
    pos_of,
)
from devicesworld.tasks.semantic import run_profiles, semantic_problems, step_problems

FORMAT_VERSION = 1
FILE_KEYS = ("format", "suite", "imports", "defaults", "fragments", "tasks")
TASK_KEYS = (
    "id",
    "instruction",
    "devices",
    "start_time",
    "setup",
    "cleanup",
    "conditions",
    "writes",
    "collateral",
    "limits",
    "metadata",
    "solution",
    "device",
    "finish",
)
MERGED_KEYS = ("metadata", "limits")
"""Task fields whose defaults merge key by key; every other field is replaced."""
CONDITION_KEYS = ("id", "on", "scored", "required", "subtask")
ENDINGS = ("finish", "report_infeasible")


@dataclass(frozen=True)
class Source:
    """Where something was written: a file, a field path and a position."""

    file: str
    field: str
    pos: Pos | None

    def error(self, message: str, sub: str = "", pos: Pos | None = None) -> DataFileError:
        return DataFileError(self.file, pos or self.pos, self.field + sub, message)

    def at(self, node: Any, key: Any, sub: str) -> Source:
        return Source(self.file, self.field + sub, pos_of(node, key) or self.pos)


@dataclass(frozen=True)
class RawItem:
    """One solution item before macro expansion: its name, arguments, device and where it was written."""

    name: str
    args: Any
    device: str | None
    explicit_device: bool
    source: Source


@dataclass
class Draft:
    """A task read from a data file: the task without its solution, and the solution as written."""

    task: Task
    solution: list[RawItem]
    finish: bool
    source: Source


@dataclass
class Fragments:
    """Named item lists of a file (and of the files it imports)."""

    items: dict[str, tuple[Any, Source]] = field(default_factory=dict)


# --------------------------------------------------------------------------- files
def draft_file(
    path: Path, defaults: Mapping[str, Any] | None = None, suite: str | None = None
) -> list[Draft]:
    """Every task of a data file, checked but not yet compiled (nothing runs).

    With ``suite``, a file that says it belongs to another suite is an error.
    """
    try:
        doc = load_file(path)
    except DataFileError as exc:
        raise DataFileErrors([exc]) from None
    name = str(path)
    top = Source(name, "", (1, 1))
    if not isinstance(doc, Map):
        raise DataFileErrors(
            [top.error("a task data file is a mapping with format, defaults, fragments, tasks")]
        )
    errors: list[DataFileError] = []
    for key in doc:
        if key not in FILE_KEYS:
            errors.append(top.at(doc, key, str(key)).error(f"unknown key (known: {', '.join(FILE_KEYS)})"))
    if doc.get("format") != FORMAT_VERSION:
        errors.append(
            top.at(doc, "format", "format").error(f"must be {FORMAT_VERSION} (the data-file format version)")
        )
    said = doc.get("suite")
    if said is not None and (not isinstance(said, str) or (suite is not None and said != suite)):
        errors.append(top.at(doc, "suite", "suite").error(f"this file is read as part of suite {suite!r}"))
    if errors:
        raise DataFileErrors(errors)
    fragments = Fragments()
    for i, imported in enumerate(_list(doc.get("imports", []), top.at(doc, "imports", "imports"))):
        where = top.at(doc["imports"], i, f"imports[{i}]")
        if not isinstance(imported, str):
            raise DataFileErrors([where.error("an import is a file name")])
        _read_fragments(path.parent / imported, fragments, where)
    _add_fragments(doc.get("fragments", {}), fragments, top.at(doc, "fragments", "fragments"))
    base = dict(defaults or {})
    file_defaults = doc.get("defaults", {})
    dsrc = top.at(doc, "defaults", "defaults")
    if not isinstance(file_defaults, Mapping):
        raise DataFileErrors([dsrc.error("defaults is a mapping of task fields")])
    _check_task_keys(file_defaults, dsrc, errors, allow_id=False)
    drafts: list[Draft] = []
    _walk_tasks(
        doc.get("tasks", []),
        merge(base, file_defaults),
        fragments,
        top.at(doc, "tasks", "tasks"),
        drafts,
        errors,
    )
    seen: dict[str, Source] = {}
    for d in drafts:
        if d.task.id in seen:
            errors.append(
                d.source.error(f"task id {d.task.id!r} is used twice (first at line {seen[d.task.id].pos})")
            )
        seen.setdefault(d.task.id, d.source)
    if errors:
        raise DataFileErrors(errors)
    return drafts


def _list(value: Any, where: Source) -> list[Any]:
    if not isinstance(value, list):
        raise DataFileErrors([where.error("must be a list")])
    return value


def read_fragments(*paths: Path) -> Fragments:
    """The fragments of data files (e.g. ``homes.yaml``), for :func:`draft_task` / :func:`compile_task`."""
    fragments = Fragments()
    for path in paths:
        _read_fragments(path, fragments, Source(str(path), "", None))
    return fragments


def _read_fragments(path: Path, fragments: Fragments, where: Source) -> None:
    try:
        doc = load_file(path)
    except DataFileError as exc:
        raise DataFileErrors([where.error(f"cannot import: {exc}")]) from None
    if not isinstance(doc, Map) or doc.get("format") != FORMAT_VERSION:
        raise DataFileErrors([where.error(f"{path.name} is not a task data file of format {FORMAT_VERSION}")])
    top = Source(str(path), "", (1, 1))
    _add_fragments(doc.get("fragments", {}), fragments, top.at(doc, "fragments", "fragments"))


def _add_fragments(raw: Any, fragments: Fragments, where: Source) -> None:
    if not isinstance(raw, Mapping):
        raise DataFileErrors([where.error("fragments is a mapping of name to a list of items")])
    for name, items in raw.items():
        src = where.at(raw, name, f".{name}")
        if not isinstance(items, list):
            raise DataFileErrors([src.error("a fragment is a list of items")])
        fragments.items[str(name)] = (items, src)


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Task fields ``over`` laid on ``base``: ``metadata`` and ``limits`` merge key by key."""
    out = dict(base)
    for key, value in over.items():
        if key in MERGED_KEYS and isinstance(out.get(key), Mapping) and isinstance(value, Mapping):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _check_task_keys(
    doc: Mapping[str, Any], where: Source, errors: list[DataFileError], allow_id: bool
) -> bool:
    ok = True
    for key in doc:
        if key not in TASK_KEYS or (key == "id" and not allow_id):
            errors.append(
                where.at(doc, key, f".{key}").error(f"unknown task field (known: {', '.join(TASK_KEYS)})")
            )
            ok = False
    return ok


def _walk_tasks(
    raw: Any,
    defaults: dict[str, Any],
    fragments: Fragments,
    where: Source,
    drafts: list[Draft],
    errors: list[DataFileError],
) -> None:
    if not isinstance(raw, list):
        errors.append(where.error("tasks is a list of tasks and groups"))
        return
    for i, entry in enumerate(raw):
        src = where.at(raw, i, f"[{i}]")
        if not isinstance(entry, Mapping):
            errors.append(src.error("a task (or group) is a mapping"))
        elif "group" in entry or "tasks" in entry:
            extra = [k for k in entry if k not in ("group", "defaults", "tasks")]
            if extra:
                errors.append(
                    src.error(f"a group has group, defaults and tasks, not {', '.join(map(str, extra))}")
                )
                continue
            group_defaults = entry.get("defaults", {})
            gsrc = src.at(entry, "defaults", ".defaults")
            if not isinstance(group_defaults, Mapping):
                errors.append(gsrc.error("defaults is a mapping of task fields"))
                continue
            if _check_task_keys(group_defaults, gsrc, errors, allow_id=False):
                _walk_tasks(
                    entry.get("tasks", []),
                    merge(defaults, group_defaults),
                    fragments,
                    src.at(entry, "tasks", ".tasks"),
                    drafts,
                    errors,
                )
        else:
            try:
                drafts.append(draft_task(entry, defaults=defaults, fragments=fragments, source=src))
            except DataFileError as exc:
                errors.append(exc)
            except DataFileErrors as exc:
                errors += exc.errors


# --------------------------------------------------------------------------- one task
def draft_task(
    doc: Mapping[str, Any],
    *,
    defaults: Mapping[str, Any] | None = None,
    fragments: Fragments | None = None,
    source: Source | None = None,
) -> Draft:
    """One task mapping (with ``defaults`` under it) as a :class:`Draft`; raises :class:`DataFileError(s)`.

    The entry point for anything that writes task mappings itself (suite v2's scenario
    families fill a template's parameters and hand the mapping here).
    """
    src = source or Source("<task>", "", None)
    fragments = fragments or Fragments()
    errors: list[DataFileError] = []
    task_id = doc.get("id")
    if isinstance(task_id, str) and task_id:
        src = Source(src.file, f"{src.field} ({task_id})", src.pos)
    if not _check_task_keys(doc, src, errors, allow_id=True):
        raise DataFileErrors(errors)
    if not isinstance(task_id, str) or not task_id:
        raise src.error("every task needs an explicit `id` (ids never come from a position)", ".id")
    merged = merge(defaults or {}, doc)
    devices = _devices(merged.get("devices"), src.at(doc, "devices", ".devices"))
    kinds = {d["id"]: d["kind"] for d in devices}
    profiles = {d["id"]: d.get("profile", {}) for d in devices}
    default_device = merged.get("device", devices[0]["id"])
    if default_device not in kinds:
        raise src.at(doc, "device", ".device").error(f"{default_device!r} is not one of the task's devices")
    ctx = _Ctx(kinds, profiles, str(default_device), fragments)
    setup = ctx.ops(merged.get("setup", []), src.at(merged, "setup", ".setup"))
    cleanup = ctx.ops(merged.get("cleanup", []), src.at(merged, "cleanup", ".cleanup"), section_setup=False)
    conditions = ctx.conditions(merged.get("conditions"), src.at(merged, "conditions", ".conditions"))
    solution = ctx.raw_solution(merged.get("solution", []), src.at(merged, "solution", ".solution"))
    finish = merged.get("finish", "auto")
    if finish not in ("auto", False):
        raise src.at(merged, "finish", ".finish").error("finish is `auto` (the default) or `false`")
    evaluation: dict[str, Any] = {"conditions": conditions}
    for key in ("writes", "collateral"):
        if key in merged:
            evaluation[key] = plain(merged[key])
    body: dict[str, Any] = {"id": task_id, "instruction": merged.get("instruction"), "devices": devices}
    for key in ("start_time",):
        if key in merged:
            body[key] = merged[key]
    body.update({"setup": setup, "evaluation": evaluation, "cleanup": cleanup})
    for key in ("limits", "metadata"):
        if key in merged:
            body[key] = plain(merged[key])
    try:
        task = Task.model_validate(body)
    except ValidationError as exc:
        raise DataFileErrors(
            [
                _at_field(src, doc, loc).error(msg, f".{loc}" if loc else "")
                for loc, msg in format_validation_error(exc)
            ]
        ) from None
    problems = [_at_field(src, doc, loc).error(msg, f".{loc}") for loc, msg in semantic_problems(task)]
    if problems:
        raise DataFileErrors(problems)
    draft = Draft(task=task, solution=solution, finish=finish == "auto", source=src)
    for item, step in zip(solution, _expand(draft, task), strict=True):
        for part in step:
            if "target" not in part:
                problems += [
                    item.source.error(msg, loc)
                    for loc, msg in step_problems(
                        part.get("device"),
                        part["action"],
                        part["args"],
                        kinds,
                        "",
                        list(kinds),
                        run_profiles(task.devices, task.schema_version),
                    )
                ]
    if problems:
        raise DataFileErrors(problems)
    return draft


def _at_field(src: Source, doc: Mapping[str, Any], loc: str) -> Source:
    """``src`` moved to the line of the task field a model error names (``metadata.difficulty``: ``metadata``)."""
    parts = loc.split(".")
    key = "conditions" if parts[0] == "evaluation" and parts[1:2] == ["conditions"] else parts[0]
    node, pos = doc.get(key), pos_of(doc, key) if key in doc else None
    if pos is not None and len(parts) > 1 and isinstance(node, Map | list):
        index = parts[2] if key == "conditions" and parts[0] == "evaluation" else parts[1]
        inner = int(index) if index.isdigit() else index
        pos = pos_of(node, inner) if isinstance(node, Map) or isinstance(inner, int) else pos
    return Source(src.file, src.field, pos or src.pos)


def _devices(raw: Any, where: Source) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw:
        raise where.error("devices is a non-empty list of device ids or {id, kind, profile}")
    out: list[dict[str, Any]] = []
    for i, dev in enumerate(raw):
        src = where.at(raw, i, f"[{i}]")
        spec = {"id": dev} if isinstance(dev, str) else plain(dev) if isinstance(dev, Mapping) else None
        if spec is None or not isinstance(spec.get("id"), str):
            raise src.error("a device is an id like `android_0` or a mapping with `id`")
        kind = spec.get("kind") or kind_of_device_id(spec["id"])
        if kind is None:
            raise src.error(f"cannot tell the kind of device {spec['id']!r}; ids are <kind>_<n>")
        if get_kind(kind) is None:
            raise src.error(f"unknown device kind {kind!r}")
        out.append(
            {"id": spec["id"], "kind": kind, **({"profile": spec["profile"]} if "profile" in spec else {})}
        )
    return out


@dataclass
class _Ctx:
    kinds: dict[str, str]
    profiles: dict[str, Any]
    default_device: str
    fragments: Fragments

    def _flatten(self, raw: Any, where: Source, depth: int = 0) -> list[tuple[Any, Source]]:
        """The items of a section with every ``use: FRAGMENT`` replaced by its items."""
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise where.error("must be a list of items")
        out: list[tuple[Any, Source]] = []
        for i, item in enumerate(raw):
            src = where.at(raw, i, f"[{i}]")
            if isinstance(item, Mapping) and "use" in item:
                name, on = item["use"], item.get("on")
                if set(item) - {"use", "on"} or not isinstance(name, str) or not isinstance(on, str | None):
                    raise src.error("`use` takes a fragment name (and `on`: the device of its items)")
                if name not in self.fragments.items:
                    known = ", ".join(sorted(self.fragments.items)) or "none"
                    raise src.error(f"no fragment {name!r} (known: {known})")
                if depth > 8:
                    raise src.error(f"fragment {name!r} uses fragments more than 8 deep (a cycle?)")
                items, fsrc = self.fragments.items[name]
                out += [(_on(sub, on), ssrc) for sub, ssrc in self._flatten(items, fsrc, depth + 1)]
            else:
                out.append((item, src))
        return out

    def _named(self, item: Any, src: Source, reserved: tuple[str, ...]) -> tuple[str, Any, str | None]:
        """``NAME`` or ``{NAME: ARGS, on: DEVICE}`` as ``(name, args, device given)``."""
        if isinstance(item, str):
            return item, {}, None
        if not isinstance(item, Mapping):
            raise src.error(f"an item is NAME or {{NAME: ARGS}}, got {item!r}")
        names = [k for k in item if k not in reserved]
        if len(names) != 1:
            raise src.error(
                f"an item names exactly one op, action, check or macro besides {', '.join(reserved)}; got {names}"
            )
        device = item.get("on")
        if device is not None and not isinstance(device, str):
            raise src.error("`on` is a device id")
        name = str(names[0])
        args = item[name]
        return name, {} if args is None else args, device

    def _device(self, device: str | None, src: Source, allow_env: bool = False) -> str:
        dev = device or self.default_device
        if dev not in self.kinds and not (allow_env and dev == GLOBAL_DEVICE):
            raise src.error(f"{dev!r} is not one of the task's devices ({', '.join(self.kinds)})")
        return dev

    def _context(self, device: str, setup: list[dict[str, Any]]) -> macros.MacroContext:
        return macros.MacroContext(
            device=device, kind=self.kinds[device], profile=self.profiles.get(device, {}), setup=tuple(setup)
        )

    def ops(self, raw: Any, where: Source, section_setup: bool = True) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for item, src in self._flatten(raw, where):
            if isinstance(item, Mapping) and "op" in item:
                op = plain(item)
                op.setdefault("device", self.default_device)
                out.append({"device": op["device"], "op": op["op"], "args": op.get("args", {})})
                continue
            name, args, device = self._named(item, src, ("on",))
            dev = self._device(device, src)
            macro = macros.find(self.kinds[dev], "setup", name) if section_setup else None
            if macro is None:
                if not isinstance(args, Mapping):
                    raise src.error(f"the arguments of op {name!r} are a mapping")
                out.append({"device": dev, "op": name, "args": plain(args)})
                continue
            try:
                expanded = macro.fn(plain(args), self._context(dev, out))
            except Exception as exc:  # a macro's own error, or one it let through: the author's to fix
                raise src.error(
                    f"{name}: {exc}" if not isinstance(exc, macros.MacroError) else str(exc)
                ) from None
            out += [{"device": dev, "op": e["op"], "args": e.get("args", {})} for e in expanded]
        return out

    def conditions(self, raw: Any, where: Source) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for item, src in self._flatten(raw, where):
            if isinstance(item, Mapping) and "check" in item:
                cond = plain(item)
                cond.setdefault("device", self.default_device)
                out.append(cond)
                continue
            if not isinstance(item, Mapping) or "id" not in item:
                raise src.error("a condition is {id: ..., CHECK: {args}} (the id is required)")
            name, args, device = self._named(item, src, CONDITION_KEYS)
            if not isinstance(args, Mapping):
                raise src.error(f"the arguments of check {name!r} are a mapping")
            cond = {"id": item["id"], "device": self._device(device, src, allow_env=True), "check": name}
            cond["args"] = plain(args)
            for key in ("scored", "required", "subtask"):
                if key in item:
                    cond[key] = item[key]
            out.append(cond)
        return out

    def raw_solution(self, raw: Any, where: Source) -> list[RawItem]:
        out: list[RawItem] = []
        for item, src in self._flatten(raw, where):
            if isinstance(item, Mapping) and "action" in item:
                step = plain(item)
                name, args, device = step["action"], step.get("args", {}), step.get("device")
            else:
                name, args, device = self._named(item, src, ("on",))
            if device is None and name in GLOBAL_ACTIONS:
                out.append(RawItem(name, args, None, False, src))
                continue
            out.append(
                RawItem(name, args, self._device(device, src, allow_env=True), device is not None, src)
            )
        return out


def _on(item: Any, device: str | None) -> Any:
    """A fragment item with ``device`` as its device unless it names its own."""
    if device is None:
        return item
    if isinstance(item, str):
        return {item: None, "on": device}
    if isinstance(item, Mapping):
        key = "device" if any(k in item for k in ("op", "action", "check")) else "on"
        return item if key in item else {**item, key: device}
    return item


# --------------------------------------------------------------------------- solutions
def _expand(draft: Draft, task: Task) -> list[list[dict[str, Any]]]:
    """Each written solution item as the plain steps it stands for on ``task``'s devices."""
    kinds = {d.id: d.kind for d in task.devices}
    profiles = run_profiles(task.devices, task.schema_version)
    setup = [op.model_dump() for op in task.setup]
    out: list[list[dict[str, Any]]] = []
    for item in draft.solution:
        macro = macros.find(kinds[item.device], "solution", item.name) if item.device in kinds else None
        if macro is None:
            if not isinstance(item.args, Mapping):
                raise item.source.error(f"the arguments of action {item.name!r} are a mapping")
            out.append([{"device": item.device, "action": item.name, "args": plain(item.args)}])
            continue
        assert item.device is not None
        ctx = macros.MacroContext(
            device=item.device, kind=kinds[item.device], profile=profiles[item.device], setup=tuple(setup)
        )
        try:
            expanded = macro.fn(plain(item.args), ctx)
        except Exception as exc:  # a macro's own error, or one it let through: the author's to fix
            message = str(exc) if isinstance(exc, macros.MacroError) else f"{item.name}: {exc}"
            raise item.source.error(message) from None
        out.append([{"device": item.device, **e, "args": e.get("args", {})} for e in expanded])
    return out


def solve(draft: Draft, task: Task | None = None) -> list[Step]:
    """The reference solution of ``draft`` on ``task`` (default: the draft's own), recorded if it has UI steps.

    Raises :class:`~devicesworld.tasks.handwritten.recording.ScriptError` when a UI step's
    element is not on screen.
    """
    from devicesworld.tasks.handwritten.recording import ScriptItem, Target, UiStep, record

    on = task or draft.task
    parts = [p for item in _expand(draft, on) for p in item]
    if any("target" in p for p in parts):
        script: list[ScriptItem] = []
        for p in parts:
            if "target" in p:
                script.append(
                    UiStep(p["device"], p["action"], Target(**p["target"]), p["args"], p.get("at_fraction"))
                )
            else:
                script.append(Step(device=p["device"], action=p["action"], args=p["args"]))
        steps = record(on, script)
    else:
        steps = [Step(device=p["device"], action=p["action"], args=p["args"]) for p in parts]
    if draft.finish and (not steps or steps[-1].action not in ENDINGS):
        steps.append(Step(action="finish"))
    return steps


def compile_draft(draft: Draft) -> Task:
    """The finished task: solution recorded, setup-satisfied conditions unscored."""
    from devicesworld.tasks.guards import unscore_setup_satisfied
    from devicesworld.tasks.handwritten.recording import ScriptError

    try:
        steps = solve(draft)
    except ScriptError as exc:
        raise DataFileErrors([draft.source.error(str(exc).split("\n", 1)[0], ".solution")]) from None
    return unscore_setup_satisfied(draft.task.model_copy(update={"solution": steps}))


def compile_task(
    doc: Mapping[str, Any],
    *,
    defaults: Mapping[str, Any] | None = None,
    fragments: Fragments | None = None,
    source: Source | None = None,
) -> Task:
    """One task mapping compiled to a task (see :func:`draft_task`)."""
    return compile_draft(draft_task(doc, defaults=defaults, fragments=fragments, source=source))


def draft_files(paths: list[Path], suite: str | None = None) -> list[Draft]:
    """Every task of ``paths`` as drafts, in order (see :func:`draft_file`).

    All problems of all files are reported together, so that one run of the build
    lists every mistake rather than the first file's.
    """
    drafts: list[Draft] = []
    errors: list[DataFileError] = []
    for path in paths:
        try:
            drafts += draft_file(path, suite=suite)
        except DataFileErrors as exc:
            errors += exc.errors
        except DataFileError as exc:
            errors.append(exc)
    if errors:
        raise DataFileErrors(errors)
    return drafts


def compile_files(paths: list[Path]) -> list[Task]:
    """Every task of ``paths``, in order; all problems of all files are reported together."""
    return [compile_draft(d) for d in draft_files(paths)]
