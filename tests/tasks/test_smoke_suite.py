from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from devicesworld.tasks.shipped import read_suite
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.validate import validate_task


@pytest.fixture(scope="module")
def smoke() -> list[Task]:
    # the handwritten part: the kinds' GUI smoke tasks (suite smoke-gui) start real desktops and
    # Wine, so they are proven by `make run` and tests/tasks/test_kind_sources_live.py
    return read_suite("smoke")


def test_every_task_validates(smoke: list[Task]) -> None:
    bad = {r.task_id: r.problems for r in map(validate_task, smoke) if not r.ok}
    assert bad == {}


@pytest.mark.parametrize(("agent", "expected"), [("oracle", 1.0), ("noop", 0.0)])
def test_oracle_solves_all_and_noop_none(
    smoke: list[Task], tmp_path: Path, agent: str, expected: float
) -> None:
    outcome = execute_run(smoke, RunConfig(agent=agent, source="suite:smoke"), tmp_path)
    rate = sum(r.success for r in outcome.results) / len(outcome.results)
    assert rate == expected
    if agent == "noop":
        assert all(r.termination == "finished" and r.steps == 1 for r in outcome.results)


def test_random_agent_finishes_every_episode(smoke: list[Task], tmp_path: Path) -> None:
    outcome = execute_run(smoke[:8], RunConfig(agent="random", source="suite:smoke", seed=1), tmp_path)
    assert len(outcome.results) == 8
    assert all(
        r.termination in {"finished", "budget_exhausted", "infeasible_reported"} for r in outcome.results
    )
    assert all(r.error is None for r in outcome.results)


def test_noop_earns_no_partial_credit(smoke: list[Task], tmp_path: Path) -> None:
    outcome = execute_run(smoke, RunConfig(agent="noop", source="suite:smoke"), tmp_path)
    assert all(r.score == 0.0 for r in outcome.results)


def test_callers_get_their_own_list(smoke: list[Task]) -> None:
    # that the shipped file equals its data files: tests/tasks/test_shipped.py (`tasks compile --check`)
    assert load_suite("smoke") is not load_suite("smoke")
