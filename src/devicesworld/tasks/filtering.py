"""Choosing tasks by id and by facts: ``--task-ids`` and ``--filter KEY=VALUE``.

Filters work on a task's *row* (:func:`devicesworld.tasks.shipped.task_row`), so the
same rules select from loaded tasks and from the shipped index. Keys:

``id``          glob over the task id (``smoke-sh-*``)
``pattern``     workflow pattern (``direct_information_transfer``), glob
``difficulty``  ``easy`` / ``medium`` / ``hard``
``tier``        ``standard`` / ``long`` (a shipped index older than tiers lists ``standard``)
``kind``        the task has a device of this kind (``android``)
``kinds``       the task's device kinds are exactly these (``android,linux``)
``split``       ``train`` / ``test`` / ...
``app``         the task touches this app or surface (glob; ``messages`` also matches
                ``android:messages`` as the full suite spells it)

A comma means "any of" (except in ``kinds``); filters given together must all hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

KEYS = ("id", "pattern", "difficulty", "tier", "kind", "kinds", "split", "app")


class FilterError(ValueError):
    """A filter or id list the user can fix; the message says how."""


@dataclass(frozen=True)
class Filter:
    key: str
    values: tuple[str, ...]

    def matches(self, row: dict[str, Any]) -> bool:
        if self.key == "kinds":
            return set(row["device_kinds"]) == set(self.values)
        if self.key == "kind":
            return any(v in row["device_kinds"] for v in self.values)
        if self.key == "app":
            return any(
                fnmatchcase(a, v) or fnmatchcase(a.rpartition(":")[2], v)
                for a in row["apps"]
                for v in self.values
            )
        if self.key == "tier":
            return any(fnmatchcase(str(row.get("tier") or "standard"), v) for v in self.values)
        return any(fnmatchcase(str(row[self.key]), v) for v in self.values)


def parse_filter(text: str) -> Filter:
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not value.strip():
        raise FilterError(f"--filter {text!r}: expected KEY=VALUE with KEY one of {', '.join(KEYS)}")
    if key not in KEYS:
        raise FilterError(f"--filter {text!r}: unknown key {key!r} (known: {', '.join(KEYS)})")
    values = tuple(v.strip() for v in value.split(",") if v.strip())
    return Filter(key, values)


def parse_ids(texts: Iterable[str]) -> list[str]:
    """``--task-ids a,b --task-ids c`` as ``[a, b, c]``."""
    return [part.strip() for text in texts for part in text.split(",") if part.strip()]


def select_rows(
    rows: Sequence[dict[str, Any]], ids: Sequence[str] = (), filters: Sequence[Filter] = ()
) -> list[int]:
    """Positions of the rows chosen: every filter holds and, with ``ids``, in the order of ``ids``.

    An id that is not among the rows is an error naming the nearest ones, not an empty run.
    """
    chosen = [i for i, row in enumerate(rows) if all(f.matches(row) for f in filters)]
    if not ids:
        return chosen
    position = {rows[i]["id"]: i for i in chosen}
    missing = [t for t in ids if t not in position]
    if missing:
        known = {row["id"] for row in rows}
        hints = []
        for t in missing[:5]:
            why = "excluded by --filter" if t in known else "no such task"
            close = _close(t, known) if t not in known else []
            hints.append(f"{t} ({why}{'; did you mean ' + ', '.join(close) + '?' if close else ''})")
        raise FilterError(f"unknown task id(s): {'; '.join(hints)}")
    return [position[t] for t in dict.fromkeys(ids)]


def _close(task_id: str, known: set[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(task_id, sorted(known), n=3, cutoff=0.6)
