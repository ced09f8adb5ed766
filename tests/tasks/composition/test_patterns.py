from __future__ import annotations

import contextlib

import pytest

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Step, Task
from devicesworld.tasks.build import default_composer
from devicesworld.tasks.composition.compose import CompositionError
from devicesworld.tasks.composition.patterns import PATTERNS, build_pattern_task
from devicesworld.tasks.validate import validate_task

COMPOSER = default_composer()


def _first_tasks(pattern: str, n: int, start: int = 0) -> list[Task]:
    out: list[Task] = []
    seed = start
    while len(out) < n and seed < start + 40:
        with contextlib.suppress(CompositionError):
            out.append(build_pattern_task(COMPOSER, pattern, seed, f"{pattern}-{seed}"))
        seed += 1
    return out


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_pattern_builds_tasks_that_pass_quality_control(pattern: str) -> None:
    tasks = _first_tasks(pattern, 2, start=100)
    assert len(tasks) == 2, f"{pattern}: no usable draw in 40 seeds"
    for task in tasks:
        report = validate_task(task)
        assert report.ok, report.problems
        assert task.metadata.pattern == pattern
        assert task.metadata.origin == "composition"
        if pattern != "device_state_control":
            assert len(task.devices) >= 2, "a pattern task crosses devices"


def test_the_same_seed_builds_the_same_task() -> None:
    a = build_pattern_task(COMPOSER, "conflict_resolution", 7, "x")
    b = build_pattern_task(COMPOSER, "conflict_resolution", 7, "x")
    assert a.model_dump_json() == b.model_dump_json()


def test_infeasible_requests_expect_a_report_and_leave_the_source_out() -> None:
    (task,) = _first_tasks("infeasible_request", 1)
    assert [c.check for c in task.evaluation.conditions] == ["infeasible_reported"]
    assert [s.action for s in task.solution] == ["report_infeasible"]
    absent = (task.metadata.model_extra or {})["composition"]["absent_sources"]
    assert absent and all(a["device"] in task.device_ids() for a in absent)
    with CrossDeviceEnv(task) as env:
        env.reset()
        env.step(Step(action="finish"))
        assert not env.evaluate().success, "finishing without reporting must fail"


def test_conflicts_and_decisions_declare_their_derivations() -> None:
    for pattern, ops in (
        ("conflict_resolution", {"earlier", "later", "higher", "lower"}),
        ("conditional_decision", {"decide"}),
    ):
        (task,) = _first_tasks(pattern, 1, start=200)
        derivations = (task.metadata.model_extra or {})["composition"]["derivations"]
        assert {d["op"] for d in derivations} & ops


def test_sources_of_a_conflict_sit_on_different_devices() -> None:
    for task in _first_tasks("conflict_resolution", 4, start=300):
        sources = {s.device for s in task.metadata.sources}
        assert len(sources) == 2, task.metadata.sources


def test_output_consistency_writes_to_several_devices() -> None:
    for task in _first_tasks("output_consistency", 3, start=400):
        writers = {c.device for c in task.evaluation.conditions}
        assert len(writers) >= 2
