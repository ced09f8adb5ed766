"""The slot type system of typed task composition (JarvisGUI §4.1).

Types form a partial order ``≤`` given by parent links; an output of type ``a`` may
feed an input of type ``b`` exactly when ``a ≤ b`` (an ``xlsx_file`` can go where an
``office_file`` or any ``file`` is expected, a ``phone_number`` where ``text`` is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache


class TypeSystem:
    """A partial order over type names, from each type's direct supertypes."""

    def __init__(self, parents: Mapping[str, Iterable[str]]) -> None:
        self._parents: dict[str, tuple[str, ...]] = {t: tuple(ps) for t, ps in parents.items()}
        for ps in list(self._parents.values()):
            for p in ps:
                self._parents.setdefault(p, ())
        self._check_acyclic()
        self._up = cache(self._compute_ancestors)

    @property
    def types(self) -> list[str]:
        return sorted(self._parents)

    def ancestors(self, t: str) -> frozenset[str]:
        """``t`` and every type above it."""
        if t not in self._parents:
            raise KeyError(f"unknown slot type {t!r}")
        return self._up(t)

    def is_subtype(self, a: str, b: str) -> bool:
        """``a ≤ b``: a value of type ``a`` may be used where ``b`` is expected."""
        return b in self.ancestors(a)

    def _compute_ancestors(self, t: str) -> frozenset[str]:
        out = {t}
        for p in self._parents[t]:
            out |= self._up(p)
        return frozenset(out)

    def _check_acyclic(self) -> None:
        state: dict[str, int] = {}

        def visit(t: str, path: tuple[str, ...]) -> None:
            if state.get(t) == 2:
                return
            if state.get(t) == 1:
                raise ValueError(f"type hierarchy has a cycle: {' -> '.join((*path, t))}")
            state[t] = 1
            for p in self._parents[t]:
                visit(p, (*path, t))
            state[t] = 2

        for t in self._parents:
            visit(t, ())


DEFAULT_TYPES = TypeSystem(
    {
        "value": (),
        "text": ("value",),
        "number": ("value",),
        "phone_number": ("text",),
        "email_address": ("text",),
        "person_name": ("text",),
        "address": ("text",),
        "code": ("text",),
        "date": ("text",),
        "time_of_day": ("text",),
        "url": ("text",),
        "temperature": ("number",),
        "percentage": ("number",),
        "humidity": ("percentage",),
        "amount": ("number",),
        "duration": ("number",),
        "count": ("number",),
        "concentration": ("number",),
        "file": (),
        "transferred_file": ("file",),
        "text_file": ("file",),
        "csv_file": ("text_file",),
        "json_file": ("text_file",),
        "markdown_file": ("text_file",),
        "office_file": ("file",),
        "xlsx_file": ("office_file",),
        "docx_file": ("office_file",),
        "pdf_file": ("file",),
        "image_file": ("file",),
        "audio_file": ("file",),
        "archive_file": ("file",),
    }
)
"""The built-in hierarchy: values (text and numbers) and files by format.

Numbers carry their meaning (issue #15): a ``duration`` (minutes), a ``count``, a
``concentration`` (PM2.5), a ``temperature``, a ``percentage`` (a ``humidity`` is one
that only humidity targets take), an ``amount`` of money.
A writer that sets a quantity takes exactly that meaning (a delay takes a
``duration``), so a PM2.5 reading can no longer become minutes of delay; writers that
record any value as text (a JSON field, a CSV row, a message) take ``value``. The
names match the semantic slot types of scenario families (``tasks/scenarios/slots.py``).
"""
