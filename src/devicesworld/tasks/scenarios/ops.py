"""Operations a family may derive values with, each with a typed signature.

Reasoning operations (the agent's arithmetic: shift a time, add two amounts, take
the earlier of two times, decide on a threshold) are the ones of
``tasks/derivations.py`` and are recorded as derivations, so quality
control recomputes them. Helper operations only re-spell a value for a device
(a clock time as the datetime a schedule is due, a date and a time as a calendar
start) and are not reasoning the agent does.

A signature names the meaning of each input and of the result; ``T`` is one
meaning shared by every ``T`` of the signature, restricted to ``numeric`` where
the operation is arithmetic. A family that feeds a percentage into ``shift_time``
is refused when it is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.derivations import OPERATIONS
from devicesworld.tasks.scenarios.slots import SlotTypeError, check_flow

NUMERIC = frozenset({"temperature", "duration", "money", "percentage", "count"})


@dataclass(frozen=True)
class Signature:
    inputs: tuple[str, ...]
    result: str
    reasoning: bool
    """Recorded as a derivation (quality control recomputes it) — the agent's own reasoning."""
    fn: Callable[..., Any]
    allowed_t: frozenset[str] = NUMERIC
    record_as: Callable[[list[Any], dict[str, Any]], tuple[str, list[Any], dict[str, Any]]] | None = None
    """How the derivation is recorded in terms of ``derivations.OPERATIONS`` (default: as itself)."""


def _hhmm(value: str) -> tuple[int, int]:
    hour, minute = (int(x) for x in value.split(":"))
    return hour, minute


def due_at(at: str) -> str:
    """The next occurrence of ``HH:MM`` after the task's start, as a schedule stores it."""
    hour, minute = _hhmm(at)
    due = DEFAULT_START_TIME.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return (due if due > DEFAULT_START_TIME else due + timedelta(days=1)).isoformat()


def at_day(day: str, at: str) -> str:
    """A date and a clock time as one ISO datetime (a calendar event's start)."""
    hour, minute = _hhmm(at)
    return (
        datetime.combine(date.fromisoformat(day), datetime.min.time())
        .replace(hour=hour, minute=minute)
        .isoformat()
    )


def minutes_between(start: str, end: str) -> int:
    """The minutes from one clock time to a later one the same day."""
    (h1, m1), (h2, m2) = _hhmm(start), _hhmm(end)
    return (h2 * 60 + m2) - (h1 * 60 + m1)


def before(at: str, minutes: int) -> str:
    """``minutes`` before a clock time (the same day)."""
    return str(OPERATIONS["shift_time"](at, -int(minutes)))


def after(at: str, minutes: int) -> str:
    return str(OPERATIONS["shift_time"](at, int(minutes)))


def _as_shift(sign: int) -> Callable[[list[Any], dict[str, Any]], tuple[str, list[Any], dict[str, Any]]]:
    def record(inputs: list[Any], params: dict[str, Any]) -> tuple[str, list[Any], dict[str, Any]]:
        return "shift_time", [inputs[0]], {"minutes": sign * int(inputs[1])}

    return record


def digits(phone: str) -> str:
    return "".join(ch for ch in phone if ch.isdigit())


def email_of(name: str) -> str:
    """A person's own address, ``first.last@example.org`` (issue #33: never another person's name)."""
    parts = ["".join(ch for ch in part.lower() if "a" <= ch <= "z") for part in name.split()]
    parts = [part for part in parts if part]
    if not parts:
        raise ValueError(f"email_of needs a person's name, not {name!r}")
    return f"{parts[0]}.{parts[-1]}@example.org" if len(parts) > 1 else f"{parts[0]}@example.org"


def email_of_namesake(person: str, surname: str) -> str:
    """The address of the person's namesake: the same first name, another surname."""
    return email_of(f"{person.split()[0] if person.split() else ''} {surname}")


SIGNATURES: dict[str, Signature] = {
    "shift_time": Signature(("clock_time",), "clock_time", True, OPERATIONS["shift_time"]),
    "before": Signature(("clock_time", "duration"), "clock_time", True, before, record_as=_as_shift(-1)),
    "after": Signature(("clock_time", "duration"), "clock_time", True, after, record_as=_as_shift(1)),
    "earlier": Signature(("clock_time", "clock_time"), "clock_time", True, OPERATIONS["earlier"]),
    "later": Signature(("clock_time", "clock_time"), "clock_time", True, OPERATIONS["later"]),
    "offset": Signature(("T",), "T", True, OPERATIONS["offset"], frozenset({"temperature", "money"})),
    "offset_int": Signature(
        ("T",), "T", True, OPERATIONS["offset_int"], frozenset({"duration", "percentage", "count"})
    ),
    "with_rate": Signature(("money",), "money", True, OPERATIONS["with_rate"]),
    "to_fahrenheit": Signature(("temperature",), "temperature", True, OPERATIONS["to_fahrenheit"]),
    "higher": Signature(("T", "T"), "T", True, OPERATIONS["higher"]),
    "lower": Signature(("T", "T"), "T", True, OPERATIONS["lower"]),
    "total": Signature(("T", "T"), "T", True, OPERATIONS["total"], frozenset({"money", "duration", "count"})),
    "share": Signature(("money",), "money", True, OPERATIONS["share"]),
    "decide": Signature(("T",), "any", True, OPERATIONS["decide"]),
    "lookup": Signature(("code",), "any", True, OPERATIONS["lookup"]),
    "due_at": Signature(("clock_time",), "timestamp", False, due_at),
    "at_day": Signature(("date", "clock_time"), "timestamp", False, at_day),
    "minutes_between": Signature(("clock_time", "clock_time"), "duration", False, minutes_between),
    "digits": Signature(("phone_number",), "code", False, digits),
    "email_of": Signature(("person",), "email", False, email_of),
    "email_of_namesake": Signature(("person", "name"), "email", False, email_of_namesake),
}


def check_signature(op: str, input_types: list[str], result_type: str, where: str) -> None:
    """Refuse an operation fed values of the wrong meaning, or declared with the wrong result."""
    sig = SIGNATURES.get(op)
    if sig is None:
        raise SlotTypeError(f"{where}: unknown operation {op!r}; known: {', '.join(sorted(SIGNATURES))}")
    if len(input_types) != len(sig.inputs):
        raise SlotTypeError(f"{where}: {op} takes {len(sig.inputs)} inputs, not {len(input_types)}")
    bound: str | None = None
    for i, (want, got) in enumerate(zip(sig.inputs, input_types, strict=True)):
        if want == "T":
            if got not in sig.allowed_t:
                raise SlotTypeError(
                    f"{where}: {op} cannot take a {got} (only {', '.join(sorted(sig.allowed_t))})"
                )
            if bound is not None and got != bound:
                raise SlotTypeError(f"{where}: {op} mixes a {bound} and a {got}")
            bound = got
        else:
            check_flow(got, want, f"{where}, input {i + 1} of {op}")
    want_result = bound if sig.result == "T" else sig.result
    if want_result != "any" and want_result is not None:
        check_flow(want_result, result_type, f"{where}: the result of {op}")
