"""check_kind: every registered kind conforms, and a broken kind is told exactly what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import pytest
from pydantic import ConfigDict

import devicesworld
from devicesworld.devices import check_kind
from devicesworld.devices.base import (
    ActionResult,
    ActionSpec,
    Args,
    CheckOutcome,
    DeviceContext,
    DeviceKind,
    GetterFn,
    KindTraits,
    NoArgs,
    kind_names,
    register_kind,
)
from devicesworld.devices.conformance import KindCheckError
from devicesworld.devices.declare import ActionTable, CheckTable, GetterTable, OpTable
from tests.devices.desktop.desktop_harness import require_gui_stack
from tests.devices.windows.windows_harness import require_windows_stack


@pytest.mark.parametrize("name", kind_names())
def test_every_registered_kind_conforms(name: str) -> None:
    if name == "windows":  # its probe device is a Wine desktop
        require_windows_stack()
    assert check_kind(name) == []


def test_check_kind_is_public() -> None:
    from devicesworld import api

    assert api.check_kind is check_kind
    assert devicesworld.check_kind("toy") == []


# --- a kind that gets everything wrong ---------------------------------------------------
class Loose(Args):
    model_config = ConfigDict(extra="allow", frozen=True)
    n: int = 0


ACTIONS: ActionTable[Broken] = ActionTable("broken")
OPS: OpTable[Broken] = OpTable("broken")
GETTERS: GetterTable[Broken] = GetterTable("broken")
CHECKS = CheckTable("broken")


class Broken:
    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.closed = False

    def setup(self, op: str, args: Args) -> None:
        pass  # ignores ops it does not have

    def act(self, action: str, args: Args) -> ActionResult:
        return ACTIONS.call(self, action, args)  # raises on a bad action instead of failing

    def observe(self) -> dict[str, Any]:
        return {"when": datetime(2026, 1, 1)}

    def get(self, getter: str, args: Args) -> object:
        return GETTERS.call(self, getter, args)

    def close(self) -> None:
        if self.closed:
            raise RuntimeError("already closed")
        self.closed = True

    @ACTIONS.register("loose", doc="Takes anything.", args=Loose)
    def loose(self, args: Loose) -> ActionResult:
        return ActionResult.success()

    @GETTERS.register("tags", doc="")
    def tags(self, args: NoArgs) -> object:
        return {"a", "b"}


@CHECKS.register("fine", doc="Returns the wrong thing.")
def fine(get: GetterFn, args: NoArgs) -> CheckOutcome:
    return "yes"  # type: ignore[return-value]


BROKEN = DeviceKind(
    name="broken",
    doc="A kind that breaks every rule check_kind knows.",
    factory=Broken,
    actions={**ACTIONS, "orphan": ActionSpec(name="orphan", doc="Declared, never handled.")},
    setup_ops=OPS,
    getters=GETTERS,
    checks=CHECKS,
    traits=KindTraits(
        noun="gadget", shared_checks=frozenset({"no_such_check"}), day_checks=frozenset({"no_day_check"})
    ),
)


def test_a_broken_kind_gets_one_problem_per_fault() -> None:
    problems = check_kind(BROKEN)
    text = "\n".join(problems)
    expected = [
        "action 'orphan' has no handler",
        "args model Loose does not forbid unknown fields",
        "getter 'tags' has no doc",
        "traits.shared_checks names checks the kind does not have: no_such_check",
        "traits.day_checks names checks the kind does not have: no_day_check",
        "traits give a noun without a place",
        "observe() returned data that is not JSON-able",
        "an undeclared action raised DeviceError",
        "action 'loose' with arguments of another model raised DeviceError",
        "action 'orphan' with arguments of another model raised DeviceError",
        "setup of an undeclared op did not fail",
        "getter 'tags' returned data that is not JSON-able",
        "check 'fine' returned str, not a CheckOutcome",
        "a second close() raised RuntimeError",
    ]
    for fragment in expected:
        assert fragment in text, f"missing {fragment!r} in:\n{text}"
    assert len(problems) == len(expected), text


def test_strict_raises_with_every_problem() -> None:
    with pytest.raises(KindCheckError) as info:
        check_kind(BROKEN, strict=True)
    assert info.value.kind == "broken"
    assert info.value.problems == check_kind(BROKEN)
    assert "does not conform" in str(info.value)


def test_unknown_names_and_failing_factories_are_problems_not_tracebacks() -> None:
    assert check_kind("nosuchkind") == ["no device kind named 'nosuchkind' is registered"]

    def explode(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> Broken:
        raise OSError("no such hardware")

    kind = DeviceKind(
        name="exploding",
        doc="Cannot be built.",
        factory=explode,
        actions={},
        setup_ops={},
        getters={},
        checks={},
    )
    assert check_kind(kind) == [
        "the factory failed to build exploding_0 with profile {}: OSError: no such hardware"
    ]


@pytest.mark.parametrize("name", ["smart_home", "Phone", "2d", "tv-box", ""])
def test_a_name_no_device_id_can_carry_is_refused(name: str) -> None:
    kind = DeviceKind(name=name, doc="x", factory=Broken, actions={}, setup_ops={}, getters={}, checks={})
    with pytest.raises(ValueError, match="device ids are '<kind>_<n>'"):
        register_kind(kind)
    assert any("is not allowed" in p for p in check_kind(kind))


def test_a_gui_desktop_profile_conforms_with_its_own_action_table() -> None:
    require_gui_stack()
    assert check_kind("linux", profile={"desktop": "gui"}) == []


def test_a_profile_action_table_is_checked_and_probed() -> None:
    def profiled(profile: Mapping[str, Any]) -> Mapping[str, ActionSpec]:
        return ACTIONS if profile.get("mode") == "loose" else {}

    kind = DeviceKind(
        name="moody",
        doc="Its actions depend on the profile.",
        factory=Broken,
        actions={},
        setup_ops={},
        getters={},
        checks={},
        profile_actions=profiled,
    )
    plain = "\n".join(check_kind(kind))
    assert "Loose" not in plain and "'loose'" not in plain
    loose = "\n".join(check_kind(kind, profile={"mode": "loose"}))
    assert "action (of this profile) 'loose': args model Loose does not forbid unknown fields" in loose
    assert "action 'loose' with arguments of another model raised DeviceError" in loose
