"""Where a mistake in a family file stands: every problem as ``FILE:LINE:COL: field: message``.

A family author fixes a file, not a model, so each problem the loader, the static
check or a compiled draw finds is put back on the line that caused it — the same
``FILE:LINE:COL: FIELD: message`` form ``tasks compile`` gives for handwritten files
(:class:`~devicesworld.tasks.handwritten.yamlfile.DataFileError`). The file is read
with that module's YAML 1.2 loader, which remembers the position of every value;
the static check names its place in words (``setup 7: unknown role 'house'``), which
:func:`where_path` turns into a field path (``setup.6.role``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from devicesworld.devices.base import format_validation_error
from devicesworld.tasks.handwritten.yamlfile import DataFileError, Map, Pos, Seq, load_text
from devicesworld.tasks.scenarios.compile import FamilyError
from devicesworld.tasks.scenarios.model import Family

FieldPath = tuple[str | int, ...]


class FamilyFileError(FamilyError):
    """Problems of one family file, each a :class:`DataFileError` at its line."""

    def __init__(self, errors: Sequence[DataFileError]) -> None:
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


def read(path: Path) -> Any:
    """The file's document, its mappings and lists knowing their positions."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise FamilyFileError([DataFileError(str(path), None, "", f"cannot read: {reason}")]) from None
    try:
        return load_text(text, str(path))
    except DataFileError as exc:
        raise FamilyFileError(
            [DataFileError(exc.file, exc.pos, exc.field, f"not valid YAML: {exc.problem}")]
        ) from None


def position(doc: Any, path: FieldPath) -> Pos | None:
    """The position of the deepest part of ``path`` that the document holds."""
    node, pos = doc, getattr(doc, "pos", None)
    for key in path:
        if isinstance(node, Map) and key in node:
            pos, node = node.value_pos.get(key, pos), node[key]
        elif isinstance(node, Seq) and isinstance(key, int) and 0 <= key < len(node):
            pos, node = node.item_pos[key], node[key]
        else:
            break
    return pos


def error_at(file: Path, doc: Any, path: FieldPath, message: str) -> DataFileError:
    return DataFileError(str(file), position(doc, path), ".".join(str(k) for k in path), message)


def validation_errors(file: Path, doc: Any, exc: ValidationError, prefix: FieldPath = ()) -> FamilyFileError:
    """A model's errors, each at the value it names."""
    out = []
    for err, (_, message) in zip(exc.errors(), format_validation_error(exc), strict=True):
        loc = (*prefix, *(k for k in err["loc"] if isinstance(k, str | int)))
        out.append(error_at(file, doc, loc, message))
    return FamilyFileError(out)


def _index(doc: Any, list_key: FieldPath, field: str, value: str) -> FieldPath:
    """``list_key`` + the index of the item whose ``field`` is ``value`` (just ``list_key`` if none is)."""
    node: Any = doc
    for k in list_key:
        node = node.get(k) if isinstance(node, dict) else None
    if isinstance(node, list):
        for i, item in enumerate(node):
            if isinstance(item, dict) and str(item.get(field)) == value:
                return (*list_key, i)
    return list_key


_SLOT = re.compile(r"unknown slot type '([^']+)'")


def _slot_path(doc: Any, slot: str) -> FieldPath:
    """The first ``type`` (of a param, a derived value or a check's ``expects``) that is ``slot``."""
    for section in ("params", "derive"):
        for name, body in (doc.get(section) or {}).items() if isinstance(doc, dict) else ():
            if isinstance(body, dict) and body.get("type") == slot:
                return (section, name, "type")
    conditions = ((doc.get("evaluation") or {}) if isinstance(doc, dict) else {}).get("conditions") or []
    for i, c in enumerate(conditions):
        for name, t in (c.get("expects") or {}).items() if isinstance(c, dict) else ():
            if t == slot:
                return ("evaluation", "conditions", i, "expects", name)
    return ()


