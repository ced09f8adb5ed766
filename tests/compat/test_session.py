from __future__ import annotations

import json
from pathlib import Path

import pytest

from devicesworld.analysis.loading import read_results
from devicesworld.compat.session import RecordedSession, SessionError
from devicesworld.spec import Task
from devicesworld.spec.records import StepRecord
from tests.toykind import toy_task


def _task(**overrides: object) -> Task:
    return Task.model_validate(toy_task(**overrides))


def test_steps_are_counted_and_recorded_like_the_runner(tmp_path: Path) -> None:
    task = _task()
    with RecordedSession(task, tmp_path, agent="facade") as session:
        assert session.reset() == {"toy_0": {"kind": "toy", "screen": "a toy"}}
        session.step({"device": "toy_0", "action": "press"}, notes={"via": "test"})
        bad = session.step({"device": "toy_0", "action": "fly"})
        assert not bad.result.ok and bad.step == 2
        session.step({"device": "toy_0", "action": "press"})
        session.step({"action": "finish"})
        assert session.steps == 4 and session.done
    result = session.close()
    assert result.success and result.steps == 4 and result.termination == "finished"
    assert result.agent == "facade"
    lines = (tmp_path / "episodes" / task.id / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    records = [StepRecord.model_validate_json(line) for line in lines]
    assert [r.step for r in records] == [1, 2, 3, 4]
    assert records[0].agent_notes == {"via": "test"}
    assert records[1].error_code == "UNKNOWN_ACTION"
    results, warnings = read_results(tmp_path / "results.jsonl")
    assert not warnings and [r.task_id for r in results] == [task.id]
    manifest = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert manifest["config"]["agent"] == "facade" and manifest["status"] == "complete"


def test_close_of_an_unfinished_session_scores_it_and_is_idempotent(tmp_path: Path) -> None:
    session = RecordedSession(_task(), tmp_path)
    session.reset()
    session.step({"device": "toy_0", "action": "press"})
    first = session.close()
    assert first.termination == "error" and not first.success
    assert first.error == "the session ended before the agent finished"
    assert session.close() is first
    with pytest.raises(SessionError, match="closed"):
        session.step({"device": "toy_0", "action": "press"})
    assert len((tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()) == 1


def test_budget_is_enforced_through_the_session() -> None:
    session = RecordedSession(_task(limits={"max_steps": 2}), None)
    session.reset()
    session.step({"device": "toy_0", "action": "read"})
    assert session.step({"device": "toy_0", "action": "read"}).done
    assert session.close().termination == "budget_exhausted"


def test_a_task_already_recorded_in_the_run_directory_is_refused(tmp_path: Path) -> None:
    with RecordedSession(_task(), tmp_path) as session:
        session.reset()
    again = RecordedSession(_task(), tmp_path)
    with pytest.raises(SessionError, match="already holds a result"):
        again.reset()
    with pytest.raises(SessionError, match="never started"):
        again.close()
