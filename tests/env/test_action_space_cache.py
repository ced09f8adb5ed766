"""Action spaces are cached per kind as text, so every call still hands out fresh data."""

from __future__ import annotations

import dataclasses

from devicesworld.devices.base import ActionSpec, by_name, register_kind
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec import Task
from tests.toykind import TOY, toy_task


def test_each_call_returns_fresh_equal_copies() -> None:
    env = CrossDeviceEnv(Task.model_validate(toy_task()))
    first = env.action_spaces()
    assert first["toy_0"] == TOY.action_space()
    assert {a["name"] for a in first["*"]} >= {"finish", "report_infeasible"}
    first["toy_0"][0]["doc"] = "changed by an agent"
    first["toy_0"].clear()
    assert env.action_spaces() == {**first, "toy_0": TOY.action_space()}


def test_a_kind_registered_again_gets_its_new_action_space() -> None:
    task = Task.model_validate(toy_task(devices=[{"id": "cached_0", "kind": "cached"}], setup=[]))
    register_kind(dataclasses.replace(TOY, name="cached"))
    assert [a["name"] for a in CrossDeviceEnv(task).action_spaces()["cached_0"]] == list(TOY.actions)
    register_kind(
        dataclasses.replace(TOY, name="cached", actions=by_name([ActionSpec(name="only", doc="One.")]))
    )
    assert [a["name"] for a in CrossDeviceEnv(task).action_spaces()["cached_0"]] == ["only"]
