"""``check_kind``: does a device kind keep the contract the framework relies on?

Like Gymnasium's ``check_env``, it is for the author of a kind (built-in or plugin):
it reads the kind's declarations, builds one device in a throw-away folder and pokes
it the way the controller and the verifiers will, and returns every problem it found
as a sentence a person can act on (``[]``: the kind conforms). It checks that

- the name can appear in device ids and every declaration has a doc, a handler (or a
  check function), an argument model that forbids unknown fields and a JSON Schema;
- the traits are a :class:`~devicesworld.devices.traits.KindTraits` whose check names
  exist and whose presets are lists of names;
- the factory builds a device with the expected id that follows the
  :class:`~devicesworld.devices.base.Device` protocol;
- ``observe()`` and every getter that takes no arguments return JSON-able data, and
  every such check returns a :class:`CheckOutcome`;
- an undeclared action, or a declared one given arguments of another model, gives a
  failed :class:`ActionResult` — never an exception — and an undeclared op or getter a
  :class:`DeviceError`;
- the state snapshot (when the kind has one) maps paths to strings;
- ``close()`` may be called twice.

It never runs an action with valid arguments, so it starts no browser and moves no
clock: it is cheap enough to run on every kind in the tests.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from devicesworld.devices.base import (
    ActionResult,
    ActionSpec,
    Args,
    CheckOutcome,
    CheckSpec,
    Device,
    DeviceContext,
    DeviceError,
    DeviceKind,
    NoArgs,
    VirtualClock,
    _Declared,
    get_kind,
    validate_kind_name,
)
from devicesworld.devices.traits import KindTraits

__all__ = ["KindCheckError", "check_kind"]

UNDECLARED = "__check_kind_undeclared__"
CLOCK_START = datetime(2026, 1, 5, 9, 0, 0)
"""A fixed virtual time for the device built by the check (it never reads the wall clock)."""


class KindCheckError(Exception):
    """Raised by ``check_kind(..., strict=True)``; ``problems`` lists every finding."""

    def __init__(self, kind: str, problems: list[str]) -> None:
        self.kind = kind
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"device kind {kind!r} does not conform ({len(problems)} problem(s)):\n{lines}")


class _NotTheModel(Args):
    """Arguments of a model no declaration has: every handler must refuse them."""

    check_kind_probe: int = 0


def check_kind(
    kind: DeviceKind | str,
    *,
    profile: Mapping[str, Any] | None = None,
    strict: bool = False,
) -> list[str]:
    """Every way ``kind`` (a kind or a registered name) breaks the contract; ``[]`` when it conforms.

    ``profile`` is the device profile to build the probe device with (``{}`` by
    default); when the kind's action table depends on the profile
    (``DeviceKind.profile_actions``), that profile's table is checked and probed too. With ``strict=True`` problems raise :class:`KindCheckError` instead.
    """
    if isinstance(kind, str):
        found = get_kind(kind)
        if found is None:
            problems = [f"no device kind named {kind!r} is registered"]
            if strict:
                raise KindCheckError(kind, problems)
            return problems
        kind = found
    if not isinstance(kind, DeviceKind):
        raise TypeError(f"check_kind takes a DeviceKind or a kind name, not {type(kind).__name__}")
    problems = _static(kind, profile)
    with tempfile.TemporaryDirectory(prefix=f"check-kind-{kind.name}-", ignore_cleanup_errors=True) as tmp:
        problems += _dynamic(kind, dict(profile or {}), Path(tmp))
    if strict and problems:
        raise KindCheckError(kind.name, problems)
    return problems


# --------------------------------------------------------------------------- declarations
def _static(kind: DeviceKind, profile: Mapping[str, Any] | None = None) -> list[str]:
    out: list[str] = []
    try:
        validate_kind_name(kind.name)
    except ValueError as exc:
        out.append(str(exc))
    if not kind.doc.strip():
        out.append("the kind has no doc")
    tables: list[tuple[str, Mapping[str, _Declared[Args]]]] = [
        ("action", kind.actions),
        ("setup op", kind.setup_ops),
        ("cleanup op", kind.cleanup_ops),
        ("getter", kind.getters),
        ("check", kind.checks),
    ]
    profiled = kind.actions_for(profile)
    if profiled is not kind.actions:  # a profile with its own action table (a GUI desktop)
        tables.append(("action (of this profile)", profiled))
    for what, table in tables:
        for key, spec in table.items():
            out += _declaration(what, key, spec)
    if kind.profile_model is not None:
        out += _schema_problems("the profile model", kind.profile_model.model_json_schema)
    out += _traits(kind)
    if kind.state is not None and not callable(kind.state.snapshot):
        out.append("state.snapshot is not callable")
    return out


def _declaration(what: str, key: str, spec: _Declared[Args]) -> list[str]:
    where = f"{what} {key!r}"
    out: list[str] = []
    if spec.name != key:
        out.append(f"{where} is declared under the name {spec.name!r}")
    if not spec.doc.strip():
        out.append(f"{where} has no doc")
    if isinstance(spec, CheckSpec):
        if not callable(spec.fn):
            out.append(f"{where} has no check function")
        if spec.writes is not None and not callable(spec.writes):
            out.append(f"{where} declares writes that are not a function")
    elif spec.handler is None:
        out.append(
            f"{where} has no handler: declare it with its table's register decorator "
            "(devicesworld.devices.declare) on the function that runs it"
        )
    model = spec.args_model
    if not (isinstance(model, type) and issubclass(model, Args)):
        out.append(f"{where}: args_model {model!r} is not an Args subclass")
        return out
    if model.model_config.get("extra") != "forbid":
        out.append(f"{where}: args model {model.__name__} does not forbid unknown fields (extra='forbid')")
    out += _schema_problems(f"{where}'s argument schema", lambda: spec.args_schema)
    return out


def _schema_problems(label: str, schema: Callable[[], object]) -> list[str]:
    try:
        json.dumps(schema())
    except Exception as exc:
        return [f"{label} cannot be written as JSON Schema: {type(exc).__name__}: {exc}"]
    return []


def _traits(kind: DeviceKind) -> list[str]:
    traits = kind.traits
    if not isinstance(traits, KindTraits):
        return [f"traits must be a KindTraits, not {type(traits).__name__}"]
    out: list[str] = []
    for field in ("shared_checks", "day_checks"):
        unknown = sorted(getattr(traits, field) - set(kind.checks))
        if unknown:
            out.append(f"traits.{field} names checks the kind does not have: {', '.join(unknown)}")
    if bool(traits.noun) != bool(traits.place):
        out.append("traits give a noun without a place or a place without a noun (instructions use both)")
    split = traits.env_split
    if split is not None:
        for name in (*split.splits, None):
            try:
                presets = split.presets(name)
            except Exception as exc:
                out.append(f"traits.env_split.presets({name!r}) raised {type(exc).__name__}: {exc}")
                continue
            if not isinstance(presets, list) or not all(isinstance(p, str) for p in presets):
                out.append(f"traits.env_split.presets({name!r}) is not a list of names")
            elif name is not None and not presets:
                out.append(f"traits.env_split has no presets for the split {name!r}")
    return out


# --------------------------------------------------------------------------- a device
def _dynamic(kind: DeviceKind, profile: dict[str, Any], tmp: Path) -> list[str]:
    device_id = f"{kind.name}_0"
    context = DeviceContext(
        task_id="check-kind", clock=VirtualClock(CLOCK_START), workdir=tmp / device_id, seed=0
    )
    context.workdir.mkdir(parents=True)
    try:
        device = kind.factory(device_id, profile, context)
    except Exception as exc:
        return [
            f"the factory failed to build {device_id} with profile {profile!r}: {type(exc).__name__}: {exc}"
        ]
    out: list[str] = []
    try:
        out += _device(kind, device, device_id, kind.actions_for(profile))
    finally:
        out += _closing(device)
    return out


def _device(
    kind: DeviceKind, device: Any, device_id: str, actions: Mapping[str, ActionSpec] | None = None
) -> list[str]:
    if not isinstance(device, Device):
        missing = [
            m for m in ("setup", "act", "observe", "get", "close") if not callable(getattr(device, m, None))
        ]
        return [
            f"the factory's device does not follow the Device protocol (missing: {', '.join(missing) or 'device_id'})"
        ]
    out: list[str] = []
    if device.device_id != device_id:
        out.append(f"the device's device_id is {device.device_id!r}, not the {device_id!r} it was built with")
    out += _call("observe()", device.observe, json_result=True)
    out += _act("an undeclared action", lambda: device.act(UNDECLARED, NoArgs()))
    for name in kind.actions if actions is None else actions:
        out += _act(
            f"action {name!r} with arguments of another model", partial(device.act, name, _NotTheModel())
        )
    out += _raises_device_error("setup of an undeclared op", lambda: device.setup(UNDECLARED, NoArgs()))
    out += _raises_device_error("an undeclared getter", lambda: device.get(UNDECLARED, NoArgs()))

    def get(name: str, args: Mapping[str, Any]) -> Any:
        return device.get(name, kind.getters[name].parse_args(args))

    for name, spec in kind.getters.items():
        parsed = _empty_args(spec)
        if parsed is not None:
            out += _call(f"getter {name!r}", partial(device.get, name, parsed), json_result=True)
    for name, check in kind.checks.items():
        parsed = _empty_args(check)
        if parsed is not None:
            out += _check(name, partial(check.fn, get, parsed))
    if kind.state is not None:
        out += _snapshot(lambda: kind.state.snapshot(device) if kind.state else {})
    return out


def _empty_args(spec: _Declared[Args]) -> Args | None:
    """The declaration's arguments when it needs none (``{}`` validates), else ``None``."""
    try:
        return spec.parse_args({})
    except ValidationError:
        return None


