"""The global actions: their declarations (env) and their names (the bottom layer) agree."""

from __future__ import annotations

from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.actions import ANSWER, FINISH, GLOBAL_ACTION_NAMES, REPORT_INFEASIBLE


def test_every_global_action_name_is_declared_and_nothing_else() -> None:
    assert set(GLOBAL_ACTIONS) == GLOBAL_ACTION_NAMES == {FINISH, REPORT_INFEASIBLE, ANSWER}


def test_the_declarations_validate_their_arguments() -> None:
    assert GLOBAL_ACTIONS[REPORT_INFEASIBLE].parse_args({"reason": "no such room"}).model_dump() == {
        "reason": "no such room"
    }
    assert GLOBAL_ACTIONS[FINISH].parse_args({}).model_dump() == {}
