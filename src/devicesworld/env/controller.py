"""``CrossDeviceEnv``: one task's devices behind a single reset / step / evaluate / close.

The controller is device-agnostic: it learns everything about a kind from its
:class:`~devicesworld.devices.base.DeviceKind` declaration. Its promises to the loop
are (1) a step never raises — a bad device, action or argument comes back as a failed
:class:`ActionResult` and still counts as a step — and (2) cleanup always runs, also
after an error, whichever way the episode ends.
"""

from __future__ import annotations

import functools
import json
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from devicesworld.clip import clip, clip_repr
from devicesworld.devices.base import (
    ActionResult,
    ActionSpec,
    Args,
    Device,
    DeviceContext,
    DeviceError,
    DeviceKind,
    GetterFn,
    SupportsPhases,
    SupportsResourceCheck,
    SupportsScreenshot,
    VirtualClock,
    describe_validation_error,
    get_kind,
)
from devicesworld.devices.state import OutputChange, Snapshot, StrayKind
from devicesworld.devices.workspace import make_workdir, remove_workdir
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.actions import ANSWER, FINISH, REPORT_INFEASIBLE, Termination
from devicesworld.spec.models import GLOBAL_DEVICE, DeviceOp, Step, Task
from devicesworld.spec.values import value_context
from devicesworld.verify.checks import EPISODE_GETTER
from devicesworld.verify.collateral import Change, diff, guard_results, harmless, permits, take_snapshots
from devicesworld.verify.evaluate import EvaluationResult, aggregate, evaluate_conditions


class EnvError(Exception):
    """The environment could not be built or set up (a harness failure, not an agent's)."""


class InfrastructureError(EnvError):
    """Setup failed because of the machine, not the task: an OS error (disk full, too many
    open files, a sandbox that would not start), a failed subprocess, memory exhausted.

    The runner retries such an episode (on another worker when it can); a task's own
    setup error is deterministic and is never retried.
    """


MACHINE_ERRORS: tuple[type[BaseException], ...] = (OSError, MemoryError, subprocess.SubprocessError)
"""Exceptions from a device factory or setup op that mean the machine failed."""

DEVICE_FAILED = "DEVICE_FAILED"
"""The error code of a step whose device raised a machine error (it died or stopped answering)."""
DEVICE_FAILURE_CODES: frozenset[str] = frozenset(
    {DEVICE_FAILED, "UNAVAILABLE", "DESKTOP_FAILED", "DESKTOP_GONE"}
)
"""Step error codes that mean a device could not start or stopped answering: the environment
failed, not the agent, so the runner records the episode as invalid (docs/log-format.md).
Kinds raise them as ``DeviceError`` codes; the controller adds :data:`DEVICE_FAILED`."""


_SPACE_TEXT: dict[int, tuple[Mapping[str, ActionSpec], str]] = {}


def _action_space_text(actions: Mapping[str, ActionSpec]) -> str:
    """An action table as JSON text, computed once per table object (a kind's, or a profile's)."""
    cached = _SPACE_TEXT.get(id(actions))
    if cached is None or cached[0] is not actions:
        cached = (actions, json.dumps([spec.describe() for spec in actions.values()]))
        _SPACE_TEXT[id(actions)] = cached
    return cached[1]


@functools.cache
def _global_actions_text() -> str:
    return json.dumps([spec.describe() for spec in GLOBAL_ACTIONS.values()])


class _LazyWorkdirContext(DeviceContext):
    """A :class:`DeviceContext` whose ``workdir`` folder is created when a device first reads it.

    Devices see no difference: the folder exists whenever they look. A task whose devices
    never look (SmartHome keeps its state in memory) pays nothing for it; making and
    removing a temporary folder was most of such a task's reset time.
    """

    _root: Callable[[], Path] | None = None
    _device_id: str = ""
    _made: Path | None = None

    def bind(self, root: Callable[[], Path], device_id: str) -> None:
        self._root, self._device_id = root, device_id

    @property
    def workdir(self) -> Path:
        if self._made is None:
            assert self._root is not None, "bind() the context before use"
            path = self._root() / self._device_id
            path.mkdir(parents=True, exist_ok=True)
            self._made = path
        return self._made

    @workdir.setter
    def workdir(self, value: Path) -> None:
        """Assigned by ``DeviceContext.__init__``; the real folder comes from :meth:`bind`."""


