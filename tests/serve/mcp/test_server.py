"""MCP servers driven by the SDK's own client (in process): tools, steps, recording, verdict."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from devicesworld.serve.host import SessionHost
from devicesworld.serve.mcp.server import build_server
from devicesworld.spec.models import Task
from devicesworld.tasks.suites import load_suite


def _task(task_id: str) -> Task:
    return next(t for t in load_suite("smoke") if t.id == task_id)


def _with_client(host: SessionHost, body: Callable[[Client], Awaitable[None]], **kw: Any) -> None:
    server, _ = build_server(host, **kw)

    async def main() -> None:
        async with Client(server) as client:
            await body(client)

    asyncio.run(main())


def _tool_name(step: Any, sep: str = ".") -> str:
    return step.action if step.device is None else f"{step.device}{sep}{step.action}"


@pytest.mark.parametrize("task_id", ["smoke-sh-002", "smoke-android-001", "smoke-android-047"])
def test_the_reference_solution_through_mcp_succeeds_and_is_recorded(task_id: str, tmp_path: Path) -> None:
    task = _task(task_id)
    host = SessionHost(task, tmp_path, agent="mcp")
    host.start()
    verdicts: list[dict[str, Any]] = []

    async def body(client: Client) -> None:
        listed = {t.name for t in (await client.list_tools()).tools}
        for device in task.devices:
            assert f"{device.id}.observe" in listed
        before = await client.call_tool("evaluate", {})
        assert before.structured_content is not None and before.structured_content["success"] is False
        for step in task.solution:
            result = await client.call_tool(_tool_name(step), step.args)
            assert not result.is_error, result.content
        verdicts.append((await client.call_tool("evaluate", {})).structured_content or {})

    _with_client(host, body, debug_evaluate=True)
    result = host.close()
    assert verdicts[0]["success"] is True and verdicts[0]["episode_over"] is True
    assert result.success and result.termination == "finished" and result.steps == len(task.solution)
    lines = (tmp_path / "episodes" / task.id / "steps.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["step"] for r in records] == list(range(1, len(task.solution) + 1))
    assert all(r["agent_notes"]["via"] == "mcp" for r in records)
    results = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["success"], r["agent"]) for r in results] == [(task.id, True, "mcp")]


def test_bad_calls_are_tool_errors_and_count_like_native_steps(tmp_path: Path) -> None:
    task = _task("smoke-sh-001")
    host = SessionHost(task, tmp_path, agent="mcp")
    host.start()

    async def body(client: Client) -> None:
        bad = await client.call_tool(
            "smarthome_0.control_device", {"device_id": "nope", "command": "turn_on"}
        )
        assert bad.is_error and bad.structured_content is not None
        assert bad.structured_content["error_code"] == "NOT_FOUND" and bad.structured_content["step"] == 1
        invalid = await client.call_tool("smarthome_0.control_device", {"command": 3})
        assert invalid.is_error and invalid.structured_content["error_code"] == "INVALID_ARGS"
        unknown = await client.call_tool("smarthome_0.fly", {})
        assert unknown.is_error and "no tool 'smarthome_0.fly'" in unknown.content[0].text  # type: ignore[union-attr]
        for _ in range(3):  # observations, the task and the verdict are free
            await client.call_tool("smarthome_0.observe", {})
            await client.call_tool("get_task", {})
            await client.call_tool("evaluate", {})
        info = (await client.call_tool("get_task", {})).structured_content
        assert info is not None and info["steps"] == 2 and info["instruction"] == task.instruction
        bad_obs = await client.call_tool("smarthome_0.observe", {"zoom": 2})
        assert bad_obs.is_error

    _with_client(host, body, debug_evaluate=True)
    result = host.close()
    assert result.steps == 2 and result.termination == "error" and not result.success
    assert len((tmp_path / "episodes" / task.id / "steps.jsonl").read_text().splitlines()) == 2


def test_the_step_budget_ends_the_episode_as_natively(tmp_path: Path) -> None:
    task = _task("smoke-sh-001")
    task = task.model_copy(update={"limits": task.limits.model_copy(update={"max_steps": 2})})
    host = SessionHost(task, tmp_path, agent="mcp")
    host.start()

    async def body(client: Client) -> None:
        await client.call_tool("smarthome_0.list_rooms", {})
        last = await client.call_tool("smarthome_0.list_rooms", {})
        assert (
            last.structured_content is not None
            and last.structured_content["termination"] == "budget_exhausted"
        )
        after = await client.call_tool("smarthome_0.list_rooms", {})
        assert after.is_error and after.structured_content["error_code"] == "EPISODE_OVER"

    _with_client(host, body)
    assert host.close().termination == "budget_exhausted"


def test_resources_and_screenshots(tmp_path: Path) -> None:
    task = _task("smoke-android-001")
    host = SessionHost(task, None, agent="mcp")
    host.start()

    async def body(client: Client) -> None:
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        assert {"devicesworld://task", "devicesworld://android_0/observation"} <= uris
        assert "devicesworld://evaluation" not in uris
        with pytest.raises(MCPError, match="no resource"):
            await client.read_resource("devicesworld://evaluation")
        task_doc = json.loads((await client.read_resource("devicesworld://task")).contents[0].text)  # type: ignore[union-attr]
        assert task_doc["task_id"] == task.id
        obs = json.loads(
            (await client.read_resource("devicesworld://android_0/observation")).contents[0].text  # type: ignore[union-attr]
        )
        assert obs["kind"] == "android" and obs["ui_elements"]
        with pytest.raises(MCPError, match="no resource"):
            await client.read_resource("devicesworld://android_9/observation")
        assert (await client.call_tool("get_task", {})).structured_content is not None  # still serving
        shot = await client.call_tool("android_0.observe", {"screenshot": True})
        images = [c for c in shot.content if c.type == "image"]
        assert len(images) == 1 and base64.b64decode(images[0].data).startswith(b"\x89PNG")

    _with_client(host, body)
    host.close()


def test_one_server_per_device_shares_one_session() -> None:
    task = _task("smoke-lx-043")  # linux_0 + smarthome_0
    host = SessionHost(task, None, agent="mcp")
    host.start()
    home, _ = build_server(host, device="smarthome_0", debug_evaluate=True)
    desktop, _ = build_server(host, device="linux_0", debug_evaluate=True)

    async def main() -> None:
        async with Client(home) as h, Client(desktop) as d:
            h_tools = {t.name for t in (await h.list_tools()).tools}
            d_tools = {t.name for t in (await d.list_tools()).tools}
            assert "control_device" in h_tools and "control_device" not in d_tools
            assert {"finish", "evaluate", "observe"} <= h_tools & d_tools
            for step in task.solution:
                client = h if step.device == "smarthome_0" else d
                result = await client.call_tool(step.action, step.args)
                assert not result.is_error, result.content
            verdict = (await h.call_tool("evaluate", {})).structured_content
            assert verdict is not None and verdict["success"] is True

    asyncio.run(main())
    result = host.close()
    assert result.success and result.steps == len(task.solution)


def test_without_the_flag_no_tool_or_resource_reveals_the_verdict(tmp_path: Path) -> None:
    task = _task("smoke-sh-001")
    host = SessionHost(task, tmp_path, agent="mcp")
    host.start()

    async def body(client: Client) -> None:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert "evaluate" not in tools and "get_task" in tools
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        assert "devicesworld://evaluation" not in uris
        assert (await client.call_tool("evaluate", {})).is_error

    _with_client(host, body)
    host.close()
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert "comparable" not in manifest


def test_debug_evaluate_names_conditions_never_expected_values_and_marks_the_run(tmp_path: Path) -> None:
    task = _task("smoke-sh-001")  # its detail reads "hall_light is off, expected on"
    host = SessionHost(task, tmp_path, agent="mcp")
    host.start()
    texts: list[str] = []
    details: list[str] = []

    async def body(client: Client) -> None:
        full = await host.verdict()  # what the harness knows, details included
        details.extend(c["detail"] for c in full["conditions"] if c["detail"])
        tool = await client.call_tool("evaluate", {})
        texts.append(tool.content[0].text)  # type: ignore[union-attr]
        resource = await client.read_resource("devicesworld://evaluation")
        texts.append(resource.contents[0].text)  # type: ignore[union-attr]
        verdict = tool.structured_content
        assert verdict is not None and "light_on" in verdict["failed"]
        assert {c.id for c in task.evaluation.conditions} <= set(verdict["passed"]) | set(verdict["failed"])

    _with_client(host, body, debug_evaluate=True)
    host.close()
    assert any("expected" in d for d in details)
    for text in texts:
        assert "expected" not in text and "detail" not in text
        assert not any(d in text for d in details)
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["comparable"] is False and "debug-evaluate" in manifest["not_comparable_reason"]
