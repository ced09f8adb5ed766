"""Rules of a task that need the device registry.

A task can be well-formed JSON and still name an op its device kind does not have, a
device it does not declare, or arguments that do not fit. These are found here, all
at once, each with the field it concerns, so a task author fixes a file in one pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from devicesworld.clip import clip_repr
from devicesworld.devices.base import _Declared, format_validation_error, get_kind, kind_names
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.models import (
    GLOBAL_DEVICE,
    SCHEMA_VERSION,
    Condition,
    DeviceOp,
    DeviceSpec,
    Step,
    Task,
)
from devicesworld.verify.registry import check_names, find_check

Problem = tuple[str, str]
"""``(field path, message)``."""


@dataclass
class TaskParts:
    """The sections of a task that registry rules look at, each item with its index in the file."""

    devices: list[tuple[int, DeviceSpec]] = field(default_factory=list)
    setup: list[tuple[int, DeviceOp]] = field(default_factory=list)
    cleanup: list[tuple[int, DeviceOp]] = field(default_factory=list)
    conditions: list[tuple[int, Condition]] = field(default_factory=list)
    solution: list[tuple[int, Step]] = field(default_factory=list)
    schema_version: int = SCHEMA_VERSION
    """How the devices' profiles read (``DeviceKind.profile_of``)."""

    @classmethod
    def of(cls, task: Task) -> TaskParts:
        return cls(
            schema_version=task.schema_version,
            devices=list(enumerate(task.devices)),
            setup=list(enumerate(task.setup)),
            cleanup=list(enumerate(task.cleanup)),
            conditions=list(enumerate(task.evaluation.conditions)),
            solution=list(enumerate(task.solution)),
        )

    @classmethod
    def salvage(cls, doc: Mapping[str, Any]) -> TaskParts:
        """The items of a structurally invalid document that parse on their own.

        Lets the loader report registry problems (an unknown op, a missing check) in the
        same pass as structural ones, so an author sees every error at once.
        """
        evaluation = doc.get("evaluation")
        conditions = evaluation.get("conditions") if isinstance(evaluation, Mapping) else None
        version = doc.get("schema_version", SCHEMA_VERSION)
        return cls(
            schema_version=version if isinstance(version, int) else SCHEMA_VERSION,
            devices=_parse_devices(doc.get("devices")),
            setup=_parse_items(doc.get("setup"), DeviceOp),
            cleanup=_parse_items(doc.get("cleanup"), DeviceOp),
            conditions=_parse_items(conditions, Condition),
            solution=_parse_items(doc.get("solution"), Step),
        )


M = TypeVar("M", bound=BaseModel)


def _parse_devices(raw: Any) -> list[tuple[int, DeviceSpec]]:
    """Devices that parse, plus those whose only fault may be their kind (``"kind": "smarthom"``).

    A mistyped kind also breaks the ``<kind>_<n>`` id rule; keeping such a device (its
    id and kind as written) lets the report say "unknown device kind" once instead of
    "not one of the task's devices" for every op and condition that names it.
    """
    out = _parse_items(raw, DeviceSpec)
    parsed = {i for i, _ in out}
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        if i in parsed or not isinstance(item, Mapping):
            continue
        dev_id, kind = item.get("id"), item.get("kind")
        if isinstance(dev_id, str) and isinstance(kind, str) and get_kind(kind) is None:
            out.append(
                (i, DeviceSpec.model_construct(id=dev_id, kind=kind, profile=item.get("profile") or {}))
            )
    return sorted(out, key=lambda pair: pair[0])


def _parse_items(raw: Any, model: type[M]) -> list[tuple[int, M]]:
    if not isinstance(raw, list):
        return []
    out: list[tuple[int, M]] = []
    for i, item in enumerate(raw):
        try:
            out.append((i, model.model_validate(item)))
        except ValidationError:
            continue
    return out


def run_profiles(
    devices: Iterable[DeviceSpec | tuple[int, DeviceSpec]], schema_version: int
) -> dict[str, dict[str, Any]]:
    """Each device's profile as it runs: a version-1 task's profiles read as they were meant then."""
    out: dict[str, dict[str, Any]] = {}
    for item in devices:
        dev = item[1] if isinstance(item, tuple) else item
        kind = get_kind(dev.kind)
        out[dev.id] = kind.profile_of(dev.profile, schema_version) if kind is not None else dict(dev.profile)
    return out


