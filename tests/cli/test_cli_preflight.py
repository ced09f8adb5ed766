"""A run refuses, before it starts, the tasks whose devices cannot start on this machine.

Why: with bubblewrap missing a GUI task used to run, fail every desktop step and count as the
agent's failure. Each device kind answers its own preflight (``KindTraits.unavailable``); the
run refuses unless ``--skip-unavailable`` drops those tasks and says how many.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main

GUI_TASK = "dw-grocery-list-sync-0026"
"""A test task with a GUI desktop (bubblewrap needed)."""
PHONE_TASK = "dw-dehumidify-if-damp-0001"
"""A test task of phones and a smart home only."""


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICESWORLD_BWRAP", "/nonexistent")
    monkeypatch.delenv("DEVICESWORLD_REQUIRE_SYSTEM", raising=False)


def _run(out: Path, *extra: str) -> tuple[int, str]:
    args = ["run", "--suite", "test", "--task-ids", f"{GUI_TASK},{PHONE_TASK}", "--agent", "noop"]
    result = CliRunner().invoke(main, [*args, "--out", str(out), *extra])
    return result.exit_code, result.output


@pytest.mark.usefixtures("no_bwrap")
def test_a_run_without_bubblewrap_is_refused_before_it_starts(tmp_path: Path) -> None:
    code, output = _run(tmp_path / "run")
    assert code != 0
    assert "refusing to run: 1 task(s) need what this machine lacks" in output
    assert "DEVICESWORLD_BWRAP=/nonexistent" in output and "--skip-unavailable" in output
    assert not (tmp_path / "run").exists()


@pytest.mark.usefixtures("no_bwrap")
def test_skip_unavailable_drops_those_tasks_and_says_how_many(tmp_path: Path) -> None:
    code, output = _run(tmp_path / "run", "--skip-unavailable")
    assert code == 0, output
    assert "skipped 1 of 2 task(s) in all" in output
    ran = [
        json.loads(line)["task_id"] for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    ]
    assert ran == [PHONE_TASK]
    config = json.loads((tmp_path / "run" / "run.json").read_text())["config"]
    assert config["skipped_unavailable"] == [GUI_TASK]


def test_the_desktop_preflight_honours_devicesworld_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    from devicesworld.devices.desktop.client import missing_stack

    monkeypatch.setenv("DEVICESWORLD_BWRAP", "/nonexistent")
    assert missing_stack() == "bubblewrap (DEVICESWORLD_BWRAP=/nonexistent) is not found"
