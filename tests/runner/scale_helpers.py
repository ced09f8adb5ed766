"""Agents and a device kind that misbehave on purpose, for the backend tests.

They must work in any worker (this process, a spawned process, a Ray actor), so what
they need to know travels inside the task: a marker path in the instruction, a counter
file in the device profile.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from devicesworld.agents.base import Decision, EpisodeInfo
from devicesworld.devices.base import DeviceContext, register_kind
from devicesworld.spec.models import Step
from tests.toykind import TOY, ToyDevice, toy_task

PRESS_PRESS_FINISH = [
    Step(device="toy_0", action="press"),
    Step(device="toy_0", action="press"),
    Step(action="finish"),
]


def _flaky_factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> ToyDevice:
    """A toy device whose creation fails with an OS error the first ``failures`` times."""
    counter = Path(profile["counter"])
    count = int(counter.read_text()) if counter.exists() else 0
    if count < int(profile.get("failures", 1)):
        counter.write_text(str(count + 1))
        raise OSError(28, "No space left on device (simulated)")
    return ToyDevice(device_id, profile, context)


FLAKY = register_kind(dataclasses.replace(TOY, name="flaky", factory=_flaky_factory))


def flaky_task(task_id: str, counter: Path, failures: int = 1) -> dict[str, Any]:
    """A toy task on a ``flaky`` device whose setup fails ``failures`` times (machine-style)."""
    doc = toy_task(id=task_id)
    doc["devices"] = [
        {"id": "flaky_0", "kind": "flaky", "profile": {"counter": str(counter), "failures": failures}}
    ]
    doc["setup"] = [{"device": "flaky_0", "op": "set", "args": {"value": 1}}]
    doc["evaluation"]["conditions"][0]["device"] = "flaky_0"
    doc["solution"] = [
        {"device": "flaky_0", "action": "press"},
        {"device": "flaky_0", "action": "press"},
        {"action": "finish"},
    ]
    return doc


def _slow_factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> ToyDevice:
    """A toy device that takes ``setup_s`` seconds to come up (a sandbox on a busy machine)."""
    time.sleep(float(profile["setup_s"]))
    return ToyDevice(device_id, profile, context)


SLOW = register_kind(dataclasses.replace(TOY, name="slowsetup", factory=_slow_factory))


def slow_setup_task(task_id: str, setup_s: float) -> dict[str, Any]:
    """A toy task whose only device takes ``setup_s`` seconds to create."""
    doc = toy_task(id=task_id)
    doc["devices"] = [{"id": "slowsetup_0", "kind": "slowsetup", "profile": {"setup_s": setup_s}}]
    doc["setup"][0]["device"] = doc["evaluation"]["conditions"][0]["device"] = "slowsetup_0"
    doc["solution"] = [
        {**step, "device": "slowsetup_0"} if "device" in step else step for step in doc["solution"]
    ]
    return doc


class _Scripted:
    def __init__(self, options: Any) -> None:
        self.steps: list[Step] = []

    def start(self, info: EpisodeInfo) -> None:
        device = info.devices[0].id
        self.steps = [
            Step(device=device, action="press"),
            Step(device=device, action="press"),
            Step(action="finish"),
        ]

    def act(self, observation: Any, feedback: Any) -> Decision:
        return Decision(action=self.steps.pop(0))


class DieOnceAgent(_Scripted):
    """Kills its own worker process the first time it sees a task (marker path in the instruction)."""

    def start(self, info: EpisodeInfo) -> None:
        super().start(info)
        marker = Path(info.instruction.rsplit("marker=", 1)[1].strip())
        if not marker.exists():
            marker.write_text("died once")
            os._exit(3)


class DieOnceOutsideAgentCodeAgent(_Scripted):
    """Kills its worker process once per task while the *harness* runs (it reads
    ``wants_screenshots`` between agent calls): stands for a worker that died of the machine."""

    def start(self, info: EpisodeInfo) -> None:
        super().start(info)
        self.marker = Path(info.instruction.rsplit("marker=", 1)[1].strip())

    @property
    def wants_screenshots(self) -> bool:
        if not self.marker.exists():
            self.marker.write_text("died once")
            os._exit(3)
        return False


class ExitingAgent(_Scripted):
    """Calls ``sys.exit(4)`` on tasks whose id contains ``exit``; solves the others."""

    def start(self, info: EpisodeInfo) -> None:
        super().start(info)
        self.exit = "exit" in info.task_id

    def act(self, observation: Any, feedback: Any) -> Decision:
        if self.exit:
            sys.exit(4)
        return super().act(observation, feedback)


class HangingAgent(_Scripted):
    """Never answers on tasks whose id contains ``hang``; solves the others."""

    def start(self, info: EpisodeInfo) -> None:
        super().start(info)
        self.hang = "hang" in info.task_id

    def act(self, observation: Any, feedback: Any) -> Decision:
        if self.hang:
            time.sleep(600)
        return super().act(observation, feedback)


class SlowScriptedAgent(_Scripted):
    """Solves the toy task, slowly (to be interrupted mid-run; slow enough that a busy
    machine's delay in sending the interrupt does not let the run finish first)."""

    def act(self, observation: Any, feedback: Any) -> Decision:
        time.sleep(0.15)
        return super().act(observation, feedback)


class LingerAgent:
    """Starts long work and never finishes: for killing a run mid-episode.

    On a ``linux`` device it opens the browser, then runs ``sleep`` in the sandbox with
    ``$DW_LINGER_TAG`` in the command line; elsewhere it sleeps in ``act``. Before the
    long part it writes ``$DW_LINGER_MARKERS/<task id>``, so a test knows it is there.
    """

    def __init__(self, options: Any) -> None:
        self.calls = 0
        self.task_id = ""
        self.device = ""
        self.kind = ""

    def start(self, info: EpisodeInfo) -> None:
        self.task_id = info.task_id
        self.device, self.kind = info.devices[0].id, info.devices[0].kind

    def _mark(self) -> None:
        (Path(os.environ["DW_LINGER_MARKERS"]) / self.task_id).write_text(str(os.getpid()))

    def act(self, observation: Any, feedback: Any) -> Decision:
        self.calls += 1
        if self.kind != "linux":
            self._mark()
            time.sleep(3600)
        if self.calls == 1:
            return Decision(
                action=Step(device=self.device, action="browser_open", args={"url": "http://a.test/"})
            )
        self._mark()
        command = f"sleep 290 # {os.environ['DW_LINGER_TAG']}"
        return Decision(
            action=Step(device=self.device, action="run_command", args={"command": command, "timeout_s": 300})
        )


class SlowModelAgent(_Scripted):
    """Solves the toy task, waiting 1.5 s for its "model" at every step (inside
    ``waiting_for_model``, as the built-in LLM client does)."""

    def act(self, observation: Any, feedback: Any) -> Decision:
        from devicesworld.modelclock import waiting_for_model

        with waiting_for_model():
            time.sleep(1.5)
        return super().act(observation, feedback)


class VerboseAgent(_Scripted):
    """Solves the toy task with 200,000-character notes and a 200,000-character action argument."""

    def act(self, observation: Any, feedback: Any) -> Decision:
        decision = super().act(observation, feedback)
        return decision.model_copy(
            update={"notes": {"thoughts": "x" * 200_000, "calls": [{"reply": "y" * 70_000}]}}
        )
