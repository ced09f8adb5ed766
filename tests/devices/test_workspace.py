from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld.devices import workspace


def test_the_override_decides_where_work_folders_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICESWORLD_TMPDIR", str(tmp_path))
    workspace.work_root.cache_clear()
    try:
        made = workspace.make_workdir("dw-x-")
        assert made.parent == tmp_path and made.is_dir()
    finally:
        workspace.work_root.cache_clear()


def test_without_room_in_shared_memory_the_system_temp_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEVICESWORLD_TMPDIR", raising=False)
    monkeypatch.setattr(workspace, "MIN_FREE_BYTES", 1 << 62)
    workspace.work_root.cache_clear()
    try:
        assert workspace.work_root() is None
    finally:
        workspace.work_root.cache_clear()
