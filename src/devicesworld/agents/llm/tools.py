"""Function-calling tools generated from the episode's action spaces.

One tool per **device kind**, named after the kind (``android``, ``linux``, ``smarthome``,
``windows``), with the target device and the action as enum arguments and the action's own
arguments nested under ``args`` (so an action argument can never collide with ``device`` or
``action``). The global actions (``finish``, ``report_infeasible``, ``answer``) are tools of their
own. The names ``<kind>__<action>`` of the earlier one-tool-per-(kind, action) form are still
understood (a model that calls ``android__click`` with ``{"device", "args"}`` acts), but not offered.

Why (issue #34): each JSON Schema appears once per prompt. The action catalog
(:meth:`ToolBook.catalog_text`) writes every action's arguments once per device *group*, in a
lean form (:func:`lean_schema`: no titles, no ``null`` alternatives or ``null`` defaults), with
each shared definition written once for the whole prompt; both prompt forms carry it. A tool per
(kind, action) — 47 on a four-device task — cost ~14K characters of function-calling envelope
around facts the catalog already states (system 9.6K + tools 14.3K = 23.9K); a tool per kind
costs ~1.4K (``benchmarks/llm_prompt_size.py``; docs/agents.md). The controller validates the
arguments against the full schema either way and a wrong one comes back as the step's error.
:data:`THIN_TOOLS` ``= False`` sends the earlier form instead: one tool per (kind, action) with its
full lean JSON Schema (for endpoints that fill arguments from the schema).
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
"""One tool per device kind whose arguments are the catalog's (written once in the prompt); False sends
one tool per (kind, action) with its full lean JSON Schema, as before issue #34 (for endpoints that
fill arguments from the schema)."""
_NAME_OK = re.compile(r"[^a-zA-Z0-9_-]")


class ReplyError(Exception):
    """The model's reply cannot be turned into an action; the message is shown to the model."""


@dataclass(frozen=True)
class ToolTarget:
    kind: str | None
    action: str
    devices: tuple[str, ...]
    actions: tuple[str, ...] = ()
    """A kind's tool: the actions its ``action`` argument takes (empty for a one-action tool)."""


