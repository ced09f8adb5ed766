from __future__ import annotations

from devicesworld.spec import Task
from devicesworld.tasks.guards import setup_satisfied, unscore_setup_satisfied
from devicesworld.tasks.validate import validate_task
from tests.toykind import toy_task


def _task_with_guard() -> Task:
    doc = toy_task()
    doc["evaluation"]["conditions"].append(
        {
            "id": "not-ten",
            "device": "toy_0",
            "check": "value_in_range",
            "args": {"getter": "state", "path": "value", "max": 5},
            "required": False,
        }
    )
    return Task.model_validate(doc)


def test_setup_satisfied_conditions_become_unscored_guards() -> None:
    task = _task_with_guard()
    assert setup_satisfied(task) == {"not-infeasible", "not-ten"}
    fixed = unscore_setup_satisfied(task)
    scored = {c.id: c.scored for c in fixed.evaluation.conditions}
    assert scored == {"is3": True, "not-infeasible": False, "not-ten": False}
    assert [c.required for c in fixed.evaluation.conditions] == [True, True, False]


def test_validator_rejects_scored_condition_that_setup_satisfies() -> None:
    report = validate_task(_task_with_guard())
    assert not report.ok
    assert any("scored condition not-ten already holds after setup" in p for p in report.problems)
    assert validate_task(unscore_setup_satisfied(_task_with_guard())).ok
