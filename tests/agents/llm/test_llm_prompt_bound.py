"""Each JSON Schema appears once per prompt, in both prompt forms (issue #34, item 5).

Why: with function calling every tool carried its own schema, ``$defs`` and descriptions, so the
action part of a four-device prompt was ~39K characters (system ~1.5K + tools ~37.4K) for the same
facts the text catalog states in ~8K. Now both forms carry the catalog once and the tools are thin.
Measured on the 17 four-device tasks of ``test`` (declared profiles): system 9,535 + tools 14,252
with a thin tool per (kind, action), 47 tools; system 9,626 + tools 2,215 with one tool per kind.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from devicesworld.agents.base import DeviceInfo, EpisodeInfo
from devicesworld.agents.llm.direct import SYSTEM
from devicesworld.agents.llm.prompts import action_format, action_rules, devices_line
from devicesworld.agents.llm.tools import ToolBook
from devicesworld.devices.base import get_kind
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.models import Task
from devicesworld.tasks.profiles import declare_profiles
from devicesworld.tasks.semantic import run_profiles
from devicesworld.tasks.suites import load_suite

TOOLS_PROMPT_BOUND = 12_000
"""System prompt plus tools JSON of a four-device function-calling prompt (the user message, with the
observations, comes on top, as in the text form's 12,288 bound). 23.8K with a tool per (kind, action);
11.8K with a tool per kind."""


def _info(task: Task) -> EpisodeInfo:
    """The episode info an agent gets, with each device's action space as the controller publishes it."""
    profiles = run_profiles(task.devices, task.schema_version)
    spaces: dict[str, list[dict[str, Any]]] = {}
    for dev in task.devices:
        kind = get_kind(dev.kind)
        assert kind is not None
        spaces[dev.id] = json.loads(json.dumps(kind.action_space(profiles[dev.id])))
    spaces["*"] = json.loads(json.dumps([spec.describe() for spec in GLOBAL_ACTIONS.values()]))
    return EpisodeInfo(
        task_id=task.id,
        instruction=task.instruction,
        devices=[DeviceInfo(id=d.id, kind=d.kind) for d in task.devices],
        action_spaces=spaces,
        max_steps=50,
    )


@pytest.fixture(scope="module")
def four_device_tasks() -> list[Task]:
    tasks = [declare_profiles(t) for t in load_suite("test") if len(t.devices) == 4]
    assert tasks
    return tasks


def _system(info: EpisodeInfo, book: ToolBook, use_tools: bool) -> str:
    return SYSTEM.format(
        devices=devices_line(info), rules=action_rules(), format=action_format(book, use_tools=use_tools)
    )


def test_a_function_calling_prompt_states_each_schema_once_and_stays_in_its_bound(
    four_device_tasks: list[Task],
) -> None:
    for task in four_device_tasks:
        info = _info(task)
        book = ToolBook.build(info)
        system = _system(info, book, use_tools=True)
        tools = json.dumps(book.tools)
        assert len(system) + len(tools) < TOOLS_PROMPT_BOUND, (task.id, len(system), len(tools))
        assert book.catalog_text() in system  # the catalog, once, in the function-calling form too
        assert system.count("Definitions:") <= 1
        for tool in book.tools:
            params = tool["function"]["parameters"]
            assert "$defs" not in params, tool["function"]["name"]
            args = params.get("properties", {}).get("args")
            if args is not None:  # a device tool: its argument schema is the catalog's, not repeated
                assert args == {"type": "object"}
        assert len(book.tools) == len({d.kind for d in task.devices}) + len(GLOBAL_ACTIONS)


def test_desktops_of_one_kind_with_different_profiles_keep_their_own_actions() -> None:
    """A GUI-only and a hybrid Linux desktop share the ``linux`` tool; only the hybrid one's catalog
    section lists ``run_command``, and the old name ``linux__run_command`` targets it alone."""
    task = Task.model_validate(
        {
            "schema_version": 2,
            "id": "two-profiles",
            "instruction": "Tidy both desktops.",
            "devices": [
                {"id": "linux_0", "kind": "linux", "profile": {"desktop": "gui"}},
                {"id": "linux_1", "kind": "linux", "profile": {"desktop": "hybrid"}},
            ],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
        }
    )
    book = ToolBook.build(_info(task))
    assert book.tools[0]["function"]["name"] == "linux"
    assert book.targets["linux__run_command"].devices == ("linux_1",)
    assert book.targets["linux__click"].devices == ("linux_0", "linux_1")
    text = book.catalog_text()
    assert "# linux_0\n" in text and "# linux_1\n" in text
    assert (
        "run_command(" in text.split("# linux_1\n", 1)[1]
        and "run_command(" not in text.split("# linux_1\n")[0]
    )


def test_the_text_prompt_carries_the_same_catalog(four_device_tasks: list[Task]) -> None:
    info = _info(four_device_tasks[0])
    book = ToolBook.build(info)
    text, tools = _system(info, book, use_tools=False), _system(info, book, use_tools=True)
    assert book.catalog_text() in text and book.catalog_text() in tools
    assert abs(len(text) - len(tools)) < 400


def test_gui_only_linux_and_windows_devices_publish_no_shell_action() -> None:
    """#34: a declared GUI-only Linux desktop and a Windows PC offer the agent no ``run_command``
    (neither as a tool nor in the catalog); a hybrid desktop does."""
    task = Task.model_validate(
        {
            "schema_version": 2,
            "id": "gui-only-probe",
            "instruction": "Tidy both desktops.",
            "devices": [
                {"id": "linux_0", "kind": "linux", "profile": {"desktop": "gui"}},
                {"id": "windows_0", "kind": "windows"},
            ],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
        }
    )
    book = ToolBook.build(_info(task))
    actions = _tool_actions(book)
    assert "launch_app" in actions["linux"] and "launch_app" in actions["windows"]
    assert not any("run_command" in a for a in actions.values()), actions
    assert "run_command(" not in book.catalog_text()
    hybrid = task.model_copy(
        update={
            "devices": [
                task.devices[0].model_copy(update={"profile": {"desktop": "hybrid"}}),
                task.devices[1],
            ]
        }
    )
    assert "run_command" in _tool_actions(ToolBook.build(_info(hybrid)))["linux"]


def _tool_actions(book: ToolBook) -> dict[str, list[str]]:
    """Each kind tool's actions (its ``action`` enum)."""
    out: dict[str, list[str]] = {}
    for tool in book.tools:
        action = tool["function"]["parameters"].get("properties", {}).get("action")
        if action is not None:
            out[tool["function"]["name"]] = action["enum"]
    return out
