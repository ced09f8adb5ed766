"""The one protocol every device kind implements, and the registry that holds the kinds.

A device kind is a plugin: it declares its setup ops, its agent actions, its getters
(what verifiers may read) and its checks, each with a pydantic model for its arguments
and registered on its handler (:mod:`devicesworld.devices.declare`), plus the
:class:`KindTraits` other layers read. The environment controller, the spec validator,
the prompt builders and the random agent all work from these declarations, so adding
a kind means registering one :class:`DeviceKind` and touching nothing outside its
package; :func:`devicesworld.devices.check_kind` says whether it conforms.

Argument models are pydantic models with ``extra="forbid"``: validation is fast
(pydantic-core), typos in argument names are caught, and the JSON Schema that agents
see is derived from the same model, so the schema and the validator can never drift.
"""

from __future__ import annotations

import importlib
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld.clip import clip
from devicesworld.devices.state import StateSpec
from devicesworld.devices.traits import KindTraits
from devicesworld.numbers import number_errors

__all__ = [
    "ActionResult",
    "ActionSpec",
    "Args",
    "CheckOutcome",
    "CheckSpec",
    "Device",
    "DeviceContext",
    "DeviceError",
    "DeviceKind",
    "GetterSpec",
    "KindTraits",
    "NoArgs",
    "OpSpec",
    "StateSpec",
    "SupportsScreenshot",
    "VirtualClock",
    "WorldSupport",
    "WritesFn",
    "by_name",
    "describe_validation_error",
    "format_validation_error",
    "get_kind",
    "kind_names",
    "kind_of_device_id",
    "register_kind",
    "traits_of",
    "validate_kind_name",
]

KIND_NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*$")
"""A kind's name: what comes before ``_<n>`` in a device id, so it cannot hold ``_`` itself."""
DEVICE_ID_PATTERN = re.compile(r"^(?P<kind>[a-z][a-z0-9]*)_(?P<n>\d+)$")


class Args(BaseModel):
    """Base class for every argument model: unknown fields are errors, numbers are strict.

    ``true`` or ``"5"`` where a number is expected is an error, not ``1`` or ``5``,
    for arguments parsed with :meth:`_Declared.parse_args` (see :mod:`devicesworld.numbers`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)


class NoArgs(Args):
    """For actions, ops and getters that take no arguments."""


A = TypeVar("A", bound=Args)


class ActionResult(BaseModel):
    """What a step returns to the agent: never an exception.

    ``message`` is the feedback the agent reads; ``data`` is structured output (a query
    result) that is also shown to the agent; ``error_code`` is a typed code such as
    ``NOT_FOUND`` or ``INVALID_ARGS`` when ``ok`` is false.
    """

    ok: bool
    message: str = ""
    data: Any = None
    error_code: str | None = None

    @classmethod
    def success(cls, message: str = "ok", data: Any = None) -> ActionResult:
        return cls(ok=True, message=message, data=data)

    @classmethod
    def failure(cls, code: str, message: str, data: Any = None) -> ActionResult:
        return cls(ok=False, message=message, data=data, error_code=code)


class CheckOutcome(BaseModel):
    """The verdict of one check plus a detail a person can read in a report."""

    passed: bool
    detail: str


class _Declared(BaseModel, Generic[A]):
    """Common shape of a declared operation: a name, a one-line doc and an argument model."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    name: str
    doc: str
    args_model: type[Args] = NoArgs
    handler: Callable[..., Any] | None = Field(default=None, exclude=True, repr=False)
    """What runs it, set by the :mod:`devicesworld.devices.declare` decorator that declared it."""

    @property
    def args_schema(self) -> dict[str, Any]:
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        return schema

    def parse_args(self, args: Mapping[str, Any] | None) -> Args:
        """Validate raw arguments (numbers strictly); raises :class:`pydantic.ValidationError`."""
        raw = dict(args or {})
        loose = number_errors(self.args_model, raw)
        if loose is not None:
            raise loose
        return self.args_model.model_validate(raw)

    def describe(self) -> dict[str, Any]:
        """The declaration as plain data (what agents and docs see)."""
        return {"name": self.name, "doc": self.doc, "args_schema": self.args_schema}


