"""A device kind and an agent that wait, for the scale benchmark's pre-warming figures.

The shipped SmartHome setup is a fraction of a millisecond of CPU, too cheap for
pre-warming to show. Here setup waits as a sandbox or browser start does and the agent
waits as one calling a model server does. A module of its own (not the benchmark
script) so that spawned worker processes can import it.
"""

from __future__ import annotations

import time
from typing import Any

from devicesworld.agents.base import Decision, EpisodeInfo
from devicesworld.devices.base import (
    ActionResult,
    ActionSpec,
    DeviceContext,
    DeviceKind,
    GetterSpec,
    NoArgs,
    by_name,
    register_kind,
)
from devicesworld.spec import Task
from devicesworld.spec.models import Step

SETUP_WAIT_S = 0.020
THINK_S = 0.010
STEPS = 3


class WaitingDevice:
    def __init__(self, device_id: str, profile: dict[str, Any], context: DeviceContext) -> None:
        time.sleep(SETUP_WAIT_S)  # e.g. a sandbox process starting
        self.device_id = device_id
        self.ticks = 0

    def setup(self, op: str, args: Any) -> None:
        pass

    def act(self, action: str, args: Any) -> ActionResult:
        self.ticks += 1
        return ActionResult.success(f"ticks: {self.ticks}")

    def observe(self) -> dict[str, Any]:
        return {"screen": "waiting"}

    def get(self, getter: str, args: Any) -> Any:
        return {"ticks": self.ticks}

    def close(self) -> None:
        pass


KIND = register_kind(
    DeviceKind(
        name="waiting",
        doc="Setup waits like a sandbox start.",
        factory=WaitingDevice,
        actions=by_name([ActionSpec(name="tick", doc="Count one.")]),
        setup_ops={},
        getters=by_name([GetterSpec(name="state", doc="Ticks.", args_model=NoArgs)]),
        checks={},
    )
)


class ThinkingAgent:
    """Waits ``THINK_S`` per step, as an agent waiting for a model does; ticks, then finishes."""

    def __init__(self, options: Any) -> None:
        self.left = 0

    def start(self, info: EpisodeInfo) -> None:
        self.left = STEPS

    def act(self, observation: Any, feedback: Any) -> Decision:
        time.sleep(THINK_S)
        self.left -= 1
        if self.left <= 0:
            return Decision(action=Step(action="finish"))
        return Decision(action=Step(device="waiting_0", action="tick"))


def waiting_tasks(n: int) -> list[Task]:
    return [
        Task.model_validate(
            {
                "id": f"waiting-{i}",
                "instruction": "Tick, then finish.",
                "devices": [{"id": "waiting_0", "kind": "waiting"}],
                "evaluation": {"conditions": [{"id": "done", "device": "env", "check": "finished"}]},
            }
        )
        for i in range(n)
    ]
