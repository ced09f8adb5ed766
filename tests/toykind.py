"""A tiny device kind for testing the framework without any real device.

A ``toy`` device holds one integer. It exists so that the controller, loader,
verifier and runner are tested against the protocol, not against SmartHome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from devicesworld.devices.base import (
    ActionResult,
    Args,
    CheckOutcome,
    DeviceContext,
    DeviceError,
    DeviceKind,
    GetterFn,
    NoArgs,
    register_kind,
)
from devicesworld.devices.declare import ActionTable, CheckTable, GetterTable, OpTable

CLOSED: list[str] = []
"""Ids of toy devices whose close() ran, in order (for cleanup tests)."""


class ValueArgs(Args):
    value: int = Field(ge=0, le=10)


class ValueIsArgs(Args):
    equals: int


ACTIONS: ActionTable[ToyDevice] = ActionTable("toy")
SETUP_OPS: OpTable[ToyDevice] = OpTable("toy")
GETTERS: GetterTable[ToyDevice] = GetterTable("toy")
CHECKS = CheckTable("toy")


class ToyDevice:
    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.value = 0
        self.context = context
        self.dead = False
        self.dies_at = int(profile.get("dies_at_action", 0))
        """With profile ``dies_at_action: N`` the device dies at its Nth action (a lost connection)."""
        self.acted = 0

    def setup(self, op: str, args: Args) -> None:
        SETUP_OPS.call(self, op, args)

    def act(self, action: str, args: Args) -> ActionResult:
        self.acted += 1
        if self.dead:
            raise ConnectionResetError("the toy does not answer")
        if self.acted == self.dies_at:
            self.dead = True
            raise BrokenPipeError("the toy's connection was lost")
        return ACTIONS.act(self, action, args)

    def observe(self) -> dict[str, Any]:
        if self.dead:
            raise ConnectionResetError("the toy does not answer")
        return {"screen": "a toy"}

    def get(self, getter: str, args: Args) -> object:
        return GETTERS.call(self, getter, args)

    def close(self) -> None:
        CLOSED.append(self.device_id)

    def screenshot(self) -> bytes | None:
        return b"\x89PNG toy " + str(self.value).encode()

    @ACTIONS.register("press", doc="Add one.")
    def press(self, args: NoArgs) -> ActionResult:
        self.value += 1
        return ActionResult.success(f"value is now {self.value}")

    @ACTIONS.register("set_value", doc="Set the value.", args=ValueArgs)
    def set_value(self, args: ValueArgs) -> ActionResult:
        self.value = args.value
        return ActionResult.success(f"value set to {self.value}")

    @ACTIONS.register("read", doc="Read the value.")
    def read(self, args: NoArgs) -> ActionResult:
        return ActionResult.success("read", data={"value": self.value, "name": "toy-thing"})

    @ACTIONS.register("crash", doc="Raise an unexpected error.")
    def crash(self, args: NoArgs) -> ActionResult:
        raise RuntimeError("boom")

    @SETUP_OPS.register("set", doc="Set the value.", args=ValueArgs)
    def set(self, args: ValueArgs) -> None:
        self.value = args.value

    @SETUP_OPS.register("explode", doc="Fail.")
    def explode(self, args: NoArgs) -> None:
        raise DeviceError("BROKEN", "setup exploded on purpose")

    @GETTERS.register("state", doc="The value.", args=NoArgs)
    def state(self, args: NoArgs) -> object:
        return {"value": self.value}


@CHECKS.register("value_is", doc="Value equals.", args=ValueIsArgs)
def _value_is(get: GetterFn, args: ValueIsArgs) -> CheckOutcome:
    value = get("state", {})["value"]
    return CheckOutcome(passed=value == args.equals, detail=f"toy.value = {value}, expected {args.equals}")


TOY = DeviceKind(
    name="toy",
    doc="A device holding one integer.",
    factory=ToyDevice,
    actions=ACTIONS,
    setup_ops=SETUP_OPS,
    getters=GETTERS,
    checks=CHECKS,
)


def toy_task(**overrides: Any) -> dict[str, Any]:
    """A valid toy task document: set the value to 3 (starting at 1)."""
    doc: dict[str, Any] = {
        "id": "toy-1",
        "instruction": "Make the toy show 3.",
        "devices": [{"id": "toy_0", "kind": "toy"}],
        "setup": [{"device": "toy_0", "op": "set", "args": {"value": 1}}],
        "evaluation": {
            "conditions": [
                {"id": "is3", "device": "toy_0", "check": "value_is", "args": {"equals": 3}},
                {
                    "id": "not-infeasible",
                    "device": "env",
                    "check": "not_infeasible_reported",
                    "scored": False,
                },
            ]
        },
        "solution": [
            {"device": "toy_0", "action": "press"},
            {"device": "toy_0", "action": "press"},
            {"action": "finish"},
        ],
        "metadata": {"pattern": "device_state_control", "difficulty": "easy"},
    }
    doc.update(overrides)
    return doc


register_kind(TOY)


class SlowAgent:
    """Presses once per step and sleeps a little: long enough to be killed mid-run."""

    def __init__(self, options: Any) -> None:
        pass

    def start(self, info: Any) -> None:
        pass

    def act(self, observation: Any, feedback: Any) -> Any:
        import time

        from devicesworld.agents.base import Decision
        from devicesworld.spec.models import Step

        time.sleep(0.05)
        return Decision(action=Step(device="toy_0", action="press"))


class CrashingAgent:
    def __init__(self, options: Any) -> None:
        pass

    def start(self, info: Any) -> None:
        pass

    def act(self, observation: Any, feedback: Any) -> Any:
        raise ValueError("bad model")
