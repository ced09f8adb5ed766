"""The action catalog as text, for models that read it in the prompt (no function calling).

Why not the JSON Schemas verbatim: four devices' schemas written as JSON were 11-13K
characters of a 17K prompt, most of it keys and quotes (``"type":"integer"``,
``"description":``). Function-calling endpoints do not show a model raw JSON Schema either:
they render it as a short typed signature. So each action is one line, ``name(args): doc``,
with every argument written from its JSON Schema as ``name?: type constraints = default
"description"`` — the same facts (type, enum, bounds, default, description, required)
in a third of the length. Each schema is written once per prompt: an action whose arguments
repeat an earlier action's in the same device group says ``as <action>``; an argument
schema or a whole argument list shared by several actions or groups is a definition,
written once at the end and named where it is used. The tools themselves (function calling)
still carry the JSON Schemas the controller validates with.
"""

from __future__ import annotations

import json
from typing import Any

SIGNATURE_HELP = 'args as name?: type = default "about" (? optional; a bare type name is under Definitions)'


_SCALARS = {"integer": "int", "number": "number", "string": "string", "boolean": "bool", "null": "null"}


def type_text(schema: Any) -> str:
    """One JSON Schema as a short type (without its description or default)."""
    if not isinstance(schema, dict) or not schema:
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    if "enum" in schema:
        return "|".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return "|".join(type_text(s) for s in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(_SCALARS.get(k, str(k)) for k in kind)
    if kind == "array" or "items" in schema or "prefixItems" in schema:
        if isinstance(schema.get("prefixItems"), list):
            text = "[" + ", ".join(type_text(s) for s in schema["prefixItems"]) + "]"
        else:
            text = type_text(schema.get("items")) + "[]"
            lo, hi = schema.get("minItems"), schema.get("maxItems")
            if lo is not None or hi is not None:
                text += f"({lo or 0}-{hi if hi is not None else ''} items)"
        return text
    if kind == "object" or "properties" in schema:
        props = schema.get("properties")
        if isinstance(props, dict) and props:
            return "{" + args_text(schema) + "}"
        return "object"
    text = _SCALARS.get(str(kind), str(kind)) if kind else "any"
    return text + _bounds(schema)


def _bounds(schema: dict[str, Any]) -> str:
    out = ""
    for key, sign in (
        ("minimum", "≥"),
        ("exclusiveMinimum", ">"),
        ("maximum", "≤"),
        ("exclusiveMaximum", "<"),
    ):
        if isinstance(schema.get(key), int | float) and not isinstance(schema.get(key), bool):
            out += f"{sign}{_num(schema[key])}"
    lo, hi = schema.get("minLength"), schema.get("maxLength")
    if lo is not None or hi is not None:
        out += f"({lo}-{hi} chars)" if lo and hi is not None else f"(≥{lo} chars)" if lo else f"(≤{hi} chars)"
    return out


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def arg_text(schema: Any) -> str:
    """An argument's type with its default and description: ``int≥0 = 0 "First index."``."""
    text = type_text(schema)
    if isinstance(schema, dict):
        if "default" in schema:
            default = schema["default"]
            shown = _num(default) if isinstance(default, float) else json.dumps(default, ensure_ascii=False)
            text += " = " + shown
        about = schema.get("description")
        if isinstance(about, str) and about and not _restates_enum(about, schema.get("enum")):
            text += " " + json.dumps(about, ensure_ascii=False)
    return text


def _restates_enum(about: str, enum: Any) -> bool:
    """A description that only lists the enum's values ("One of: a, b.") says nothing more."""
    if not isinstance(enum, list):
        return False
    return about.rstrip(".") == "One of: " + ", ".join(str(v) for v in enum)


def args_text(schema: dict[str, Any]) -> str:
    """An object schema's properties as ``a: T, b?: U`` (``?``: not required)."""
    required = set(schema.get("required") or [])
    props = schema.get("properties") or {}
    return ", ".join(f"{name}{'' if name in required else '?'}: {arg_text(p)}" for name, p in props.items())


HOIST_MIN_CHARS = 30
"""An argument written at least this long and used twice or more becomes a definition."""


def render(entries: list[tuple[str, str, str, dict[str, Any]]], defs: dict[str, Any]) -> str:
    """The catalog text of ``(group, action, doc, lean args schema)`` entries (group "" =
    global); ``defs``: the schemas' shared ``$defs`` (extended here with hoisted ones)."""
    arg_uses: dict[tuple[str, str], int] = {}
    unique = {json.dumps(s, sort_keys=True): s for *_, s in entries}
    for schema in unique.values():
        for name, prop in (schema.get("properties") or {}).items():
            key = (name, arg_text(prop))
            arg_uses[key] = arg_uses.get(key, 0) + 1
    hoisted: dict[tuple[str, str], str] = {}
    for (name, text), count in arg_uses.items():
        if count >= 2 and len(text) >= HOIST_MIN_CHARS:
            ref = name
            n = 1
            while ref in defs or ref in hoisted.values():
                n += 1
                ref = f"{name}{n}"
            hoisted[(name, text)] = ref

    def line_args(schema: dict[str, Any]) -> str:
        required = set(schema.get("required") or [])
        parts = []
        for name, prop in (schema.get("properties") or {}).items():
            text = arg_text(prop)
            shown = hoisted.get((name, text), text)
            parts.append(f"{name}{'' if name in required else '?'}: {shown}")
        return ", ".join(parts)

    texts = [line_args(s) for *_, s in entries]
    earlier: dict[tuple[str, str, str], str] = {}  # (action, doc, args) -> the first group with it
    for (group, action, doc, _), text in zip(entries, texts, strict=True):
        earlier.setdefault((action, doc, text), group)
    groups_of: dict[str, set[str]] = {}
    for (group, action, doc, _), text in zip(entries, texts, strict=True):
        if earlier[(action, doc, text)] == group:
            groups_of.setdefault(text, set()).add(group)
    lines: list[str] = []
    shared: dict[str, str] = {}
    seen: dict[tuple[str, str], str] = {}
    current: str | None = None
    for (group, action, doc, _), text in zip(entries, texts, strict=True):
        if group != current:
            current = group
            lines.append(f"# {group.replace(',', ', ')}" if group else "# global (no device)")
        if not text:
            lines.append(f"- {action}(): {doc}")
            continue
        first_group = earlier[(action, doc, text)]
        if first_group != group:
            lines.append(f"- {action}: as for {first_group.replace(',', ', ')}")
            continue
        first = seen.setdefault((group, text), action)
        if first != action:
            lines.append(f"- {action}(as {first}): {doc}")
            continue
        if len(groups_of[text]) > 1 and len(text) >= HOIST_MIN_CHARS:
            name = shared.get(text)
            if name is None:
                name = f"{action}_args"
                shared[text] = name
            lines.append(f"- {action}({name}): {doc}")
            continue
        lines.append(f"- {action}({text}): {doc}")
    written = [f"- {name}: {arg_text(d)}" for name, d in sorted(defs.items())]
    written += [f"- {ref}: {text}" for (_, text), ref in sorted(hoisted.items(), key=lambda kv: kv[1])]
    written += [f"- {name}: ({text})" for text, name in sorted(shared.items(), key=lambda kv: kv[1])]
    if written:
        lines.append("Definitions:")
        lines.extend(written)
    return "\n".join(lines)
