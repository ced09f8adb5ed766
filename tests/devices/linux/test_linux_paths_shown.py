"""Error messages name files as the agent sees them, never by their host path."""

from __future__ import annotations

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Task


def _task() -> Task:
    return Task.model_validate(
        {
            "id": "paths",
            "instruction": "x",
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
        }
    )


def test_missing_file_and_folder_errors_use_sandbox_paths() -> None:
    with CrossDeviceEnv(_task()) as env:
        env.reset()
        missing = env.step({"device": "linux_0", "action": "read_file", "args": {"path": "notes/todo.txt"}})
        assert missing.result.error_code == "NOT_FOUND"
        assert missing.result.message == "/home/user/notes/todo.txt: no such file or folder"
        folder = env.step(
            {"device": "linux_0", "action": "write_file", "args": {"path": "/home/user", "content": "x"}}
        )
        assert not folder.result.ok
        assert "/tmp/" not in folder.result.message and "dw-" not in folder.result.message