def _call(label: str, fn: Callable[[], object], *, json_result: bool) -> list[str]:
    try:
        value = fn()
    except DeviceError:
        return []
    except Exception as exc:
        return [f"{label} raised {type(exc).__name__}: {exc} (expected data, or a DeviceError)"]
    if json_result:
        try:
            json.dumps(value)
        except (TypeError, ValueError) as exc:
            return [f"{label} returned data that is not JSON-able: {exc}"]
    return []


def _act(label: str, fn: Callable[[], object]) -> list[str]:
    try:
        result = fn()
    except Exception as exc:
        return [f"{label} raised {type(exc).__name__}: {exc} (an action must return a failed ActionResult)"]
    if not isinstance(result, ActionResult):
        return [f"{label} returned {type(result).__name__}, not an ActionResult"]
    if result.ok:
        return [f"{label} succeeded; it must fail (with an error_code such as UNSUPPORTED or INVALID_ARGS)"]
    return []


def _raises_device_error(label: str, fn: Callable[[], object]) -> list[str]:
    try:
        fn()
    except DeviceError:
        return []
    except Exception as exc:
        return [f"{label} raised {type(exc).__name__}: {exc}; it must raise a DeviceError"]
    return [f"{label} did not fail; it must raise a DeviceError"]


def _check(name: str, fn: Callable[[], object]) -> list[str]:
    try:
        outcome = fn()
    except DeviceError:
        return []
    except Exception as exc:
        return [f"check {name!r} raised {type(exc).__name__}: {exc} on a fresh device"]
    if not isinstance(outcome, CheckOutcome):
        return [f"check {name!r} returned {type(outcome).__name__}, not a CheckOutcome"]
    return []


def _snapshot(fn: Callable[[], object]) -> list[str]:
    try:
        snap = fn()
    except Exception as exc:
        return [f"state.snapshot raised {type(exc).__name__}: {exc}"]
    if not isinstance(snap, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in snap.items()
    ):
        return ["state.snapshot must map state paths to digest strings"]
    return []


def _closing(device: Any) -> list[str]:
    out: list[str] = []
    for attempt in ("close()", "a second close()"):
        try:
            device.close()
        except Exception as exc:
            out.append(f"{attempt} raised {type(exc).__name__}: {exc} (close must be idempotent)")
            break
    return out
