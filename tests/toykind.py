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
    ActionSpec,
    Args,
    CheckOutcome,
    CheckSpec,
    DeviceContext,
    DeviceError,
    DeviceKind,
    GetterFn,
    GetterSpec,
    NoArgs,
    OpSpec,
    by_name,
    register_kind,
)

CLOSED: list[str] = []
"""Ids of toy devices whose close() ran, in order (for cleanup tests)."""


class ValueArgs(Args):
    value: int = Field(ge=0, le=10)


class ValueIsArgs(Args):
    equals: int


class ToyDevice:
    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.value = 0
        self.context = context

    def setup(self, op: str, args: Any) -> None:
        if op == "set":
            self.value = args.value
        elif op == "explode":
            raise DeviceError("BROKEN", "setup exploded on purpose")

    def act(self, action: str, args: Any) -> ActionResult:
        if action == "press":
            self.value += 1
            return ActionResult.success(f"value is now {self.value}")
        if action == "set_value":
            self.value = args.value
            return ActionResult.success(f"value set to {self.value}")
        if action == "read":
            return ActionResult.success("read", data={"value": self.value, "name": "toy-thing"})
        if action == "crash":
            raise RuntimeError("boom")
        return ActionResult.failure("UNSUPPORTED", action)

    def observe(self) -> dict[str, Any]:
        return {"screen": "a toy"}

    def get(self, getter: str, args: Any) -> Any:
        return {"value": self.value}

    def close(self) -> None:
        CLOSED.append(self.device_id)

    def screenshot(self) -> bytes | None:
        return b"\x89PNG toy " + str(self.value).encode()


def _value_is(get: GetterFn, args: ValueIsArgs) -> CheckOutcome:
    value = get("state", {})["value"]
    return CheckOutcome(passed=value == args.equals, detail=f"toy.value = {value}, expected {args.equals}")


TOY = DeviceKind(
    name="toy",
    doc="A device holding one integer.",
    factory=ToyDevice,
    actions=by_name(
        [
            ActionSpec(name="press", doc="Add one."),
            ActionSpec(name="set_value", doc="Set the value.", args_model=ValueArgs),
            ActionSpec(name="read", doc="Read the value."),
            ActionSpec(name="crash", doc="Raise an unexpected error."),
        ]
    ),
    setup_ops=by_name(
        [OpSpec(name="set", doc="Set the value.", args_model=ValueArgs), OpSpec(name="explode", doc="Fail.")]
    ),
    getters=by_name([GetterSpec(name="state", doc="The value.", args_model=NoArgs)]),
    checks=by_name([CheckSpec(name="value_is", doc="Value equals.", args_model=ValueIsArgs, fn=_value_is)]),
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
