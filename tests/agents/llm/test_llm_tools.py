from __future__ import annotations

import json
import re
from typing import Any

import pytest

from devicesworld.agents.llm import tools as tools_module
from devicesworld.agents.llm.tools import ReplyError, ToolBook, tool_name
from devicesworld.spec.models import Step
from tests.agents.llm.llm_helpers import episode_info, smoke_task


def _refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "$ref"] + [r for v in value.values() for r in _refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in _refs(v)]
    return []


def test_one_tool_per_kind_plus_global_actions() -> None:
    """#34: one tool per device kind (device and action are its arguments), not one per (kind, action)."""
    info = episode_info(smoke_task())
    book = ToolBook.build(info)
    names = [t["function"]["name"] for t in book.tools]
    assert names == ["smarthome", "finish", "report_infeasible", "answer"]
    assert book.is_env_tool("answer") and book.is_env_tool("finish") and book.is_env_tool("smarthome")
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", n) for n in names)
    params = book.tools[0]["function"]["parameters"]
    assert params["properties"]["device"]["enum"] == ["smarthome_0"]
    # the action is a name the catalog states (once, in the system prompt), not an enum repeating it
    assert params["properties"]["action"] == {"type": "string"}
    actions = book.targets["smarthome"].actions
    assert "list_rooms" in actions and "create_schedule" in actions
    assert list(actions) == [a["name"] for a in info.action_spaces["smarthome_0"]]
    assert all(f"- {a}(" in book.catalog_text() for a in actions)
    assert params["required"] == ["device", "action"] and params["properties"]["args"] == {"type": "object"}
    assert "description" not in book.tools[0]["function"]  # the catalog says what each action does
    # the global tools carry no words the catalog already states
    report = next(t for t in book.tools if t["function"]["name"] == "report_infeasible")
    assert "description" not in json.dumps(report["function"]["parameters"])


def test_a_kind_tool_call_becomes_a_step_and_the_old_names_still_act() -> None:
    book = ToolBook.build(episode_info(smoke_task()))
    step = book.to_step(
        "smarthome", {"device": "smarthome_0", "action": "get_device_state", "args": {"device_id": "x"}}
    )
    assert step == Step(device="smarthome_0", action="get_device_state", args={"device_id": "x"})
    assert book.to_step("smarthome", {"action": "get_device_state", "device_id": "x"}) == step  # flattened
    with pytest.raises(ReplyError, match="needs an 'action' argument, one of list_rooms"):
        book.to_step("smarthome", {"device": "smarthome_0", "action": "fly"})
    # <kind>__<action>, the tool names before #34, are understood but not offered
    assert "smarthome__get_device_state" not in [t["function"]["name"] for t in book.tools]
    assert (
        book.to_step("smarthome__get_device_state", {"device": "smarthome_0", "args": {"device_id": "x"}})
        == step
    )
    with pytest.raises(ReplyError, match=r"unknown tool 'phone'; call one of: smarthome, finish"):
        book.to_step("phone", {})


def test_definitions_are_hoisted_so_references_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    """With full tool schemas (``THIN_TOOLS`` off) a tool's references resolve in its own ``$defs``."""
    monkeypatch.setattr(tools_module, "THIN_TOOLS", False)
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
    home = text.split("# smarthome_0\n", 1)[1]
    assert home.startswith("- list_rooms(): List the rooms of the home.")
    assert "- finish(): " in text.split("# global (no device)\n", 1)[1]
    line = next(x for x in text.splitlines() if x.startswith("- get_device_state("))
    assert line.startswith('- get_device_state(device_id: string "A device id')  # required: no "?"


def test_tool_names_are_sanitised() -> None:
    assert tool_name("my.kind", "do it") == "my_kind__do_it"
    assert len(tool_name("k" * 40, "a" * 40)) == 64


