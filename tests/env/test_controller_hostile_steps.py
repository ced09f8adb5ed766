"""Hostile steps from an agent: huge names and values are echoed bounded, true is not a number."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.env import CrossDeviceEnv
from devicesworld.runner.play import parse_command
from devicesworld.spec import Task
from tests.toykind import toy_task

HUGE = "z" * 3_000_000


@pytest.mark.parametrize(
    ("step", "code"),
    [
        ({"device": HUGE, "action": "press"}, "UNKNOWN_DEVICE"),
        ({"device": "toy_0", "action": HUGE}, "UNKNOWN_ACTION"),
        ({"action": HUGE}, "INVALID_ACTION"),
        ({"device": "toy_0", "action": "set_value", "args": {HUGE: 1}}, "INVALID_ARGS"),
    ],
)
def test_feedback_quotes_huge_input_bounded(step: dict[str, Any], code: str) -> None:
    with CrossDeviceEnv(Task.model_validate(toy_task())) as env:
        env.reset()
        result = env.step(step).result
        assert not result.ok and result.error_code == code
        assert len(result.message) < 1000 and "chars)" in result.message


@pytest.mark.parametrize("value", [True, "3"])
def test_an_action_argument_that_is_not_a_number_is_rejected(value: Any) -> None:
    with CrossDeviceEnv(Task.model_validate(toy_task())) as env:
        env.reset()
        result = env.step({"device": "toy_0", "action": "set_value", "args": {"value": value}}).result
        assert result.error_code == "INVALID_ARGS" and "expected a number" in result.message


def test_a_played_line_nested_100k_deep_is_a_message_not_a_crash() -> None:
    assert "nested too deeply" in str(parse_command('{"a":' + "[" * 100_000))
    assert "nested too deeply" in str(parse_command("toy_0 press " + "[" * 100_000))
    assert parse_command('{"action": "finish"}') == {"action": "finish"}
