"""Shared pieces of the Linux atomic libraries: people, canonical spellings, phrasings, file names.

Several modules (``linux``, ``linux_docs``, ``linux_media``, ``linux_multi``) build
atomic tasks for the desktop; they share how a value is spelled in free text, how
a phrasing is drawn (only from ``ctx.rng``, so builds stay byte-identical), and how
a field or column is named after the type of the value it holds.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from devicesworld.tasks.composition.atomic import InstanceContext, SlotValue

KIND = "linux"
PEOPLE = (
    "Maria Lopez",
    "Tom Becker",
    "Aisha Khan",
    "Jonas Weber",
    "Lena Novak",
    "Omar Haddad",
    "Chloe Martin",
    "Ravi Patel",
)
STEMS = ("handover", "notes", "access", "locker", "visit", "pickup", "delivery", "badge")

_LABELS = {
    "phone_number": "phone",
    "email_address": "email",
    "person_name": "name",
    "time_of_day": "time",
    "text": "note",
}


def as_text(value: Any) -> str:
    """How a value is written into free text: ``21.5``, ``21`` (not ``21.0``), ``+1 555 ...``."""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def phrase(ctx: InstanceContext, templates: Sequence[str], **parts: str) -> str:
    """One of several phrasings of the same clause or mention, drawn with the task's rng."""
    return ctx.rng.choice(templates).format(**parts)


def field_names(values: Sequence[SlotValue]) -> list[str]:
    """A field/column name per value, after its type (``phone``, ``code``, ``code_2``)."""
    names: list[str] = []
    for v in values:
        base = _LABELS.get(v.type, v.type)
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}_{n}"
        names.append(name)
    return names


def csv_line(cells: Sequence[Any]) -> str:
    """One CSV line with proper quoting (a value may hold a comma)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([as_text(c) for c in cells])
    return buf.getvalue()


def phone(ctx: InstanceContext) -> str:
    return f"+1 555 {ctx.rng.randrange(200, 1000)} {ctx.rng.randrange(1000, 10000)}"


def doc_path(ctx: InstanceContext, stem: str, ext: str, folder: str = "~/Documents") -> str:
    return f"{folder}/{ctx.unique(stem)}.{ext}"


def code6(ctx: InstanceContext) -> str:
    return f"{ctx.rng.randrange(10**5, 10**6)}"
