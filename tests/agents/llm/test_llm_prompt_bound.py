"""Each JSON Schema appears once per prompt, in both prompt forms, and a four-device task's whole
first request stays under 12,000 characters without images (issue #34, item 5).

Why: with function calling every tool carried its own schema, ``$defs`` and descriptions, so the
action part of a four-device prompt was ~39K characters (system ~1.5K + tools ~37.4K) for the same
facts the text catalog states in ~8K. Now both forms carry the catalog once and the tools are thin.
Measured on the 17 four-device tasks of ``test`` (declared profiles): system 9,535 + tools 14,252
with a thin tool per (kind, action), 47 tools; system 9,626 + tools 2,215 with one tool per kind
(session 44); system ~8,500 + tools 1,138 with terser exact descriptions, no action enum in the
tools and no tool descriptions (the catalog names and describes each action once; session 45).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devicesworld.agents.base import DeviceInfo, EpisodeInfo
from devicesworld.agents.llm.direct import SYSTEM
from devicesworld.agents.llm.observe import OBSERVATION_CHARS
from devicesworld.agents.llm.prompts import (
    FEEDBACK_CHARS,
    HISTORY_CHARS,
    SAME_AS,
    SAME_BUT,
    action_format,
    action_rules,
    devices_line,
    format_observations,
)
from devicesworld.agents.llm.tools import ToolBook
from devicesworld.devices.base import get_kind
from devicesworld.devices.listing import READ_CHUNK
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.models import Task
from devicesworld.tasks.profiles import declare_profiles
from devicesworld.tasks.semantic import run_profiles
from devicesworld.tasks.suites import load_suite
from tests.devices.desktop.desktop_harness import require_gui_stack

ROOT = Path(__file__).resolve().parents[3]

TOOLS_PROMPT_BOUND = 10_000
"""System prompt plus tools JSON of a four-device function-calling prompt, before the user message
(instruction and observations). 23.8K with a tool per (kind, action); 11.8K with a tool per kind;
9.6K since session 45."""
WHOLE_REQUEST_BOUND = 12_000
"""The whole first request of a four-device task without images, in either protocol: system + user
message (+ the tools' JSON with function calling). Issue #34 item 5."""
REAL_TASK = "dw-long-boiler-service-0000"
"""A long-tier task of ``full`` on two phones, a GUI-only Linux desktop (panel, icons) and a home."""


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
    """Each kind tool's actions (the ``action`` names its call takes, as the catalog states them)."""
    out: dict[str, list[str]] = {}
    for tool in book.tools:
        name = tool["function"]["name"]
        if "action" in tool["function"]["parameters"].get("properties", {}):
            out[name] = list(book.targets[name].actions)
    return out


Request = tuple[list[dict[str, Any]], list[dict[str, Any]] | None]


@pytest.fixture(scope="module")
def real_requests() -> Iterator[dict[str, Request]]:
    """The first request of :data:`REAL_TASK`, set up for real, in both protocols (no images)."""
    require_gui_stack()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from llm_prompt_size import first_requests  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    task = next(t for t in load_suite("full") if t.id == REAL_TASK)
    assert len(task.devices) == 4 and {d.kind for d in task.devices} == {"android", "linux", "smarthome"}
    requests: dict[str, Request] = first_requests(task)
    yield requests


def _text_of(request: Request) -> tuple[str, str, str]:
    messages, tools = request
    user = messages[-1]["content"]
    assert isinstance(user, str)  # no images
    return messages[0]["content"], user, json.dumps(tools) if tools else ""


@pytest.mark.parametrize("form", ["text", "tools"])
def test_a_real_four_device_first_request_stays_under_12k_and_states_everything_once(
    real_requests: dict[str, Request], form: str
) -> None:
    """The whole request (system, user message with the real observations, tools) is under the bound,
    and it still states every action and argument of every device, once, and every limit."""
    system, user, tools = _text_of(real_requests[form])
    assert len(system) + len(user) + len(tools) < WHOLE_REQUEST_BOUND, (len(system), len(user), len(tools))
    assert (form == "tools") == bool(tools)
    task = next(t for t in load_suite("full") if t.id == REAL_TASK)
    book = ToolBook.build(_info(declare_profiles(task)))
    catalog = book.catalog_text()
    assert system.count(catalog) == 1
    for group, action, doc, schema in book.catalog:
        heading = f"# {group.replace(',', ', ')}\n" if group else "# global (no device)\n"
        section = catalog.split(heading, 1)[1].split("\n# ", 1)[0]
        line = next(x for x in section.splitlines() if x.startswith((f"- {action}(", f"- {action}:")))
        if ": as for " not in line:
            assert doc in line and section.count(f"- {action}(") == 1, line
        for arg in (schema.get("properties") or {}) if "(as " not in line and ": as for" not in line else ():
            assert f"{arg}:" in line or f"{arg}?:" in line, (action, arg, line)
        if tools:
            assert doc not in tools  # the tools repeat no word of the catalog
    for figure in (OBSERVATION_CHARS, FEEDBACK_CHARS, HISTORY_CHARS, READ_CHUNK):
        assert f"{figure:,}" in system
    assert user.count(SAME_AS.format(device="android_0")) == 1  # both phones start on the launcher


def test_a_device_whose_text_repeats_an_earlier_ones_says_so_or_gives_the_lines_that_differ() -> None:
    """Two phones on the same screen: the second says it is the first's, character for character; a
    third whose clock reads differently gives only that line; a fourth on another screen is whole."""
    apps = "".join(f"\n[{i}] TextView 'App {i}'" for i in range(2, 9))
    view = {"screen_text": "Launcher · 09:00\n[0] TextView '09:00'\n[1] TextView 'Clock'" + apps}
    twelve = {"screen_text": "Launcher · 9:00\n[0] TextView '9:00'\n[1] TextView 'Clock'" + apps}
    other = {"screen_text": "Settings\n[0] TextView 'Wi-Fi'"}
    text = format_observations({"phone_0": view, "phone_1": dict(view), "phone_2": twelve, "phone_3": other})
    assert text.count("'App 5'") == 1 and "'Wi-Fi'" in text
    assert f"## phone_1\n{SAME_AS.format(device='phone_0')}\n## phone_2" in text
    assert (
        f"## phone_2\n{SAME_BUT.format(device='phone_0')}\nLauncher · 9:00\n[0] TextView '9:00'\n## phone_3"
        in text
    )
    assert text.endswith("## phone_3\n{}\nscreen:\nSettings\n[0] TextView 'Wi-Fi'")
    # a differing line that names no element (not the header's) could not say where it goes: whole
    shown, hidden = (
        {"screen_text": view["screen_text"] + f"\n({note})"} for note in ("keys shown", "keys hidden")
    )
    text = format_observations({"phone_0": shown, "phone_1": hidden})
    assert text.endswith("## phone_1\n{}\nscreen:\n" + hidden["screen_text"]) and "but for these" not in text