class StepOutcome(BaseModel):
    result: ActionResult
    done: bool
    termination: Termination | None = None
    step: int


class CrossDeviceEnv:
    """The cross-device environment of one task.

    Use as a context manager, or call :meth:`close` yourself::

        with CrossDeviceEnv(task) as env:
            obs = env.reset()
            outcome = env.step({"device": "smarthome_0", "action": "list_rooms", "args": {}})
            verdict = env.evaluate()
    """

    def __init__(
        self,
        task: Task,
        *,
        seed: int = 0,
        workdir: Path | None = None,
        kinds: Mapping[str, DeviceKind] | None = None,
    ) -> None:
        """``kinds``: per device id, a kind to use in place of the registry's (quality control
        records some devices' run and plays it back for a variant: ``tasks/recorded.py``)."""
        self.task = task
        self.seed = seed
        self._kinds: dict[str, DeviceKind] = {}
        self._actions: dict[str, Mapping[str, ActionSpec]] = {}
        """Each device's action table (its kind's, or its profile's: a GUI desktop)."""
        self._profiles: dict[str, dict[str, Any]] = {}
        """Each device's profile as it runs (``DeviceKind.profile_of``: a version-1 task's legacy reading)."""
        for dev in task.devices:
            kind = kinds[dev.id] if kinds and dev.id in kinds else get_kind(dev.kind)
            if kind is None:
                raise EnvError(f"task {task.id}: unknown device kind {dev.kind!r}")
            self._kinds[dev.id] = kind
            self._profiles[dev.id] = kind.profile_of(dev.profile, task.schema_version)
            self._actions[dev.id] = kind.actions_for(self._profiles[dev.id])
        self._devices: dict[str, Device] = {}
        self._own_workdir = workdir is None
        self._workdir = workdir
        self.clock = VirtualClock(task.start_time)
        self.steps = 0
        self.done = False
        self.termination: Termination | None = None
        self.finished = False
        self.infeasible_reason: str | None = None
        self.answer: str | None = None
        self.setup_seconds = 0.0
        self.cleanup_errors: list[str] = []
        self.device_failures: list[str] = []
        """What failed on a device during the episode (a step or observation whose device could
        not answer): the runner makes such an episode invalid, not the agent's failure."""
        self._started = 0.0
        self._excluded = 0.0
        self._closed = True
        self._baseline: dict[str, Snapshot] = {}
        """Each guarded device's state right after setup (the collateral guard's start point)."""
        self.final_snapshots: dict[str, Snapshot] | None = None
        """The snapshots the last :meth:`evaluate` judged (None: it took none, the guard is off)."""

    # ----------------------------------------------------------------- lifecycle
    def reset(self) -> dict[str, dict[str, Any]]:
        """Create the devices, run the task's setup, and return the first observation."""
        if not self._closed:
            self.close()
        t0 = time.perf_counter()
        self._closed = False
        self.clock = VirtualClock(self.task.start_time)
        self.steps, self.done, self.termination = 0, False, None
        self.finished, self.infeasible_reason, self.answer = False, None, None
        self.cleanup_errors = []
        self.device_failures = []
        shared: dict[str, Any] = {}
        try:
            for dev in self.task.devices:
                ctx = _LazyWorkdirContext(
                    task_id=self.task.id,
                    clock=self.clock,
                    workdir=Path(dev.id),
                    seed=self.seed,
                    shared=shared,
                )
                ctx.bind(self._workdir_root, dev.id)
                self._devices[dev.id] = self._kinds[dev.id].factory(dev.id, self._profiles[dev.id], ctx)
            self._apply_world()
            for i, op in enumerate(self.task.setup):
                self._run_op(op, f"setup.{i}", cleanup=False)
            self._baseline = take_snapshots(self._devices, self._kinds)
        except MACHINE_ERRORS as exc:
            self.close()
            raise InfrastructureError(
                f"task {self.task.id}: setup failed on this machine: {type(exc).__name__}: {exc}"
            ) from exc
        except Exception:
            self.close()
            raise
        self.setup_seconds = time.perf_counter() - t0
        self._started = time.monotonic()
        self._excluded = 0.0
        return self.observe()

    def close(self) -> None:
        """Run the task's cleanup ops and every device's own cleanup; never raises."""
        if self._closed:
            return
        self._closed = True
        for i, op in enumerate(self.task.cleanup):
            if op.device not in self._devices:
                continue
            try:
                self._run_op(op, f"cleanup.{i}", cleanup=True)
            except Exception as exc:
                self.cleanup_errors.append(f"cleanup.{i}: {exc}")
        for device_id, device in self._devices.items():
            try:
                device.close()
            except Exception as exc:
                self.cleanup_errors.append(f"{device_id}.close: {type(exc).__name__}: {exc}")
        self._devices = {}
        if self._own_workdir and self._workdir is not None:
            if not remove_workdir(self._workdir):
                self.cleanup_errors.append(f"the work folder {self._workdir.name} was left behind")
            self._workdir = None

    def _workdir_root(self) -> Path:
        """The task's work folder, made on first use (most devices never need one)."""
        if self._workdir is None:
            self._workdir = make_workdir(f"dw-{self.task.id[:40]}-")
        return self._workdir

    def __enter__(self) -> CrossDeviceEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def resource_problems(self) -> list[str]:
        """Documents written by setup that do not open with their readers (quality control)."""
        return [
            f"{device_id}: {problem}"
            for device_id, device in self._devices.items()
            if isinstance(device, SupportsResourceCheck)
            for problem in device.check_resources()
        ]

    # --------------------------------------------------------------- interaction
    def observe(self) -> dict[str, dict[str, Any]]:
        """The currently visible observation of every device, keyed by device id."""
        obs: dict[str, dict[str, Any]] = {}
        for device_id, device in self._devices.items():
            try:
                view = device.observe()
            except Exception as exc:
                view = {"error": f"observation failed: {type(exc).__name__}: {exc}"}
                code = exc.code if isinstance(exc, DeviceError) else DEVICE_FAILED
                if isinstance(exc, MACHINE_ERRORS) or code in DEVICE_FAILURE_CODES:
                    self.device_failures.append(f"{device_id} observe: {code}: {clip(str(exc), 300)}")
            obs[device_id] = {"kind": self._kinds[device_id].name, **view}
        return obs

    def device(self, device_id: str) -> Device:
        """The live device behind ``device_id`` (e.g. for a kind-specific fast path such as raw pixels)."""
        try:
            return self._devices[device_id]
        except KeyError:
            raise KeyError(f"no device {device_id!r} in this environment") from None

    def screenshots(self) -> dict[str, bytes]:
        """PNG screenshots of every device that can render one (phones, desktops)."""
        shots: dict[str, bytes] = {}
        for device_id, device in self._devices.items():
            if isinstance(device, SupportsScreenshot):
                try:
                    png = device.screenshot()
                except Exception:
                    png = None
                if png:
                    shots[device_id] = png
        return shots

    def phase_timings(self) -> dict[str, dict[str, float]]:
        """Per device that times them, the seconds per phase since the last call (see ``SupportsPhases``)."""
        out: dict[str, dict[str, float]] = {}
        for device_id, device in self._devices.items():
            if isinstance(device, SupportsPhases):
                try:
                    phases = device.take_phases()
                except Exception:
                    phases = {}
                if phases:
                    out[device_id] = phases
        return out

    def action_spaces(self) -> dict[str, list[dict[str, Any]]]:
        """Each device's action space as data, plus the global actions under ``"*"``.

        Each call returns fresh copies (an agent may change what it is given), made from
        JSON text cached per kind: generating the JSON Schemas took milliseconds per
        episode, most of a small episode's time.
        """
        spaces = {
            device_id: json.loads(_action_space_text(acts)) for device_id, acts in self._actions.items()
        }
        spaces["*"] = json.loads(_global_actions_text())
        return spaces

    def step(self, action: Step | Mapping[str, Any]) -> StepOutcome:
        """Validate, route and execute one agent step. Never raises."""
        if self._closed:
            return StepOutcome(
                result=ActionResult.failure("NOT_RUNNING", "the environment is not running; call reset()"),
                done=True,
                termination=self.termination,
                step=self.steps,
            )
        if self.done:
            return StepOutcome(
                result=ActionResult.failure("EPISODE_OVER", f"the episode has ended ({self.termination})"),
                done=True,
                termination=self.termination,
                step=self.steps,
            )
        self.steps += 1
        result = self._execute(action)
        return self._counted(result)

    def refuse(self, result: ActionResult) -> StepOutcome:
        """Count a step that a facade refused before it reached a device; ``result`` says why.

        A client written for another environment can send an action that environment
        would count and then fail (AndroidWorld's index off the screen, its ``unknown``
        action): it costs a step here too, like any failed step.
        """
        if self._closed or self.done:
            return self.step({})
        self.steps += 1
        return self._counted(result)

    def _counted(self, result: ActionResult) -> StepOutcome:
        if not self.done:
            if self.task.limits.max_seconds is not None and self.elapsed() > self.task.limits.max_seconds:
                self._end("time_limit")
            elif self.steps >= self.task.limits.max_steps:
                self._end("budget_exhausted")
        return StepOutcome(result=result, done=self.done, termination=self.termination, step=self.steps)

    def elapsed(self) -> float:
        """Seconds counted against ``limits.max_seconds``: wall time since the episode
        began, minus the model time the runner excluded (:meth:`exclude_time`)."""
        return time.monotonic() - self._started - self._excluded

    def exclude_time(self, seconds: float) -> None:
        """Do not count ``seconds`` (spent waiting for model replies) against ``max_seconds``.

        The budget is the environment's: a slow model must not use it up (the runner
        records model latency apart, see docs/log-format.md).
        """
        self._excluded += max(0.0, seconds)

    def restart_timer(self) -> None:
        """Start the wall-time budget (``limits.max_seconds``) now.

        A pre-warmed environment is reset before its episode begins; the time it waited
        for a worker must not count against the agent.
        """
        self._started = time.monotonic()
        self._excluded = 0.0

    def end(self, termination: Termination) -> None:
        """End the episode from outside (the runner's time limit, an agent crash)."""
        if not self.done:
            self._end(termination)

    def _end(self, termination: Termination) -> None:
        self.done = True
        self.termination = termination

    def _execute(self, raw: Step | Mapping[str, Any]) -> ActionResult:
        try:
            step = raw if isinstance(raw, Step) else Step.model_validate(raw)
        except ValidationError as exc:
            fields = describe_validation_error(exc)
            return ActionResult.failure(
                "INVALID_ACTION", f'malformed step ({fields}); expected {{"device", "action", "args"}}'
            )
        if step.action in GLOBAL_ACTIONS:
            return self._global(step)
        if step.device is None:
            return ActionResult.failure(
                "INVALID_ACTION", f"action {clip_repr(step.action)} needs a target device"
            )
        device = self._devices.get(step.device)
        if device is None:
            return ActionResult.failure(
                "UNKNOWN_DEVICE",
                f"no device {clip_repr(step.device)}; this task's devices are {', '.join(self._devices)}",
            )
        kind = self._kinds[step.device]
        actions = self._actions[step.device]
        spec = actions.get(step.action)
        if spec is None:
            return ActionResult.failure(
                "UNKNOWN_ACTION",
                f"{kind.name} device {step.device} has no action {clip_repr(step.action)}; "
                f"available: {', '.join(actions)}",
            )
        args = _parse_step_args(spec, step)
        if isinstance(args, ActionResult):
            return args
        try:
            result = device.act(step.action, args)
        except DeviceError as exc:
            result = ActionResult.failure(exc.code, exc.message)
        except MACHINE_ERRORS as exc:  # the device died or stopped answering: the machine's failure
            result = ActionResult.failure(
                DEVICE_FAILED, f"{step.device} stopped answering: {type(exc).__name__}: {exc}"
            )
        except Exception as exc:  # a device bug must not crash the loop
            return ActionResult.failure(
                "INTERNAL_ERROR", f"{step.device} failed: {type(exc).__name__}: {exc}"
            )
        if result.error_code in DEVICE_FAILURE_CODES:
            self.device_failures.append(f"{step.device}: {result.error_code}: {clip(result.message, 300)}")
        return result

    def _global(self, step: Step) -> ActionResult:
        args = _parse_step_args(GLOBAL_ACTIONS[step.action], step)
        if isinstance(args, ActionResult):
            return args
        if step.action == FINISH:
            self.finished = True
            self._end("finished")
            return ActionResult.success("completion declared; the episode ends")
        if step.action == REPORT_INFEASIBLE:
            self.infeasible_reason = str(getattr(args, "reason", ""))
            self._end("infeasible_reported")
            return ActionResult.success("infeasibility reported; the episode ends")
        if step.action == ANSWER:
            self.answer = str(getattr(args, "text", ""))
            return ActionResult.success("answer recorded")
        return ActionResult.failure("UNKNOWN_ACTION", f"unknown global action {clip_repr(step.action)}")

    # ---------------------------------------------------------------- evaluation
    def evaluate(self) -> EvaluationResult:
        """Check every condition against the current device states, then the collateral guard.

        The final snapshot is taken before any check runs: a check may run a command
        (a project's tests) whose by-products are the verifier's, not the agent's.
        """
        kind_of = {device_id: kind.name for device_id, kind in self._kinds.items()}
        kind_of[GLOBAL_DEVICE] = GLOBAL_DEVICE
        guarded = bool(self._baseline) and self.task.evaluation.collateral.guard
        errors: dict[str, str] = {}
        final = take_snapshots(self._devices, self._kinds, errors) if guarded else {}
        self.final_snapshots = final if guarded else None
        verdict = evaluate_conditions(
            self.task.evaluation.conditions, self.getter_for, kind_of, value_context(self.task)
        )
        if not guarded:
            return verdict
        guards = guard_results(self.task, self._kinds, self._baseline, final, self.getter_for, errors)
        return aggregate([*verdict.conditions, *guards])

    def changes(self, final: Mapping[str, Snapshot] | None = None) -> dict[str, list[Change]]:
        """Every change since setup on each guarded device that its kind does not call harmless,
        allowed by the task or not (quality control: did a step change anything at all?).

        ``final``: the snapshots to compare (:attr:`final_snapshots` right after an evaluation:
        the same state, without taking every snapshot twice); default: taken now."""
        if final is None:
            final = take_snapshots(self._devices, self._kinds, {})
        out: dict[str, list[Change]] = {}
        for device_id, before in self._baseline.items():
            state = self._kinds[device_id].state
            assert state is not None
            out[device_id] = [c for c in diff(before, final.get(device_id, {})) if not harmless(state, c)]
        return out

    def stray_change(self, device_id: str, kind: StrayKind) -> str | None:
        """Make one change on a device that the task never mentions; what changed, or ``None``.

        Quality control and the collateral probe use it to prove the guard: the reference
        solution followed by such a change must fail.
        """
        state = self._kinds[device_id].state
        if state is None or state.stray is None:
            return None
        return state.stray(self._devices[device_id], self._guard_allows(device_id), kind)

    def output_change(self, device_id: str, how: OutputChange) -> str | None:
        """Spoil an output the task licenses on a device (``undo`` it later, or change another part
        ``beside`` it); what changed, or ``None``. Quality control's near misses only."""
        state = self._kinds[device_id].state
        if state is None or state.output_change is None:
            return None
        return state.output_change(self._devices[device_id], self._guard_allows(device_id), how)

    def _guard_allows(self, device_id: str) -> Callable[[str], bool]:
        """Whether the collateral guard would allow a change at a path of the device, judged against
        the state right after setup by the guard's own rule (``Permit.allows_after``)."""
        permit = permits(self.task, self._kinds, self.getter_for)[device_id]
        baseline = dict(self._baseline.get(device_id, {}))
        return lambda path: permit.allows_after(baseline, path)

    def getter_for(self, device_id: str) -> GetterFn:
        """``get(name, args)`` for one device (or ``env``), for checks and tools."""
        if device_id == GLOBAL_DEVICE:
            return self._episode_getter
        device = self._devices[device_id]
        kind = self._kinds[device_id]

        def get(name: str, args: Mapping[str, Any]) -> Any:
            spec = kind.getters.get(name)
            if spec is None:
                raise DeviceError("UNKNOWN_GETTER", f"{kind.name} has no getter {name!r}")
            return device.get(name, spec.parse_args(args))

        return get

    def _episode_getter(self, name: str, args: Mapping[str, Any]) -> Any:
        if name != EPISODE_GETTER:
            raise DeviceError("UNKNOWN_GETTER", f"env has no getter {name!r}")
        return {
            "finished": self.finished,
            "infeasible_reason": self.infeasible_reason,
            "answer": self.answer,
            "steps": self.steps,
        }

    # ---------------------------------------------------------------- internals
    def _apply_world(self) -> None:
        """Put the task's persona world on its devices, before the task's own setup (docs/worlds.md)."""
        spec = self.task.world
        if spec is None:
            return
        from devicesworld.worlds.generate import build_world

        owner = build_world(spec.persona_seed, spec.size, self.task.start_time)
        for device_id in world_devices(self.task, self._kinds):
            member = spec.members.get(device_id)
            world = (
                owner
                if member is None
                else build_world(spec.persona_seed, spec.size, self.task.start_time, member, spec.mirrored)
            )
            support = self._kinds[device_id].world
            if support is None:
                raise EnvError(
                    f"world: {self._kinds[device_id].name} device {device_id} does not take worlds"
                )
            try:
                support.apply(self._devices[device_id], world)
            except DeviceError as exc:
                raise EnvError(f"world ({device_id}): {exc.code}: {exc.message}") from None

    def _run_op(self, op: DeviceOp, where: str, *, cleanup: bool) -> None:
        kind = self._kinds.get(op.device)
        if kind is None:
            raise EnvError(f"{where}: no device {op.device!r}")
        table = {**kind.setup_ops, **kind.cleanup_ops} if cleanup else kind.setup_ops
        spec = table.get(op.op)
        if spec is None:
            raise EnvError(f"{where}: {kind.name} has no op {op.op!r}")
        try:
            args = spec.parse_args(op.args)
            self._devices[op.device].setup(op.op, args)
        except ValidationError as exc:
            fields = describe_validation_error(exc)
            raise EnvError(f"{where} ({op.op}): invalid arguments: {fields}") from None
        except DeviceError as exc:
            raise EnvError(f"{where} ({op.op}): {exc.code}: {exc.message}") from None


def world_devices(task: Task, kinds: Mapping[str, DeviceKind]) -> list[str]:
    """The device ids that take a world, in the task's device order: the persona's own (as listed, else
    the first of each kind that supports worlds, not counting member devices), then ``world.members``
    (each takes that household member's world)."""
    if task.world is None:
        return []
    members = task.world.members
    if task.world.devices is not None:
        own = list(task.world.devices)
    else:
        seen: set[str] = set()
        own = []
        for dev in task.devices:
            kind = kinds[dev.id]
            if kind.world is not None and kind.name not in seen and dev.id not in members:
                seen.add(kind.name)
                own.append(dev.id)
    return [*own, *(d.id for d in task.devices if d.id in members and d.id not in own)]


def _parse_step_args(spec: ActionSpec, step: Step) -> Args | ActionResult:
    """A step's arguments validated by its action's model, or the failed result the agent sees."""
    try:
        return spec.parse_args(step.args)
    except ValidationError as exc:
        fields = describe_validation_error(exc)
        return ActionResult.failure("INVALID_ARGS", f"invalid arguments for {step.action}: {fields}")
