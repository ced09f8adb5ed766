from __future__ import annotations

from typing import Any

import pytest

from devicesworld.spec.models import Task
from devicesworld.tasks.nearmiss import near_misses
from devicesworld.tasks.validate import validate_task


def _home_task(
    conditions: list[Any],
    solution: list[Any],
    instruction: str = "Set the study AC to cool at 21 °C.",
    **extra: object,
) -> Task:
    return Task.model_validate(
        {
            "id": "nm",
            "instruction": instruction,
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
                {
                    "device": "smarthome_0",
                    "op": "add_device",
                    "args": {"device_id": "lamp", "category": "light", "room": "study"},
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
    assert [(m.mutation, m.name) for m in misses] == [
        ("wrong_value", "wrong value 26.0 instead of 21.0"),
        ("collateral", "reference solution plus a stray change on smarthome_0"),
        ("set_then_undo", "reference solution, then undo an output on smarthome_0"),
        ("extra_beside", "reference solution, then beside an output on smarthome_0"),
    ]
    assert misses[0].steps[1].args["params"]["temperature"] == 26.0
    report = validate_task(strict)
    assert report.ok, report.problems
    # the AC's mode is another attribute beside the asked ones; the target set back later undoes it
    assert report.mutations == {"wrong_value": 1, "collateral": 1, "set_then_undo": 1, "extra_beside": 1}
    assert report.near_misses == 4
    assert report.paraphrases == {"extra_read": 1}


def test_missing_output_and_wrong_device_use_the_subtask_spans() -> None:
    from tests.tasks.frozen import of_pattern

    found = {"left out": False, "done on": False}
    for task in of_pattern("output_consistency")[:60]:
        for miss in near_misses(task):
            for key in found:
                found[key] |= key in miss.name
        if all(found.values()):
            break
    assert all(found.values()), found


ON = {"id": "on", "device": "smarthome_0", "check": "device_power", "args": {"device_id": "ac", "on": True}}


def test_a_declared_distractor_replaces_the_value_and_a_hedge_gives_both() -> None:
    target = {
        "id": "target",
        "device": "smarthome_0",
        "check": "device_attribute",
        "args": {"device_id": "ac", "attribute": "target_temperature", "equals": 21.0, "distractors": [24.0]},
    }
    misses = {m.mutation: m for m in near_misses(_home_task([ON, target], SOLUTION))}
    assert misses["distractor"].steps[1].args["params"]["temperature"] == 24.0
    assert "hedged" not in misses  # a number in a command cannot hedge
    draft = Task.model_validate(
        {
            "id": "draft",
            "instruction": "Draft the pickup date to Ann.",
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "evaluation": {
                "conditions": [
                    {
                        "id": "d",
                        "device": "linux_0",
                        "check": "email_draft",
                        "args": {
                            "to": "ann@example.com",
                            "body_contains": ["7 May"],
                            "distractors": ["8 May"],
                        },
                    }
                ]
            },
            "solution": [
                {
                    "device": "linux_0",
                    "action": "write_email_draft",
                    "args": {"to": ["ann@example.com"], "subject": "Pickup", "body": "Pickup on 7 May."},
                },
                {"action": "finish"},
            ],
        }
    )
    by = {m.mutation: m for m in near_misses(draft)}
    assert by["distractor"].steps[0].args["body"] == "Pickup on 8 May."
    assert by["hedged"].steps[0].args["body"] == "Pickup on 7 May or 8 May."


def test_an_infeasible_task_gets_a_collateral_miss_and_a_guardless_one_is_caught() -> None:
    reported = {"id": "r", "device": "env", "check": "infeasible_reported", "args": {}}
    report_only = [{"action": "report_infeasible", "args": {"reason": "no oven"}}]
    task = _home_task([reported], report_only, instruction="Preheat the oven.")
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations == {"collateral": 1}
    doc = task.model_dump()
    doc["evaluation"]["collateral"] = {"guard": False, "reason": "testing the near miss"}
    guardless = Task.model_validate(doc)
    weak = validate_task(guardless)
    assert not weak.ok
    assert any("near miss passes" in p and "stray change" in p for p in weak.problems), weak.problems


def _two_homes(**evaluation: object) -> Task:
    # only the asked change: a target temperature set beside the power is collateral (issue 32)
    home = _home_task([ON], [SOLUTION[0], SOLUTION[-1]], instruction="Switch the study AC on.")
    doc = home.model_dump()
    doc["devices"].append({"id": "smarthome_1", "kind": "smarthome"})
    doc["setup"] += [{**op, "device": "smarthome_1"} for op in doc["setup"]]
    doc["evaluation"].update(evaluation)
    doc["metadata"]["device_kinds"] = []
    return Task.model_validate(doc)


def test_the_output_repeated_on_a_twin_device_must_fail() -> None:
    task = _two_homes()
    twin = [m for m in near_misses(task) if m.mutation == "twin_device"]
    assert len(twin) == 1 and twin[0].effect_on == "smarthome_1"
    assert [s.device for s in twin[0].steps[:2]] == ["smarthome_0", "smarthome_1"]
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations == {"collateral": 2, "twin_device": 1, "set_then_undo": 1}
    weak = validate_task(_two_homes(collateral={"guard": False, "reason": "testing the near miss"}))
    assert any("also done on smarthome_1" in p for p in weak.problems), weak.problems


def _phone_task(condition: dict[str, Any]) -> Task:
    typed = [
        {"device": "android_0", "action": "click", "args": {"index": 16}},
        {"device": "android_0", "action": "input_text", "args": {"text": "016", "index": 8}},
        {"device": "android_0", "action": "input_text", "args": {"text": "040", "index": 11}},
        {"device": "android_0", "action": "input_text", "args": {"text": "Pickup", "index": 6}},
        {"action": "finish"},
    ]
    return Task.model_validate(
        {
            "id": "clock",
            "instruction": "Set it.",
            "devices": [{"id": "android_0", "kind": "android"}],
            "evaluation": {"conditions": [{"id": "a", "device": "android_0", **condition}]},
            "solution": typed,
        }
    )


def test_a_clock_distractor_retypes_the_hour_and_minute_fields() -> None:
    alarm = {
        "check": "alarm_exists",
        "args": {
            "hour": 16,
            "minute": 40,
            "label": "Pickup",
            "distractors": [{"value": "9:05", "type": "time"}],
        },
    }
    miss = next(m for m in near_misses(_phone_task(alarm)) if m.mutation == "distractor")
    assert [s.args.get("text") for s in miss.steps[:4]] == [None, "009", "005", "Pickup"]
    assert miss.steps[0].args["index"] == 16  # a click is no typed hour
    args: dict[str, Any] = {
        "title": "Pickup",
        "start": "2026-03-05T16:40",
        "distractor_field": "start",
        "distractors": ["17:00"],
    }
    event = {"check": "event_exists", "args": args}
    miss = next(m for m in near_misses(_phone_task(event)) if m.mutation == "distractor")
    assert [s.args.get("text") for s in miss.steps[1:3]] == ["017", "000"]
    plain = {"check": "event_exists", "args": {k: v for k, v in args.items() if k != "distractor_field"}}
    misses = [m for m in near_misses(_phone_task(plain)) if m.mutation == "distractor"]
    assert all(s.args.get("text") != "017" for m in misses for s in m.steps)  # a title distractor: as before


def _texting(check: str, args: dict[str, Any], body: str) -> Task:
    return Task.model_validate(
        {
            "id": "txt",
            "instruction": "Text it.",
            "devices": [{"id": "android_0", "kind": "android"}],
            "evaluation": {"conditions": [{"id": "a", "device": "android_0", "check": check, "args": args}]},
            "solution": [
                {"device": "android_0", "action": "open_app", "args": {"app_name": "Messages"}},
                {"device": "android_0", "action": "input_text", "args": {"text": "+15550101", "index": 8}},
                {"device": "android_0", "action": "input_text", "args": {"text": body, "index": 8}},
                {"device": "android_0", "action": "click", "args": {"index": 9}},
                {"action": "finish"},
            ],
        }
    )


def test_a_conversation_gets_an_undeclared_hedge_and_a_late_correction() -> None:
    task = _texting(
        "sms_sent", {"to": "+15550101", "contains": ["14:00"]}, "The review is at 14:00 on Thursday."
    )
    misses = {m.mutation: m for m in near_misses(task)}
    hedge = misses["undeclared_hedge"].steps[2].args["text"]
    assert hedge == "The review is at 14:00 (or maybe 17:00) on Thursday."
    late = misses["late_correction"].steps
    # typed after the right sentence: a later statement of the same conversation
    assert [s.action for s in late[2:6]] == ["input_text", "input_text", "click", "finish"]
    assert late[3].args["text"] == "Sorry, correction: it is 17:00, not 14:00."
    assert late[1].args["text"] == "+15550101"  # the recipient field is never hedged


def test_a_free_text_value_or_a_file_gets_no_hedge() -> None:
    spot = _texting("sms_sent", {"to": "+15550101", "contains": ["C14"]}, "Level 3, spot C14.")
    assert not {"undeclared_hedge", "late_correction"} & {m.mutation for m in near_misses(spot)}
    note = _texting(
        "file_contains", {"path": "sdcard:Documents/x.md", "contains": ["14:00"]}, "The review is at 14:00."
    )
    assert not {"undeclared_hedge", "late_correction"} & {m.mutation for m in near_misses(note)}


def test_a_false_claim_about_a_named_entity_must_fail() -> None:
    """Issue 32: "the Ceiling light is on" beside the right names, when it is off, fails — every light
    the report reads that is off is declared, so the statement is checked for truth."""
    from devicesworld.tasks.scenarios.compile import Choice, compile_task
    from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros

    family = next(f for f in shipped_families() if f.family == "lights_left_on_report")
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-lights-3")
    declared = [d["value"] for d in task.evaluation.conditions[0].args["distractors"] if d["type"] == "text"]
    assert "Ceiling light" in declared
    (claim,) = [m for m in near_misses(task) if m.mutation == "false_claim"]
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations["false_claim"] == 1 and "and" in claim.name


def test_a_false_fact_beside_the_right_answer_must_fail() -> None:
    """Issue 32: the reference text plus "The Porch light is off." (it is on) fails — the family
    declares what is true of every light and of the heater it reports."""
    from devicesworld.tasks.scenarios.compile import Choice, compile_task
    from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros

    family = next(f for f in shipped_families() if f.family == "lights_left_on_report")
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-lights-3")
    assert len(task.evaluation.conditions[0].args["facts"]) == 5
    (fact,) = [m for m in near_misses(task) if m.mutation == "false_fact"]
    assert "is off." in fact.name
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations["false_fact"] == 1


def test_a_value_hedged_inside_an_output_file_must_fail() -> None:
    from tests.devices.linux.linux_harness import require_bwrap

    require_bwrap()
    task = Task.model_validate(
        {
            "id": "nm-file",
            "instruction": "Write the study temperature, 23.5 °C, into ~/notes/study.txt.",
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "evaluation": {
                "conditions": [
                    {
                        "id": "note",
                        "device": "linux_0",
                        "check": "file_contains",
                        "args": {
                            "path": "~/notes/study.txt",
                            "contains": [{"value": 23.5, "type": "number"}],
                        },
                    }
                ]
            },
            "solution": [
                {
                    "device": "linux_0",
                    "action": "write_file",
                    "args": {
                        "path": "~/notes/study.txt",
                        "content": "Mon 21 °C\nStudy: 23.5 °C\nWed 22 °C\n",
                    },
                },
                {"action": "finish"},
            ],
        }
    )
    (hedge,) = [m for m in near_misses(task) if m.mutation == "hedge_in_file"]
    assert "23.5 (or maybe" in hedge.steps[0].args["content"]
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations["hedge_in_file"] == 1


def test_a_windows_file_value_is_hedged_in_the_file() -> None:
    """The Windows ``file_text`` judges a typed value in its own sentence too (``statement_checks``),
    so quality control plays the hedge there (issue 32; the check's own cases are in
    tests/devices/windows/test_windows_checks.py)."""
    path = r"C:\Users\user\Documents\study.txt"
    task = Task.model_validate(
        {
            "id": "nm-win-file",
            "instruction": "Write the study temperature, 23.5 °C, into Documents\\study.txt.",
            "devices": [{"id": "windows_0", "kind": "windows"}],
            "evaluation": {
                "conditions": [
                    {
                        "id": "note",
                        "device": "windows_0",
                        "check": "file_text",
                        "args": {"path": path, "contains": ["23.5"]},
                    }
                ]
            },
            "solution": [
                {
                    "device": "windows_0",
                    "action": "type_text",
                    "args": {"text": "Mon 21 °C\nStudy: 23.5 °C\n"},
                },
                {"device": "windows_0", "action": "hotkey", "args": {"keys": ["ctrl", "s"]}},
                {"action": "finish"},
            ],
        }
    )
    (hedge,) = [m for m in near_misses(task) if m.mutation == "hedge_in_file"]
    assert "Study: 23.5 (or maybe" in hedge.steps[0].args["text"]


def _two_times(cues: bool) -> Task:
    """A real phone task (``invite_if_free``, phone only) whose text must give two times: we meet
    at the free slot and are back three hours later."""
    from devicesworld.tasks.scenarios.compile import Choice, compile_task
    from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros

    family = next(f for f in shipped_families() if f.family == "invite_if_free")
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-two-times")
    data = task.model_dump(mode="json")
    (reply,) = data["evaluation"]["conditions"]
    (free,) = reply["args"]["contains"]
    meet = str(free["value"] if isinstance(free, dict) else free)
    back = f"{(int(meet[:2]) + 3) % 24:02d}{meet[2:]}"
    slots: list[dict[str, Any]] = [{"value": meet, "type": "time"}, {"value": back, "type": "time"}]
    if cues:
        slots[0]["cues"], slots[1]["cues"] = ["meet"], ["back"]
    reply["args"]["contains"] = slots
    for step in data["solution"]:
        if "works for me" in str(step["args"].get("text", "")):
            step["args"]["text"] = f"We meet at {meet} and I will be back at {back}."
    return Task.model_validate(data)


def test_a_hedge_or_correction_between_two_expected_times_must_fail() -> None:
    """dw-babysitter-evening-0000 (session 45): the rival of the leave time is the back time, itself
    expected; "19:30 (or maybe 22:30)" and "it is 22:30, not 19:30" must fail (spec/slots.py)."""
    task = _two_times(cues=False)
    misses = {m.mutation: m for m in near_misses(task)}
    meet, back = (v["value"] for v in task.evaluation.conditions[0].args["contains"])
    assert f"{meet} (or maybe {back})" in str([s.args for s in misses["undeclared_hedge"].steps])
    assert "slot_swap" not in misses  # without cue words a swap cannot be told from the other order
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations["undeclared_hedge"] == 1 and report.mutations["late_correction"] == 1


def test_two_times_told_apart_by_cue_words_get_a_swap_that_must_fail() -> None:
    task = _two_times(cues=True)
    meet, back = (v["value"] for v in task.evaluation.conditions[0].args["contains"])
    (swap,) = [m for m in near_misses(task) if m.mutation == "slot_swap"]
    assert f"We meet at {back} and I will be back at {meet}." in str([s.args for s in swap.steps])
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations["slot_swap"] == 1


@pytest.mark.parametrize("cues", [False, True])
def test_two_expected_times_hedged_with_their_swap_must_fail(cues: bool) -> None:
    """Session 47: "we meet at 19:30 and I will be back at 22:30 (or maybe 22:30 and 19:30)" offers
    two assignments of the values; cued or not, the hedge fails (spec/slots.py "assignment")."""
    task = _two_times(cues=cues)
    meet, back = (v["value"] for v in task.evaluation.conditions[0].args["contains"])
    (hedge,) = [m for m in near_misses(task) if m.mutation == "slot_hedge"]
    said = str([s.args for s in hedge.steps])
    assert f"We meet at {meet} and I will be back at {back} (or maybe {back} and {meet})." in said
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations["slot_hedge"] == 1
