from __future__ import annotations

from devicesworld.spec.models import Task
from devicesworld.tasks.provenance import provenance_problems
from tests.tasks.frozen import of_pattern


def _task(pattern: str, n: int) -> Task:
    """Task ``n`` of a pattern in the frozen ``full-v1`` (built by the retired v1 engine)."""
    return of_pattern(pattern)[n]


def test_built_tasks_have_every_expected_value_findable() -> None:
    for seed in range(5):
        assert provenance_problems(_task("extraction_transformation", seed)) == []


def test_a_value_nobody_can_find_is_reported() -> None:
    task = _task("direct_information_transfer", 1)
    cond = next(c for c in task.evaluation.conditions if c.scored)
    bad = cond.model_copy(update={"args": {**cond.args, "secret": "XK-99417"}})
    broken = task.model_copy(update={"evaluation": task.evaluation.model_copy(update={"conditions": [bad]})})
    problems = provenance_problems(broken)
    assert any("XK-99417" in p for p in problems), problems


def test_a_derivation_that_does_not_recompute_is_reported() -> None:
    task = _task("extraction_transformation", 2)
    composition = task.metadata.composition
    assert composition is not None
    (d,) = composition.derivations
    composition = composition.model_copy(update={"derivations": [d.model_copy(update={"result": "13:37"})]})
    tampered = task.model_copy(
        update={"metadata": task.metadata.model_copy(update={"composition": composition})}
    )
    problems = provenance_problems(tampered)
    assert any("gives" in p for p in problems), problems