def _two_phone_info() -> Any:
    from devicesworld.agents.base import DeviceInfo

    info = episode_info(smoke_task())
    phone = [
        {
            "name": "click",
            "doc": "Tap.",
            "args_schema": {
                "title": "Target",
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "index": {
                        "anyOf": [{"type": "integer"}, {"type": "null"}],
                        "default": None,
                        "title": "I",
                    },
                    "title": {"type": "string", "title": "Title"},
                },
            },
        },
        {"name": "tap_again", "doc": "Tap twice.", "args_schema": {"type": "object", "properties": {}}},
    ]
    spaces = {"phone_0": phone, "phone_1": phone, "*": info.action_spaces["*"]}
    devices = [DeviceInfo(id="phone_0", kind="phone"), DeviceInfo(id="phone_1", kind="phone")]
    return info.model_copy(update={"devices": devices, "action_spaces": spaces})


def test_a_device_group_shares_one_catalog_line_and_schemas_are_lean(monkeypatch: pytest.MonkeyPatch) -> None:
    thin = next(t for t in ToolBook.build(_two_phone_info()).tools if t["function"]["name"] == "phone")
    params = thin["function"]["parameters"]["properties"]
    assert params["args"] == {"type": "object"}  # the catalog has it
    assert params["device"]["enum"] == ["phone_0", "phone_1"] and params["action"] == {"type": "string"}
    assert ToolBook.build(_two_phone_info()).targets["phone"].actions == ("click", "tap_again")
    monkeypatch.setattr(tools_module, "THIN_TOOLS", False)
    book = ToolBook.build(_two_phone_info())
    text = book.catalog_text()
    assert text.count("- click(") == 1 and "# phone_0, phone_1\n- click(" in text
    # no titles, no null alternative or default, but a property named "title" stays
    assert "- click(index?: int, title?: string): Tap." in text
    assert "- tap_again(): Tap twice." in text
    tool = next(t for t in book.tools if t["function"]["name"] == "phone__click")
    assert tool["function"]["parameters"]["properties"]["args"] == {
        "type": "object",
        "properties": {"index": {"type": "integer"}, "title": {"type": "string"}},
    }


def test_text_catalog_writes_each_schema_and_definition_once() -> None:
    from devicesworld.agents.llm.tools import lean_schema

    info = episode_info(smoke_task())
    book = ToolBook.build(info)
    text = book.catalog_text()
    assert text.count("Definitions:") <= 1
    actions, _, definitions = text.partition("Definitions:")
    # an argument list repeated by a later action is named, not repeated
    shown = [x.split("(", 1)[1].rsplit("):", 1)[0] for x in actions.splitlines() if x.startswith("- ")]
    written = [a for a in shown if a and not a.startswith("as ")]
    assert len(written) == len(set(written))
    # every bare name an argument uses is a definition the catalog writes
    names = {x[2:].split(":", 1)[0] for x in definitions.splitlines() if x.startswith("- ")}
    for used in re.findall(r"\?: ([A-Za-z_][A-Za-z_0-9]*)(?=[,)])", actions):
        assert used in names or used in {"string", "int", "number", "bool", "object", "any"}, used
    assert lean_schema({"anyOf": [{"type": "string"}, {"type": "null"}], "title": "T"}) == {"type": "string"}


def test_catalog_lines_carry_every_schema_fact() -> None:
    from devicesworld.agents.llm.catalog import arg_text, args_text

    schema = {
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1, "description": "How many."},
            "mode": {"enum": ["a", "b"]},
            "xs": {"type": "array", "items": {"type": "number"}, "minItems": 1, "maxItems": 6},
            "at": {"$ref": "#/$defs/Point"},
        },
        "required": ["mode"],
    }
    assert (
        args_text(schema)
        == 'n?: int≥1≤3 = 1 "How many.", mode: "a"|"b", xs?: number[](1-6 items), at?: Point'
    )
    assert arg_text({"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/S"}]}) == "int|S"
