"""Semantic slot types: what a value *means*, not how it is stored.

Issue #15 found the typed composition gluing values that share a storage type but
not a meaning (a PM2.5 reading became minutes of delay, a battery percentage a
humidity target). A scenario parameter, a derived value and every slot a value
flows into carry one of these meanings; the compiler refuses a family where a
value of one meaning flows into a slot of another. (This is the typed composition
of JarvisGUI's slot graph as v2 has it: the v1 engine's separate type system is gone
with the engine.)

Each meaning says how its values are stored (``python``), how an instruction says
them (with units: ``21.5 °C``, ``25 minutes``, ``$12.40``), and which verifier value
type compares them (``verify/values.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from devicesworld.spec.values import ValueType


@dataclass(frozen=True)
class Meaning:
    name: str
    python: tuple[type, ...]
    """The Python types a value of this meaning is stored as."""
    verify_as: ValueType
    """The verifier value type that compares it (``verify/values.py``)."""
    unit: str
    """The unit an instruction uses ("" when the value carries none)."""
    say: Callable[[Any], str]
    """How an instruction states a value of this meaning."""


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _money(v: Any) -> str:
    return f"${float(v):,.2f}"


def _date(v: Any) -> str:
    d = date.fromisoformat(str(v))
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B')}"


def _quoted(v: Any) -> str:
    return f'"{v}"'


MEANINGS: dict[str, Meaning] = {
    m.name: m
    for m in (
        Meaning("temperature", (int, float), "number", "°C", lambda v: f"{_num(v)} °C"),
        Meaning("duration", (int,), "duration", "minutes", lambda v: f"{v} minutes"),
        Meaning("clock_time", (str,), "time", "", str),
        Meaning("date", (str,), "date", "", _date),
        Meaning("money", (int, float), "money", "USD", _money),
        Meaning("percentage", (int,), "percentage", "%", lambda v: f"{v}%"),
        Meaning("count", (int,), "number", "", str),
        Meaning("person", (str,), "name", "", str),
        Meaning("phone_number", (str,), "phone", "", str),
        Meaning("email", (str,), "email", "", str),
        Meaning("address", (str,), "text", "", str),
        Meaning("code", (str,), "text", "", str),
        Meaning("file", (str,), "text", "", str),
        Meaning("url", (str,), "text", "", str),
        Meaning("free_text", (str,), "text", "", _quoted),
        Meaning("name", (str,), "text", "", lambda v: str(v).replace("_", " ")),
        Meaning("timestamp", (str,), "text", "", str),
    )
}
"""Every meaning a slot may have. ``name`` is a label of the interface (a room, a
sender, a song title), not a value the agent transfers; it flows only into names.
``timestamp`` is a value re-spelled for a device (a schedule's due datetime), never said."""


class SlotTypeError(ValueError):
    """A value of one meaning would flow into a slot of another."""


def meaning(name: str) -> Meaning:
    found = MEANINGS.get(name)
    if found is None:
        raise SlotTypeError(f"unknown slot type {name!r}; known: {', '.join(sorted(MEANINGS))}")
    return found


def check_flow(value_type: str, slot_type: str, where: str) -> None:
    """A value of ``value_type`` may fill a slot of ``slot_type`` only when they mean the same."""
    meaning(value_type)
    meaning(slot_type)
    if value_type != slot_type:
        raise SlotTypeError(f"{where}: a {value_type} cannot fill a {slot_type} slot")


def check_value(name: str, value: Any, where: str) -> None:
    """A drawn value is stored as its meaning says (a duration is an int of minutes)."""
    m = meaning(name)
    if isinstance(value, bool) or not isinstance(value, m.python):
        raise SlotTypeError(f"{where}: {value!r} is not a {name} (expected {m.python[0].__name__})")