def where_path(doc: Any, where: str) -> FieldPath:
    """The field a static-check place names (``setup 7``, ``check scheduled: expects ...``)."""
    m = re.match(r"(setup|solution) (\d+)", where)
    if m:
        sub: FieldPath = ("role",) if "unknown role" in where else ()
        return (m.group(1), int(m.group(2)) - 1, *sub)
    m = re.match(r"phrasing (\d+)", where)
    if m:
        return ("phrasings", int(m.group(1)) - 1, "text")
    m = re.match(r"infeasible ([^,:\s]+)(?:, phrasing (\d+))?", where)
    if m:
        at = _index(doc, ("infeasible",), "id", m.group(1))
        if m.group(2):
            return (*at, "phrasings", int(m.group(2)) - 1, "text")
        return (*at, "drop") if "drops unknown" in where else at
    m = re.match(r"check (\S+?)(?: description)?:(?: (expects|distractor))?", where)
    if m:
        at = _index(doc, ("evaluation", "conditions"), "id", m.group(1))
        extra = {"expects": ("expects",), "distractor": ("distractors",)}.get(m.group(2) or "", ())
        return (*at, *extra) if "unknown role" not in where else (*at, "role")
    m = re.match(r"source '?([^':\s]+)'?", where)
    if m:
        return _index(doc, ("sources",), "param", m.group(1))
    m = re.match(r"(role|param|derive|writes) (\w+)", where)
    if m:
        section = {"role": "roles", "writes": "evaluation"}.get(m.group(1), m.group(1))
        base: FieldPath = (section, m.group(2)) if section != "evaluation" else ("evaluation", "writes")
        if m.group(1) == "derive" and (p := re.search(r"params\.(\w+)", where)):
            return (*base, "params", p.group(1))
        if m.group(1) == "derive" and "unknown inputs" in where:
            return (*base, "inputs")
        if m.group(1) == "param" and "differs" in where:
            return (*base, "differs_from")
        if m.group(1) == "param" and "pool value" in where:
            return (*base, "pool")
        if m.group(1) == "param" and "world" in where:
            return (*base, "world")
        return base
    if where.startswith("evaluation.writes"):
        return ("evaluation", "writes")
    if where.startswith("world.roles"):
        return ("world", "roles")
    if slot := _SLOT.search(where):
        return _slot_path(doc, slot.group(1))
    return ()


def family_problem(file: Path, doc: Any, family_id: str, exc: FamilyError) -> FamilyFileError:
    """A static-check or compile error of the family in ``file``, put on its line."""
    if isinstance(exc, FamilyFileError):
        return exc
    text = str(exc).removeprefix(f"family {family_id}: ")
    path = where_path(doc, text)
    head, sep, rest = text.partition(": ")
    if path and sep and not _SLOT.search(head):
        text = rest  # "setup 7: unknown role 'house'": the place is the field setup.6.role
    return FamilyFileError([error_at(file, doc, path, text)])


_SETUP_AT = re.compile(r"^setup\.(\d+)(?: \((\w+)\))?: (.*)$", re.DOTALL)


def setup_origin(doc: Any, index: int, variant: str | None, dropped: Sequence[int]) -> FieldPath:
    """The family field of a compiled task's setup op ``index`` (``dropped``: the family ops left out)."""
    kept = [i for i in range(len(doc.get("setup") or [])) if i not in set(dropped)]
    if index < len(kept):
        return ("setup", kept[index], "args")
    at = _index(doc, ("infeasible",), "id", variant or "")
    return (*at, "add_setup", index - len(kept), "args")


def setup_problem(message: str) -> tuple[int, str] | None:
    """``(op index, message)`` of a controller error about a setup op (``setup.5 (add_room): ...``)."""
    m = _SETUP_AT.match(message)
    if m is None:
        return None
    op = f"{m.group(2)}: " if m.group(2) else ""
    return int(m.group(1)), op + m.group(3)


def draw_failure(
    file: Path, doc: Any, family: Family, variant: str | None, draw: str, message: str
) -> list[DataFileError]:
    """Why one draw of the family in ``file`` made no task, at the field that caused it."""
    op = setup_problem(message)
    if op is not None:
        chosen = next((v for v in family.infeasible if v.id == variant), None)
        dropped = [
            k for k, s in enumerate(family.setup) if chosen and s.tag is not None and s.tag in chosen.drop
        ]
        errors = [error_at(file, doc, setup_origin(doc, op[0], variant, dropped), op[1])]
    else:
        errors = family_problem(file, doc, family.family, FamilyError(message)).errors
    return [DataFileError(e.file, e.pos, e.field, f"{draw}: {e.problem}") for e in errors]
