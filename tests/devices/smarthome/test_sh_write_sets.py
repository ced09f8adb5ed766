"""Write sets at the grain of what was asked (issue 32): a check licenses its device's attributes
and commands, not its schedules; schedule_exists licenses only the schedules that run its command;
a no-op command and a schedule made and cancelled leave no trace."""

from __future__ import annotations

from typing import Any

from tests.verify.test_collateral import HOME_SETUP, SH, _env, _guard, _step, _task

AC_TEMP = {
    "id": "temp",
    "device": SH,
    "check": "device_attribute",
    "args": {"device_id": "ac", "attribute": "target_temperature", "equals": 22},
}
LAMP_ON_LATER: dict[str, Any] = {
    "id": "sched",
    "device": SH,
    "check": "schedule_exists",
    "args": {"device_id": "lamp", "command": "turn_on"},
}


def _set_ac(env: Any) -> None:
    _step(env, SH, "control_device", device_id="ac", command="turn_on")
    _step(env, SH, "set_device_attribute", device_id="ac", attribute="target_temperature", value=22)


def test_setting_the_output_passes() -> None:
    with _env(_task([SH], HOME_SETUP, [AC_TEMP])) as env:
        _set_ac(env)
        verdict = env.evaluate()
    assert verdict.success and _guard(verdict, SH)[0]


def test_a_schedule_that_undoes_the_output_on_its_own_device_fails() -> None:
    with _env(_task([SH], HOME_SETUP, [AC_TEMP])) as env:
        _set_ac(env)
        _step(
            env, SH, "create_schedule", device_id="ac", command="set_target_temperature",
            params={"temperature": 25}, at="22:00",
        )  # fmt: skip
        verdict = env.evaluate()
    ok, detail = _guard(verdict, SH)
    assert not ok and "devices/ac/schedules/" in detail
    assert not verdict.success and verdict.score == 0.0


def test_a_no_op_command_is_no_damage() -> None:
    with _env(_task([SH], HOME_SETUP, [AC_TEMP])) as env:
        _set_ac(env)
        _step(env, SH, "control_device", device_id="lamp", command="turn_off")  # already off
        verdict = env.evaluate()
    assert verdict.success, _guard(verdict, SH)[1]


def test_a_schedule_made_and_cancelled_is_no_damage() -> None:
    with _env(_task([SH], HOME_SETUP, [AC_TEMP])) as env:
        _set_ac(env)
        out = env.step(
            {
                "device": SH,
                "action": "create_schedule",
                "args": {"device_id": "lamp", "command": "turn_on", "delay_minutes": 30},
            }
        )
        schedule_id = out.result.data["schedule_id"] if isinstance(out.result.data, dict) else None
        assert schedule_id, out.result
        _step(env, SH, "cancel_schedule", schedule_id=schedule_id)
        verdict = env.evaluate()
    assert verdict.success, _guard(verdict, SH)[1]


def test_schedule_exists_licenses_its_own_schedule_only() -> None:
    task = _task([SH], HOME_SETUP, [LAMP_ON_LATER])
    with _env(task) as env:
        _step(env, SH, "create_schedule", device_id="lamp", command="turn_on", at="13:30")
        assert env.evaluate().success
        _step(env, SH, "create_schedule", device_id="lamp", command="turn_off", at="13:31")  # undoes it
        verdict = env.evaluate()
    ok, detail = _guard(verdict, SH)
    assert not ok and "devices/lamp/schedules/" in detail and not verdict.success
