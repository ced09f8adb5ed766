"""Reasoning steps: atomic tasks that run in the agent's head, not on a device.

Pattern builders need more than reads feeding writes: a value converted or shifted
(extraction and transformation), the earlier of two conflicting times (conflict
resolution), the total of two amounts (multi-source integration), a branch taken on
a threshold (conditional decision). Modelling each as an atomic task on the pseudo
platform ``agent`` keeps them typed — they connect to reads and writes through the
same slot order — and lets the composer propagate values through them unchanged.

Every reasoning step declares how its output was derived (a :class:`Derivation`
with the operation, its inputs and parameters, and the result) so that quality
control can recompute it: an expected value in a verifier must come from something
the agent can see or from a declared transformation of such values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.types import DEFAULT_TYPES
from devicesworld.tasks.composition.values import UserValues

AGENT = "agent"
"""Pseudo platform of reasoning steps: they get no device and contribute no setup or steps."""


def _hm(value: str) -> int:
    hour, minute = (int(x) for x in value.split(":"))
    return hour * 60 + minute


def _fmt_hm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _num(value: Any) -> float:
    return float(value)


def shift_time(value: str, minutes: int) -> str:
    total = _hm(value) + minutes
    if not 0 <= total < 24 * 60:
        raise ValueError("the shifted time leaves the day")
    return _fmt_hm(total)


def offset(value: float, delta: float) -> float:
    return round(_num(value) + delta, 2)


def offset_int(value: int, delta: int) -> int:
    return int(value) + delta


def to_fahrenheit(value: float) -> int:
    return round(_num(value) * 9 / 5 + 32)


EXACT: dict[str, Callable[..., float]] = {"to_fahrenheit": lambda value: round(_num(value) * 9 / 5 + 32, 6)}
"""The unrounded result of an operation that rounds: a person who is not asked to round may
give it (18 °C is exactly 64.4 °F; the check then accepts 64 and 64.4 — issue 32)."""


def with_rate(value: float, percent: int) -> float:
    return round(_num(value) * (100 + percent) / 100, 2)


def earlier(a: str, b: str) -> str:
    return a if _hm(a) <= _hm(b) else b


def later(a: str, b: str) -> str:
    return a if _hm(a) >= _hm(b) else b


def higher(a: float, b: float) -> float:
    return max(a, b)


def lower(a: float, b: float) -> float:
    return min(a, b)


def total(a: float, b: float) -> float:
    return round(_num(a) + _num(b), 2)


def share(value: float, ways: int) -> float:
    """One person's part of an amount split evenly ``ways`` ways (a bill split between flatmates), to the cent."""
    if int(ways) < 2:
        raise ReasoningError(f"share: an amount is split at least two ways, not {ways!r}")
    return round(_num(value) / int(ways), 2)


def decide(value: float, threshold: float, above: Any, otherwise: Any) -> Any:
    return above if _num(value) > threshold else otherwise


def lookup(key: Any, keys: list[Any], values: list[Any]) -> Any:
    """The value listed beside ``key`` (a train number picks its arrival in a timetable)."""
    listed = [str(k).strip().casefold() for k in keys]
    wanted = str(key).strip().casefold()
    if len(keys) != len(values) or listed.count(wanted) != 1:
        raise ReasoningError(f"lookup: {key!r} must be listed exactly once among {list(keys)!r}")
    return values[listed.index(wanted)]


OPERATIONS: dict[str, Callable[..., Any]] = {
    "shift_time": shift_time,
    "offset": offset,
    "offset_int": offset_int,
    "to_fahrenheit": to_fahrenheit,
    "with_rate": with_rate,
    "earlier": earlier,
    "later": later,
    "higher": higher,
    "lower": lower,
    "total": total,
    "share": share,
    "decide": decide,
    "lookup": lookup,
}
"""Every operation a derivation may name; quality control recomputes derivations with these."""


@dataclass(frozen=True)
class Derivation:
    """How a value was computed from others: recomputable by quality control."""

    op: str
    inputs: tuple[Any, ...]
    params: Mapping[str, Any]
    result: Any

    def recompute(self) -> Any:
        return OPERATIONS[self.op](*self.inputs, **dict(self.params))

    def as_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "inputs": list(self.inputs),
            "params": dict(self.params),
            "result": self.result,
        }


class ReasoningError(ValueError):
    """The inputs do not suit this step (e.g. two conflicting values that happen to agree)."""


