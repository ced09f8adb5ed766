"""Devices played back from a recorded run: quality control's variants without a desktop restart.

Why: ``tasks validate`` proves a task by replaying a dozen variants of its reference solution,
each from setup on fresh devices. On a task with a GUI desktop every replay starts the desktop
and drives its apps again (tens of seconds), although most variants differ from the reference
only on the smart home (a wrong temperature, a stray schedule, a set-then-undo): the desktop
would do exactly what it did in the reference run (or in setup alone, for a variant that leaves
the desktop untouched). Here every device's run is recorded once and played back for such
variants, so only the devices that differ are replayed for real.

The shortcut must give the verdict the full replay gives, so it applies only where nothing can
tell the two apart:

- A device is played back from a run whose steps on it were the same, in the same order, and
  never when the variant spoils it (a stray or output change there).
- Devices talk through the task-wide services each kind declares (:attr:`KindTraits.services`:
  the phones' network, the desktops' local web, the shared drive). A device whose service is
  also used by a live device is live too (repeated until no such pair is left), so whatever the
  played-back devices share among themselves stays as it was recorded.
- Two channels stay open between the groups, and are watched: the task's clock and the shared
  drive. A played-back device logs every clock advance it sees, in order with its actions, and
  the drive's content at each of its interactions; the variant's run must produce the same log.
  Each read and snapshot is looked up by where it falls in that log, its arguments, the time and
  the drive. A desktop that wrote to the drive thus diverges at its next interaction (the drive
  lacks what it wrote), and a phone that wrote there differently as well.
- The first interaction the record does not hold (another action, another advance, another
  drive, a read never made) marks the run *diverged*: the caller drops its verdict and replays
  the variant in full.

A run is only as deterministic as its devices: a device whose reactions vary from run to run
would vary between two full replays too (tests/tasks/test_recorded.py compares both verdicts).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
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
from devicesworld.devices.drive import DRIVE_KEY, SharedDrive
from devicesworld.devices.state import OutputChange
from devicesworld.spec.models import Step, Task

Event = tuple[str, ...]
"""``("act", action, args, drive)``, ``("advance", old, new, drive)`` or ``("observe", drive)``."""

_DIVERGED = "DIVERGED"
WATCHED = frozenset({DRIVE_KEY})
"""Services a live and a played-back device may share: each interaction logs their content."""


def recordable(task: Task) -> list[str]:
    """The devices whose run is recorded: those whose kind declares its services, when the task has
    two devices or more (a lone device has nothing to be replayed apart from)."""
    if len(task.devices) < 2:
        return []
    return [d.id for d in task.devices if _kind(d.kind).traits.services is not None]


def playable(task: Task, candidates: set[str]) -> set[str]:
    """The ``candidates`` that may be played back while every other device runs live: none that
    shares an unwatched service with a live device (repeated, since each one dropped runs live)."""
    services = {d.id: _kind(d.kind).traits.services for d in task.devices}
    chosen = set(candidates)
    while True:
        live = [services[d.id] for d in task.devices if d.id not in chosen]
        drop = {
            p for p in chosen if any(s is None or (s & (services[p] or frozenset())) - WATCHED for s in live)
        }
        if not drop:
            return chosen
        chosen -= drop


def _kind(name: str) -> DeviceKind:
    kind = get_kind(name)
    if kind is None:
        raise ValueError(f"unknown device kind {name!r}")
    return kind


def _drive(context: DeviceContext) -> str:
    """The shared drive's content as a digest (no drive yet: the empty digest)."""
    drive = context.shared.get(DRIVE_KEY)
    h = hashlib.sha256()
    if isinstance(drive, SharedDrive) and drive.root.is_dir():
        for rel in drive.listing():
            h.update(rel.encode() + b"\0")
            try:
                h.update(drive.resolve(rel).read_bytes())
            except OSError as exc:
                h.update(repr(exc).encode())
            h.update(b"\0")
    return h.hexdigest()[:16]


def _args_text(args: Args | Mapping[str, Any]) -> str:
    data = args.model_dump(mode="json") if isinstance(args, Args) else dict(args)
    return json.dumps(data, sort_keys=True, default=str)


