"""The first-match baseline: follows the plan, reads only first screens, takes the first match."""

from __future__ import annotations

import pytest

from devicesworld.agents.base import AgentOptions
from devicesworld.agents.registry import AGENTS
from devicesworld.runner.episode import run_episode
from devicesworld.spec.models import Task
from devicesworld.tasks.scenarios.compile import Choice, compile_task
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros
from devicesworld.textshape import candidates, shape


def _task(family: str, phrasing: int, seed: int = 5) -> Task:
    return compile_task(
        family_by_name(family), shipped_macros(), Choice(seed=seed, phrasing=phrasing), f"dw-fm-{seed}"
    )


def _solved(task: Task) -> bool:
    return run_episode(task, AGENTS["first-match"], AgentOptions(seed=0), None).success


def test_shapes_match_values_that_look_alike() -> None:
    assert shape("482913").fullmatch("120034")
    assert not shape("482913").search("1234567")
    assert shape("18:30").fullmatch("07:45") and not shape("18:30").search("9:00")
    assert candidates("21.5", ["set 19.5 then 22.0 and 19.5", "21.5"]) == ["19.5", "22.0", "21.5"]


def test_it_solves_a_task_whose_values_are_stated_in_the_order_the_plan_needs_them() -> None:
    assert AGENTS["first-match"].privileged
    assert _solved(_task("evening_scene", phrasing=0))  # "lamp to X and curtains to Y"


def test_it_fails_when_the_stated_values_come_in_another_order() -> None:
    assert not _solved(_task("evening_scene", phrasing=2))  # "curtains to Y, and the lamp at X"


def test_it_fails_when_a_twin_comes_first_or_the_value_must_be_computed() -> None:
    assert not _solved(_task("parcel_locker_code", phrasing=0))  # another courier's code is listed first
    assert not _solved(
        _task("guests_arrival_heating", phrasing=0)
    )  # the time is on another screen, minus a lead


def test_an_email_address_is_read_from_the_screen_not_copied_from_the_plan() -> None:
    from devicesworld.agents.first_match import FirstMatchAgent

    agent = FirstMatchAgent(AgentOptions(seed=0))
    agent._instruction = "Send the venue address to Dana's work e-mail."
    agent._screens = {"phone": "Dana Ruiz\ndana.ruiz@gmail.com\nWork: d.ruiz@acme.io\n+1 555 0100"}
    args, gave_up = agent._read_values({"to": "d.ruiz@acme.io", "body": "See you there"})
    assert not gave_up
    assert args["to"] == "dana.ruiz@gmail.com"  # the first address seen, as a careless reader takes it
    agent._screens = {"phone": "no address here"}
    agent._assigned = {}
    _, gave_up = agent._read_values({"to": "d.ruiz@acme.io"})
    assert gave_up


@pytest.mark.parametrize(
    ("family", "phrasing"),
    [
        ("heater_mode_by_temperature", 0),  # the target is the bedroom's reading, on a second screen
        ("vacuum_mode_by_battery", 1),  # the text carries the battery; the threshold is read first
        ("playlist_between_phones", 2),  # the newest year's playlist sits behind the Playlists tab
    ],
)
def test_a_decision_or_a_copy_no_longer_passes_by_replaying_the_plan(family: str, phrasing: int) -> None:
    """Issue #15: these medium families were solved 15 of 15 times by copying the plan's words."""
    task = _task(family, phrasing=phrasing)
    assert run_episode(task, AGENTS["oracle"], AgentOptions(seed=0), None).success
    assert not _solved(task)


def test_on_a_gui_desktop_the_first_screen_is_what_its_elements_show() -> None:
    """A GUI desktop has no screen text: what the opened document shows is in its elements, so the
    baseline reads those (the policy's thresholds come before the room's reading, as in the file)."""
    from devicesworld.agents.base import EpisodeInfo, Feedback
    from devicesworld.agents.first_match import FirstMatchAgent
    from devicesworld.devices.base import ActionResult
    from devicesworld.spec.models import Step

    plan = [
        Step(device="linux_0", action="launch_app", args={"app": "text_editor", "path": "~/p.md"}),
        Step(device="smarthome_0", action="control_device", args={"device_id": "ac", "params": {"t": 23.5}}),
    ]
    agent = FirstMatchAgent(AgentOptions(seed=0))
    info = EpisodeInfo(
        task_id="t",
        instruction="Set the AC from the policy.",
        devices=[],
        action_spaces={},
        max_steps=9,
        solution=plan,
    )
    agent.start(info)
    agent.act({}, None)
    seen = {
        "linux_0": {
            "elements": [{"role": "text", "name": "", "text": "Above 24.0 C the AC cools, else it fans"}]
        }
    }
    opened = ActionResult.success("text_editor opened: 'p.md - Mousepad'")
    step = agent.act(seen, Feedback(step=1, action=plan[0], result=opened))
    assert step.action.args["params"] == {"t": 24.0}  # the document's first number, not the plan's
