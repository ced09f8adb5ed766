"""Desktop profiles (issue #34): GUI-only ``gui``, ``hybrid`` with a shell, the version-1 reading."""

from __future__ import annotations

from typing import Any

from devicesworld.devices.base import get_kind
from devicesworld.devices.desktop.actions import GUI_ACTION_NAMES
from devicesworld.spec.models import Task
from devicesworld.tasks.profiles import declare_profiles, desktop_profile
from devicesworld.tasks.semantic import semantic_problems


def _task(version: int, devices: list[dict[str, Any]], solution: list[dict[str, Any]]) -> Task:
    return Task.model_validate(
        {
            "schema_version": version,
            "id": "profile-probe",
            "instruction": "Tidy the desktop.",
            "devices": devices,
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "solution": solution,
        }
    )


LINUX_GUI = {"id": "linux_0", "kind": "linux", "profile": {"desktop": "gui"}}
WINDOWS = {"id": "windows_0", "kind": "windows"}
SHELL = {"device": "linux_0", "action": "run_command", "args": {"command": "ls"}}
KEYS = {"device": "linux_0", "action": "hotkey", "args": {"keys": ["ctrl", "s"]}}


def test_a_gui_only_linux_desktop_publishes_no_shell_action() -> None:
    kind = get_kind("linux")
    assert kind is not None
    space = kind.actions_for(kind.profile_of({"desktop": "gui"}, 2))
    assert tuple(space) == GUI_ACTION_NAMES
    assert "run_command" not in space and "launch_app" in space
    assert "run_command" in kind.actions_for({"desktop": "hybrid"})
    assert "read_document" in kind.actions_for({"desktop": "api"})


def test_a_windows_device_publishes_no_shell_action() -> None:
    kind = get_kind("windows")
    assert kind is not None
    assert "run_command" not in kind.actions_for(kind.profile_of({}, 2))
    assert "run_command" not in kind.actions_for({"desktop": "gui"})
    assert "run_command" in kind.actions_for({"desktop": "hybrid"})


def test_a_version_1_task_reads_gui_as_hybrid_so_shipped_tasks_keep_their_meaning() -> None:
    old = _task(1, [LINUX_GUI, WINDOWS], [SHELL])
    assert semantic_problems(old) == []
    assert desktop_profile(old) == "hybrid"


def test_a_version_2_gui_task_cannot_use_the_shell_in_its_solution() -> None:
    new = _task(2, [LINUX_GUI], [SHELL])
    problems = semantic_problems(new)
    assert problems and problems[0][0] == "solution.0.action" and "run_command" in problems[0][1]
    assert semantic_problems(_task(2, [LINUX_GUI], [KEYS])) == []
    assert desktop_profile(_task(2, [LINUX_GUI], [KEYS])) == "gui"


def test_declare_profiles_states_the_narrowest_profile_the_solution_fits() -> None:
    gui = declare_profiles(_task(1, [LINUX_GUI, WINDOWS], [KEYS]))
    assert gui.schema_version == 2
    assert [d.profile for d in gui.devices] == [{"desktop": "gui"}, {"desktop": "gui"}]
    assert semantic_problems(gui) == [] and desktop_profile(gui) == "gui"
    hybrid = declare_profiles(_task(1, [LINUX_GUI, WINDOWS], [SHELL]))
    assert [d.profile for d in hybrid.devices] == [{"desktop": "hybrid"}, {"desktop": "gui"}]
    assert semantic_problems(hybrid) == [] and desktop_profile(hybrid) == "hybrid"
    assert declare_profiles(hybrid) is hybrid


def test_tasks_without_a_desktop_are_reported_as_none_and_api_desktops_as_api() -> None:
    phone = {"id": "android_0", "kind": "android"}
    assert desktop_profile(_task(2, [phone], [])) == "none"
    api = {"id": "linux_0", "kind": "linux", "profile": {}}
    assert desktop_profile(_task(2, [api], [])) == "api"
    assert declare_profiles(_task(1, [api], [])).devices[0].profile == {}
