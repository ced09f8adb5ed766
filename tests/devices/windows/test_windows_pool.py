"""Pooled Wine desktops: an adopted spare is the device a cold start makes (N: drive included), and runs give the same results."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.desktop.pool import ENV_SIZE
from devicesworld.devices.windows import pool
from devicesworld.devices.windows.device import WindowsDevice
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from tests.devices.windows.windows_harness import require_windows_stack

DOC = r"C:\Users\user\Documents\shopping.txt"


@pytest.fixture
def pool_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[pool.SpareKey]:
    require_windows_stack()
    key = pool.spare_key("windows-0", 1280, 800)
    if key is None:
        pytest.skip("Wine desktops are pooled only under a root harness with nsenter")
    monkeypatch.setenv(ENV_SIZE, "1")
    yield key
    pool.POOL.close_all()


def _open(root: Path) -> WindowsDevice:
    kind = get_kind("windows")
    assert kind is not None
    root.mkdir(parents=True, exist_ok=True)
    for folder in (root, *root.parents):
        if folder.stat().st_uid == os.geteuid():
            folder.chmod(folder.stat().st_mode | 0o001)
    ctx = DeviceContext(task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "windows_0")
    dev = kind.factory("windows_0", {"desktop": "hybrid"}, ctx)
    assert isinstance(dev, WindowsDevice)
    return dev


def _use(dev: WindowsDevice) -> tuple[list[str], str, bool, list[str]]:
    kind = get_kind("windows")
    assert kind is not None
    (dev.drive.root / "shared.txt").write_text("on the drive\r\n")
    dev.setup("write_text", kind.setup_ops["write_text"].parse_args({"path": DOC, "content": "eggs\n"}))
    r = dev.act(
        "run_command",
        kind.actions_for({"desktop": "hybrid"})["run_command"].parse_args(
            {"command": r"type N:\shared.txt & copy Documents\shopping.txt N:\ >nul"}
        ),
    )
    assert r.ok, r.message
    top = sorted(p.name for p in dev.home.iterdir())
    files = dev.get("files", kind.getters["files"].parse_args({}))
    assert isinstance(files, list)
    return top, r.data["stdout"], (dev.drive.root / "shopping.txt").is_file(), sorted(files)


@pytest.mark.xfail(
    reason="intermittent: once in three loaded make-test runs, cmd's `copy` to N: in the pooled Wine "
    "desktop did not return within run_command's 30 s (under investigation; see docs/windows.md)",
    strict=False,
)
def test_a_pooled_wine_desktop_is_the_device_a_cold_start_makes(
    tmp_path: Path, pool_on: pool.SpareKey
) -> None:
    cold = _open(tmp_path / "a")
    try:
        assert cold.spare is None or pool.POOL.taken > 0
        cold_use = _use(cold)
    finally:
        cold.close()
    assert pool.POOL.wait_ready(pool_on, 300), pool.POOL.failure(pool_on)
    warm = _open(tmp_path / "b")
    try:
        assert warm.spare is not None
        folder = warm.spare.folder
        warm_use = _use(warm)
    finally:
        warm.close()
    assert warm_use == cold_use
    assert cold_use[1] == "on the drive\r\n" and cold_use[2]  # N: is the task's drive, both ways
    assert not folder.exists() and not (tmp_path / "b" / "windows_0").exists()


def _task(task_id: str, steps: list[dict[str, Any]], check: dict[str, Any]) -> Task:
    return Task.model_validate(
        {
            "id": task_id,
            "instruction": "x",
            "devices": [{"id": "windows_0", "kind": "windows", "profile": {}}],
            "setup": [
                {"device": "windows_0", "op": "write_text", "args": {"path": DOC, "content": "eggs\nmilk\n"}}
            ],
            "solution": [
                *({"device": "windows_0", **s} for s in steps),
                {"device": None, "action": "finish"},
            ],
            "evaluation": {"conditions": [{"id": "c", "device": "windows_0", **check}]},
        }
    )


def _rows(tasks: list[Task], out: Path, size: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setenv(ENV_SIZE, size)
    outcome = execute_run(tasks, RunConfig(agent="oracle", source="t", workers=1), out)
    return [
        (r.task_id, r.success, r.steps, r.error, [(c.id, c.passed, c.detail) for c in r.conditions])
        for r in sorted(outcome.results, key=lambda r: r.task_id)
    ]


def test_a_windows_run_gives_the_same_results_with_and_without_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool_on: pool.SpareKey
) -> None:
    tasks = [
        _task(
            "np",
            [
                {"action": "launch_app", "args": {"app": "notepad", "path": DOC}},
                {"action": "hotkey", "args": {"keys": ["ctrl", "end"]}},
                {"action": "type_text", "args": {"text": "butter\n"}},
                {"action": "hotkey", "args": {"keys": ["ctrl", "s"]}},
            ],
            {"check": "file_text", "args": {"path": DOC, "contains": ["eggs", "milk", "butter"]}},
        ),
        _task(
            "cmd",
            [{"action": "run_command", "args": {"command": r"copy Documents\shopping.txt N:\ >nul"}}],
            {"check": "file_exists", "args": {"path": r"N:\shopping.txt"}},
        ),
    ]
    cold = _rows(tasks, tmp_path / "cold", "0", monkeypatch)
    taken = pool.POOL.taken
    warm = _rows(tasks, tmp_path / "warm", "1", monkeypatch)
    assert pool.POOL.taken - taken >= 1
    assert warm == cold
    assert all(row[1] for row in warm), warm
