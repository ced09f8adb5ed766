"""Checks that are not tied to one device kind.

Two families live here: *generic* checks that read any getter of any kind by a dotted
path (so a new kind gets useful verifiers for free), and *episode* checks on the
pseudo-device ``env`` (did the agent report the request infeasible, and why; what did
it answer).
Kind-specific checks are declared by the kind itself.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from devicesworld.devices.base import Args, CheckOutcome, CheckSpec, GetterFn, GetterSpec, NoArgs, by_name
from devicesworld.spec import causes, statements, values
from devicesworld.spec.causes import Cause
from devicesworld.spec.statements import Fact
from devicesworld.spec.values import Expected, ValueType, resolve_path, values_match

EPISODE_GETTER = "episode"


class ValueEqualsArgs(Args):
    getter: str
    getter_args: dict[str, Any] = Field(default_factory=dict)
    path: str = Field(
        default="", description="Dotted path into the getter's value, e.g. `devices.ac_1.mode`."
    )
    equals: Any
    tolerance: float = Field(default=0.0, ge=0.0)
    value_type: ValueType | None = Field(
        default=None, description="How to compare (date, time, phone, ...); inferred from `equals` if unset."
    )
    distractors: list[Expected] = Field(default_factory=list, description="Values the answer must not be.")


def _value_equals(get: GetterFn, args: ValueEqualsArgs) -> CheckOutcome:
    label = f"{args.getter}.{args.path}" if args.path else args.getter
    try:
        actual = resolve_path(get(args.getter, args.getter_args), args.path)
    except KeyError as exc:
        return CheckOutcome(passed=False, detail=f"{label}: {exc.args[0]}")
    if isinstance(args.equals, str | int | float) and not isinstance(args.equals, bool):
        ok = values.judge_field(
            actual, args.equals, args.distractors, args.value_type, tolerance=args.tolerance
        )
    else:  # booleans, lists and objects: exact structure
        ok = values_match(actual, args.equals, args.tolerance)
    return CheckOutcome(passed=ok, detail=f"{label} = {actual!r}, expected {args.equals!r}")


class ValueInRangeArgs(Args):
    getter: str
    getter_args: dict[str, Any] = Field(default_factory=dict)
    path: str = ""
    min: float | None = None
    max: float | None = None


def _value_in_range(get: GetterFn, args: ValueInRangeArgs) -> CheckOutcome:
    label = f"{args.getter}.{args.path}" if args.path else args.getter
    try:
        actual = resolve_path(get(args.getter, args.getter_args), args.path)
    except KeyError as exc:
        return CheckOutcome(passed=False, detail=f"{label}: {exc.args[0]}")
    if not isinstance(actual, int | float) or isinstance(actual, bool):
        return CheckOutcome(passed=False, detail=f"{label} = {actual!r} is not a number")
    ok = (args.min is None or actual >= args.min) and (args.max is None or actual <= args.max)
    lo = "-inf" if args.min is None else f"{args.min:g}"
    hi = "inf" if args.max is None else f"{args.max:g}"
    return CheckOutcome(passed=ok, detail=f"{label} = {actual!r}, expected within [{lo}, {hi}]")


GENERIC_CHECKS: dict[str, CheckSpec] = by_name(
    [
        CheckSpec(
            name="value_equals",
            doc="A getter's value (at a dotted path) equals the expected value.",
            args_model=ValueEqualsArgs,
            fn=_value_equals,
        ),
        CheckSpec(
            name="value_in_range",
            doc="A getter's numeric value (at a dotted path) lies within [min, max].",
            args_model=ValueInRangeArgs,
            fn=_value_in_range,
        ),
    ]
)


class InfeasibleReportedArgs(Args):
    keywords: list[str] = Field(
        default_factory=list,
        description="If given (and no `cause`), at least one must appear in the reason (normalised; stems match).",
    )
    cause: Cause | None = Field(
        default=None,
        description="The blocking cause (entity + state, `spec/causes.py`): the reason must name it; "
        "replaces `keywords`.",
    )


def _infeasible_reported(get: GetterFn, args: InfeasibleReportedArgs) -> CheckOutcome:
    reason = get(EPISODE_GETTER, {}).get("infeasible_reason")
    if reason is None:
        return CheckOutcome(passed=False, detail="the request was never reported infeasible")
    if args.cause is not None:
        ok, why = causes.judge_reason(str(reason), args.cause)
        return CheckOutcome(passed=ok, detail=f"reported infeasible ({reason!r}): {why}")
    said = values.normalise_text(reason)
    if args.keywords and not any(values.normalise_text(k) in said for k in args.keywords):
        return CheckOutcome(
            passed=False, detail=f"reported infeasible ({reason!r}) without naming any of {args.keywords}"
        )
    return CheckOutcome(passed=True, detail=f"reported infeasible: {reason!r}")


def _not_infeasible_reported(get: GetterFn, args: NoArgs) -> CheckOutcome:
    reason = get(EPISODE_GETTER, {}).get("infeasible_reason")
    if reason is None:
        return CheckOutcome(passed=True, detail="not reported infeasible")
    return CheckOutcome(passed=False, detail=f"wrongly reported infeasible: {reason!r}")


def _finished(get: GetterFn, args: NoArgs) -> CheckOutcome:
    finished = bool(get(EPISODE_GETTER, {}).get("finished"))
    return CheckOutcome(
        passed=finished, detail="completion declared" if finished else "completion never declared"
    )


class AnswerContainsArgs(Args):
    values: list[Expected] = Field(
        min_length=1,
        description="Each must appear in the agent's last answer, compared by meaning (verify/values.py).",
    )
    distractors: list[Expected] = Field(
        default_factory=list, description="Values an answer must not also give (a hedged answer fails)."
    )
    value_type: ValueType | None = Field(default=None, description="How to compare; inferred when absent.")
    facts: list[Fact] = Field(
        default_factory=list,
        description="What is true of named entities: a statement giving one another value fails (issue 32).",
    )


def _answer_contains(get: GetterFn, args: AnswerContainsArgs) -> CheckOutcome:
    """The answer read as statements (:mod:`devicesworld.spec.statements`): a value ruled out is
    not claimed, a hedge or a later correction to another value fails."""
    answer = get(EPISODE_GETTER, {}).get("answer")
    if answer is None:
        return CheckOutcome(passed=False, detail="the agent never answered")
    verdict = statements.judge_conversation(
        [str(answer)], args.values, args.distractors, args.value_type, facts=args.facts
    )
    if not verdict.passed:
        return CheckOutcome(passed=False, detail=f"answered {answer!r}: {verdict.explain()}")
    return CheckOutcome(passed=True, detail=f"answered {answer!r}")


EPISODE_CHECKS: dict[str, CheckSpec] = by_name(
    [
        CheckSpec(
            name="infeasible_reported",
            doc="The agent reported the request infeasible (optionally naming a keyword).",
            args_model=InfeasibleReportedArgs,
            fn=_infeasible_reported,
        ),
        CheckSpec(
            name="not_infeasible_reported",
            doc="The agent did not report the request infeasible.",
            args_model=NoArgs,
            fn=_not_infeasible_reported,
        ),
        CheckSpec(name="finished", doc="The agent declared completion.", args_model=NoArgs, fn=_finished),
        CheckSpec(
            name="answer_contains",
            doc="The agent's last answer (the `answer` action) contains every expected value.",
            args_model=AnswerContainsArgs,
            fn=_answer_contains,
        ),
    ]
)

EPISODE_GETTERS: dict[str, GetterSpec] = by_name(
    [
        GetterSpec(
            name=EPISODE_GETTER,
            doc="Whether the agent finished or reported infeasibility (and why), and its last answer.",
        )
    ]
)