@dataclass
class ToolBook:
    """The tools of one episode and how to turn a tool call back into a step."""

    tools: list[dict[str, Any]] = field(default_factory=list)
    targets: dict[str, ToolTarget] = field(default_factory=dict)
    """Every tool name a call may use: the offered tools and the ``<kind>__<action>`` names."""
    catalog: list[tuple[str, str, str, dict[str, Any]]] = field(default_factory=list)
    """``(devices, action, doc, args_schema)`` per device group and action, for text prompts;
    ``devices`` is the comma-joined ids of the group ("" for a global action)."""

    @classmethod
    def build(
        cls, info: EpisodeInfo, *, devices: list[str] | None = None, include_global: bool = True
    ) -> ToolBook:
        """Tools for ``devices`` (default all) plus, if asked, the global actions."""
        wanted = devices if devices is not None else [d.id for d in info.devices]
        groups: dict[tuple[str, str], list[str]] = {}  # devices of a kind with the same action space
        for d in info.devices:
            if d.id in wanted:
                space = json.dumps(info.action_spaces.get(d.id, []), sort_keys=True)
                groups.setdefault((d.kind, space), []).append(d.id)
        book = cls()
        by_action: dict[tuple[str, str], tuple[list[str], dict[str, Any]]] = {}
        for (kind, _), ids in groups.items():
            for spec in info.action_spaces.get(ids[0], []):
                devices_, _spec = by_action.setdefault((kind, spec["name"]), ([], spec))
                devices_.extend(ids)
                book.catalog.append((",".join(ids), spec["name"], spec.get("doc", ""), spec["args_schema"]))
        kinds: dict[str, tuple[list[str], list[str]]] = {}
        for (kind, action), (ids, spec) in by_action.items():
            if not THIN_TOOLS:
                book._add_device_tool(kind, tuple(ids), spec)
            book.targets.setdefault(
                tool_name(kind, action), ToolTarget(kind=kind, action=action, devices=tuple(ids))
            )
            kind_devices, kind_actions = kinds.setdefault(kind, ([], []))
            kind_devices.extend(i for i in ids if i not in kind_devices)
            kind_actions.append(action)
        if THIN_TOOLS:
            for kind, (ids, actions) in kinds.items():
                book._add_kind_tool(kind, [i for i in wanted if i in ids], actions)
        if include_global:
            for spec in info.action_spaces.get(GLOBAL_KEY, []):
                params = bare_schema(spec["args_schema"]) if THIN_TOOLS else spec["args_schema"]
                doc = "" if THIN_TOOLS else spec.get("doc", "")  # thin: the catalog's line says it
                book.add_plain_tool(spec["name"], doc, params, kind=None)
                book.catalog.append(("", spec["name"], spec.get("doc", ""), spec["args_schema"]))
        return book

    def _add_kind_tool(self, kind: str, devices: list[str], actions: list[str]) -> None:
        """One tool for every action of a kind's devices: device and action are its arguments."""
        name = kind_tool_name(kind)
        params: dict[str, Any] = {
            "type": "object",
            "properties": {
                "device": {"enum": devices},
                "action": {"type": "string"},  # the catalog names each device's actions, once
                "args": {"type": "object"},
            },
            "required": ["device", "action"],
        }
        self.tools.append(_function(name, KIND_DOC, params))
        self.targets[name] = ToolTarget(kind=kind, action="", devices=tuple(devices), actions=tuple(actions))

    def _add_device_tool(self, kind: str, devices: tuple[str, ...], spec: dict[str, Any]) -> None:
        """The full form (``THIN_TOOLS`` off): one tool per (kind, action) with its lean JSON Schema."""
        name = tool_name(kind, spec["name"])
        schema = lean_schema(spec["args_schema"])
        defs = schema.pop("$defs", None)
        params: dict[str, Any] = {
            "type": "object",
            "properties": {
                "device": {"type": "string", "enum": list(devices), "description": f"The {kind} device."},
                "args": schema,
            },
            "required": ["device", "args"],
            "additionalProperties": False,
        }
        if defs:
            params["$defs"] = defs
        self.tools.append(_function(name, f"[{kind}] {spec.get('doc', '')}", params))
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
            known = ", ".join(t["function"]["name"] for t in self.tools)
            raise ReplyError(f"unknown tool {name!r}; call one of: {known}")
        if target.kind is None:
            return Step(action=target.action, args=arguments)
        action = target.action
        if target.actions:
            chosen = arguments.get("action")
            if not isinstance(chosen, str) or chosen not in target.actions:
                raise ReplyError(
                    f"tool {name} needs an 'action' argument, one of {', '.join(target.actions)}"
                    + (f" (got {json.dumps(chosen)})" if chosen is not None else "")
                )
            action = chosen
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
            args = {k: v for k, v in arguments.items() if k not in ("device", "action")}
        return Step(device=device, action=action, args=args)

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


KIND_DOC = ""
"""A kind tool's description: none, the actions' names and words are the catalog's, written once
(the system prompt says a device's tool is named after its kind)."""


def kind_tool_name(kind: str) -> str:
    return _NAME_OK.sub("_", kind)[:64]


def tool_name(kind: str, action: str) -> str:
    return _NAME_OK.sub("_", f"{kind}__{action}")[:64]


def _function(name: str, doc: str, params: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI function tool; an empty ``doc`` is left out (the catalog states what it does)."""
    about = {"description": doc} if doc else {}
    return {"type": "function", "function": {"name": name, **about, "parameters": params}}


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


def bare_schema(schema: dict[str, Any]) -> Any:
    """A global action's parameters without the words the catalog already states (descriptions)."""

    def strip(value: Any) -> Any:
        if isinstance(value, list):
            return [strip(v) for v in value]
        if not isinstance(value, dict):
            return value
        return {
            k: (
                {n: strip(p) for n, p in v.items()} if k == "properties" and isinstance(v, dict) else strip(v)
            )
            for k, v in value.items()
            if k != "description"
        }

    return strip(lean_schema(schema))


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
