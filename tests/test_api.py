"""The front door: ``devicesworld.load_tasks``, ``make`` and ``run``, imported lazily."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import devicesworld
from tests.toykind import toy_task


class PressTwice:
    """Presses twice, then finishes (an agent object defined here, not importable by name)."""

    def start(self, info: devicesworld.EpisodeInfo) -> None:
        self.left = 2

    def act(self, observation: Any, feedback: Any) -> devicesworld.Decision:
        self.left -= 1
        step = (
            devicesworld.Step(device="toy_0", action="press")
            if self.left >= 0
            else devicesworld.Step(action="finish")
        )
        return devicesworld.Decision(action=step)


def _toy_tasks(n: int) -> list[devicesworld.Task]:
    return [devicesworld.Task.model_validate(toy_task(id=f"t{i}")) for i in range(n)]


def test_importing_devicesworld_loads_nothing_else() -> None:
    code = "import devicesworld, sys; print(sorted(m for m in sys.modules if m.startswith(('devicesworld', 'pydantic'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['devicesworld']"


def test_load_tasks_by_suite_ids_filter_and_file(tmp_path: Path) -> None:
    easy_home = devicesworld.load_tasks("smoke", filter={"kind": "smarthome", "difficulty": "easy"}, limit=3)
    assert len(easy_home) == 3
    assert all(t.metadata.difficulty == "easy" and "smarthome" in t.metadata.device_kinds for t in easy_home)
    picked = devicesworld.load_tasks("smoke", ids=["smoke-sh-002", "smoke-sh-001"])
    assert [t.id for t in picked] == ["smoke-sh-002", "smoke-sh-001"]
    path = tmp_path / "one.json"
    path.write_text(json.dumps(toy_task(id="mine")))
    assert [t.id for t in devicesworld.load_tasks(path)] == ["mine"]
    with pytest.raises(FileNotFoundError, match="neither a suite"):
        devicesworld.load_tasks("smoek")


def test_make_gives_the_environment_of_a_task_or_an_id() -> None:
    with devicesworld.make("smoke-sh-001") as env:
        env.reset()
        outcome = env.step(
            {
                "device": "smarthome_0",
                "action": "control_device",
                "args": {"device_id": "hall_light", "command": "turn_on"},
            }
        )
        assert outcome.result.ok and env.evaluate().success


def test_run_takes_an_agent_object_and_returns_results(tmp_path: Path) -> None:
    outcome = devicesworld.run(_toy_tasks(3), agent=PressTwice(), out=tmp_path / "r")
    assert [r.success for r in outcome.results] == [True, True, True] and outcome.success_rate == 1.0
    assert (tmp_path / "r" / "results.jsonl").read_text().count("\n") == 3
    assert json.loads((tmp_path / "r" / "run.json").read_text())["config"]["agent"] == "python:PressTwice"


def test_run_takes_names_and_refuses_script_objects_on_workers(tmp_path: Path) -> None:
    assert devicesworld.run(_toy_tasks(2), agent="oracle", out=tmp_path / "o").success_rate == 1.0
    with pytest.raises(ValueError, match="workers=1"):
        devicesworld.run(_toy_tasks(2), agent=PressTwice(), out=tmp_path / "w", workers=2)
    from devicesworld.agents.registry import AgentLoadError

    with pytest.raises(AgentLoadError, match="is not an agent"):
        devicesworld.run(_toy_tasks(1), agent="os:getcwd", out=tmp_path / "bad")


def test_run_stops_early_on_consecutive_errors(tmp_path: Path) -> None:
    class Crashes:
        def start(self, info: Any) -> None:
            pass

        def act(self, observation: Any, feedback: Any) -> Any:
            raise RuntimeError("no")

    outcome = devicesworld.run(_toy_tasks(5), agent=Crashes(), out=tmp_path / "r", max_consecutive_errors=2)
    assert len(outcome.results) == 2 and outcome.all_errored
    assert outcome.stopped is not None and "RuntimeError: no" in outcome.stopped
