"""The census summary: medians, the unmentioned-item share and the distractor coverage (issue #13)."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.spec.models import Task
from devicesworld.tasks.census import DeviceCensus, TaskCensus, summarise, take_census
from devicesworld.tasks.mentions import task_text, unmentioned
from devicesworld.tasks.readcover import uncovered_values
from devicesworld.worlds import build_world
from tests.worlds.world_examples import EXAMPLES


def _doc(**extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": "summary.t",
        "instruction": "Turn on the bedroom lamp.",
        "devices": [{"id": "smarthome_0", "kind": "smarthome"}],
        "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
    }
    doc.update(extra)
    return doc


def _answer(values: list[str], distractors: list[str]) -> dict[str, Any]:
    args: dict[str, Any] = {"values": [{"value": v, "type": "text"} for v in values]}
    if distractors:
        args["distractors"] = [{"value": d, "type": "text"} for d in distractors]
    return {"conditions": [{"id": "a", "device": "env", "check": "answer_contains", "args": args}]}


def _source(value: str) -> dict[str, Any]:
    return {"pattern": "x", "sources": [{"device": "smarthome_0", "value": value, "description": "it"}]}


def test_a_source_checked_with_a_distractor_is_covered_and_without_one_is_listed() -> None:
    covered = Task.model_validate(_doc(evaluation=_answer(["18:30"], ["19:30"]), metadata=_source("18:30")))
    bare = Task.model_validate(_doc(evaluation=_answer(["18:30"], []), metadata=_source("18:30")))
    assert uncovered_values(covered) == []
    assert uncovered_values(bare) == [
        "source '18:30' on smarthome_0 (it): checked by answer_contains with no distractor declared"
    ]


def _home_check(check: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"conditions": [{"id": "d", "device": "smarthome_0", "check": check, "args": args}]}


def test_an_uncovered_source_says_whether_its_check_could_take_distractors() -> None:
    issued = _home_check(
        "command_issued",
        {"device_id": "h", "command": "set_target_temperature", "params": {"temperature": 21.5}},
    )
    task = Task.model_validate(_doc(evaluation=issued, metadata=_source("21.5")))
    assert uncovered_values(task) == [
        "source '21.5' on smarthome_0 (it): checked by command_issued, which take no distractors"
    ]
    attribute = {"device_id": "h", "attribute": "target_temperature", "equals": 21.5}
    task = Task.model_validate(
        _doc(evaluation=_home_check("device_attribute", attribute), metadata=_source("21.5"))
    )
    assert uncovered_values(task) == [
        "source '21.5' on smarthome_0 (it): checked by device_attribute with no distractor declared"
    ]
    attribute["distractors"] = [{"value": 19.5, "type": "number"}]
    task = Task.model_validate(
        _doc(evaluation=_home_check("device_attribute", attribute), metadata=_source("21.5"))
    )
    assert uncovered_values(task) == []
    task = Task.model_validate(_doc(evaluation=_answer(["x"], ["y"]), metadata=_source("21.5")))
    assert uncovered_values(task) == ["source '21.5' on smarthome_0 (it): no check names it"]


def test_a_source_is_covered_through_the_values_derived_from_it() -> None:
    meta = _source("18:30")
    meta["composition"] = {
        "derivations": [
            {"op": "shift_time", "inputs": ["18:30"], "params": {"minutes": -30}, "result": "18:00"},
            {"op": "shift_time", "inputs": ["18:00"], "params": {"minutes": -15}, "result": "17:45"},
        ]
    }
    task = Task.model_validate(_doc(evaluation=_answer(["17:45"], ["18:45"]), metadata=meta))
    assert uncovered_values(task) == []
    meta["composition"]["derivations"] = meta["composition"]["derivations"][1:]  # the chain is broken
    assert uncovered_values(
        Task.model_validate(_doc(evaluation=_answer(["17:45"], ["18:45"]), metadata=meta))
    )


def test_a_decision_threshold_is_covered_by_the_outcome_check() -> None:
    meta = _source("27.0")
    decision = {
        "op": "decide",
        "inputs": [28.5],
        "params": {"threshold": 27.0, "above": "cool"},
        "result": "cool",
    }
    meta["composition"] = {"derivations": [decision]}
    mode = {"device_id": "ac", "attribute": "mode", "equals": "cool", "distractors": ["fan"]}
    task = Task.model_validate(_doc(evaluation=_home_check("device_attribute", mode), metadata=meta))
    assert uncovered_values(task) == []
    meta["composition"] = {"derivations": [{**decision, "params": {"threshold": 26.0}}]}
    task = Task.model_validate(_doc(evaluation=_home_check("device_attribute", mode), metadata=meta))
    assert uncovered_values(task) == ["source '27.0' on smarthome_0 (it): no check names it"]


def test_a_time_given_as_hour_and_minute_is_named_by_the_check() -> None:
    alarm = {
        "conditions": [
            {"id": "a", "device": "android_0", "check": "alarm_exists", "args": {"hour": 7, "minute": 5}}
        ]
    }
    doc = _doc(evaluation=alarm, metadata=_source("07:05"))
    doc["devices"].append({"id": "android_0", "kind": "android"})
    problems = uncovered_values(Task.model_validate(doc))
    assert len(problems) == 1 and "no check names it" not in problems[0] and "alarm_exists" in problems[0]


def test_a_source_read_in_order_to_reject_it_is_covered() -> None:
    rejected = Task.model_validate(_doc(evaluation=_answer(["16:30"], ["15:15"]), metadata=_source("15:15")))
    assert uncovered_values(rejected) == []
    other = Task.model_validate(_doc(evaluation=_answer(["16:30"], ["15:45"]), metadata=_source("15:15")))
    assert uncovered_values(other) == ["source '15:15' on smarthome_0 (it): no check names it"]


def test_a_world_value_counts_when_one_of_its_twins_is_declared() -> None:
    doc = next(t for t in json.loads(EXAMPLES.read_text(encoding="utf-8")) if t["id"] == "world.code.latest")
    task = Task.model_validate(doc)
    assert uncovered_values(task) == []
    doc["evaluation"]["conditions"][0]["args"]["distractors"] = []
    problems = uncovered_values(Task.model_validate(doc))
    assert f"world value {task.world.reads[0]}" in problems  # type: ignore[union-attr]


def test_unmentioned_items_are_those_no_spelling_of_which_the_task_uses() -> None:
    task = Task.model_validate(
        _doc(
            solution=[{"device": "smarthome_0", "action": "control_device", "args": {"device_id": "lamp_x"}}]
        )
    )
    text = task_text(task)
    items = {
        "lamp_x": ["lamp_x", "Lamp"],
        "heater_y": ["heater_y", "Bedroom LAMP"],
        "fan": ["fan_z", "Hall fan"],
    }
    assert unmentioned(items, text) == ["fan"]


def test_the_summary_counts_shares_and_lists_the_tasks() -> None:
    def census(task: str, free: list[int | None], uncovered: list[str]) -> TaskCensus:
        devices = [
            DeviceCensus(device=f"d{i}", kind="k", counts={"n": i}, unmentioned=u) for i, u in enumerate(free)
        ]
        return TaskCensus(task=task, devices=devices, uncovered=uncovered)

    results = [
        census("a", [3], []),
        census("b", [0, None], ["source 'x'"]),
        census("c", [None], []),
        census("d", [0, 2], []),
    ]
    summary = summarise(results, ["a", "b"])
    assert summary.unmentioned.tasks == 3 and summary.unmentioned.with_unmentioned == 2
    assert summary.unmentioned.share == round(2 / 3, 4)
    assert summary.unmentioned.without == ["b"]
    assert summary.distractors.tasks == 2 and summary.distractors.covered == 1
    assert summary.distractors.uncovered == {"b": ["source 'x'"]}
    assert summary.medians == {"k": {"n": 0.0}}


def test_a_live_home_reports_the_devices_the_task_never_mentions() -> None:
    world = build_world(3, "lived")
    devices = world.home.devices
    target = next(
        d.device_id
        for d in devices
        if not any(o.device_id != d.device_id and o.device_id in d.device_id for o in devices)
    )
    task = Task.model_validate(
        _doc(
            world={"persona_seed": 3},
            instruction="Check the home.",
            solution=[{"device": "smarthome_0", "action": "get_device_state", "args": {"device_id": target}}],
        )
    )
    result = take_census([task])
    home = result.tasks[0].devices[0]
    assert home.unmentioned == len(devices) - 1
    assert result.summary is not None and result.summary.unmentioned.share == 1.0


def test_census_json_carries_the_summary() -> None:
    out = CliRunner().invoke(main, ["tasks", "census", "--tasks", str(EXAMPLES), "--json", "--limit", "2"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert set(doc["summary"]) == {"medians", "unmentioned", "distractors"}
    assert doc["summary"]["distractors"]["tasks"] == 2
    assert doc["summary"]["distractors"]["covered"] == 2
