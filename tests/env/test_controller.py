from __future__ import annotations

from typing import Any

import pytest

from devicesworld.devices.base import ActionResult
from devicesworld.env import CrossDeviceEnv, EnvError
from devicesworld.spec import Task
from tests import toykind
from tests.toykind import toy_task


def _env(**overrides: Any) -> CrossDeviceEnv:
    return CrossDeviceEnv(Task.model_validate(toy_task(**overrides)))


def test_reset_observe_and_solution_passes() -> None:
    with _env() as env:
        obs = env.reset()
        assert obs == {"toy_0": {"kind": "toy", "screen": "a toy"}}
        assert env.step({"device": "toy_0", "action": "press"}).result.ok
        assert env.step({"device": "toy_0", "action": "press"}).result.ok
        out = env.step({"action": "finish"})
        assert out.done and out.termination == "finished"
        verdict = env.evaluate()
        assert verdict.success and verdict.score == 1.0


@pytest.mark.parametrize(
    ("step", "code", "text"),
    [
        ({"device": "toy_7", "action": "press"}, "UNKNOWN_DEVICE", "this task's devices are toy_0"),
        ({"device": "toy_0", "action": "fly"}, "UNKNOWN_ACTION", "available: press"),
        ({"device": "toy_0", "action": "set_value", "args": {"value": 11}}, "INVALID_ARGS", "value"),
        (
            {"device": "toy_0", "action": "set_value", "args": {"valu": 1}},
            "INVALID_ARGS",
            "valu: unknown field",
        ),
        ({"device": "toy_0"}, "INVALID_ACTION", "action: Field required"),
        ({"action": "press"}, "INVALID_ACTION", "needs a target device"),
        ({"device": "toy_0", "action": "crash"}, "INTERNAL_ERROR", "RuntimeError: boom"),
        ({"action": "report_infeasible", "args": {}}, "INVALID_ARGS", "reason"),
    ],
)
def test_bad_steps_fail_clearly_and_count(step: dict[str, Any], code: str, text: str) -> None:
    with _env() as env:
        env.reset()
        out = env.step(step)
        assert not out.result.ok
        assert out.result.error_code == code
        assert text in out.result.message
        assert out.step == 1 and env.steps == 1 and not out.done


def test_budget_exhaustion_ends_episode() -> None:
    with _env(limits={"max_steps": 3}) as env:
        env.reset()
        outs = [env.step({"device": "toy_0", "action": "read"}) for _ in range(3)]
        assert [o.done for o in outs] == [False, False, True]
        assert env.termination == "budget_exhausted"
        late = env.step({"device": "toy_0", "action": "press"})
        assert late.result.error_code == "EPISODE_OVER" and env.steps == 3


def test_report_infeasible_records_reason() -> None:
    doc = toy_task()
    doc["evaluation"]["conditions"] = [
        {"id": "rep", "device": "env", "check": "infeasible_reported", "args": {"keywords": ["broken"]}}
    ]
    with CrossDeviceEnv(Task.model_validate(doc)) as env:
        env.reset()
        out = env.step({"action": "report_infeasible", "args": {"reason": "The toy is BROKEN"}})
        assert out.termination == "infeasible_reported"
        verdict = env.evaluate()
        assert verdict.success
        assert "BROKEN" in verdict.conditions[0].detail


def test_answer_is_kept_for_checks_and_does_not_end_the_episode() -> None:
    doc = toy_task()
    doc["evaluation"]["conditions"] = [
        {"id": "ans", "device": "env", "check": "answer_contains", "args": {"values": ["42", "Blue"]}}
    ]
    with CrossDeviceEnv(Task.model_validate(doc)) as env:
        env.reset()
        assert env.evaluate().conditions[0].detail == "the agent never answered"
        assert env.step({"action": "answer", "args": {"text": "blue, 41"}}).result.ok
        assert not env.evaluate().success
        out = env.step({"action": "answer", "args": {"text": "It is  BLUE and 42"}})
        assert out.result.ok and not out.done and env.steps == 2
        assert env.getter_for("env")("episode", {})["answer"] == "It is  BLUE and 42"
        assert env.evaluate().success
        empty = env.step({"action": "answer", "args": {"text": ""}})
        assert empty.result.error_code == "INVALID_ARGS" and env.answer == "It is  BLUE and 42"
        env.reset()
        assert env.answer is None


def test_a_refused_step_counts_like_a_failed_one() -> None:
    with _env(limits={"max_steps": 2}) as env:
        env.reset()
        out = env.refuse(ActionResult.failure("STALE_INDEX", "no element 9"))
        assert not out.result.ok and out.step == 1 and env.steps == 1 and not out.done
        assert env.refuse(ActionResult.failure("UNKNOWN_ACTION", "nothing")).done
        late = env.refuse(ActionResult.failure("X", "y"))
        assert late.result.error_code == "EPISODE_OVER" and env.steps == 2


def test_partial_score_counts_scored_conditions_only() -> None:
    doc = toy_task()
    doc["evaluation"]["conditions"] = [
        {"id": "a", "device": "toy_0", "check": "value_is", "args": {"equals": 1}},
        {"id": "b", "device": "toy_0", "check": "value_is", "args": {"equals": 2}},
        {"id": "c", "device": "toy_0", "check": "value_is", "args": {"equals": 2}, "scored": False},
        {"id": "d", "device": "toy_0", "check": "value_is", "args": {"equals": 1}, "required": False},
    ]
    with CrossDeviceEnv(Task.model_validate(doc)) as env:
        env.reset()
        verdict = env.evaluate()
    assert not verdict.success
    assert verdict.score == pytest.approx(2 / 3)
    assert [c.passed for c in verdict.conditions] == [True, False, False, True]
    assert verdict.conditions[1].detail == "toy.value = 1, expected 2"


def test_cleanup_runs_after_setup_failure() -> None:
    toykind.CLOSED.clear()
    doc = toy_task()
    doc["devices"].append({"id": "toy_1", "kind": "toy"})
    doc["setup"].append({"device": "toy_1", "op": "explode"})
    env = CrossDeviceEnv(Task.model_validate(doc))
    with pytest.raises(EnvError, match=r"setup.1 \(explode\): BROKEN: setup exploded on purpose"):
        env.reset()
    assert toykind.CLOSED == ["toy_0", "toy_1"]
    assert env.step({"action": "finish"}).result.error_code == "NOT_RUNNING"


def test_close_is_idempotent_and_reset_restarts() -> None:
    toykind.CLOSED.clear()
    env = _env()
    env.reset()
    env.step({"device": "toy_0", "action": "press"})
    env.reset()
    assert toykind.CLOSED == ["toy_0"]
    assert env.steps == 0
    assert env.getter_for("toy_0")("state", {}) == {"value": 1}
    env.close()
    env.close()
    assert toykind.CLOSED == ["toy_0", "toy_0"]


def test_action_spaces_are_data() -> None:
    env = _env()
    spaces = env.action_spaces()
    names = {a["name"] for a in spaces["toy_0"]}
    assert names == {"press", "set_value", "read", "crash"}
    set_value = next(a for a in spaces["toy_0"] if a["name"] == "set_value")
    assert set_value["args_schema"]["properties"]["value"]["maximum"] == 10
    assert {a["name"] for a in spaces["*"]} == {"finish", "report_infeasible", "answer"}


def test_virtual_clock_starts_at_task_time() -> None:
    env = _env(start_time="2026-05-01T07:30:00")
    env.reset()
    assert env.clock.now.isoformat() == "2026-05-01T07:30:00"
    env.close()
