"""Each JSON Schema appears once per prompt, in both prompt forms (issue #34, item 5).

Why: with function calling every tool carried its own schema, ``$defs`` and descriptions, so the
action part of a four-device prompt was ~39K characters (system ~1.5K + tools ~37.4K) for the same
facts the text catalog states in ~8K. Now both forms carry the catalog once and the tools are thin.
Measured on the 17 four-device tasks of ``test`` (declared profiles): system 9,535 + tools 14,252.
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

TOOLS_PROMPT_BOUND = 26_000
"""System prompt plus tools JSON of a four-device function-calling prompt (the user message, with the
observations, comes on top, as in the text form's 12,288 bound)."""


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
                assert set(args) <= {"type", "required", "properties"} and not args.get("properties")


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
    names = {t["function"]["name"] for t in book.tools}
    assert "linux__launch_app" in names and "windows__launch_app" in names
    assert not any(n.endswith("__run_command") for n in names), sorted(names)
    assert "run_command(" not in book.catalog_text()
    hybrid = task.model_copy(
        update={
            "devices": [
                task.devices[0].model_copy(update={"profile": {"desktop": "hybrid"}}),
                task.devices[1],
            ]
        }
    )
    assert "linux__run_command" in {t["function"]["name"] for t in ToolBook.build(_info(hybrid)).tools}
