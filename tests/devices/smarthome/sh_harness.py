"""A tiny stand-in for the environment controller, for SmartHome tests.

It does what the controller will do — create the device through ``KIND.factory``,
validate every argument with the declared models, route setup ops, actions, getters
and checks — and, for smoke tasks, replays solutions and evaluates conditions,
handling the ``env`` pseudo-device's infeasibility checks itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import ActionResult, CheckOutcome, DeviceContext, VirtualClock
from devicesworld.devices.smarthome import KIND
from devicesworld.spec.models import DEFAULT_START_TIME, Condition, Task


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


def run_task(task: Task, steps: list[Any] | None = None) -> Outcome:
    """Set the task up, replay ``steps`` (default: none), evaluate its conditions."""
    h = Harness(start=task.start_time, profile=task.devices[0].profile)
    for op in task.setup:
        h.device.setup(op.op, KIND.setup_ops[op.op].parse_args(op.args))
    report: str | None = None
    failed: list[str] = []
    for step in steps or []:
        if step.action == "finish":
            break
        if step.action == "report_infeasible":
            report = str(step.args.get("reason", ""))
            break
        result = h.device.act(step.action, KIND.actions[step.action].parse_args(step.args))
        if not result.ok:
            failed.append(f"{step.action}: {result.message}")
    results: list[tuple[Condition, CheckOutcome]] = []
    for cond in task.evaluation.conditions:
        if cond.device == "env":
            results.append((cond, _env_check(cond, report)))
        else:
            spec = KIND.checks[cond.check]
            results.append((cond, spec.fn(h.get, spec.parse_args(cond.args))))
    h.device.close()
    success = all(o.passed for c, o in results if c.required)
    return Outcome(success, results, failed)


def _env_check(cond: Condition, report: str | None) -> CheckOutcome:
    if cond.check == "infeasible_reported":
        keywords = [k.lower() for k in cond.args.get("keywords", [])]
        ok = report is not None and (not keywords or any(k in report.lower() for k in keywords))
        return CheckOutcome(passed=ok, detail=f"report={report!r}")
    if cond.check == "not_infeasible_reported":
        return CheckOutcome(passed=report is None, detail=f"report={report!r}")
    raise AssertionError(f"unknown env check {cond.check}")
