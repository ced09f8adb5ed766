"""Typed templates: ``{name}``, ``{name.field}`` and ``{name:type}`` in family text and args.

In an instruction a slot is said as its meaning says (``{target}`` → ``21.5 °C``);
in setup, steps and checks it is the stored value (``{target}`` → ``21.5``), and an
argument that is exactly one slot keeps the value's Python type. ``{name:type}``
states the meaning a phrasing expects, and the compiler refuses a value of another
meaning there. ``{{`` and ``}}`` are literal braces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import date
from typing import Any

from devicesworld.tasks.scenarios.slots import check_flow, meaning

REF = re.compile(r"(?<!\{)\{([a-z_][a-z0-9_]*)(?:\.([a-z_0-9]+))?(?::([a-z_]+))?\}(?!\})")


@dataclass(frozen=True)
class Value:
    """A drawn or derived value with its meaning."""

    type: str
    value: Any
    extra: Mapping[str, Any] = dataclass_field(default_factory=dict)
    """Fields a world value brings (a code's ``service`` and ``sender``, an event's ``title``)."""
    twins: tuple[Any, ...] = ()
    """A world value's near-miss twins (all of them in the world)."""

    def field(self, name: str | None, *, spoken: bool) -> Any:
        if name is None:
            return meaning(self.type).say(self.value) if spoken else self.value
        if name in self.extra:
            value = self.extra[name]
            if spoken and isinstance(value, str) and re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+)+", value):
                return value.replace("_", " ")  # an identifier (living_room) as people say it
            return value
        fields = _fields(self.type, self.value)
        if name not in fields:
            raise KeyError(f"a {self.type} has no field {name!r} (has {', '.join(sorted(fields)) or 'none'})")
        return fields[name]


def _fields(type_: str, v: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"value": v, "say": meaning(type_).say(v)}
    if type_ == "person":
        first, _, last = str(v).partition(" ")
        out |= {"first": first, "last": last}
    elif type_ == "clock_time":
        hour, minute = (int(x) for x in str(v).split(":"))
        out |= {
            "hour": hour,
            "minute": minute,
            "h12": f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}",
        }
    elif type_ == "date":
        d = date.fromisoformat(str(v))
        out |= {
            "day": d.day,
            "month": d.strftime("%B"),
            "weekday": d.strftime("%A"),
            "short": f"{d.day} {d.strftime('%B')}",
        }
    elif type_ == "phone_number":
        out |= {"digits": "".join(ch for ch in str(v) if ch.isdigit())}
    elif type_ == "file":
        out |= {"name": str(v).rsplit("/", 1)[-1]}
    elif type_ in ("temperature", "money") and isinstance(v, int | float):
        out |= {"plain": f"{v:g}" if isinstance(v, float) else str(v)}
    return out


def refs(text: str) -> Iterator[tuple[str, str | None, str | None]]:
    """Every ``(name, field, declared type)`` a text refers to."""
    for m in REF.finditer(text):
        yield m.group(1), m.group(2), m.group(3)


def walk_refs(obj: Any) -> Iterator[tuple[str, str | None, str | None]]:
    if isinstance(obj, str):
        yield from refs(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk_refs(k)
            yield from walk_refs(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from walk_refs(v)


def check_typed(text: str, types: Mapping[str, str], where: str) -> None:
    """Every slot refers to a known value, and a declared ``:type`` matches the value's meaning."""
    for name, _, declared in refs(text):
        if name not in types:
            raise KeyError(f"{where}: {{{name}}} names no parameter or derived value")
        if declared is not None:
            check_flow(types[name], declared, f"{where}: slot {{{name}:{declared}}}")


def render_text(text: str, values: Mapping[str, Value], *, spoken: bool) -> str:
    def sub(m: re.Match[str]) -> str:
        value = values[m.group(1)].field(m.group(2), spoken=spoken)
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)

    return REF.sub(sub, text).replace("{{", "{").replace("}}", "}")


def render(obj: Any, values: Mapping[str, Value]) -> Any:
    """Args with their slots filled; an argument that is exactly one slot keeps its value's type."""
    if isinstance(obj, str):
        m = REF.fullmatch(obj)
        if m is not None:
            return values[m.group(1)].field(m.group(2), spoken=False)
        return render_text(obj, values, spoken=False)
    if isinstance(obj, dict):
        return {render_text(str(k), values, spoken=False): render(v, values) for k, v in obj.items()}
    if isinstance(obj, list):
        return [render(v, values) for v in obj]
    return obj
