"""Derivations: how a task's expected value is worked out from values the agent can see.

A scenario family derives values (a time shifted, two amounts totalled, the earlier of two
times) with the operations here, and records each as a :class:`Derivation` in the task's
metadata (``derivations``), so quality control (``tasks/provenance.py``) can recompute it: an
expected value in a verifier must come from something the agent can see or from a declared
transformation of such values. The operations are the v1 engine's reasoning steps, kept by
name so the derivations recorded in the frozen ``full-v1`` still recompute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class DerivationError(ValueError):
    """The inputs do not suit the operation (a key listed twice in a lookup)."""


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
        raise DerivationError(f"share: an amount is split at least two ways, not {ways!r}")
    return round(_num(value) / int(ways), 2)


def decide(value: float, threshold: float, above: Any, otherwise: Any) -> Any:
    return above if _num(value) > threshold else otherwise


def lookup(key: Any, keys: list[Any], values: list[Any]) -> Any:
    """The value listed beside ``key`` (a train number picks its arrival in a timetable)."""
    listed = [str(k).strip().casefold() for k in keys]
    wanted = str(key).strip().casefold()
    if len(keys) != len(values) or listed.count(wanted) != 1:
        raise DerivationError(f"lookup: {key!r} must be listed exactly once among {list(keys)!r}")
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
