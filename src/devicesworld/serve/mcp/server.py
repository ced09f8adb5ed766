"""MCP servers (official ``mcp`` SDK, low-level server) over one :class:`SessionHost`.

A tool call on a device action is one step through the controller, counted and
appended to ``steps.jsonl`` like the runner's (``agent_notes`` say it came through
MCP); a failed action is an MCP tool error (``isError``) whose text is the controller's
feedback, so a model sees it the way a native agent does. Observations, the verdict
and the task are read-only tools (and resources) and are not steps. One server per
task, or one per device sharing the same session (``per_device``), so an orchestrator
that wants a server per endpoint (UFO³) talks to the same devices and clock.

The verdict is the harness's: by default no tool or resource shows it. With
``debug_evaluate`` (``serve mcp --debug-evaluate``) an ``evaluate`` tool and the
``devicesworld://evaluation`` resource say which conditions pass, by id only — never
a check's detail, which can quote the expected value — and the run directory's
``run.json`` records the run as not comparable.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from devicesworld.compat.session import RecordedSession
from devicesworld.devices.base import SupportsScreenshot
from devicesworld.serve.host import SessionHost
from devicesworld.serve.mcp.tools import ToolDef, build_tools
from devicesworld.serve.verdicts import NOT_COMPARABLE_MCP, names_only

RESOURCE_NOT_FOUND = -32002
"""The spec's error code for an unknown resource URI."""
TASK_URI = "devicesworld://task"
VERDICT_URI = "devicesworld://evaluation"


def observation_uri(device_id: str) -> str:
    return f"devicesworld://{device_id}/observation"


def _text(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, default=str)


class McpFacade:
    """The handlers of one MCP server: a tool catalog bound to a session host."""

    def __init__(
        self,
        host: SessionHost,
        tools: Sequence[ToolDef],
        *,
        device: str | None = None,
        debug_evaluate: bool = False,
    ) -> None:
        self.host = host
        self.debug_evaluate = debug_evaluate
        self.tools = {t.name: t for t in tools}
        self.device = device
        self.devices = [d.id for d in host.task.devices if device is None or d.id == device]

    # ---------------------------------------------------------------- tools
    async def list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t.name,
                    description=t.description,
                    input_schema=t.input_schema,
                    annotations=types.ToolAnnotations(read_only_hint=t.read_only),
                )
                for t in self.tools.values()
            ]
        )

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await self.call(params.name, dict(params.arguments or {}))

    async def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """Run the tool ``name``; never raises (bad calls are tool errors with a clear message)."""
        tool = self.tools.get(name)
        if tool is None:
            return _error(f"no tool {name!r}; this server's tools are {', '.join(self.tools)}")
        if tool.role in ("action", "global"):
            step = {"device": tool.device, "action": tool.action, "args": arguments}
            outcome = await self.host.step(step, notes={"via": "mcp", "tool": name})
            payload = {
                "ok": outcome.result.ok,
                "message": outcome.result.message,
                "data": outcome.result.data,
                "error_code": outcome.result.error_code,
                "step": outcome.step,
                "done": outcome.done,
                "termination": outcome.termination,
            }
            return types.CallToolResult(
                content=[types.TextContent(text=_text(payload))],
                structured_content=payload,
                is_error=not outcome.result.ok,
            )
        if tool.role == "evaluate":
            verdict = names_only(await self.host.verdict())
            return types.CallToolResult(
                content=[types.TextContent(text=_text(verdict))], structured_content=verdict
            )
        if tool.role == "task":
            info = await self.host.run(self._task_info)
            return types.CallToolResult(
                content=[types.TextContent(text=_text(info))], structured_content=info
            )
        assert tool.device is not None
        extra = set(arguments) - {"screenshot"}
        if extra:
            return _error(f"{name} takes only 'screenshot'; unexpected: {', '.join(sorted(extra))}")
        want_shot = arguments.get("screenshot", False)
        if not isinstance(want_shot, bool):
            return _error(f"{name}: 'screenshot' must be true or false")
        device_id = tool.device
        observation, png = await self.host.run(lambda s: self._observe(s, device_id, want_shot))
        content: list[types.ContentBlock] = [types.TextContent(text=_text(observation))]
        if png is not None:
            content.append(
                types.ImageContent(data=base64.b64encode(png).decode("ascii"), mime_type="image/png")
            )
        return types.CallToolResult(content=content, structured_content=observation)

    def _observe(
        self, s: RecordedSession, device_id: str, screenshot: bool
    ) -> tuple[dict[str, Any], bytes | None]:
        if self.host.result is not None:
            return {"episode_over": True, "termination": self.host.result.termination}, None
        view = s.observe().get(device_id, {})
        png: bytes | None = None
        if screenshot:
            device = s.env.device(device_id)
            if isinstance(device, SupportsScreenshot):
                png = device.screenshot() or None
            if png is None:
                view = {**view, "screenshot": f"{device_id} cannot render a screenshot"}
        return view, png

    def _task_info(self, s: RecordedSession) -> dict[str, Any]:
        task = self.host.task
        return {
            "task_id": task.id,
            "instruction": task.instruction,
            "devices": [{"id": d.id, "kind": d.kind} for d in task.devices],
            "this_server_devices": self.devices,
            "max_steps": task.limits.max_steps,
            "steps": self.host.result.steps if self.host.result is not None else s.steps,
            "episode_over": self.host.result is not None,
        }

    # ------------------------------------------------------------ resources
    async def list_resources(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        resources = [
            types.Resource(
                uri=TASK_URI,
                name="task",
                description="The task (instruction, devices, budget).",
                mime_type="application/json",
            ),
        ]
        if self.debug_evaluate:
            resources.append(
                types.Resource(
                    uri=VERDICT_URI,
                    name="evaluation",
                    description="Debugging only: which conditions pass now, by name.",
                    mime_type="application/json",
                )
            )
        resources += [
            types.Resource(
                uri=observation_uri(d),
                name=f"{d} observation",
                description=f"What {d} shows now.",
                mime_type="application/json",
            )
            for d in self.devices
        ]
        return types.ListResourcesResult(resources=resources)

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        payload: Any
        if uri == TASK_URI:
            payload = await self.host.run(self._task_info)
        elif uri == VERDICT_URI and self.debug_evaluate:
            payload = names_only(await self.host.verdict())
        else:
            device = next((d for d in self.devices if observation_uri(d) == uri), None)
            if device is None:
                raise MCPError(RESOURCE_NOT_FOUND, f"no resource {uri!r}; see resources/list")
            payload, _ = await self.host.run(lambda s: self._observe(s, device, False))
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=_text(payload))]
        )