def _out(
    ctx: InstanceContext,
    slot: Slot,
    op: str,
    inputs: Sequence[SlotValue],
    params: Mapping[str, Any],
    mention: str,
    *,
    hidden: bool = True,
    distractors: Sequence[Any] = (),
) -> Fragment:
    try:
        result = OPERATIONS[op](*(v.value for v in inputs), **dict(params))
    except ValueError as exc:
        raise ReasoningError(str(exc)) from exc
    derivation = Derivation(op, tuple(v.value for v in inputs), dict(params), result)
    return Fragment(
        instruction="",
        outputs={
            slot.name: SlotValue(
                slot.type,
                result,
                mention,
                hidden,
                None,
                tuple(d for d in distractors if str(d) != str(result)),
            )
        },
        derivations=[derivation],
    )


# ------------------------------------------------------------------ one input
@dataclass(frozen=True)
class ShiftTime:
    name: str = "rs_shift_time"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        minutes = ctx.rng.choice((-60, -30, -15, 15, 30, 45, 60, 90))
        source = inputs["time"]
        amount = {60: "an hour", 30: "half an hour", 90: "an hour and a half"}.get(
            abs(minutes), f"{abs(minutes)} minutes"
        )
        side = "after" if minutes > 0 else "before"
        mention = ctx.rng.choice(
            (
                f"{amount} {side} {source.mention}",
                f"the time {amount} {side} {source.mention}",
            )
        )
        return _out(ctx, self.outputs[0], "shift_time", [source], {"minutes": minutes}, mention)


@dataclass(frozen=True)
class OffsetTemperature:
    name: str = "rs_offset_temperature"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)
    outputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        delta = ctx.rng.choice((-2.0, -1.5, -1.0, 1.0, 2.0))
        word = "warmer" if delta > 0 else "cooler"
        source = inputs["temperature"]
        mention = ctx.rng.choice(
            (
                f"{abs(delta):g} °C {word} than {source.mention}",
                f"{source.mention} {'plus' if delta > 0 else 'minus'} {abs(delta):g} °C",
            )
        )
        return _out(ctx, self.outputs[0], "offset", [source], {"delta": delta}, mention)


