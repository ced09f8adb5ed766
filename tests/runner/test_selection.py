"""Runs record what they ran (selection, task and manifest hashes, trials); a resume must keep it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.runner.run import RunConfig, RunError, execute_run
from devicesworld.runner.selection import make_selection, resume_difference
from devicesworld.spec import Task
from devicesworld.tasks.manifest import load_manifest, task_hash
from tests.toykind import toy_task


def _tasks(n: int) -> list[Task]:
    return [Task.model_validate(toy_task(id=f"toy-{i}")) for i in range(n)]


def _config(agent: str = "oracle", seed: int = 0, **selection: object) -> RunConfig:
    chosen = make_selection(suite=None, tasks_path="toy.jsonl", agent=agent, seed=seed, **selection)  # type: ignore[arg-type]
    return RunConfig(agent=agent, source="test", seed=seed, selection=chosen, resume=True)


def test_results_carry_the_task_hash_and_run_json_the_selection(tmp_path: Path) -> None:
    tasks = _tasks(2)
    execute_run(tasks, _config(filters=["kind=toy"]), tmp_path)
    lines = [json.loads(s) for s in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [line["task_hash"] for line in lines] == [task_hash(t) for t in tasks]
    assert all(line["trial"] == 1 and line["manifest"] == "" for line in lines)
    selection = json.loads((tmp_path / "run.json").read_text())["config"]["selection"]
    assert selection["filters"] == ["kind=toy"] and selection["agent"] == "oracle" and selection["seed"] == 0


def test_a_frozen_suite_records_its_manifest_hash() -> None:
    selection = make_selection(suite="test", tasks_path=None, agent="noop")
    current = load_manifest("test")
    assert selection["manifest"] == current.label and current.label.startswith("test-v")
    assert selection["manifest_hash"] == current.hash


def test_resume_refuses_another_selection_agent_or_seed_in_one_line(tmp_path: Path) -> None:
    execute_run(_tasks(2), _config(filters=["kind=toy"]), tmp_path)
    with pytest.raises(RunError) as caught:
        execute_run(_tasks(3), _config(agent="noop", seed=4), tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert 'filters none here but ["kind=toy"] in the run' in message
    assert 'agent "noop" here but "oracle" in the run' in message and "seed 4 here but 0" in message
    assert "--force-resume" in message
    assert resume_difference(tmp_path, _config(filters=["kind=toy"]).selection) is None
    forced = _config(agent="noop", seed=4).model_copy(update={"force_resume": True})
    outcome = execute_run(_tasks(3), forced, tmp_path)
    assert len(outcome.results) == 3 and outcome.skipped == 2
    assert resume_difference(tmp_path, forced.selection) is None  # the run goes on under the new one
    attempts = json.loads((tmp_path / "run.json").read_text())["attempts"]
    assert attempts[-1]["selection_before"]["agent"] == "oracle"


def test_trials_run_each_task_k_times_with_the_agent_seed_varied(tmp_path: Path) -> None:
    config = _config(trials=3).model_copy(update={"trials": 3})
    outcome = execute_run(_tasks(2), config, tmp_path)
    assert sorted((r.task_id, r.trial) for r in outcome.results) == [
        (f"toy-{i}", k) for i in range(2) for k in (1, 2, 3)
    ]
    assert (tmp_path / "episodes" / "toy-0~3" / "steps.jsonl").exists()
    again = execute_run(_tasks(2), config, tmp_path)  # resumable: nothing left to run
    assert again.skipped == 6 and len(again.results) == 6


def _fake_run(folder: Path, manifest: str) -> Path:
    folder.mkdir()
    line = {"task_id": "t-1", "success": True, "score": 1.0, "steps": 1, "duration_s": 0.1}
    line |= {"termination": "finished", "manifest": manifest}
    (folder / "results.jsonl").write_text(json.dumps(line) + "\n")
    return folder


def test_report_refuses_to_mix_task_sets_unless_allowed(tmp_path: Path) -> None:
    a = _fake_run(tmp_path / "a", "sha256:aaaa")
    b = _fake_run(tmp_path / "b", "sha256:bbbb")
    refused = CliRunner().invoke(main, ["report", str(a), str(b)])
    assert refused.exit_code != 0 and "different task sets" in refused.output
    assert "--allow-mixed" in refused.output
    compared = CliRunner().invoke(main, ["report", str(a), "--compare", str(b)])
    assert compared.exit_code != 0 and "different task sets" in compared.output
    allowed = CliRunner().invoke(main, ["report", str(a), str(b), "--allow-mixed"])
    assert allowed.exit_code == 0, allowed.output
    assert "mixing task sets" in allowed.output
