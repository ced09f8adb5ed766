"""The paraphrase gate (issue 32): correct variants of the reference solution, each must pass."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from devicesworld.devices.android.traits import paraphrases as phone_variants
from devicesworld.devices.smarthome.traits import paraphrases as home_variants
from devicesworld.spec.models import Task
from devicesworld.tasks.paraphrase import _forms, paraphrases
from devicesworld.tasks.validate import validate_task

START = datetime(2026, 3, 2, 9, 0)


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("see you at 16:30 today", "4:30 pm"),
        ("the train leaves 09:05.", "9:05 am"),
        ("lunch at 12:15 then", "12:15 pm"),
        ("at 4:30 pm sharp", "16:30"),
        ("by 11:00 AM", "11:00"),
        ("the total is $93.50.", "$93.5"),
        ("the code is 175113", "175 113"),
        ("on 7 May we fly", "May 7"),
        ("on 21 December", "December 21"),
        ("from 00:30", "12:30 am"),
    ],
)
def test_each_value_gets_another_natural_form(text: str, form: str) -> None:
    assert form in [f for _, f, _ in _forms(text)]


@pytest.mark.parametrize("text", ["room 101", "v2.1", "call +15550188", "on 3/4", "it is 22.5 °C"])
def test_no_form_is_made_up_for_what_is_not_a_known_value(text: str) -> None:
    assert not [f for span, f, kind in _forms(text) if kind == "time"]


def test_a_clock_schedule_becomes_the_delay_that_falls_on_it_and_back() -> None:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("list_devices", {}),
        ("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"}),
        ("create_schedule", {"device_id": "ac", "command": "turn_off", "delay_minutes": 90}),
    ]
    splices = home_variants(steps, START)
    names = [s.name for s in splices]
    assert names[0].startswith("a harmless extra read")
    delay = next(s for s in splices if "13:30" in s.name)
    assert delay.at == 1 and delay.steps[0][1]["delay_minutes"] == 270
    clock = next(s for s in splices if "90-minute" in s.name)
    assert clock.steps[0][1]["at"] == "2026-03-02T10:30"


def test_after_time_was_let_pass_no_encoding_is_reckoned() -> None:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("advance_time", {"minutes": 30}),
        ("create_schedule", {"device_id": "lamp", "command": "turn_on", "at": "13:30"}),
    ]
    assert [s.name for s in home_variants(steps, START)] == ["a harmless extra read (list_schedules)"]


def test_a_message_is_split_at_a_sentence_end_in_the_messaging_app_only() -> None:
    text = "Still on: Porch light and Reading lamp; the heater is at 16.5 °C. Everything else is off."
    steps: list[tuple[str, dict[str, Any]]] = [
        ("open_app", {"app_name": "Messages"}),
        ("input_text", {"text": text, "index": 8}),
        ("click", {"index": 9}),
    ]
    (split,) = phone_variants(steps, START)
    first, tap, second, tap2 = split.steps
    assert first[1]["text"] + " " + second[1]["text"] == text
    assert "index" not in second[1] and tap == ("click", {"index": 9}) and tap2 == ("click", {"index": 10})
    note = [("open_app", {"app_name": "Markor"}), *steps[1:]]
    assert phone_variants(note, START) == []
    short = [steps[0], ("input_text", {"text": "Got it, thanks", "index": 8}), steps[2]]
    assert phone_variants(short, START) == []


def _home_task(solution: list[dict[str, Any]], conditions: list[dict[str, Any]]) -> Task:
    return Task.model_validate(
        {
            "id": "pp",
            "instruction": "At 13:30, turn on the study lamp.",
            "devices": [{"id": "smarthome_0", "kind": "smarthome"}],
            "setup": [
                {"device": "smarthome_0", "op": "add_room", "args": {"name": "study"}},
                {
                    "device": "smarthome_0",
                    "op": "add_device",
                    "args": {"device_id": "lamp", "category": "light", "room": "study"},
                },
            ],
            "evaluation": {
                "conditions": [
                    {"id": f"c{i}", "device": "smarthome_0", **c} for i, c in enumerate(conditions)
                ]
            },
            "solution": solution,
        }
    )


LAMP_AT = {
    "device": "smarthome_0",
    "action": "create_schedule",
    "args": {"device_id": "lamp", "command": "turn_on", "at": "13:30"},
}


def test_equivalent_schedules_pass_the_gate() -> None:
    task = _home_task(
        [LAMP_AT, {"action": "finish"}],
        [
            {
                "check": "schedule_exists",
                "args": {"device_id": "lamp", "command": "turn_on", "due_at": "2026-03-02T13:30:00"},
            }
        ],
    )
    gates = {p.gate for p in paraphrases(task)}
    assert gates == {"extra_read", "schedule_encoding"}
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.paraphrases == {"extra_read": 1, "schedule_encoding": 1}
    # the lamp on at 13:30 then off at 13:31 is the set-then-undo near miss, and it fails
    assert report.mutations.get("set_then_undo") == 1


def test_a_verifier_that_reads_the_encoding_is_caught_as_too_strict() -> None:
    task = _home_task(
        [LAMP_AT, {"action": "finish"}],
        [
            {
                "check": "schedule_exists",
                "args": {"device_id": "lamp", "command": "turn_on", "due_at": "2026-03-02T13:30:00"},
            },
            # reads how the plan was written, not what it does
            {
                "check": "value_equals",
                "args": {"getter": "schedules", "path": "0.trigger.type", "equals": "at"},
            },
        ],
    )
    report = validate_task(task, near_miss=False)
    assert not report.ok
    assert any("correct variant fails" in p and "delay" in p for p in report.problems), report.problems
