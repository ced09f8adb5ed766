"""A task that cannot be serialised for a worker is an error result; a crashed run is never "complete"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.runner.backends.scheduler import Scheduler
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import DeviceOp, Task
from tests.toykind import toy_task


def _nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"x": value}
    return value


def _unsendable(task_id: str) -> Task:
    """Nested past pydantic's serialisation depth; only code that skips validation can build it."""
    task = Task.model_validate(toy_task(id=task_id))
    task.setup.append(DeviceOp.model_construct(device="toy_0", op="set", args={"deep": _nested(300)}))
    return task


def test_an_unsendable_task_is_an_error_result_and_the_run_goes_on(tmp_path: Path) -> None:
    # One worker: the first job cannot be sent, the next one's hint cannot either (same scheduler for all backends).
    tasks = [_unsendable("bad-1"), Task.model_validate(toy_task(id="good")), _unsendable("bad-2")]
    out = tmp_path / "run"
    outcome = execute_run(tasks, RunConfig(agent="oracle", source="test"), out)
    by_id = {r.task_id: r for r in outcome.results}
    assert by_id["good"].success and by_id["good"].termination == "finished"
    for bad in ("bad-1", "bad-2"):
        assert by_id[bad].termination == "error"
        assert "cannot be sent to a worker" in (by_id[bad].error or "")
    assert len((out / "results.jsonl").read_text().splitlines()) == 3
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_a_run_that_crashes_is_marked_failed_not_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(self: object, jobs: object) -> None:
        raise RuntimeError("scheduler bug")

    monkeypatch.setattr(Scheduler, "run", crash)
    out = tmp_path / "run"
    with pytest.raises(RuntimeError, match="scheduler bug"):
        execute_run([Task.model_validate(toy_task())], RunConfig(agent="oracle", source="test"), out)
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "failed" and manifest["error"] == "RuntimeError: scheduler bug"
    monkeypatch.undo()
    execute_run([Task.model_validate(toy_task())], RunConfig(agent="oracle", source="test", resume=True), out)
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "complete" and "error" not in manifest
    assert manifest["attempts"][0]["error"] == "RuntimeError: scheduler bug"