@dataclasses.dataclass
class DeviceLog:
    """One device's interactions in one real run, in order."""

    events: list[Event] = dataclasses.field(default_factory=list)
    answers: list[Any] = dataclasses.field(default_factory=list)
    """Per event: the action's result, the observation, or None (an advance)."""
    reads: dict[tuple[int, str, str, str, str], Any] = dataclasses.field(default_factory=dict)
    """(events before the read, getter, args, clock, drive) -> what the getter returned."""
    snapshots: dict[tuple[int, str], dict[str, str]] = dataclasses.field(default_factory=dict)
    """(events before the snapshot, drive) -> the guard's snapshot."""


class _Recorder:
    """A real device with every interaction logged; anything else is passed to the device."""

    def __init__(self, inner: Any, context: DeviceContext, log: DeviceLog) -> None:
        self.inner = inner
        self.device_id: str = inner.device_id
        self._context = context
        self._log = log
        context.clock.subscribe(self._advanced)

    def _advanced(self, old: Any, new: Any) -> None:
        self._log.events.append(("advance", str(old), str(new), _drive(self._context)))
        self._log.answers.append(None)

    def setup(self, op: str, args: Args) -> None:
        self.inner.setup(op, args)

    def act(self, action: str, args: Args) -> ActionResult:
        try:
            result: ActionResult = self.inner.act(action, args)
        except DeviceError as exc:  # the controller turns it into this failure
            result = ActionResult.failure(exc.code, exc.message)
        self._log.events.append(("act", action, _args_text(args), _drive(self._context)))
        self._log.answers.append(result.model_copy(deep=True))
        return result

    def observe(self) -> dict[str, Any]:
        seen: dict[str, Any] = self.inner.observe()
        self._log.events.append(("observe", _drive(self._context)))
        self._log.answers.append(copy.deepcopy(seen))
        return seen

    def get(self, getter: str, args: Args) -> object:
        value = self.inner.get(getter, args)
        key = (
            len(self._log.events),
            getter,
            _args_text(args),
            str(self._context.clock.now),
            _drive(self._context),
        )
        self._log.reads[key] = copy.deepcopy(value)
        return value

    def snapshot(self, real: Callable[[Any], Mapping[str, str]]) -> Mapping[str, str]:
        shot = dict(real(self.inner))
        self._log.snapshots[(len(self._log.events), _drive(self._context))] = dict(shot)
        return shot

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:  # screenshots, phases, resource checks
        return getattr(self.inner, name)


class _StandIn:
    """A device played back from a :class:`DeviceLog`; the first mismatch marks it diverged."""

    def __init__(self, device_id: str, context: DeviceContext, log: DeviceLog) -> None:
        self.device_id = device_id
        self._context = context
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
        self._next(("advance", str(old), str(new), _drive(self._context)))

    def setup(self, op: str, args: Args) -> None:
        """Setup and world were the record's too (same task)."""

    def act(self, action: str, args: Args) -> ActionResult:
        result = self._next(("act", action, _args_text(args), _drive(self._context)))
        if not isinstance(result, ActionResult):
            return ActionResult.failure(_DIVERGED, self.diverged or "not recorded")
        return result.model_copy(deep=True)

    def observe(self) -> dict[str, Any]:
        seen = self._next(("observe", _drive(self._context)))
        return copy.deepcopy(seen) if isinstance(seen, dict) else {}

    def get(self, getter: str, args: Args) -> object:
        key = (self._at, getter, _args_text(args), str(self._context.clock.now), _drive(self._context))
        if self.diverged is None and key not in self._log.reads:
            self.diverged = f"{self.device_id}: read {getter} at {self._at} is not in the record"
        if self.diverged is not None:
            raise DeviceError(_DIVERGED, self.diverged)
        return copy.deepcopy(self._log.reads[key])

    def snapshot(self) -> Mapping[str, str]:
        shot = self._log.snapshots.get((self._at, _drive(self._context)))
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
        self.logs = {d: DeviceLog() for d in recordable(task)}
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
    ) -> set[str]:
        """The devices a variant's run may take from this record (empty: none)."""
        spoiled = {stray_on, output_on[0] if output_on is not None else None}
        same = {d for d, mine in self._steps.items() if d not in spoiled and _steps_on(steps, d) == mine}
        return playable(self.task, same) if same else set()

    def replay(self, devices: set[str]) -> Replay:
        """A run with ``devices`` played back (from :meth:`covers`); the others run live."""
        return Replay({d: (self._kind_of(d), self.logs[d]) for d in sorted(devices)})

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
