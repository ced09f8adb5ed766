"""A Windows device publishes no shell action (#34): cmd is an app; ``hybrid`` and old tasks keep it."""

from __future__ import annotations

from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task


def _task(version: int, profile: dict[str, Any]) -> Task:
    return Task.model_validate(
        {
            "schema_version": version,
            "id": "win-profile",
            "instruction": "Open Notepad.",
            "devices": [{"id": "windows_0", "kind": "windows", "profile": profile}],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
        }
    )


def _space(task: Task) -> set[str]:
    return {a["name"] for a in CrossDeviceEnv(task).action_spaces()["windows_0"]}


def test_a_windows_device_publishes_no_shell_action() -> None:
    space = _space(_task(2, {}))
    assert "run_command" not in space
    assert {"click", "type_text", "hotkey", "launch_app"} <= space
    assert _space(_task(2, {"desktop": "gui"})) == space


def test_hybrid_and_version_1_tasks_keep_cmds_run_command() -> None:
    assert _space(_task(2, {"desktop": "hybrid"})) == _space(_task(2, {})) | {"run_command"}
    assert "run_command" in _space(_task(1, {}))  # shipped rows read as they were written
