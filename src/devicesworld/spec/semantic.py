"""Rules of a task that need the device registry.

A task can be well-formed JSON and still name an op its device kind does not have, a
device it does not declare, or arguments that do not fit. These are found here, all
at once, each with the field it concerns, so a task author fixes a file in one pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from devicesworld.devices.base import _Declared, format_validation_error, get_kind, kind_names
from devicesworld.spec.actions import GLOBAL_ACTIONS
from devicesworld.spec.models import GLOBAL_DEVICE, DeviceOp, Task
from devicesworld.verify.registry import check_names, find_check

Problem = tuple[str, str]
"""``(field path, message)``."""


def semantic_problems(task: Task) -> list[Problem]:
    problems: list[Problem] = []
    kinds: dict[str, str] = {}
    for i, dev in enumerate(task.devices):
        kind = get_kind(dev.kind)
        if kind is None:
            problems.append(
                (f"devices.{i}.kind", f"unknown device kind {dev.kind!r} (known: {', '.join(kind_names())})")
            )
            continue
        kinds[dev.id] = dev.kind
        if kind.profile_model is not None:
            try:
                kind.profile_model.model_validate(dev.profile)
            except ValidationError as exc:
                problems += _prefixed(f"devices.{i}.profile", exc)
    problems += _ops(task.setup, "setup", kinds, task)
    problems += _ops(task.cleanup, "cleanup", kinds, task)
    for i, cond in enumerate(task.evaluation.conditions):
        where = f"evaluation.conditions.{i}"
        if cond.device != GLOBAL_DEVICE and cond.device not in kinds:
            problems.append((f"{where}.device", _unknown_device(cond.device, task)))
            continue
        kind_name = kinds.get(cond.device, GLOBAL_DEVICE)
        spec = find_check(kind_name, cond.check)
        if spec is None:
            problems.append(
                (
                    f"{where}.check",
                    f"{kind_name!r} has no check {cond.check!r} (known: {', '.join(check_names(kind_name))})",
                )
            )
            continue
        problems += _args(spec, cond.args, f"{where}.args")
    for i, step in enumerate(task.solution):
        problems += step_problems(step.device, step.action, step.args, kinds, f"solution.{i}", task)
    return problems


def step_problems(
    device: str | None, action: str, args: Mapping[str, Any], kinds: Mapping[str, str], where: str, task: Task
) -> list[Problem]:
    if action in GLOBAL_ACTIONS:
        return _args(GLOBAL_ACTIONS[action], args, f"{where}.args")
    if device is None:
        return [(f"{where}.device", f"action {action!r} needs a target device")]
    if device not in kinds:
        return [(f"{where}.device", _unknown_device(device, task))]
    kind = get_kind(kinds[device])
    assert kind is not None
    if action not in kind.actions:
        return [
            (f"{where}.action", f"{kind.name!r} has no action {action!r} (known: {', '.join(kind.actions)})")
        ]
    return _args(kind.actions[action], args, f"{where}.args")


def _ops(ops: list[DeviceOp], section: str, kinds: Mapping[str, str], task: Task) -> list[Problem]:
    problems: list[Problem] = []
    for i, op in enumerate(ops):
        where = f"{section}.{i}"
        if op.device not in kinds:
            problems.append((f"{where}.device", _unknown_device(op.device, task)))
            continue
        kind = get_kind(kinds[op.device])
        assert kind is not None
        table = kind.setup_ops if section == "setup" else {**kind.setup_ops, **kind.cleanup_ops}
        if op.op not in table:
            problems.append(
                (f"{where}.op", f"{kind.name!r} has no {section} op {op.op!r} (known: {', '.join(table)})")
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


def _unknown_device(device: str, task: Task) -> str:
    return f"device {device!r} is not one of the task's devices ({', '.join(task.device_ids())})"