NOT_COMPARABLE = NOT_COMPARABLE_MCP
"""What ``run.json`` says about a run whose agent had the debugging ``evaluate`` tool."""


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def build_server(
    host: SessionHost, *, sep: str = ".", device: str | None = None, debug_evaluate: bool = False
) -> tuple[Server[Any], McpFacade]:
    """An MCP server for the whole task (``device=None``) or for one of its devices.

    ``debug_evaluate`` adds the names-only ``evaluate`` tool and resource and marks
    the recorded run as not comparable.
    """
    spaces = host.call(lambda s: s.env.action_spaces())
    devices = [(d.id, d.kind) for d in host.task.devices]
    tools = build_tools(spaces, devices, sep=sep, only_device=device, evaluate=debug_evaluate)
    facade = McpFacade(host, tools, device=device, debug_evaluate=debug_evaluate)
    if debug_evaluate:
        host.call(lambda s: s.mark_not_comparable(NOT_COMPARABLE))
    task = host.task
    scope = f"device {device} of task {task.id}" if device else f"task {task.id}"
    instructions = (
        f"DevicesWorld {scope}. Goal: {task.instruction}\n"
        "Each device action tool is one step of the episode; observe and get_task are free. "
        "Call finish when done, or report_infeasible with the reason."
    )
    server: Server[Any] = Server(
        f"devicesworld-{device}" if device else "devicesworld",
        version=_version(),
        instructions=instructions,
        on_list_tools=facade.list_tools,
        on_call_tool=facade.call_tool,
        on_list_resources=facade.list_resources,
        on_read_resource=facade.read_resource,
    )
    return server, facade


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("devicesworld")
    except PackageNotFoundError:
        return "0"