class ActionSpec(_Declared[Args]):
    """An agent action of a device kind."""


class OpSpec(_Declared[Args]):
    """A setup or cleanup op of a device kind."""


class GetterSpec(_Declared[Args]):
    """A read-only view of device state that verifiers may use (never shown to agents)."""


GetterFn = Callable[[str, Mapping[str, Any]], Any]
"""``get(getter_name, args) -> JSON-able value``: how checks read a device."""

CheckFn = Callable[[GetterFn, Any], CheckOutcome]
"""``check(get, args) -> CheckOutcome``; ``args`` is an instance of the check's args model."""


WritesFn = Callable[[Any, GetterFn], list[str]]
"""``writes(args, get) -> patterns``: the state paths (globs, see :mod:`devicesworld.devices.state`)
that a check reads as the task's outputs; the collateral-damage guard allows changes there."""


class CheckSpec(_Declared[Args]):
    """A verifier check: reads the device only through its getters, so it can run on snapshots.

    ``writes`` declares the state the check judges as an output (a sent text to one
    number, one file): changes there are the task's business, changes anywhere else are
    collateral damage. Checks that only guard (nothing was sent, a file is unchanged)
    leave it ``None``: they license nothing.
    """

    fn: CheckFn
    writes: WritesFn | None = None


class VirtualClock:
    """The task's clock, shared by every device of a task; it never reads the wall clock.

    Time moves only when a device calls :meth:`advance` (for example SmartHome's
    ``advance_time``). Devices that simulate processes subscribe with
    :meth:`subscribe` and get ``(old, new)`` before :attr:`now` moves on, so they can
    run their events in order up to the new time.
    """

    def __init__(self, start: datetime) -> None:
        self._now = start
        self._listeners: list[Callable[[datetime, datetime], None]] = []

    @property
    def now(self) -> datetime:
        return self._now

    def subscribe(self, listener: Callable[[datetime, datetime], None]) -> None:
        self._listeners.append(listener)

    def advance(self, seconds: float) -> datetime:
        if seconds < 0:
            raise ValueError("time cannot move backwards")
        new = self._now + timedelta(seconds=seconds)
        old = self._now
        for listener in self._listeners:
            listener(old, new)
        self._now = new
        return new


@dataclass
class DeviceContext:
    """What the environment hands a device when it creates it."""

    task_id: str
    clock: VirtualClock
    workdir: Path
    seed: int = 0
    shared: dict[str, Any] = field(default_factory=dict)
    """Task-wide services other kinds may provide (e.g. the shared drive), by name."""


@runtime_checkable
class Device(Protocol):
    """One device instance of a task (``smarthome_0``, ``android_1``, ...).

    Arguments arrive already validated against the kind's declared models (an instance
    of the op's, action's or getter's ``args_model``). Methods report expected failures
    through :class:`ActionResult` (``act``) or by raising :class:`DeviceError`
    (``setup``, ``get``); anything else raised is a bug that the controller contains and
    logs. Devices dispatch through their kind's :mod:`declaration tables
    <devicesworld.devices.declare>`; ``observe`` and ``get`` return JSON-able data.
    """

    device_id: str

    def setup(self, op: str, args: Args) -> None: ...

    def act(self, action: str, args: Args) -> ActionResult: ...

    def observe(self) -> dict[str, Any]: ...

    def get(self, getter: str, args: Args) -> object: ...

    def close(self) -> None: ...


@runtime_checkable
class SupportsScreenshot(Protocol):
    """Optional: a device that can render what its screen shows as PNG bytes."""

    def screenshot(self) -> bytes | None: ...


@runtime_checkable
class SupportsPhases(Protocol):
    """A device that times the phases of its steps (a GUI desktop: input, settle, tree, screenshot,
    encode); ``take_phases`` returns the seconds per phase since its last call and starts again."""

    def take_phases(self) -> dict[str, float]: ...


@runtime_checkable
class SupportsResourceCheck(Protocol):
    """Optional: a device that can prove the documents its setup wrote open with their readers."""

    def check_resources(self) -> list[str]:
        """One problem per resource that fails to open; empty when every one opens."""
        ...


