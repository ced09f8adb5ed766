"""The behaviours that set hierarchical, planner-grounder and tracked apart, scripted reply by reply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from devicesworld.agents.llm.testserver import ScriptedServer
from tests.agents.llm.llm_helpers import run


def _text(obj: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": json.dumps(obj)}


def _call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    fn = {"name": name, "arguments": json.dumps(args)}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": fn}],
    }


def _prompts(server: ScriptedServer, role: str) -> list[str]:
    return [json.dumps(r.body["messages"]) for r in server.requests if r.role == role]


# ------------------------------------------------------------------ hierarchical
def test_hierarchical_passes_reports_along_dependencies(server: ScriptedServer, tmp_path: Path) -> None:
    server.push(
        _text(
            {
                "subtasks": [
                    {"id": "s1", "device": "smarthome_0", "goal": "find the hallway light"},
                    {"id": "s2", "device": "smarthome_0", "goal": "turn it on", "depends_on": ["s1"]},
                ]
            }
        ),
        _call("smarthome__list_devices", {"device": "smarthome_0", "args": {}}),
        _call("subtask_done", {"report": "the hallway light is hall_light"}),
        _call(
            "smarthome__control_device",
            {"device": "smarthome_0", "args": {"device_id": "hall_light", "command": "turn_on"}},
        ),
        _call("subtask_done", {"report": "hall_light is on"}),
    )
    result, steps = run("hierarchical", server.base_url, "scripted", tmp_path)
    assert result.success and result.termination == "finished"
    assert [s["action"]["action"] for s in steps] == ["list_devices", "control_device", "finish"]
    assert [s["agent_notes"].get("subtask") for s in steps[:2]] == ["s1", "s2"]
    device_prompts = _prompts(server, "device")
    assert "the hallway light is hall_light" in device_prompts[2]  # s2 sees s1's report
    assert "the hallway light is hall_light" not in device_prompts[0]
    assert _prompts(server, "review"), "the planner reviews the reports before finishing"


def test_hierarchical_replans_after_a_failed_subtask(server: ScriptedServer, tmp_path: Path) -> None:
    server.push(
        _text({"subtasks": [{"id": "s1", "device": "smarthome_0", "goal": "do it the wrong way"}]}),
        _call("subtask_failed", {"reason": "there is no such thing"}),
    )
    result, _ = run("hierarchical", server.base_url, "scripted", tmp_path)
    assert result.termination == "finished"
    plans = _prompts(server, "plan")
    assert len(plans) == 2 and "there is no such thing" in plans[1]


def test_hierarchical_reports_infeasible_when_the_planner_says_so(
    server: ScriptedServer, tmp_path: Path
) -> None:
    server.push(_text({"infeasible": "the home has no garage"}))
    result, steps = run("hierarchical", server.base_url, "scripted", tmp_path)
    assert result.termination == "infeasible_reported"
    assert steps[0]["action"]["args"] == {"reason": "the home has no garage"}


# --------------------------------------------------------------- planner-grounder
def test_planner_grounder_feeds_back_an_unavailable_device(server: ScriptedServer, tmp_path: Path) -> None:
    server.push(
        _text({"observation": "-", "plan": "use the phone", "device": "android_7", "action": "open app"})
    )
    result, steps = run("planner-grounder", server.base_url, "scripted", tmp_path)
    assert result.termination == "finished"
    assert "device unavailable" in steps[0]["agent_notes"]["reply_error"]
    assert "device unavailable" in _prompts(server, "planner")[1]
    assert not _prompts(server, "grounder")[1:], "no grounding for an unavailable device"


def test_planner_grounder_grounder_sees_only_its_device_and_the_abstract_action(
    server: ScriptedServer, tmp_path: Path
) -> None:
    run("planner-grounder", server.base_url, "scripted", tmp_path)
    grounder = next(r for r in server.requests if r.role == "grounder")
    assert "query the device" in json.dumps(grounder.body["messages"])
    names = [t["function"]["name"] for t in grounder.body["tools"]]
    assert names == ["smarthome"]  # the device's kind tool alone, no global action


# ------------------------------------------------------------------------ tracked
INIT = {
    "device_roles": {"smarthome_0": "the home whose light must go on"},
    "subgoals": [{"id": "g1", "description": "turn on the hallway light", "device": "smarthome_0"}],
    "checklist": [{"item": "hall light on", "device": "smarthome_0"}],
}


def test_tracked_keeps_facts_with_their_source_device(server: ScriptedServer, tmp_path: Path) -> None:
    facts = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "a",
                "type": "function",
                "function": {
                    "name": "record_fact",
                    "arguments": json.dumps(
                        {"name": "light", "value": "hall_light", "source_device": "smarthome_0"}
                    ),
                },
            },
            {
                "id": "b",
                "type": "function",
                "function": {
                    "name": "smarthome__list_rooms",
                    "arguments": '{"device": "smarthome_0", "args": {}}',
                },
            },
        ],
    }
    server.push(_text(INIT), facts)
    result, steps = run("tracked", server.base_url, "scripted", tmp_path)
    assert result.termination == "finished"
    assert steps[0]["action"]["action"] == "list_rooms" and steps[0]["agent_notes"]["state"]["facts"] == 1
    assert "light = hall_light (from smarthome_0" in _prompts(server, "actor")[1]
    assert "the home whose light must go on" in _prompts(server, "actor")[0]


def test_tracked_review_blocks_a_premature_finish(server: ScriptedServer, tmp_path: Path) -> None:
    server.push(
        _text(INIT),
        _call("finish", {}),
        _text({"ready": False, "missing": ["the hall light is still off"]}),
        _call("smarthome__list_devices", {"device": "smarthome_0", "args": {}}),
    )
    result, steps = run("tracked", server.base_url, "scripted", tmp_path)
    assert result.termination == "finished"
    assert steps[0]["action"]["action"] == "list_devices"
    assert "the hall light is still off" in steps[0]["agent_notes"]["review_blocked"]
    actor = _prompts(server, "actor")
    assert "finish was refused by the review" in actor[1]
    assert "(from review) the hall light is still off" in actor[1]
    assert len(_prompts(server, "review")) == 2  # the final finish was reviewed too


def test_tracked_replans_when_the_same_error_repeats(server: ScriptedServer, tmp_path: Path) -> None:
    bad = _call(
        "smarthome__get_device_state", {"device": "smarthome_0", "args": {"device_id": "garage_door"}}
    )
    server.push(_text(INIT), bad, bad)
    result, steps = run("tracked", server.base_url, "scripted", tmp_path)
    assert result.termination == "finished"
    assert not steps[0]["ok"] and not steps[1]["ok"]
    assert "the same error came back" in steps[2]["agent_notes"]["replan"]
    assert _prompts(server, "replan")
    assert "Replanned because" in _prompts(server, "actor")[2]


def test_tracked_replans_after_steps_that_bring_nothing_new(server: ScriptedServer, tmp_path: Path) -> None:
    same = _call("smarthome__list_rooms", {"device": "smarthome_0", "args": {}})
    server.push(_text(INIT), same, same, same, same)
    _, steps = run("tracked", server.base_url, "scripted", tmp_path)
    replans = [s["step"] for s in steps if "replan" in s["agent_notes"]]
    assert replans and "brought nothing new" in steps[replans[0] - 1]["agent_notes"]["replan"]