@dataclass(frozen=True)
class OffsetPercentage:
    name: str = "rs_offset_percentage"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("level", "percentage"),)
    outputs: tuple[Slot, ...] = (Slot("level", "percentage"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        delta = ctx.rng.choice((-10, -5, 5, 10, 15))
        source = inputs["level"]
        mention = ctx.rng.choice(
            (
                f"{abs(delta)} percentage points {'above' if delta > 0 else 'below'} {source.mention}",
                f"{source.mention} {'plus' if delta > 0 else 'minus'} {abs(delta)} points",
            )
        )
        return _out(ctx, self.outputs[0], "offset_int", [source], {"delta": delta}, mention)


@dataclass(frozen=True)
class ToFahrenheit:
    name: str = "rs_to_fahrenheit"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)
    outputs: tuple[Slot, ...] = (Slot("value", "number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        source = inputs["temperature"]
        mention = ctx.rng.choice(
            (
                f"{source.mention} in degrees Fahrenheit, rounded to a whole number",
                f"{source.mention} converted to °F (whole degrees)",
            )
        )
        return _out(ctx, self.outputs[0], "to_fahrenheit", [source], {}, mention)


@dataclass(frozen=True)
class WithTax:
    name: str = "rs_with_tax"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("amount", "amount"),)
    outputs: tuple[Slot, ...] = (Slot("amount", "amount"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        percent = ctx.rng.choice((5, 10, 20))
        source = inputs["amount"]
        mention = ctx.rng.choice(
            (
                f"{source.mention} plus {percent}% tax, rounded to cents",
                f"{source.mention} with a {percent}% surcharge added (to the cent)",
            )
        )
        return _out(ctx, self.outputs[0], "with_rate", [source], {"percent": percent}, mention)


# ----------------------------------------------------------------- two inputs
def _differ(a: SlotValue, b: SlotValue) -> None:
    if str(a.value) == str(b.value):
        raise ReasoningError("the two sources agree, so there is no conflict to resolve")


@dataclass(frozen=True)
class ResolveTimes:
    """Two sources give different times; a stated rule picks one (conflict resolution)."""

    name: str = "rs_resolve_times"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("first", "time_of_day"), Slot("second", "time_of_day"))
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b = inputs["first"], inputs["second"]
        _differ(a, b)
        op = ctx.rng.choice(("earlier", "later"))
        mention = ctx.rng.choice(
            (
                f"the {op} of {a.mention} and {b.mention} (they disagree; the {op} one wins)",
                f"whichever is {op}: {a.mention} or {b.mention}",
            )
        )
        return _out(ctx, self.outputs[0], op, [a, b], {}, mention, distractors=(a.value, b.value))


@dataclass(frozen=True)
class ResolveNumbers:
    """Two sources give different numbers of one type; the higher or the lower wins."""

    name: str
    value_type: str
    platform: str = AGENT

    @property
    def inputs(self) -> tuple[Slot, ...]:
        return (Slot("first", self.value_type), Slot("second", self.value_type))

    @property
    def outputs(self) -> tuple[Slot, ...]:
        return (Slot("value", self.value_type),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b = inputs["first"], inputs["second"]
        _differ(a, b)
        op = ctx.rng.choice(("higher", "lower"))
        mention = ctx.rng.choice(
            (
                f"the {op} of {a.mention} and {b.mention}",
                f"whichever is {op}, {a.mention} or {b.mention}",
            )
        )
        return _out(ctx, self.outputs[0], op, [a, b], {}, mention, distractors=(a.value, b.value))


@dataclass(frozen=True)
class TotalAmounts:
    name: str = "rs_total_amounts"
    platform: str = AGENT
    inputs: tuple[Slot, ...] = (Slot("first", "amount"), Slot("second", "amount"))
    outputs: tuple[Slot, ...] = (Slot("amount", "amount"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b = inputs["first"], inputs["second"]
        mention = ctx.rng.choice(
            (
                f"the sum of {a.mention} and {b.mention}",
                f"the total of {a.mention} plus {b.mention}",
            )
        )
        return _out(ctx, self.outputs[0], "total", [a, b], {}, mention)


# ------------------------------------------------------------------ decisions
def _threshold(ctx: InstanceContext, value: float) -> float:
    """A threshold that puts ``value`` on a random side, at least one unit away."""
    above = ctx.rng.random() < 0.5
    gap = ctx.rng.choice((1, 2, 3))
    return value - gap if above else value + gap


@dataclass(frozen=True)
class Decide:
    """Pick one of two user-stated values by comparing a value found on a device with a threshold."""

    name: str
    out_type: str
    platform: str = AGENT

    @property
    def inputs(self) -> tuple[Slot, ...]:
        return (Slot("measure", "number"),)

    @property
    def outputs(self) -> tuple[Slot, ...]:
        return (Slot("choice", self.out_type),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        measure = inputs["measure"]
        threshold = _threshold(ctx, _num(measure.value))
        users = UserValues(ctx.rng)
        above = users.make(self.out_type, DEFAULT_TYPES)
        otherwise = users.make(self.out_type, DEFAULT_TYPES)
        for _ in range(10):
            if str(otherwise.value) != str(above.value):
                break
            otherwise = users.make(self.out_type, DEFAULT_TYPES)
        else:
            raise ReasoningError("could not draw two different branch values")
        unit = {"temperature": " °C", "percentage": "%", "humidity": "%"}.get(measure.type, "")
        limit = f"{threshold:g}{unit}"
        mention = ctx.rng.choice(
            (
                f"{above.mention} if {measure.mention} is above {limit}, otherwise {otherwise.mention}",
                f"{above.mention} when {measure.mention} exceeds {limit} and {otherwise.mention} "
                "when it does not",
            )
        )
        params = {"threshold": threshold, "above": above.value, "otherwise": otherwise.value}
        return _out(
            ctx,
            self.outputs[0],
            "decide",
            [measure],
            params,
            mention,
            hidden=False,
            distractors=(above.value, otherwise.value),
        )


TRANSFORMS = (ShiftTime(), OffsetTemperature(), OffsetPercentage(), ToFahrenheit(), WithTax())
"""One input, one output: extraction and transformation."""

RESOLVERS = (
    ResolveTimes(),
    ResolveNumbers("rs_resolve_temperatures", "temperature"),
    ResolveNumbers("rs_resolve_percentages", "percentage"),
    ResolveNumbers("rs_resolve_humidities", "humidity"),
)
"""Two conflicting inputs of one type, one stated rule."""

INTEGRATORS = (TotalAmounts(),)
"""Two inputs combined into one value."""

DECISIONS = (
    Decide("rs_decide_temperature", "temperature"),
    Decide("rs_decide_percentage", "percentage"),
    Decide("rs_decide_time", "time_of_day"),
)
"""A threshold on a number picks one of two stated values."""
