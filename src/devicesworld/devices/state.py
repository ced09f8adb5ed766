"""How a device kind shows its state to the collateral-damage guard.

The guard (AppWorld's start/end diff) needs two things from every kind: a *snapshot*
of what the device holds — a flat ``{state path: digest}`` map such as
``contacts/alice smith/3 -> 9f2c…`` or ``files/Documents/report.xlsx -> <sha256>`` —
and the paths whose changes never count (app preferences, caches, browser history,
sensors that drift with the virtual clock). Paths are ``/``-separated; patterns over
them are shell globs (:func:`fnmatch.fnmatchcase`, where ``*`` also crosses ``/``).

A kind declares this with one :class:`StateSpec` on its
:class:`~devicesworld.devices.base.DeviceKind`; its checks declare which paths they
read as the task's outputs (``CheckSpec.writes``). Nothing outside the kind's package
needs to know what its paths mean.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from glob import escape
from typing import Any, Literal, TypeVar

__all__ = [
    "EVERY_DEVICE",
    "OutputChange",
    "OutputChangeFn",
    "Snapshot",
    "StateSpec",
    "StrayFn",
    "StrayKind",
    "digest",
    "everywhere",
    "literal",
]

EVERY_DEVICE = "*:"
PART = "/#"
"""Separates a state path from a part of it (``files/x.json/#drivers``: one key of a file).
A part that appears with its whole (a new file) is judged as the whole (see verify/collateral)."""
"""Prefix of a write pattern that holds on every device of the task, not only the checked one."""

Snapshot = dict[str, str]
"""``{state path: digest}`` of one device at one moment."""

StrayKind = Literal["add", "remove"]
"""``add``: make something new (a file, a contact, a schedule); ``remove``: delete or switch
something that was there (a file, a contact, a device's power)."""

StrayFn = Callable[[Any, Callable[[str], bool], StrayKind], "str | None"]
"""``stray(device, allowed, kind) -> what changed``: make one change the task never mentions.

``allowed(path)`` says whether the task may change a path (its write set or a harmless
path); the change must touch a path where it is false. ``None`` when there is nothing
to change. Used by quality control (near misses) and the collateral probe, never by agents.
"""


OutputChange = Literal["undo", "beside", "day"]
"""``undo``: later reverse a change the agent made to an output (a schedule that switches the lamp
back off, that sets the heater back); ``beside``: change another part of an output (another
attribute of the output device, another key of the output file); ``day``: move an output that
happens at a time to the same time on another day (an alarm rings a day later than it would)."""

OutputChangeFn = Callable[[Any, Callable[[str], bool], OutputChange], "str | None"]
"""``output_change(device, allowed, how) -> what changed``: spoil an output the task licenses, for
quality control's near misses (issue 32); ``None`` when the device has no such output."""


@dataclass(frozen=True)
class StateSpec:
    """A kind's state as the guard sees it.

    ``snapshot(device)`` returns the device's :data:`Snapshot`. A change to a path
    matching ``harmless`` never counts; a path matching ``harmless_added`` may appear
    (a text arriving in the inbox) but not change or vanish. Paths matching ``shared``
    are state every device of the task sees (the shared drive, the local web): a write
    licensed on any device licenses them on all. Parts matching ``edits`` are edited in
    place (a table row, a paragraph: named by their content): one that vanished is licensed
    when a licensed part of the same file that appeared is its edit (issue 32).
    """

    snapshot: Callable[[Any], Mapping[str, str]]
    harmless: tuple[str, ...] = ()
    harmless_added: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    edits: tuple[str, ...] = ()
    stray: StrayFn | None = None
    output_change: OutputChangeFn | None = None
    doc: str = ""


def digest(value: Any) -> str:
    """A short stable digest of a JSON-able value (bytes are hashed as they are)."""
    raw = value if isinstance(value, bytes) else json.dumps(value, sort_keys=True, default=str).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


_SCALARS = frozenset((str, int, bool, type(None)))
_REMEMBERED: dict[tuple[str, tuple[tuple[str, Any], ...], tuple[type, ...]], Any] = {}
MAX_REMEMBERED = 200_000
T = TypeVar("T")


def by_row(table: str, row: Mapping[str, Any], make: Callable[[Mapping[str, Any]], T]) -> T:
    """``make(row)``, remembered by the row's values: snapshots of a lived-in phone turn the
    same few hundred provider rows into the same paths and digests at every reset and
    evaluation. ``make`` must depend on nothing but the row (``table`` names it).

    The key holds each value's type, so ``1`` and ``True`` (equal in Python, different in
    JSON) never share an entry; a row holding floats (``0.0 == -0.0``) or containers is
    made afresh every time.
    """
    types = tuple(map(type, row.values()))
    if not _SCALARS.issuperset(types):
        return make(row)
    key = (table, tuple(row.items()), types)
    found = _REMEMBERED.get(key, _REMEMBERED)
    if found is _REMEMBERED:
        found = make(row)
        if len(_REMEMBERED) >= MAX_REMEMBERED:
            _REMEMBERED.clear()
        _REMEMBERED[key] = found
    return found  # type: ignore[no-any-return]


def row_digest(row: Mapping[str, Any]) -> str:
    """:func:`digest` of a flat row, remembered by value (see :func:`by_row`)."""
    return by_row("", row, lambda r: digest(dict(r)))


def everywhere(pattern: str) -> str:
    """A write pattern for every device of the task: a text received on one phone was sent
    by another (its sent row addressed to the receiver is part of the same output)."""
    return EVERY_DEVICE + pattern


def literal(part: str) -> str:
    """``part`` as a glob that matches only itself (``[draft].txt`` stays literal)."""
    return escape(part)
