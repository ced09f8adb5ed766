"""Helpers for SmartHome tests.

``Harness`` drives one SmartHome device directly (through ``KIND``'s declared
argument models) for unit tests; ``run_task`` runs whole tasks through the real
``CrossDeviceEnv``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import ActionResult, CheckOutcome, DeviceContext, VirtualClock
from devicesworld.devices.smarthome import KIND
from devicesworld.env import CrossDeviceEnv
from devicesworld.spec.models import DEFAULT_START_TIME, Condition, Step, Task


class Harness:
    def __init__(
        self,
        start: datetime = DEFAULT_START_TIME,
        profile: dict[str, Any] | None = None,
        clock: VirtualClock | None = None,
        device_id: str = "smarthome_0",
    ) -> None:
        self.clock = clock or VirtualClock(start)
        self.device = KIND.factory(device_id, profile or {}, DeviceContext("test", self.clock, Path("/tmp")))

    def setup(self, op: str, **args: Any) -> None:
        self.device.setup(op, KIND.setup_ops[op].parse_args(args))

    def act(self, action: str, **args: Any) -> ActionResult:
        return self.device.act(action, KIND.actions[action].parse_args(args))

    def ok(self, action: str, **args: Any) -> Any:
        result = self.act(action, **args)
        assert result.ok, result.message
        return result.data

    def get(self, getter: str, args: Any = None) -> Any:
        return self.device.get(getter, KIND.getters[getter].parse_args(dict(args or {})))

    def check(self, name: str, **args: Any) -> CheckOutcome:
        spec = KIND.checks[name]
        return spec.fn(self.get, spec.parse_args(args))

    def attr(self, device_id: str, name: str) -> Any:
        return self.get("device", {"device_id": device_id})["attributes"][name]

    def room(self, room: str) -> dict[str, Any]:
        result: dict[str, Any] = self.get("room", {"room": room})
        return result


@dataclass
class Outcome:
    success: bool
    results: list[tuple[Condition, CheckOutcome]] = field(default_factory=list)
    failed_steps: list[str] = field(default_factory=list)


def run_task(task: Task, steps: list[Step] | None = None) -> Outcome:
    """Set the task up in the real controller, replay ``steps`` (default: none), evaluate."""
    failed: list[str] = []
    with CrossDeviceEnv(task) as env:
        env.reset()
        for step in steps or []:
            result = env.step(step).result
            if not result.ok:
                failed.append(f"{step.action}: {result.message}")
            if env.done:
                break
        verdict = env.evaluate()
    by_id = {c.id: c for c in task.evaluation.conditions}
    results = [
        (by_id[r.id], CheckOutcome(passed=r.passed, detail=r.detail))
        for r in verdict.conditions
        if r.id in by_id  # the evaluator's own no_collateral_damage guards are not task conditions
    ]
    return Outcome(verdict.success, results, failed)
