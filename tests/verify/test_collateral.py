"""The collateral-damage guard on every kind: outputs pass, unrelated changes fail, harmless ones pass."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from devicesworld.devices.android import providers as p
from devicesworld.devices.base import get_kind
from devicesworld.devices.state import StateSpec
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.verify.collateral import COLLATERAL_CHECK, Change, Permit, diff, harmless
from devicesworld.verify.evaluate import EvaluationResult
from tests.devices.linux.linux_harness import require_bwrap

SH = "smarthome_0"


def _task(
    devices: list[str], setup: list[dict[str, Any]], conditions: list[dict[str, Any]], **evaluation: Any
) -> Task:
    return Task.model_validate(
        {
            "id": "guard",
            "instruction": "Do the thing.",
            "devices": [{"id": d, "kind": d.rsplit("_", 1)[0]} for d in devices],
            "setup": setup,
            "evaluation": {"conditions": conditions, **evaluation},
        }
    )


@contextmanager
def _env(task: Task) -> Iterator[CrossDeviceEnv]:
    env = CrossDeviceEnv(task)
    env.reset()
    try:
        yield env
    finally:
        env.close()


def _guard(verdict: EvaluationResult, device: str) -> tuple[bool, str]:
    found = [c for c in verdict.conditions if c.check == COLLATERAL_CHECK and c.device == device]
    assert len(found) == 1, verdict.conditions
    assert found[0].required and not found[0].scored
    return found[0].passed, found[0].detail


def _step(env: CrossDeviceEnv, device: str | None, action: str, **args: Any) -> None:
    outcome = env.step({"device": device, "action": action, "args": args})
    assert outcome.result.ok, outcome.result.message


# --------------------------------------------------------------------------- the diff itself
def test_diff_names_what_appeared_vanished_and_changed() -> None:
    changes = diff({"a": "1", "b": "2", "c": "3"}, {"a": "1", "b": "9", "d": "4"})
    assert [str(c) for c in changes] == ["b changed", "c removed", "d added"]


def test_a_permit_allows_writes_harmless_paths_and_shared_writes_only() -> None:
    state = StateSpec(
        snapshot=lambda d: {}, harmless=("cache/*",), harmless_added=("inbox/*",), shared=("drive/*",)
    )
    permit = Permit(state, own=("out/x",), shared_writes=("drive/report.txt",))
    assert permit.allows("out/x") and permit.allows("cache/deep/file")
    assert permit.allows("drive/report.txt") and not permit.allows("drive/other.txt")
    assert permit.allows("inbox/7", "added") and not permit.allows("inbox/7", "removed")
    assert not permit.allows("out/y")
    assert harmless(state, Change("inbox/1", "added")) and not harmless(state, Change("inbox/1", "changed"))


# --------------------------------------------------------------------------------- smarthome
HOME_SETUP = [
    {"device": SH, "op": "add_room", "args": {"name": "study"}},
    {"device": SH, "op": "add_room", "args": {"name": "living"}},
    {
        "device": SH,
        "op": "add_device",
        "args": {"device_id": "ac", "category": "air_conditioner", "room": "study"},
    },
    {"device": SH, "op": "add_device", "args": {"device_id": "lamp", "category": "light", "room": "living"}},
]
AC_ON = {"id": "on", "device": SH, "check": "device_power", "args": {"device_id": "ac", "on": True}}


def test_home_output_passes_and_switching_an_unrelated_device_fails() -> None:
    task = _task([SH], HOME_SETUP, [AC_ON])
    with _env(task) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        ok, detail = _guard(env.evaluate(), SH)
        assert ok, detail
        _step(env, SH, "control_device", device_id="lamp", command="turn_on")
        verdict = env.evaluate()
    ok, detail = _guard(verdict, SH)
    assert not ok and not verdict.success
    assert "devices/lamp/power changed" in detail and "devices/lamp/commands/0 added" in detail


def test_home_another_attribute_of_the_output_device_is_collateral() -> None:
    """Issue 32: the write set's grain is the attribute — switching the AC on licenses its power,
    not a new target temperature beside it."""
    with _env(_task([SH], HOME_SETUP, [AC_ON])) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        _step(env, SH, "set_device_attribute", device_id="ac", attribute="target_temperature", value=22)
        verdict = env.evaluate()
    ok, detail = _guard(verdict, SH)
    assert not ok and "devices/ac/target_temperature changed" in detail and verdict.score == 0.0


def test_home_switching_a_device_back_still_counts_and_time_passing_is_harmless() -> None:
    task = _task([SH], HOME_SETUP, [AC_ON])
    with _env(task) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        _step(env, SH, "advance_time", minutes=120)  # room physics and sensors drift
        assert env.evaluate().success
        _step(env, SH, "control_device", device_id="lamp", command="turn_on")
        _step(env, SH, "control_device", device_id="lamp", command="turn_off")
        ok, detail = _guard(env.evaluate(), SH)
    assert not ok and "lamp" in detail and "power" not in detail


def test_home_a_schedule_on_an_unrelated_device_fails() -> None:
    task = _task([SH], HOME_SETUP, [AC_ON])
    with _env(task) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        _step(env, SH, "create_schedule", device_id="lamp", command="turn_on", delay_minutes=30)
        ok, detail = _guard(env.evaluate(), SH)
    assert not ok and "devices/lamp/schedules/" in detail


def test_an_infeasible_task_that_acts_before_reporting_fails() -> None:
    reported = {"id": "r", "device": "env", "check": "infeasible_reported", "args": {}}
    task = _task([SH], HOME_SETUP, [reported])
    with _env(task) as env:
        _step(env, SH, "get_device_state", device_id="lamp")  # looking is fine
        _step(env, None, "report_infeasible", reason="there is no oven")
        assert env.evaluate().success
    with _env(task) as env:
        _step(env, SH, "control_device", device_id="lamp", command="turn_on")
        _step(env, None, "report_infeasible", reason="there is no oven")
        verdict = env.evaluate()
    assert not verdict.success and not _guard(verdict, SH)[0]


def test_explicit_writes_license_what_no_check_names_and_opting_out_needs_a_reason() -> None:
    task = _task([SH], HOME_SETUP, [AC_ON], writes={SH: ["devices/lamp/*"]})
    with _env(task) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        _step(env, SH, "control_device", device_id="lamp", command="turn_on")
        assert env.evaluate().success
    off = _task([SH], HOME_SETUP, [AC_ON], collateral={"guard": False, "reason": "a free-play sandbox task"})
    with _env(off) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        _step(env, SH, "control_device", device_id="lamp", command="turn_on")
        verdict = env.evaluate()
    assert verdict.success and not any(c.check == COLLATERAL_CHECK for c in verdict.conditions)
    with pytest.raises(ValueError, match="reason"):
        _task([SH], HOME_SETUP, [AC_ON], collateral={"guard": False})
    with pytest.raises(ValueError, match="android_3"):
        _task([SH], HOME_SETUP, [AC_ON], writes={"android_3": ["x"]})


def test_a_room_condition_licenses_the_devices_in_that_room() -> None:
    cool = {
        "id": "cool",
        "device": SH,
        "check": "room_condition",
        "args": {"room": "study", "variable": "temperature", "max": 40},
    }
    task = _task([SH], HOME_SETUP, [cool])
    with _env(task) as env:
        _step(env, SH, "control_device", device_id="ac", command="turn_on")
        assert _guard(env.evaluate(), SH)[0]
        _step(env, SH, "control_device", device_id="lamp", command="turn_on")
        assert not _guard(env.evaluate(), SH)[0]


# ----------------------------------------------------------------------------------- android
A0, A1 = "android_0", "android_1"
PHONE_SETUP = [
    {"device": A0, "op": "add_contact", "args": {"name": "Alice Moreau", "phone": "+1 555 0101"}},
    {"device": A0, "op": "add_contact", "args": {"name": "Bruno Diaz", "phone": "+1 555 0102"}},
]
BOB = {"id": "bob", "device": A0, "check": "contact_exists", "args": {"name": "Bob Stone"}}


def test_phone_output_passes_and_deleting_an_unrelated_contact_fails() -> None:
    task = _task([A0], PHONE_SETUP, [BOB])
    with _env(task) as env:
        storage = env.device(A0).storage  # type: ignore[attr-defined]
        p.add_contact(storage, "Bob Stone", {"phone": "+1 555 0199"})
        _step(env, A0, "open_app", app_name="Contacts")  # app state and UI are harmless
        assert env.evaluate().success
        bruno = next(c for c in p.contacts(storage) if c["name"] == "Bruno Diaz")
        p.delete_contact(storage, bruno["id"])
        verdict = env.evaluate()
    ok, detail = _guard(verdict, A0)
    assert not ok and f"contacts/bruno diaz/{bruno['id']} removed" in detail


def test_phone_a_text_to_another_number_is_damage_but_one_that_arrives_is_not() -> None:
    to_alice = {
        "id": "sent",
        "device": A0,
        "check": "sms_sent",
        "args": {"to": "+1 555 0101", "contains": ["hi"]},
    }
    task = _task([A0], PHONE_SETUP, [to_alice])
    with _env(task) as env:
        storage = env.device(A0).storage  # type: ignore[attr-defined]
        now = env.clock.now
        p.add_sms(storage, "5550101", "hi there", now, sent=True)  # another spelling of the number
        p.add_sms(storage, "+1 555 0177", "your code is 1234", now, sent=False)  # arrives: harmless
        assert env.evaluate().success
        p.add_sms(storage, "+1 555 0102", "hi", now, sent=True)
        ok, detail = _guard(env.evaluate(), A0)
    assert not ok and "sms/sent/5550102/" in detail


def test_phone_turning_airplane_mode_on_may_switch_the_radios_it_switches() -> None:
    airplane = {
        "id": "a",
        "device": A0,
        "check": "setting_is",
        "args": {"table": "global", "name": "airplane_mode_on", "value": "1"},
    }
    task = _task([A0], [], [airplane])
    with _env(task) as env:
        from devicesworld.devices.android.system.radios import set_airplane

        set_airplane(env.device(A0).storage, True)  # type: ignore[attr-defined]
        assert env.evaluate().success
        env.device(A0).storage.put_setting("secure", "ui_night_mode", "2")  # type: ignore[attr-defined]
        ok, detail = _guard(env.evaluate(), A0)
    assert not ok and "settings/secure/ui_night_mode changed" in detail


def test_phone_the_guard_stands_on_each_device_of_the_task() -> None:
    task = _task([A0, A1], PHONE_SETUP, [BOB])
    with _env(task) as env:
        p.add_contact(env.device(A0).storage, "Bob Stone", {})  # type: ignore[attr-defined]
        p.add_contact(env.device(A1).storage, "Bob Stone", {})  # type: ignore[attr-defined]
        verdict = env.evaluate()
    assert _guard(verdict, A0)[0]
    ok, detail = _guard(verdict, A1)
    assert not ok and "contacts/bob stone/" in detail


# ------------------------------------------------------------------------------------- linux
L0 = "linux_0"
DESK_SETUP = [
    {"device": L0, "op": "write_text", "args": {"path": "~/Documents/plan.txt", "content": "plan"}},
    {"device": L0, "op": "write_text", "args": {"path": "~/Documents/budget.txt", "content": "budget"}},
]
NOTE = {
    "id": "note",
    "device": L0,
    "check": "file_contains",
    "args": {"path": "~/notes/out.txt", "contains": ["42"]},
}


def test_desktop_output_passes_and_deleting_an_unrelated_file_fails() -> None:
    require_bwrap()
    task = _task([L0], DESK_SETUP, [NOTE])
    with _env(task) as env:
        _step(env, L0, "write_file", path="~/notes/out.txt", content="answer 42\n")
        _step(env, L0, "run_command", command="mkdir -p ~/.cache/app && echo x > ~/.cache/app/blob")
        assert env.evaluate().success
        _step(env, L0, "delete_file", path="~/Documents/budget.txt")
        verdict = env.evaluate()
    ok, detail = _guard(verdict, L0)
    assert not ok and detail.endswith("files/Documents/budget.txt removed")


def test_desktop_editing_an_unrelated_file_fails_and_a_new_drive_file_is_harmless() -> None:
    require_bwrap()
    task = _task([L0], DESK_SETUP, [NOTE])
    with _env(task) as env:
        _step(env, L0, "write_file", path="~/notes/out.txt", content="42")
        _step(env, L0, "write_file", path="~/Drive/out-copy.txt", content="42")  # how files cross devices
        assert env.evaluate().success
        _step(env, L0, "write_file", path="~/Documents/plan.txt", content="changed")
        ok, detail = _guard(env.evaluate(), L0)
    assert not ok and "files/Documents/plan.txt changed" in detail


def test_every_check_names_its_outputs_or_is_a_known_guard() -> None:
    guards = {
        "sms_not_sent",
        "foreground_is",
        "file_unchanged",
        "page_visited",
        "no_schedule",
        "no_agent_commands",
        # a GUI desktop's window titles and element texts: live app state, not in the
        # collateral snapshot (files), so they license no change
        "window_title",
        "element_text",
    }
    for name in ("android", "linux", "smarthome"):
        kind = get_kind(name)
        assert kind is not None and kind.state is not None and kind.state.stray is not None
        unnamed = {c for c, spec in kind.checks.items() if spec.writes is None} - guards
        assert not unnamed, f"{name} checks without a write set: {sorted(unnamed)}"


def test_an_unreadable_final_state_fails_the_guard_without_crashing_the_evaluation() -> None:
    task = _task([SH], HOME_SETUP, [AC_ON])
    with _env(task) as env:
        home = env.device(SH).home  # type: ignore[attr-defined]
        saved, home.rooms = home.rooms, None  # the snapshot can no longer read the rooms
        verdict = env.evaluate()
        home.rooms = saved
    ok, detail = _guard(verdict, SH)
    assert not ok and detail.startswith("could not read the device's final state: TypeError")


def test_row_digests_are_remembered_without_changing_them() -> None:
    from devicesworld.devices.state import digest, row_digest

    rows: list[dict[str, object]] = [
        {"a": 1, "b": "x"},
        {"a": True, "b": "x"},
        {"b": "x", "a": 1},
        {"a": None},
        {"a": 0.0},
        {"a": -0.0},
        {"a": [1, 2]},
        {"a": {"k": 1}},
    ]
    for _ in range(2):  # miss, then hit
        assert [row_digest(r) for r in rows] == [digest(r) for r in rows]
    assert row_digest({"a": 1}) != row_digest({"a": True})
    assert row_digest({"a": 0.0}) != row_digest({"a": -0.0})


def test_a_failed_guard_zeroes_the_score() -> None:
    """Issue 32: the printed score agrees with the verdict (no "success: False, score: 1.00")."""
    from devicesworld.verify.evaluate import ConditionResult, aggregate

    out = ConditionResult(id="c1", device="home", check="device_power", passed=True, detail="on")
    guard = ConditionResult(
        id="no_collateral_damage.home",
        device="home",
        check="no_collateral_damage",
        passed=False,
        detail="devices/lamp/power changed",
        scored=False,
    )
    assert aggregate([out]).score == 1.0
    damaged = aggregate([out, guard])
    assert not damaged.success and damaged.score == 0.0
    assert aggregate([out, guard.model_copy(update={"passed": True})]).score == 1.0
