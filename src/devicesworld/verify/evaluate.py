"""Run a task's conditions against the final device states and aggregate them.

Success needs every *required* condition; the partial score is the fraction of
*scored* conditions that hold. A check that raises is a failed condition with the
error as its detail, never a crashed evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from devicesworld.devices.base import DeviceError, GetterFn
from devicesworld.spec.models import Condition
from devicesworld.spec.values import ValueContext, using

GetterFactory = Callable[[str], GetterFn]
"""``getter_for(device_id) -> get``: how the evaluator reaches a device's getters."""


class ConditionResult(BaseModel):
    id: str
    device: str
    check: str
    passed: bool
    detail: str
    scored: bool = True
    required: bool = True
    subtask: str | None = None
    also_passes_on: list[str] = []
    """For a failed condition: other devices of the same kind on which the same check holds
    (the expected output exists, but on the wrong device; failure type D2)."""


class EvaluationResult(BaseModel):
    success: bool
    score: float
    conditions: list[ConditionResult]


def evaluate_conditions(
    conditions: list[Condition],
    getter_for: GetterFactory,
    kind_of: Mapping[str, str],
    context: ValueContext | None = None,
) -> EvaluationResult:
    """Every condition's verdict; values are compared in ``context`` (the task's date and locale)."""
    with using(context or ValueContext()):
        return _evaluate(conditions, getter_for, kind_of)


def _evaluate(
    conditions: list[Condition],
    getter_for: GetterFactory,
    kind_of: Mapping[str, str],
) -> EvaluationResult:
    from devicesworld.verify.registry import find_check

    results: list[ConditionResult] = []
    for cond in conditions:
        passed, detail = _run_one(cond, getter_for, kind_of, find_check)
        elsewhere = [] if passed else _passes_elsewhere(cond, getter_for, kind_of, find_check)
        results.append(
            ConditionResult(
                id=cond.id,
                device=cond.device,
                check=cond.check,
                passed=passed,
                detail=detail,
                scored=cond.scored,
                required=cond.required,
                subtask=cond.subtask,
                also_passes_on=elsewhere,
            )
        )
    return aggregate(results)


def _passes_elsewhere(
    cond: Condition,
    getter_for: GetterFactory,
    kind_of: Mapping[str, str],
    find_check: Callable[[str, str], Any],
) -> list[str]:
    """Run a failed condition's check on the task's other devices of the same kind.

    Checks only read state through getters, so probing is side-effect free; it runs
    only for failed conditions of tasks with several devices of one kind.
    """
    kind = kind_of.get(cond.device)
    siblings = sorted(d for d, k in kind_of.items() if k == kind and d != cond.device)
    found: list[str] = []
    for other in siblings:
        probe = cond.model_copy(update={"device": other})
        passed, _ = _run_one(probe, getter_for, kind_of, find_check)
        if passed:
            found.append(other)
    return found


GUARD_CHECK = "no_collateral_damage"
"""The collateral-damage guard's check name (:mod:`devicesworld.verify.collateral`)."""


def aggregate(results: list[ConditionResult]) -> EvaluationResult:
    """Success needs every required condition; the score is the scored fraction — zero when
    the collateral guard failed: a run that damaged the home earns no partial credit
    ("success: False, score: 1.00" read as if the outputs were all that mattered)."""
    success = all(r.passed for r in results if r.required)
    scored = [r for r in results if r.scored]
    score = sum(r.passed for r in scored) / len(scored) if scored else float(success)
    if any(r.check == GUARD_CHECK and not r.passed for r in results):
        score = 0.0
    return EvaluationResult(success=success, score=score, conditions=results)


def _run_one(
    cond: Condition,
    getter_for: GetterFactory,
    kind_of: Mapping[str, str],
    find_check: Callable[[str, str], Any],
) -> tuple[bool, str]:
    kind = kind_of.get(cond.device)
    if kind is None:
        return False, f"unknown device {cond.device!r}"
    spec = find_check(kind, cond.check)
    if spec is None:
        return False, f"device kind {kind!r} has no check {cond.check!r}"
    try:
        args = spec.parse_args(cond.args)
    except ValidationError as exc:
        return False, f"invalid check args: {exc.errors()[0]['msg']}"
    try:
        outcome = spec.fn(getter_for(cond.device), args)
    except DeviceError as exc:
        return False, f"{exc.code}: {exc.message}"
    except Exception as exc:  # a verifier bug must not lose the other conditions
        return False, f"check raised {type(exc).__name__}: {exc}"
    return outcome.passed, outcome.detail