def semantic_problems(task: Task | TaskParts) -> list[Problem]:
    parts = TaskParts.of(task) if isinstance(task, Task) else task
    problems: list[Problem] = []
    kinds: dict[str, str] = {}
    declared = [dev.id for _, dev in parts.devices]
    for i, dev in parts.devices:
        kind = get_kind(dev.kind)
        if kind is None:
            problems.append(
                (
                    f"devices.{i}.kind",
                    f"unknown device kind {clip_repr(dev.kind)} (known: {', '.join(kind_names())})",
                )
            )
            continue
        kinds[dev.id] = dev.kind
        if kind.profile_model is not None:
            try:
                kind.profile_model.model_validate(dev.profile)
            except ValidationError as exc:
                problems += _prefixed(f"devices.{i}.profile", exc)
    problems += _ops(parts.setup, "setup", kinds, declared)
    problems += _ops(parts.cleanup, "cleanup", kinds, declared)
    for i, cond in parts.conditions:
        where = f"evaluation.conditions.{i}"
        if cond.device != GLOBAL_DEVICE and cond.device not in kinds:
            if cond.device not in declared:
                problems.append((f"{where}.device", _unknown_device(cond.device, declared)))
            continue
        kind_name = kinds.get(cond.device, GLOBAL_DEVICE)
        spec = find_check(kind_name, cond.check)
        if spec is None:
            problems.append(
                (
                    f"{where}.check",
                    f"{kind_name!r} has no check {clip_repr(cond.check)} (known: {', '.join(check_names(kind_name))})",
                )
            )
            continue
        problems += _args(spec, cond.args, f"{where}.args")
    profiles = run_profiles(parts.devices, parts.schema_version)
    for i, step in parts.solution:
        problems += step_problems(
            step.device, step.action, step.args, kinds, f"solution.{i}", declared, profiles
        )
    if isinstance(task, Task) and task.world is not None and task.world.devices:
        for j, device_id in enumerate(task.world.devices):
            kind = get_kind(kinds.get(device_id, ""))
            if kind is not None and kind.world is None:
                problems.append(
                    (f"world.devices.{j}", f"{kind.name} device {device_id} does not take worlds")
                )
    if isinstance(task, Task) and task.world is not None:
        for device_id in task.world.members:
            kind = get_kind(kinds.get(device_id, ""))
            if kind is not None and kind.world is None:
                problems.append(
                    (f"world.members.{device_id}", f"{kind.name} device {device_id} does not take worlds")
                )
    return problems


def step_problems(
    device: str | None,
    action: str,
    args: Mapping[str, Any],
    kinds: Mapping[str, str],
    where: str,
    declared: list[str],
    profiles: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Problem]:
    if action in GLOBAL_ACTIONS:
        # A global action needs no device; if it names one, that device must exist.
        if device is not None and device != GLOBAL_DEVICE and device not in declared:
            return [(f"{where}.device", _unknown_device(device, declared))]
        return _args(GLOBAL_ACTIONS[action], args, f"{where}.args")
    if device is None:
        return [(f"{where}.device", f"action {clip_repr(action)} needs a target device")]
    if device not in kinds:
        return [] if device in declared else [(f"{where}.device", _unknown_device(device, declared))]
    kind = get_kind(kinds[device])
    assert kind is not None
    actions = kind.actions_for((profiles or {}).get(device))
    if action not in actions:
        return [
            (
                f"{where}.action",
                f"{kind.name!r} has no action {clip_repr(action)} (known: {', '.join(actions)})",
            )
        ]
    return _args(actions[action], args, f"{where}.args")


def _ops(
    ops: list[tuple[int, DeviceOp]], section: str, kinds: Mapping[str, str], declared: list[str]
) -> list[Problem]:
    problems: list[Problem] = []
    for i, op in ops:
        where = f"{section}.{i}"
        if op.device not in kinds:
            if op.device not in declared:
                problems.append((f"{where}.device", _unknown_device(op.device, declared)))
            continue
        kind = get_kind(kinds[op.device])
        assert kind is not None
        table = kind.setup_ops if section == "setup" else {**kind.setup_ops, **kind.cleanup_ops}
        if op.op not in table:
            problems.append(
                (
                    f"{where}.op",
                    f"{kind.name!r} has no {section} op {clip_repr(op.op)} (known: {', '.join(table)})",
                )
            )
            continue
        problems += _args(table[op.op], op.args, f"{where}.args")
    return problems


def _args(spec: _Declared[Any], args: Mapping[str, Any], where: str) -> list[Problem]:
    try:
        spec.parse_args(args)
    except ValidationError as exc:
        return _prefixed(where, exc)
    return []


def _prefixed(where: str, exc: ValidationError) -> list[Problem]:
    return [
        (f"{where}.{loc}" if loc != "(root)" else where, msg) for loc, msg in format_validation_error(exc)
    ]


def _unknown_device(device: str, declared: list[str]) -> str:
    return f"device {clip_repr(device)} is not one of the task's devices ({', '.join(declared) or 'none declared'})"
