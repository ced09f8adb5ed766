"""Devices played back from a recorded run: quality control's variants without a desktop restart.

Why: ``tasks validate`` proves a task by replaying a dozen variants of its reference solution,
each from setup on fresh devices. On a task with a GUI desktop every replay starts the desktop
and drives its apps again (tens of seconds), although most variants differ from the reference
only on the smart home (a wrong temperature, a stray schedule, a set-then-undo): the desktop
would do exactly what it did in the reference run. Here the desktop's run is recorded once and
played back for such variants, so only the devices that differ are replayed for real.

The shortcut must give the verdict the full replay gives, so it applies only where nothing can
tell the two apart:

- Only devices whose kind is ``isolated`` (:attr:`KindTraits.isolated`: no drive, network or web
  shared with other devices) run live; every other device of the task is played back, all of
  them together, so whatever they share stays as it was recorded.
- A device is played back from a run whose steps on it were the same, in the same order.
- The task's clock is the one channel left between the two groups: a played-back device logs
  every clock advance it sees, in order with its actions, and the variant's run must produce the
  same log; each read is looked up by where it falls in that log, its arguments and the time.
- The first interaction the record does not hold (another action, another advance, a read never
  made) marks the run *diverged*: the caller drops its verdict and replays the variant for real.

A run is only as deterministic as its devices: a device whose reactions vary from run to run
would vary between two full replays too (tests/tasks/test_recorded.py compares both verdicts).
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from devicesworld.devices.base import (
    ActionResult,
    Args,
    DeviceContext,
    DeviceError,
    DeviceKind,
    get_kind,
)
from devicesworld.devices.state import OutputChange
from devicesworld.spec.models import Step, Task

Event = tuple[str, ...]
"""``("act", action, args)``, ``("advance", old, new)`` or ``("observe",)``."""

_DIVERGED = "DIVERGED"


def played_back(task: Task) -> list[str]:
    """The devices a variant may take from a record: every non-isolated device, when the task also
    has an isolated one (otherwise there is nothing to replay apart, and nothing is played back)."""
    isolated = {d.id for d in task.devices if _kind(d.kind).traits.isolated}
    if not isolated or len(isolated) == len(task.devices):
        return []
    return [d.id for d in task.devices if d.id not in isolated]


def _kind(name: str) -> DeviceKind:
    kind = get_kind(name)
    if kind is None:
        raise ValueError(f"unknown device kind {name!r}")
    return kind


def _args_text(args: Args | Mapping[str, Any]) -> str:
    data = args.model_dump(mode="json") if isinstance(args, Args) else dict(args)
    return json.dumps(data, sort_keys=True, default=str)


@dataclasses.dataclass
class DeviceLog:
    """One device's interactions in one real run, in order."""

    events: list[Event] = dataclasses.field(default_factory=list)
    answers: list[Any] = dataclasses.field(default_factory=list)
    """Per event: the action's result, the observation, or None (an advance)."""
    reads: dict[tuple[int, str, str, str], Any] = dataclasses.field(default_factory=dict)
    """(events before the read, getter, args, clock) -> what the getter returned."""
    snapshots: dict[int, dict[str, str]] = dataclasses.field(default_factory=dict)
    """Events before the snapshot -> the guard's snapshot."""


class _Recorder:
    """A real device with every interaction logged; anything else is passed to the device."""

    def __init__(self, inner: Any, context: DeviceContext, log: DeviceLog) -> None:
        self.inner = inner
        self.device_id: str = inner.device_id
        self._clock = context.clock
        self._log = log
        context.clock.subscribe(self._advanced)

    def _advanced(self, old: Any, new: Any) -> None:
        self._log.events.append(("advance", str(old), str(new)))
        self._log.answers.append(None)

    def setup(self, op: str, args: Args) -> None:
        self.inner.setup(op, args)

    def act(self, action: str, args: Args) -> ActionResult:
        try:
            result: ActionResult = self.inner.act(action, args)
        except DeviceError as exc:  # the controller turns it into this failure
            result = ActionResult.failure(exc.code, exc.message)
        self._log.events.append(("act", action, _args_text(args)))
        self._log.answers.append(result.model_copy(deep=True))
        return result

    def observe(self) -> dict[str, Any]:
        seen: dict[str, Any] = self.inner.observe()
        self._log.events.append(("observe",))
        self._log.answers.append(copy.deepcopy(seen))
        return seen

    def get(self, getter: str, args: Args) -> object:
        value = self.inner.get(getter, args)
        key = (len(self._log.events), getter, _args_text(args), str(self._clock.now))
        self._log.reads[key] = copy.deepcopy(value)
        return value

    def snapshot(self, real: Callable[[Any], Mapping[str, str]]) -> Mapping[str, str]:
        shot = dict(real(self.inner))
        self._log.snapshots[len(self._log.events)] = dict(shot)
        return shot

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:  # screenshots, phases, resource checks
        return getattr(self.inner, name)


