"""Invariants of the smoke suite: solvable by its solution, not by setup alone nor by a noop."""

from __future__ import annotations

from collections import Counter

import pytest

from devicesworld.devices.smarthome import KIND
from devicesworld.devices.smarthome.catalog import CATEGORY_NAMES
from devicesworld.spec.models import Step, Task
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.suites.smoke import build_smoke_suite
from tests.devices.smarthome.sh_harness import run_task

TASKS = build_smoke_suite()


def test_suite_shape() -> None:
    assert len(TASKS) >= 32
    ids = [t.id for t in TASKS]
    assert len(set(ids)) == len(ids) and all(i.startswith("smoke-sh-") for i in ids)
    patterns = Counter(t.metadata.pattern for t in TASKS)
    for p in (
        "device_state_control",
        "conditional_decision",
        "infeasible_request_reporting",
        "information_extraction",
    ):
        assert patterns[p] >= 3, p
    smarthome_part = [t.model_dump() for t in build_smoke_suite()]
    assert [t.model_dump() for t in load_suite("smoke")][: len(smarthome_part)] == smarthome_part


def test_every_category_is_controlled_by_some_solution() -> None:
    controlled: set[str] = set()
    for task in TASKS:
        categories = {op.args["device_id"]: op.args["category"] for op in task.setup if op.op == "add_device"}
        for step in task.solution:
            if step.action == "control_device":
                controlled.add(categories[step.args["device_id"]])
    assert controlled == set(CATEGORY_NAMES)


def test_homes_have_three_to_ten_devices_and_declared_args() -> None:
    for task in TASKS:
        n = sum(op.op == "add_device" for op in task.setup)
        assert 3 <= n <= 10, task.id
        for op in task.setup:
            KIND.setup_ops[op.op].parse_args(op.args)
        for cond in task.evaluation.conditions:
            if cond.device != "env":
                KIND.checks[cond.check].parse_args(cond.args)
        assert task.metadata.apps == ["smarthome"] and task.solution[-1].device is None


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_oracle_solution_passes_every_condition(task: Task) -> None:
    outcome = run_task(task, task.solution)
    failing = [(c.id, o.detail) for c, o in outcome.results if not o.passed]
    assert failing == [] and outcome.success
    assert outcome.failed_steps == []


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_setup_alone_and_noop_fail(task: Task) -> None:
    assert not run_task(task, []).success
    assert not run_task(task, [Step(action="finish")]).success


INFEASIBLE = [t for t in TASKS if t.metadata.pattern == "infeasible_request_reporting"]


@pytest.mark.parametrize("task", INFEASIBLE, ids=lambda t: t.id)
def test_infeasible_tasks_fail_when_the_agent_acts_anyway(task: Task) -> None:
    switchable = next(
        op.args["device_id"]
        for op in task.setup
        if op.op == "add_device" and op.args["category"] not in ("curtain", "robot_vacuum")
    )
    steps = [
        Step(
            device="smarthome_0", action="control_device", args={"device_id": switchable, "command": "toggle"}
        ),
        Step(action="report_infeasible", args={"reason": "range brightness garage cool 16 80"}),
    ]
    outcome = run_task(task, steps)
    verdicts = {c.id: o.passed for c, o in outcome.results}
    assert verdicts == {"reported": True, "untouched": False}
    assert not outcome.success
    assert run_task(task, [*task.solution[:-1], Step(action="finish")]).success is False
