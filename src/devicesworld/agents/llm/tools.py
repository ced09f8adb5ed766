"""Function-calling tools generated from the episode's action spaces.

One tool per (device kind, action), named ``<kind>__<action>``, with the target
device as an enum argument and the action's own arguments nested under ``args``
(so that an action argument can never collide with ``device``). The global actions
(``finish``, ``report_infeasible``, ``answer``) are tools of their own.

Each JSON Schema appears once per prompt (issue #34): the action catalog
(:meth:`ToolBook.catalog_text`) writes every action's arguments once per device *group*
(all devices of a kind share one tool and one catalog line), in a lean form
(:func:`lean_schema`: no titles, no ``null`` alternatives or ``null`` defaults), with each
shared definition written once for the whole prompt. Both prompt forms carry that catalog:
a model without function calling reads it and answers in JSON; with function calling the
tools are *thin* (:data:`THIN_TOOLS`): a tool names its action and devices and the
arguments it requires, and its ``args`` are the catalog's. The controller validates the
arguments against the full schema either way and a wrong one comes back as the step's
error. Sending each tool its own schema, ``$defs`` and descriptions made a four-device
function-calling prompt ~41K characters (tools ~37K), the same facts as the ~8K catalog
(benchmarks/llm_prompt_size.py; docs/agents.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from devicesworld.agents.base import EpisodeInfo
from devicesworld.agents.llm.catalog import render as render_catalog
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.models import Step

GLOBAL_KEY = "*"
THIN_TOOLS = True
"""Device tools without their own argument schema (the prompt's catalog has it once); False sends each
tool its full lean JSON Schema, as before issue #34 (for endpoints that fill arguments from it)."""
_NAME_OK = re.compile(r"[^a-zA-Z0-9_-]")


class ReplyError(Exception):
    """The model's reply cannot be turned into an action; the message is shown to the model."""


@dataclass(frozen=True)
class ToolTarget:
    kind: str | None
    action: str
    devices: tuple[str, ...]


@dataclass
class ToolBook:
    """The tools of one episode and how to turn a tool call back into a step."""

    tools: list[dict[str, Any]] = field(default_factory=list)
    targets: dict[str, ToolTarget] = field(default_factory=dict)
    catalog: list[tuple[str, str, str, dict[str, Any]]] = field(default_factory=list)
    """``(devices, action, doc, args_schema)`` per device group and action, for text prompts;
    ``devices`` is the comma-joined ids of the group ("" for a global action)."""

    @classmethod
    def build(
        cls, info: EpisodeInfo, *, devices: list[str] | None = None, include_global: bool = True
    ) -> ToolBook:
        """Tools for ``devices`` (default all) plus, if asked, the global actions."""
        wanted = devices if devices is not None else [d.id for d in info.devices]
        by_kind: dict[str, list[str]] = {}
        for d in info.devices:
            if d.id in wanted:
                by_kind.setdefault(d.kind, []).append(d.id)
        book = cls()
        for kind, ids in by_kind.items():
            space = info.action_spaces.get(ids[0], [])
            for spec in space:
                book._add_device_tool(kind, tuple(ids), spec)
                book.catalog.append((",".join(ids), spec["name"], spec.get("doc", ""), spec["args_schema"]))
        if include_global:
            for spec in info.action_spaces.get(GLOBAL_KEY, []):
                book.add_plain_tool(spec["name"], spec.get("doc", ""), spec["args_schema"], kind=None)
                book.catalog.append(("", spec["name"], spec.get("doc", ""), spec["args_schema"]))
        return book

    def _add_device_tool(self, kind: str, devices: tuple[str, ...], spec: dict[str, Any]) -> None:
        name = tool_name(kind, spec["name"])
        schema = lean_schema(spec["args_schema"])
        defs = schema.pop("$defs", None)
        if THIN_TOOLS:
            schema = thin_args(schema)
            defs = None
        device: dict[str, Any] = {"type": "string", "enum": list(devices)}
        if not THIN_TOOLS:
            device["description"] = f"The {kind} device."
        params: dict[str, Any] = {
            "type": "object",
            "properties": {"device": device, "args": schema},
            "required": ["device", "args"],
        }
        if not THIN_TOOLS:
            params["additionalProperties"] = False
        if defs:
            params["$defs"] = defs
        doc = (
            THIN_DOC.format(kind=kind, action=spec["name"])
            if THIN_TOOLS
            else f"[{kind}] {spec.get('doc', '')}"
        )
        self.tools.append(_function(name, doc, params))
        self.targets[name] = ToolTarget(kind=kind, action=spec["name"], devices=devices)

    def add_plain_tool(self, name: str, doc: str, params: dict[str, Any], *, kind: str | None = None) -> None:
        """A tool whose arguments are the parameters themselves (global and agent-internal tools)."""
        self.tools.append(_function(name, doc, params))
        self.targets[name] = ToolTarget(kind=kind, action=name, devices=())

    def is_env_tool(self, name: str) -> bool:
        target = self.targets.get(name)
        return target is not None and (target.kind is not None or name in GLOBAL_ACTIONS)

    def to_step(self, name: str, arguments: dict[str, Any]) -> Step:
        """The environment step a tool call stands for; :class:`ReplyError` if it stands for none."""
        target = self.targets.get(name)
        if target is None:
            known = ", ".join(self.targets)
            raise ReplyError(f"unknown tool {name!r}; call one of: {known}")
        if target.kind is None:
            return Step(action=target.action, args=arguments)
        device = arguments.get("device")
        if device is None and len(target.devices) == 1:
            device = target.devices[0]
        if not isinstance(device, str):
            raise ReplyError(f"tool {name} needs a 'device' argument, one of {', '.join(target.devices)}")
        if "args" in arguments:
            args = arguments["args"]
            if args is None:
                args = {}
            if not isinstance(args, dict):
                raise ReplyError(f"tool {name}: 'args' must be an object, got {json.dumps(args)}")
        else:  # some models flatten the action's arguments next to 'device'
            args = {k: v for k, v in arguments.items() if k != "device"}
        return Step(device=device, action=target.action, args=args)

    def catalog_text(self) -> str:
        """The actions as text for models without function calling (:mod:`.catalog`): one
        section per device group, one line per action, each schema written once."""
        defs: dict[str, Any] = {}
        entries = []
        for group, action, doc, schema in self.catalog:
            lean = lean_schema(schema)
            defs.update(lean.pop("$defs", {}))
            entries.append((group, action, doc, lean))
        return render_catalog(entries, defs)


THIN_DOC = "[{kind}] args: see the catalog"
"""A thin tool's description: the action's own words are the catalog's, written once."""


def thin_args(schema: dict[str, Any]) -> dict[str, Any]:
    """A thin tool's ``args``: an object naming the arguments it requires (their types, limits and
    descriptions are the catalog's); an action without arguments says it takes none."""
    out: dict[str, Any] = {"type": "object"}
    required = schema.get("required")
    if isinstance(required, list) and required:
        out["required"] = list(required)
    if not schema.get("properties"):
        out["properties"] = {}
    return out


def tool_name(kind: str, action: str) -> str:
    return _NAME_OK.sub("_", f"{kind}__{action}")[:64]


def _function(name: str, doc: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": doc, "parameters": params}}


def lean_schema(value: Any) -> Any:
    """The schema as a model needs it: no ``title`` strings, ``anyOf [T, null]`` as ``T``, no
    ``null`` defaults, no ``additionalProperties: false``. The controller still validates with
    the full schema; an omitted optional argument is the ``null`` it would have been."""
    if isinstance(value, list):
        return [lean_schema(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for k, v in value.items():
        if k == "title" and isinstance(v, str):
            continue
        if k == "default" and v is None:
            continue
        if k == "additionalProperties" and v is False:
            continue
        if k == "properties" and isinstance(v, dict):
            out[k] = {name: lean_schema(p) for name, p in v.items()}  # a property may be named "title"
            continue
        out[k] = lean_schema(v)
    if out.get("minLength") == 1:
        del out["minLength"]  # "non-empty" is what a model assumes; the controller still checks it
    if isinstance(out.get("maxLength"), int) and out["maxLength"] >= 1000:
        del out["maxLength"]
    if (
        isinstance(out.get("enum"), list)
        and all(isinstance(e, str) for e in out["enum"])
        and out.get("type") == "string"
    ):
        del out["type"]  # an enum of strings says the type
    options = out.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(options) and isinstance(kept[0], dict):
            del out["anyOf"]
            out = {**kept[0], **out}
        elif len(kept) < len(options):
            out["anyOf"] = kept
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def compact_schema(value: Any) -> Any:
    """The schema without its ``title`` strings, for shorter text prompts."""
    if isinstance(value, dict):
        return {k: compact_schema(v) for k, v in value.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(value, list):
        return [compact_schema(v) for v in value]
    return value


def object_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A small JSON Schema object for agent-internal tools."""
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