class _StandIn:
    """A device played back from a :class:`DeviceLog`; the first mismatch marks it diverged."""

    def __init__(self, device_id: str, context: DeviceContext, log: DeviceLog) -> None:
        self.device_id = device_id
        self._clock = context.clock
        self._log = log
        self._at = 0
        self.diverged: str | None = None
        context.clock.subscribe(self._advanced)

    def _next(self, event: Event) -> Any:
        if self.diverged is None:
            if self._at < len(self._log.events) and self._log.events[self._at] == event:
                self._at += 1
                return self._log.answers[self._at - 1]
            self.diverged = f"{self.device_id}: {event[:2]} at {self._at} is not in the record"
        return None

    def _advanced(self, old: Any, new: Any) -> None:
        self._next(("advance", str(old), str(new)))

    def setup(self, op: str, args: Args) -> None:
        """Setup and world were the record's too (same task)."""

    def act(self, action: str, args: Args) -> ActionResult:
        result = self._next(("act", action, _args_text(args)))
        if not isinstance(result, ActionResult):
            return ActionResult.failure(_DIVERGED, self.diverged or "not recorded")
        return result.model_copy(deep=True)

    def observe(self) -> dict[str, Any]:
        seen = self._next(("observe",))
        return copy.deepcopy(seen) if isinstance(seen, dict) else {}

    def get(self, getter: str, args: Args) -> object:
        key = (self._at, getter, _args_text(args), str(self._clock.now))
        if self.diverged is None and key not in self._log.reads:
            self.diverged = f"{self.device_id}: read {getter} at {self._at} is not in the record"
        if self.diverged is not None:
            raise DeviceError(_DIVERGED, self.diverged)
        return copy.deepcopy(self._log.reads[key])

    def snapshot(self) -> Mapping[str, str]:
        shot = self._log.snapshots.get(self._at)
        if self.diverged is None and shot is None:
            self.diverged = f"{self.device_id}: no snapshot at {self._at} in the record"
        if shot is None:
            raise DeviceError(_DIVERGED, self.diverged or "not recorded")
        return dict(shot)

    def close(self) -> None:
        """Nothing runs."""


def _steps_on(steps: Sequence[Step], device_id: str) -> list[tuple[str, str]]:
    return [(s.action, _args_text(s.args)) for s in steps if s.device == device_id]


class Recording:
    """The real run of one step list, recorded on the devices a variant may take from it."""

    def __init__(self, task: Task, steps: Sequence[Step]) -> None:
        self.task = task
        self.logs = {d: DeviceLog() for d in played_back(task)}
        self._steps = {d: _steps_on(steps, d) for d in self.logs}

    def recording_kinds(self) -> dict[str, DeviceKind]:
        """Kinds for the real run: the played-back devices' factories wrapped in a recorder."""
        return {d: _recording_kind(self._kind_of(d), log) for d, log in self.logs.items()}

    def covers(
        self,
        steps: Sequence[Step],
        *,
        stray_on: str | None = None,
        output_on: tuple[str, OutputChange] | None = None,
    ) -> bool:
        """Whether a variant's run may take every played-back device from this record."""
        if not self.logs or stray_on in self.logs or (output_on is not None and output_on[0] in self.logs):
            return False
        return all(_steps_on(steps, d) == mine for d, mine in self._steps.items())

    def replay(self) -> Replay:
        return Replay({d: (self._kind_of(d), log) for d, log in self.logs.items()})

    def _kind_of(self, device_id: str) -> DeviceKind:
        return _kind(next(d.kind for d in self.task.devices if d.id == device_id))


class Replay:
    """One variant's run with the recorded devices played back; :meth:`diverged` after the run."""

    def __init__(self, logs: Mapping[str, tuple[DeviceKind, DeviceLog]]) -> None:
        self._made: list[_StandIn] = []
        self.kinds = {d: self._stand_in_kind(kind, log) for d, (kind, log) in logs.items()}

    def diverged(self) -> list[str]:
        """Why the run left the record (empty: its verdict is the full replay's)."""
        return [s.diverged for s in self._made if s.diverged is not None]

    def _stand_in_kind(self, kind: DeviceKind, log: DeviceLog) -> DeviceKind:
        def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> Any:
            made = _StandIn(device_id, context, log)
            self._made.append(made)
            return made

        state = kind.state
        if state is not None:
            state = dataclasses.replace(
                state, snapshot=lambda d: d.snapshot(), stray=None, output_change=None
            )
        world = kind.world
        if world is not None:
            world = dataclasses.replace(world, apply=lambda d, w: None)
        return dataclasses.replace(kind, factory=factory, state=state, world=world)


def _recording_kind(kind: DeviceKind, log: DeviceLog) -> DeviceKind:
    real_factory = kind.factory

    def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> Any:
        return _Recorder(real_factory(device_id, profile, context), context, log)

    state = kind.state
    if state is not None:
        real = state.snapshot
        state = dataclasses.replace(
            state, snapshot=lambda d: d.snapshot(real), stray=None, output_change=None
        )
    world = kind.world
    if world is not None:
        apply = world.apply
        world = dataclasses.replace(world, apply=lambda d, w: apply(d.inner, w))
    return dataclasses.replace(kind, factory=factory, state=state, world=world)
