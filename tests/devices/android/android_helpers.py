"""Drive one or two simulated phones in tests by meaning (resource ids, texts), like a person."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from devicesworld.devices.base import ActionResult
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.authoring.android_script import Target

A0 = "android_0"


def phone_task(
    setup: Sequence[tuple[str, object]] | None = None,
    conditions: list[dict[str, Any]] | None = None,
    profile: dict[str, Any] | None = None,
    devices: int = 1,
) -> Task:
    return Task.model_validate(
        {
            "id": "t-android",
            "instruction": "test",
            "devices": [
                {"id": f"android_{i}", "kind": "android", "profile": profile or {}} for i in range(devices)
            ],
            "setup": [{"device": A0, "op": op, "args": args} for op, args in setup or []],
            "evaluation": {
                "conditions": conditions or [{"id": "noop", "device": "env", "check": "finished", "args": {}}]
            },
        }
    )


class Driver:
    def __init__(self, env: CrossDeviceEnv, device: str = A0) -> None:
        self.env = env
        self.device = device

    def obs(self) -> dict[str, Any]:
        return dict(self.env.observe()[self.device])

    def screen(self) -> str:
        return str(self.obs()["screen_text"])

    def elements(self) -> list[dict[str, Any]]:
        return list(self.obs()["ui_elements"])

    def find(self, **target: Any) -> int:
        t = Target(**target)
        hits = [i for i, el in enumerate(self.elements()) if t.matches(el)]
        assert len(hits) > t.nth, f"no element {target} on screen:\n{self.screen()}"
        return hits[t.nth]

    def has(self, **target: Any) -> bool:
        t = Target(**target)
        return any(t.matches(el) for el in self.elements())

    def do(self, action: str, **args: Any) -> ActionResult:
        return self.env.step({"device": self.device, "action": action, "args": args}).result

    def tap(self, **target: Any) -> ActionResult:
        result = self.do("click", index=self.find(**target))
        assert result.ok, result.message
        return result

    def type(self, text: str, clear: bool = False, **target: Any) -> ActionResult:
        result = self.do("input_text", text=text, index=self.find(**target), clear=clear)
        assert result.ok, result.message
        return result

    def get(self, getter: str, **args: Any) -> Any:
        return self.env.getter_for(self.device)(getter, args)