class DeviceError(Exception):
    """An expected failure inside a device (bad setup data, unknown entity), with a typed code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


DeviceFactory = Callable[[str, Mapping[str, Any], DeviceContext], Device]
"""``factory(device_id, profile, context) -> Device``."""


SetupCall = tuple[str, dict[str, Any]]
"""One setup op as data: its name and its arguments."""


@dataclass(frozen=True)
class WorldSupport:
    """How a kind shows its slice of a persona world (docs/worlds.md), and counts what a device holds."""

    apply: Callable[[Any, Any], None]
    """``apply(device, world)``: put the world's data on a freshly created device."""
    census: Callable[[GetterFn], dict[str, int]]
    """``census(get)``: what a live device holds (contacts, files, rooms, ...), read through its getters."""
    items: Callable[[GetterFn], dict[str, list[str]]] | None = None
    """``items(get)``: the things a live device holds that a task could touch by mistake (a home's
    devices, a desktop's files), each with the spellings a task would use for it (an id and a name; a
    path and a file name); the census counts those a task never mentions. None: not counted."""
    overlay: Callable[[Any, list[SetupCall], list[SetupCall]], list[SetupCall]] | None = None
    """``overlay(world, ops, claims)``: a task's own setup ops for this device, rewritten so they apply on
    top of the world instead of clashing with it (world items the task would collide with or make
    ambiguous are renamed or removed first). ``claims`` is every op any variant of the task could put on
    the device, so the world is trimmed the same way for all of them. None: the ops apply as they are."""
    members: tuple[str, ...] = ("partner", "child")
    """The household members (``devicesworld.worlds.MEMBERS``) whose worlds a task's further devices of this
    kind take by default, in order: the second device the first member's, the third the next one's.
    Scenario families may name another member per role (``world.members``)."""


