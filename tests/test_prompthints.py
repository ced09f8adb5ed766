"""The prompt-hint registry: a kind fills it from its package, the agent layer reads it."""

from __future__ import annotations

import pytest

from devicesworld import prompthints
from devicesworld.agents.llm.prompts import action_rules, planner_hints
from devicesworld.devices.base import get_kind


def test_the_smart_home_registers_its_hint_and_the_agents_are_told() -> None:
    assert get_kind("smarthome") is not None  # loading the kind registers its hint
    hint = prompthints.hint_of("smarthome")
    assert hint is not None and "query it" in hint.act
    assert f"- {hint.act}\n" in action_rules()
    assert hint.plan in planner_hints()


def test_a_blank_hint_is_refused_and_an_unknown_kind_has_none() -> None:
    with pytest.raises(ValueError, match="blank"):
        prompthints.register("nokind", act="  ")
    assert prompthints.hint_of("nokind") is None
