"""The registry of task-file macros: a kind's vocabulary for steps a task author should not spell out.

A handwritten task file (``tasks/data/handwritten/*.yaml``) writes a phone step as
``open_contact: {name: Ann Lee}`` or ``press: save``, not as an internal element id,
and a desktop form fill as ``fill_form: {url, values}``, not as element numbers. The
words belong to the device kind, so each kind registers its macros from its own
package (``devices/<kind>/macros.py``, imported by the kind's package) and the task
compiler (:mod:`devicesworld.tasks.handwritten`) only reads this registry: it never
names a kind. This module imports nothing of the project, so any layer may use it.

A macro is a function of its arguments and a :class:`MacroContext` returning plain
items (dicts), which the compiler turns into task parts:

- ``{"op": name, "args": {...}}`` — a setup op (section ``setup``);
- ``{"action": name, "args": {...}}`` — an agent step (section ``solution``);
- ``{"action": name, "args": {...}, "target": {"rid"|"text"|"desc"|"hint": ..., "nth": n},
  "at_fraction": f}`` — a UI step whose element index is found when the solution is
  recorded on the simulator.

Bad arguments raise :class:`MacroError` with a message for the task author.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Section = Literal["setup", "solution"]
SECTIONS: tuple[Section, ...] = ("setup", "solution")


class MacroError(ValueError):
    """A macro was given arguments it cannot expand (the message is for the task author)."""


@dataclass(frozen=True)
class MacroContext:
    """What a macro may look at: its device, that device's profile, and the task's setup so far."""

    device: str
    kind: str
    profile: Mapping[str, Any] = field(default_factory=dict)
    setup: tuple[Mapping[str, Any], ...] = ()
    """The task's setup ops as ``{"device", "op", "args"}`` dicts, macros already expanded."""


MacroFn = Callable[[Any, MacroContext], list[dict[str, Any]]]


@dataclass(frozen=True)
class Macro:
    name: str
    section: Section
    fn: MacroFn
    doc: str
    """One line for ``devicesworld tasks macros``: what it does and its arguments."""


_MACROS: dict[tuple[str, Section, str], Macro] = {}


def mapping_args(
    args: Any, macro: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A macro's arguments as a mapping with every ``required`` key and none beyond ``optional``.

    Anything else is a :class:`MacroError` that names what is missing or unknown and what the macro takes.
    """
    if not isinstance(args, Mapping):
        raise MacroError(f"{macro} takes a mapping with {', '.join(required + optional)}")
    missing = [k for k in required if k not in args]
    unknown = [k for k in args if k not in required + optional]
    if missing or unknown:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(map(str, unknown))}"] if unknown else []
        )
        raise MacroError(f"{macro}: {'; '.join(parts)} (takes {', '.join(required + optional)})")
    return dict(args)


def register(kind: str, section: Section, name: str, doc: str) -> Callable[[MacroFn], MacroFn]:
    """Decorator: register ``fn`` as macro ``name`` of ``kind`` in ``section`` (a later one replaces it)."""
    if section not in SECTIONS:
        raise ValueError(f"unknown macro section {section!r}; known: {', '.join(SECTIONS)}")

    def wrap(fn: MacroFn) -> MacroFn:
        _MACROS[(kind, section, name)] = Macro(name=name, section=section, fn=fn, doc=doc)
        return fn

    return wrap


def find(kind: str, section: Section, name: str) -> Macro | None:
    return _MACROS.get((kind, section, name))


def macros_of(kind: str) -> list[Macro]:
    """The macros a kind registered, by section then name."""
    return sorted(
        (m for (k, _, _), m in _MACROS.items() if k == kind),
        key=lambda m: (SECTIONS.index(m.section), m.name),
    )


def kinds_with_macros() -> list[str]:
    return sorted({k for k, _, _ in _MACROS})
