from __future__ import annotations

import json
import re
from typing import Any

import pytest

from devicesworld.agents.llm.tools import ReplyError, ToolBook, tool_name
from devicesworld.spec.models import Step
from tests.agents.llm.llm_helpers import episode_info, smoke_task


def _refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "$ref"] + [r for v in value.values() for r in _refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in _refs(v)]
    return []


def test_one_tool_per_kind_action_plus_global_actions() -> None:
    info = episode_info(smoke_task())
    book = ToolBook.build(info)
    names = [t["function"]["name"] for t in book.tools]
    assert "smarthome__list_rooms" in names and "smarthome__create_schedule" in names
    assert names[-3:] == ["finish", "report_infeasible", "answer"]
    assert book.is_env_tool("answer") and book.is_env_tool("finish")
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", n) for n in names)
    params = book.tools[0]["function"]["parameters"]
    assert params["properties"]["device"]["enum"] == ["smarthome_0"]
    assert params["required"] == ["device", "args"]


def test_definitions_are_hoisted_so_references_resolve() -> None:
    book = ToolBook.build(episode_info(smoke_task()))
    tool = next(t for t in book.tools if t["function"]["name"] == "smarthome__create_schedule")
    params = tool["function"]["parameters"]
    refs = _refs(params)
    assert refs, "create_schedule's schema uses $defs"
    for ref in refs:
        assert ref.startswith("#/$defs/") and ref.split("/")[-1] in params["$defs"]
    assert "$defs" not in params["properties"]["args"]


def test_tool_calls_become_steps() -> None:
    book = ToolBook.build(episode_info(smoke_task()))
    step = book.to_step("smarthome__get_device_state", {"device": "smarthome_0", "args": {"device_id": "x"}})
    assert step == Step(device="smarthome_0", action="get_device_state", args={"device_id": "x"})
    flat = book.to_step("smarthome__get_device_state", {"device_id": "x"})  # flattened, one device
    assert flat == step
    assert book.to_step("finish", {}) == Step(action="finish")
    assert book.to_step("report_infeasible", {"reason": "r"}).args == {"reason": "r"}
    with pytest.raises(ReplyError, match="unknown tool"):
        book.to_step("smarthome__fly", {})
    with pytest.raises(ReplyError, match="'args' must be an object"):
        book.to_step("smarthome__list_rooms", {"device": "smarthome_0", "args": [1]})


def test_tools_for_one_device_and_text_catalog() -> None:
    info = episode_info(smoke_task())
    book = ToolBook.build(info, devices=["smarthome_0"], include_global=False)
    assert "finish" not in book.targets
    text = ToolBook.build(info).catalog_text()
    assert "- smarthome_0 list_rooms: List the rooms of the home." in text
    assert "- (global) finish:" in text
    line = next(x for x in text.splitlines() if " get_device_state:" in x)
    schema = json.loads(line.split("| args: ", 1)[1])
    assert schema["required"] == ["device_id"] and "title" not in schema["properties"]["device_id"]


def test_tool_names_are_sanitised() -> None:
    assert tool_name("my.kind", "do it") == "my_kind__do_it"
    assert len(tool_name("k" * 40, "a" * 40)) == 64
