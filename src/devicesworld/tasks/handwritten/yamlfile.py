"""Reading a task data file: YAML 1.2 scalars, no duplicate keys, and the line of every value.

PyYAML implements YAML 1.1, where ``on``/``no`` are booleans, ``10:30`` is the
integer 630 and ``2026-03-12`` a date — each a silent wrong value in a task file
(``on: true`` would even become the key ``True``). The loader here keeps YAML 1.2's
core schema instead: only ``true``/``false`` are booleans, numbers are plain decimal
ints and floats, everything else is a string. Mappings and lists come back as
:class:`Map`/:class:`Seq` (a ``dict``/``list`` that also knows where each value
stands), so the compiler can name file, line, column and field in every error.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

Pos = tuple[int, int]
"""1-based ``(line, column)``."""


class DataFileError(ValueError):
    """One problem in a data file, already phrased ``FILE:LINE:COL: FIELD: message``."""

    def __init__(self, file: str, pos: Pos | None, field: str, message: str) -> None:
        self.file, self.pos, self.field, self.problem = file, pos, field, message
        where = f"{file}:{pos[0]}:{pos[1]}" if pos else file
        super().__init__(f"{where}: {field + ': ' if field else ''}{message}")


class DataFileErrors(ValueError):
    """Every problem found in one pass, so an author fixes them all at once."""

    def __init__(self, errors: list[DataFileError]) -> None:
        self.errors = errors
        shown = [str(e) for e in errors[:20]]
        more = [f"... and {len(errors) - 20} more problem(s)"] if len(errors) > 20 else []
        super().__init__("\n".join(shown + more))


class Map(dict[Any, Any]):
    """A YAML mapping that knows its own position and each value's."""

    pos: Pos = (0, 0)
    value_pos: dict[Any, Pos]


class Seq(list[Any]):
    """A YAML sequence that knows its own position and each item's."""

    pos: Pos = (0, 0)
    item_pos: list[Pos]


def pos_of(node: Any, key: Any = None) -> Pos | None:
    """Where ``node`` (or its value at ``key``) stands in the file, when known."""
    if key is not None:
        if isinstance(node, Map):
            return node.value_pos.get(key, node.pos)
        if isinstance(node, Seq) and isinstance(key, int) and 0 <= key < len(node.item_pos):
            return node.item_pos[key]
    return getattr(node, "pos", None)


_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]
    pass


_Loader.yaml_implicit_resolvers = {
    first: [
        (tag, rx)
        for tag, rx in resolvers
        if tag.rsplit(":", 1)[-1] not in ("bool", "int", "float", "timestamp")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"), list("-+0123456789")
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*|[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]+)$"),
    list("-+0123456789."),
)


def _pos(node: yaml.Node) -> Pos:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Map:
    loader.flatten_mapping(node)
    out = Map()
    out.pos, out.value_pos = _pos(node), {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            ) from None
        if key in out:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is given twice in this mapping", key_node.start_mark
            )
        out[key] = loader.construct_object(value_node, deep=True)
        out.value_pos[key] = _pos(value_node)
    return out


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> Seq:
    out = Seq(loader.construct_object(child, deep=True) for child in node.value)
    out.pos, out.item_pos = _pos(node), [_pos(child) for child in node.value]
    return out


_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _sequence)


def load_text(text: str, name: str) -> Any:
    """The document in ``text``; a syntax error is a :class:`DataFileError` at its line."""
    try:
        return yaml.load(text, Loader=_Loader)  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = (mark.line + 1, mark.column + 1) if mark is not None else None
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise DataFileError(name, pos, "", message or "not valid YAML") from None
    except yaml.YAMLError as exc:
        raise DataFileError(name, None, "", f"not valid YAML ({exc})") from None


def load_file(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(str(path), None, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(str(path), None, "", f"cannot be read ({exc})") from None
    return load_text(text, str(path))


def plain(value: Any) -> Any:
    """``value`` with :class:`Map`/:class:`Seq` turned back into ``dict``/``list`` (what the models get)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
