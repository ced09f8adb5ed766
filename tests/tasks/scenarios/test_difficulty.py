"""Difficulty comes from measured features: placement, look-alikes, worked-out values versus choices."""

from __future__ import annotations

from typing import Any

from devicesworld.spec.models import Task
from devicesworld.tasks.scenarios.difficulty import CUTS, Features, features, grade, points
from devicesworld.tasks.scenarios.model import Family
from tests.tasks.scenarios.test_compile import MINI


def _task(composition: dict[str, Any]) -> Task:
    return Task.model_validate(
        {
            "id": "t",
            "instruction": "do it",
            "devices": [{"id": "smarthome_0", "kind": "smarthome"}],
            "evaluation": {"conditions": [{"id": "c", "device": "smarthome_0", "check": "device_power"}]},
            "metadata": {"pattern": "conditional_decision", "composition": composition},
        }
    )


FAMILY = Family.model_validate(MINI)
BASE = Features(
    devices=1,
    classes=1,
    sources=0,
    source_cost=0,
    distractors=0,
    clutter=1.0,
    outputs=1,
    gui_steps=2,
    reasoning=0,
    infeasible=False,
)


def test_the_measured_place_overrides_the_declared_one() -> None:
    declared = features(_task({"where": {"code": "first_screen"}}), FAMILY)
    measured = features(
        _task({"where": {"code": "first_screen"}, "placement": {"code": {"where": "search", "ahead": 5}}}),
        FAMILY,
    )
    assert (declared.source_cost, declared.hidden, declared.lookalikes) == (0, 0, 0)
    assert (measured.source_cost, measured.hidden, measured.lookalikes) == (2, 1, 2)  # ahead capped at 2
    assert points(measured) > points(declared)


def test_a_decision_between_named_options_is_a_choice_not_a_worked_out_value() -> None:
    derivations = [
        {"op": "decide", "inputs": [21.5], "params": {}, "result": "eco"},
        {"op": "shift_time", "inputs": ["19:30"], "params": {"minutes": 30}, "result": "20:00"},
    ]
    f = features(_task({"derivations": derivations}), FAMILY)
    assert (f.reasoning, f.choices) == (1, 1)


def test_grades_rise_with_what_makes_a_task_hard() -> None:
    stated = BASE
    found = BASE.model_copy(update={"sources": 1})
    hidden = found.model_copy(update={"source_cost": 2, "hidden": 1, "lookalikes": 2})
    computed = hidden.model_copy(update={"reasoning": 2, "distractors": 2})
    ranks = ["easy", "medium", "hard", "expert"]
    got = [ranks.index(grade(f)) for f in (stated, found, hidden, computed)]
    assert got == sorted(got) and got[0] == 0 and got[-1] == 3
    assert points(stated) <= CUTS[0] < points(computed)


def test_an_infeasible_request_is_never_easy() -> None:
    assert grade(BASE.model_copy(update={"infeasible": True})) != "easy"
