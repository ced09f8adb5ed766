"""The MCP tool catalog of a task, made from the device kinds' published action spaces.

Pure data, no SDK: each device action becomes a tool named ``<device><sep><action>``
(``android_0.click``) whose input schema is the action's own JSON Schema, each device
gets an ``observe`` tool, and the episode tools (``finish``, ``report_infeasible``,
``get_task``, and ``evaluate`` only when asked for) are added once. Evaluation is
the harness's, not the agent's: without ``evaluate=True`` (``serve mcp
--debug-evaluate``) no tool reveals the verifiers' verdict. MCP (SEP-986, the 2025-11-25 spec) allows
dots in tool names and the SDK's validator accepts them; ``sep="__"`` is for clients
that pass tool names on to model APIs whose function names exclude dots. A per-device
server (UFO³ style, one server per endpoint) uses bare action names instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

ToolRole = Literal["action", "observe", "global", "evaluate", "task"]

SEPARATORS = (".", "__")
OBSERVE = "observe"
EVALUATE = "evaluate"
GET_TASK = "get_task"

_OBSERVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "screenshot": {
            "type": "boolean",
            "default": False,
            "description": "Also return a PNG screenshot (phones and GUI desktops).",
        }
    },
    "additionalProperties": False,
}
_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


class ToolCatalogError(ValueError):
    """The catalog cannot be built as asked (an unknown device, a name used twice)."""


@dataclass(frozen=True)
class ToolDef:
    """One MCP tool and what it stands for: a device action, an observation or an episode tool."""

    name: str
    description: str
    input_schema: dict[str, Any]
    role: ToolRole
    device: str | None = None
    action: str | None = None

    @property
    def read_only(self) -> bool:
        """Observation and evaluation tools change nothing and are not counted as steps."""
        return self.role in ("observe", "evaluate", "task")


def _object_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An action's args schema, made an explicit object schema as MCP requires."""
    out = dict(schema)
    out.setdefault("type", "object")
    out.setdefault("properties", {})
    return out


def build_tools(
    action_spaces: Mapping[str, Sequence[Mapping[str, Any]]],
    devices: Sequence[tuple[str, str]],
    *,
    sep: str = ".",
    only_device: str | None = None,
    evaluate: bool = False,
) -> list[ToolDef]:
    """Tools for ``devices`` (``(id, kind)`` pairs) from ``env.action_spaces()``.

    With ``only_device`` the catalog is that device's alone, with bare action names
    (``click``, ``observe``) plus the episode tools, for one server per device.
    ``evaluate`` adds the debugging ``evaluate`` tool (which conditions pass, by name).
    """
    if sep not in SEPARATORS:
        raise ToolCatalogError(f"tool-name separator must be one of {', '.join(SEPARATORS)}; got {sep!r}")
    ids = [d for d, _ in devices]
    if only_device is not None and only_device not in ids:
        raise ToolCatalogError(f"no device {only_device!r} in this task; its devices are {', '.join(ids)}")
    tools: list[ToolDef] = []
    for device_id, kind in devices:
        if only_device is not None and device_id != only_device:
            continue
        prefix = "" if only_device is not None else f"{device_id}{sep}"
        for spec in action_spaces.get(device_id, ()):
            tools.append(
                ToolDef(
                    name=f"{prefix}{spec['name']}",
                    description=f"[{device_id}, {kind}] {spec.get('doc', '')}".strip(),
                    input_schema=_object_schema(spec.get("args_schema", {})),
                    role="action",
                    device=device_id,
                    action=str(spec["name"]),
                )
            )
        tools.append(
            ToolDef(
                name=f"{prefix}{OBSERVE}",
                description=f"[{device_id}, {kind}] What the device shows now (not a step).",
                input_schema=dict(_OBSERVE_SCHEMA),
                role="observe",
                device=device_id,
            )
        )
    for spec in action_spaces.get("*", ()):
        tools.append(
            ToolDef(
                name=str(spec["name"]),
                description=str(spec.get("doc", "")),
                input_schema=_object_schema(spec.get("args_schema", {})),
                role="global",
                action=str(spec["name"]),
            )
        )
    if evaluate:
        tools.append(
            ToolDef(
                name=EVALUATE,
                description="Debugging only (the run is marked not comparable): which of the task's "
                "conditions pass now, by name (not a step; never the expected values).",
                input_schema=dict(_EMPTY_SCHEMA),
                role="evaluate",
            )
        )
    tools.append(
        ToolDef(
            name=GET_TASK,
            description="The task: instruction, devices, step budget and steps used (not a step).",
            input_schema=dict(_EMPTY_SCHEMA),
            role="task",
        )
    )
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            raise ToolCatalogError(f"two tools would be named {tool.name!r}; use another separator")
        seen.add(tool.name)
    return tools
