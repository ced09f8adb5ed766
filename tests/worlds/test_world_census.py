"""The census reads live devices; lived worlds meet the issue's medians; the example tasks run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec.models import Task
from devicesworld.tasks.census import take_census
from devicesworld.tasks.loading import load_tasks
from devicesworld.tasks.validate import validate_task
from tests.worlds.world_examples import EXAMPLES, render

THREE = [
    {"id": "android_0", "kind": "android"},
    {"id": "linux_0", "kind": "linux"},
    {"id": "smarthome_0", "kind": "smarthome"},
]


def _lived(seed: int) -> Task:
    return Task.model_validate(
        {
            "id": f"lived.{seed}",
            "instruction": "x",
            "devices": THREE,
            "world": {"persona_seed": seed},
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
        }
    )


def test_lived_worlds_meet_the_issue_medians() -> None:
    census = take_census([_lived(s) for s in (40, 41, 42)])
    assert all(t.error is None for t in census.tasks)
    phone, desktop, home = (census.medians[k] for k in ("android", "linux", "smarthome"))
    assert (
        phone["contacts"] >= 40 and phone["messages"] >= 80 and phone["events"] >= 40 and phone["songs"] >= 30
    )
    assert phone["threads"] >= 15 and phone["notes"] >= 10
    assert desktop["files"] >= 30 and desktop["mail"] >= 1 and desktop["drafts"] >= 1
    assert home["rooms"] >= 6 and home["devices"] >= 12 and home["categories"] == 11


def test_the_census_counts_what_the_task_setup_adds() -> None:
    doc = _lived(43).model_dump()
    doc["world"] = None
    doc["setup"] = [{"device": "android_0", "op": "add_contact", "args": {"name": "Ada"}}]
    census = take_census([Task.model_validate(doc)])
    phone = next(d for d in census.tasks[0].devices if d.kind == "android")
    assert phone.counts["contacts"] == 1 and phone.counts["messages"] == 0


def test_the_example_file_is_what_the_world_api_builds() -> None:
    assert EXAMPLES.read_text(encoding="utf-8") == render()


@pytest.fixture(scope="module")
def examples() -> list[Task]:
    return load_tasks(str(EXAMPLES))


def test_the_example_world_tasks_validate(examples: list[Task]) -> None:
    bad = {r.task_id: r.problems for r in map(validate_task, examples) if not r.ok}
    assert bad == {}


@pytest.mark.parametrize(("agent", "expected"), [("oracle", 1.0), ("noop", 0.0)])
def test_oracle_solves_and_noop_fails_the_world_tasks(
    examples: list[Task], tmp_path: Path, agent: str, expected: float
) -> None:
    outcome = execute_run(examples, RunConfig(agent=agent, source="file:examples"), tmp_path)
    assert [r.error for r in outcome.results] == [None] * len(examples)
    assert sum(r.success for r in outcome.results) / len(outcome.results) == expected


def test_census_cli_prints_json_and_a_table() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["tasks", "census", "--tasks", str(EXAMPLES), "--json", "--limit", "2"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert len(data["tasks"]) == 2
    assert data["tasks"][0]["world"]["persona_seed"] == 7
    assert data["tasks"][0]["devices"][0]["counts"]["contacts"] >= 40
    table = runner.invoke(
        main, ["tasks", "census", "--tasks", str(EXAMPLES), "--task-ids", "world.home.heater"]
    )
    assert table.exit_code == 0, table.output
    assert "world.home.heater" in table.output and "median per smarthome" in table.output


def test_census_cli_refuses_both_sources() -> None:
    out = CliRunner().invoke(main, ["tasks", "census", "--suite", "smoke", "--tasks", str(EXAMPLES)])
    assert out.exit_code != 0
    assert "either --suite or --tasks" in out.output


def test_world_qc_wants_the_read_values_twins_declared(examples: list[Task]) -> None:
    from devicesworld.tasks.worldqc import world_problems

    assert [world_problems(t) for t in examples] == [[] for _ in examples]
    task = next(t for t in examples if t.id == "world.code.latest")
    doc = task.model_dump()
    doc["evaluation"]["conditions"][0]["args"]["distractors"] = []
    assert world_problems(Task.model_validate(doc)) == [
        f"world value {task.world.reads[0]!r} is read but none of its twins is declared as a distractor"  # type: ignore[union-attr]
    ]
    doc["world"]["reads"] = ["verification_code/00000"]
    assert world_problems(Task.model_validate(doc)) == [
        "world.reads names 'verification_code/00000', which world 7/lived does not hold"
    ]


def test_tasks_show_names_the_world() -> None:
    out = CliRunner().invoke(main, ["tasks", "show", "world.home.heater", "--tasks", str(EXAMPLES)])
    assert out.exit_code == 0, out.output
    assert "world: persona 7, lived" in out.output