@dataclass(frozen=True)
class DeviceKind:
    """Everything the framework knows about one kind of device, as data."""

    name: str
    doc: str
    factory: DeviceFactory
    actions: Mapping[str, ActionSpec]
    setup_ops: Mapping[str, OpSpec]
    getters: Mapping[str, GetterSpec]
    checks: Mapping[str, CheckSpec]
    cleanup_ops: Mapping[str, OpSpec] = field(default_factory=dict)
    profile_model: type[BaseModel] | None = None
    state: StateSpec | None = None
    """How the collateral-damage guard snapshots this kind's devices (None: not guarded)."""
    world: WorldSupport | None = None
    """Persona worlds and the census (None: the kind ignores worlds)."""
    traits: KindTraits = field(default_factory=KindTraits)
    """What composition, near misses, guards, surfaces, splits and preflight need to know of the kind."""
    profile_actions: Callable[[Mapping[str, Any]], Mapping[str, ActionSpec]] | None = None
    """The action table of a device with this profile, when it depends on the profile (a
    desktop in GUI mode has the GUI space); ``None``: always :attr:`actions`. It must
    return the same mapping object for equal profiles (the published space is cached by it)."""

    legacy_profile: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    """How a profile written in a ``schema_version: 1`` task reads today (``None``: as written).

    Why: a profile value can gain a stricter meaning (``desktop: gui`` became GUI-only when
    the ``hybrid`` profile took over the GUI-plus-shell mix); a task document written before
    keeps the meaning it had, so shipped suites, their hashes and old runs stay comparable.
    Documents of schema version 2 read their profiles as written (docs/task-format.md)."""

    def profile_of(self, profile: Mapping[str, Any] | None, schema_version: int = 2) -> dict[str, Any]:
        """The profile a device of this kind runs with, for a task of ``schema_version``."""
        given = dict(profile or {})
        if schema_version < 2 and self.legacy_profile is not None:
            return self.legacy_profile(given)
        return given

    def actions_for(self, profile: Mapping[str, Any] | None) -> Mapping[str, ActionSpec]:
        """The actions a device of this kind with ``profile`` accepts and publishes.

        ``profile`` is the one the device runs with (:meth:`profile_of`), not the raw document's."""
        if self.profile_actions is None or profile is None:
            return self.actions
        return self.profile_actions(profile)

    def action_space(self, profile: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The action space as plain data: what prompts and agents are generated from."""
        return [spec.describe() for spec in self.actions_for(profile).values()]


_REGISTRY: dict[str, DeviceKind] = {}
_BUILTINS_LOADED = False
_LOADING = False
_LOAD_LOCK = threading.RLock()


def validate_kind_name(name: object) -> str:
    """``name`` if it can name a kind; ``ValueError`` saying why not.

    Device ids are ``<kind>_<n>``, so a kind called ``smart_home`` could be registered
    but no task could ever name one of its devices: such names are refused here.
    """
    if not isinstance(name, str) or not KIND_NAME_PATTERN.match(name):
        raise ValueError(
            f"device kind name {name!r} is not allowed: use lower-case letters and digits, starting with a "
            "letter (no '_' or '-'), since device ids are '<kind>_<n>'"
        )
    return name


def register_kind(kind: DeviceKind) -> DeviceKind:
    """Register a device kind; a later registration under the same name replaces it.

    ``ValueError`` for a name no device id could carry (see :func:`validate_kind_name`).
    """
    if not isinstance(kind, DeviceKind):
        raise TypeError(f"register_kind takes a DeviceKind, not {type(kind).__name__}")
    validate_kind_name(kind.name)
    _REGISTRY[kind.name] = kind
    return kind


PLUGINS_ENV = "DEVICESWORLD_PLUGINS"
ENTRY_POINT_GROUP = "devicesworld.device_kinds"


def _load_builtin_kinds() -> None:
    """Register the shipped kinds, then third-party ones.

    Third-party kinds come from the ``devicesworld.device_kinds`` entry-point group
    (each entry point a :class:`DeviceKind`) and from modules named in the
    ``DEVICESWORLD_PLUGINS`` environment variable (comma-separated), which register
    themselves on import.
    """
    global _BUILTINS_LOADED, _LOADING
    if _BUILTINS_LOADED:
        return
    # Other threads (a pre-warming reset) wait here until the registry is complete;
    # the loading thread itself may re-enter through an import and must not wait.
    with _LOAD_LOCK:
        if _BUILTINS_LOADED or _LOADING:
            return
        _LOADING = True
        try:
            from devicesworld.devices import builtin_kinds

            for kind in builtin_kinds():
                _REGISTRY.setdefault(validate_kind_name(kind.name), kind)
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                loaded = ep.load()
                if isinstance(loaded, DeviceKind):
                    _REGISTRY.setdefault(validate_kind_name(loaded.name), loaded)
            for module in filter(None, (m.strip() for m in os.environ.get(PLUGINS_ENV, "").split(","))):
                importlib.import_module(module)
            _BUILTINS_LOADED = True
        finally:
            _LOADING = False


def get_kind(name: str) -> DeviceKind | None:
    _load_builtin_kinds()
    return _REGISTRY.get(name)


def kind_names() -> list[str]:
    _load_builtin_kinds()
    return sorted(_REGISTRY)


_NO_TRAITS = KindTraits()


def traits_of(name: str) -> KindTraits:
    """The traits of a registered kind; neutral defaults for a name no kind has (``env``, a typo)."""
    kind = get_kind(name)
    return kind.traits if kind is not None else _NO_TRAITS


def by_name(specs: list[Any]) -> dict[str, Any]:
    """Index declarations by name, refusing duplicates (a kind's tables are built with it)."""
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.name in out:
            raise ValueError(f"duplicate declaration {spec.name!r}")
        out[spec.name] = spec
    return out


def format_validation_error(err: ValidationError) -> list[tuple[str, str]]:
    """Turn a pydantic error into ``(field path, message)`` pairs for people."""
    out: list[tuple[str, str]] = []
    for e in err.errors():
        loc = ".".join(clip(str(p), 120) for p in e["loc"]) or "(root)"
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field"
        out.append((loc, msg))
    return out


def describe_validation_error(err: ValidationError) -> str:
    """The same as :func:`format_validation_error`, on one line."""
    return "; ".join(f"{loc}: {msg}" for loc, msg in format_validation_error(err))


def kind_of_device_id(device_id: str) -> str | None:
    """``android_1`` -> ``android``; ``None`` when the id does not follow ``<kind>_<n>``."""
    m = DEVICE_ID_PATTERN.match(device_id)
    return m.group("kind") if m else None
