"""The MCP tool catalog: names, schemas and episode tools made from the kinds' action spaces."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.shared.tool_name_validation import validate_tool_name

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.serve.mcp.tools import ToolCatalogError, build_tools
from devicesworld.tasks.suites import load_suite


def _task(task_id: str):  # type: ignore[no-untyped-def]
    return next(t for t in load_suite("smoke") if t.id == task_id)


@pytest.fixture(scope="module")
def spaces() -> dict[str, list[dict[str, Any]]]:
    task = _task("smoke-lx-043")  # linux_0 + smarthome_0
    env = CrossDeviceEnv(task)
    return env.action_spaces()


DEVICES = [("linux_0", "linux"), ("smarthome_0", "smarthome")]


def test_every_action_of_every_device_is_a_tool_with_its_schema(
    spaces: dict[str, list[dict[str, Any]]],
) -> None:
    tools = {t.name: t for t in build_tools(spaces, DEVICES, evaluate=True)}
    for device_id, _ in DEVICES:
        for spec in spaces[device_id]:
            tool = tools[f"{device_id}.{spec['name']}"]
            assert tool.device == device_id and tool.action == spec["name"] and tool.role == "action"
            assert tool.input_schema["type"] == "object"
            assert tool.input_schema.get("properties") == spec["args_schema"].get("properties", {})
        assert tools[f"{device_id}.observe"].role == "observe"
    for name in ("finish", "report_infeasible", "evaluate", "get_task"):
        assert name in tools
    assert tools["report_infeasible"].input_schema["required"] == ["reason"]
    assert not tools["smarthome_0.control_device"].read_only and tools["evaluate"].read_only
    assert "evaluate" not in {t.name for t in build_tools(spaces, DEVICES)}  # only when asked for


@pytest.mark.parametrize("sep", [".", "__"])
def test_names_pass_the_sdks_validator(spaces: dict[str, list[dict[str, Any]]], sep: str) -> None:
    for tool in build_tools(spaces, DEVICES, sep=sep):
        result = validate_tool_name(tool.name)
        assert result.is_valid and not result.warnings, (tool.name, result.warnings)
        if tool.device is not None:
            assert tool.name.startswith(f"{tool.device}{sep}")
    if sep == "__":
        assert all("." not in t.name for t in build_tools(spaces, DEVICES, sep=sep))


def test_a_per_device_catalog_has_bare_names_and_only_that_device(
    spaces: dict[str, list[dict[str, Any]]],
) -> None:
    tools = {t.name: t for t in build_tools(spaces, DEVICES, only_device="smarthome_0")}
    assert "control_device" in tools and "observe" in tools and "finish" in tools
    assert {t.device for t in tools.values()} == {"smarthome_0", None}
    assert not any(name.startswith("linux_0") for name in tools)


def test_bad_requests_are_clear_errors(spaces: dict[str, list[dict[str, Any]]]) -> None:
    with pytest.raises(ToolCatalogError, match="no device 'phone'"):
        build_tools(spaces, DEVICES, only_device="phone")
    with pytest.raises(ToolCatalogError, match="separator"):
        build_tools(spaces, DEVICES, sep="/")
    clash = {"smarthome_0": [{"name": "finish", "doc": "", "args_schema": {}}], "*": spaces["*"]}
    with pytest.raises(ToolCatalogError, match="'finish'"):
        build_tools(clash, [("smarthome_0", "smarthome")], only_device="smarthome_0")


def test_every_schema_is_valid_and_accepts_the_reference_solutions() -> None:
    """What MCP clients are given must accept what the oracle sends, for every smoke task."""
    from jsonschema import Draft202012Validator

    checked: set[str] = set()
    for task in load_suite("smoke"):
        kinds = {d.id: d.kind for d in task.devices}
        spaces = CrossDeviceEnv(task).action_spaces()  # each device's space for its profile (GUI or api)
        tools = {t.name: t for t in build_tools(spaces, list(kinds.items()))}
        for tool in tools.values():
            if tool.name not in checked:
                Draft202012Validator.check_schema(tool.input_schema)
                checked.add(tool.name)
        for step in task.solution:
            name = step.action if step.device is None else f"{step.device}.{step.action}"
            errors = list(Draft202012Validator(tools[name].input_schema).iter_errors(step.args))
            assert not errors, (task.id, name, [e.message for e in errors])
