from __future__ import annotations

from devicesworld.spec.models import Task
from devicesworld.tasks.nearmiss import near_misses
from devicesworld.tasks.validate import validate_task


def _home_task(conditions: list[dict], solution: list[dict], **extra: object) -> Task:
    return Task.model_validate(
        {
            "id": "nm",
            "instruction": "Set the study AC to cool at 21 °C.",
            "devices": [{"id": "smarthome_0", "kind": "smarthome"}],
            "setup": [
                {"device": "smarthome_0", "op": "add_room", "args": {"name": "study"}},
                {
                    "device": "smarthome_0",
                    "op": "add_device",
                    "args": {
                        "device_id": "ac",
                        "category": "air_conditioner",
                        "room": "study",
                        "state": {"target_temperature": 30.0},
                    },
                },
            ],
            "evaluation": {"conditions": conditions},
            "solution": solution,
            **extra,
        }
    )


SOLUTION = [
    {
        "device": "smarthome_0",
        "action": "control_device",
        "args": {"device_id": "ac", "command": "turn_on", "params": {}},
    },
    {
        "device": "smarthome_0",
        "action": "control_device",
        "args": {"device_id": "ac", "command": "set_target_temperature", "params": {"temperature": 21.0}},
    },
    {"action": "finish"},
]


def test_a_verifier_that_ignores_the_value_is_caught_by_a_wrong_value_near_miss() -> None:
    weak = _home_task(
        [
            {
                "id": "on",
                "device": "smarthome_0",
                "check": "device_power",
                "args": {"device_id": "ac", "on": True},
            },
            # a tolerance so wide that 26 °C passes for the asked 21 °C
            {
                "id": "target",
                "device": "smarthome_0",
                "check": "device_attribute",
                "args": {
                    "device_id": "ac",
                    "attribute": "target_temperature",
                    "equals": 21.0,
                    "tolerance": 5,
                },
            },
        ],
        SOLUTION,
    )
    report = validate_task(weak)
    assert not report.ok
    assert any("near miss passes" in p and "wrong value" in p for p in report.problems), report.problems


def test_an_exact_verifier_passes_every_near_miss() -> None:
    strict = _home_task(
        [
            {
                "id": "on",
                "device": "smarthome_0",
                "check": "device_power",
                "args": {"device_id": "ac", "on": True},
            },
            {
                "id": "target",
                "device": "smarthome_0",
                "check": "device_attribute",
                "args": {"device_id": "ac", "attribute": "target_temperature", "equals": 21.0},
            },
        ],
        SOLUTION,
    )
    misses = near_misses(strict)
    assert [m.name for m in misses] == ["wrong value 26.0 instead of 21.0"]
    assert misses[0].steps[1].args["params"]["temperature"] == 26.0
    report = validate_task(strict)
    assert report.ok, report.problems
    assert report.near_misses == 1


def test_missing_output_and_wrong_device_use_the_subtask_spans() -> None:
    from devicesworld.tasks.build import default_composer
    from devicesworld.tasks.composition.compose import CompositionError
    from devicesworld.tasks.composition.patterns import build_pattern_task

    composer = default_composer()
    found = {"left out": False, "done on": False}
    for seed in range(60):
        try:
            task = build_pattern_task(composer, "output_consistency", seed, f"oc-{seed}")
        except CompositionError:
            continue
        for miss in near_misses(task):
            for key in found:
                found[key] |= key in miss.name
        if all(found.values()):
            break
    assert all(found.values()), found
