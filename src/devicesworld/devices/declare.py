"""Declaration tables: each action, op, getter or check is declared where its handler is written.

A kind used to write every action three times — a declaration in a list, an argument
model, and a handler found by a string in a dict or an ``if`` chain — and the three
could drift (a typo in the key, a handler that reads a field the model does not have).
Here one decorator does all three::

    ACTIONS: ActionTable[LinuxDevice] = ActionTable("linux")

    class LinuxDevice:
        @ACTIONS.register("run_command", doc="Run a bash command.", args=RunCommandArgs)
        def run_command(self, args: RunCommandArgs) -> ActionResult: ...

The decorator's type binds the handler's argument type to ``args``: under
``mypy --strict`` a handler declared with ``args=RunCommandArgs`` that takes
``ReadFileArgs`` is an error. A table *is* the kind's mapping of declarations
(``DeviceKind(actions=ACTIONS, ...)``), each declaration carrying its handler, and
:meth:`Table.call` is the one way a device dispatches: look the name up, make sure the
arguments are an instance of the declared model (a mapping is validated into one),
run the handler. Unknown names and bad arguments are :class:`DeviceError` s
(``UNSUPPORTED``, ``INVALID_ARGS``); :meth:`ActionTable.act` turns them into failed
:class:`ActionResult` s, since an agent's step never raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar, cast, overload

from pydantic import ValidationError

from devicesworld.devices.base import (
    ActionResult,
    ActionSpec,
    Args,
    CheckOutcome,
    CheckSpec,
    DeviceError,
    GetterFn,
    GetterSpec,
    NoArgs,
    OpSpec,
    WritesFn,
    _Declared,
    describe_validation_error,
)

__all__ = ["ActionTable", "CheckTable", "GetterTable", "OpTable", "Table"]

D = TypeVar("D")
"""What a handler runs on: the device (actions, ops, getters) or the getter function (checks)."""
R = TypeVar("R")
"""What a handler returns."""
S = TypeVar("S", bound=_Declared[Args])
"""The declaration class the table holds."""
A = TypeVar("A", bound=Args)


class Table(Mapping[str, S], Generic[D, R, S]):
    """Declarations of one sort (actions, setup ops, ...) of one kind, in registration order."""

    what = "declaration"
    """How messages name one entry (``action``, ``setup op``, ...)."""

    def __init__(self, owner: str, *, what: str | None = None) -> None:
        self.owner = owner
        if what is not None:
            self.what = what
        self._specs: dict[str, S] = {}

    # --- the mapping the kind publishes ---------------------------------------------------
    def __getitem__(self, name: str) -> S:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.owner!r}: {', '.join(self._specs)})"

    # --- declaring --------------------------------------------------------------------------
    def _make(self, name: str, doc: str, args: type[Args], handler: Callable[..., Any]) -> S:
        raise NotImplementedError

    @overload
    def register(
        self, name: str, *, doc: str
    ) -> Callable[[Callable[[D, NoArgs], R]], Callable[[D, NoArgs], R]]: ...

    @overload
    def register(
        self, name: str, *, doc: str, args: type[A]
    ) -> Callable[[Callable[[D, A], R]], Callable[[D, A], R]]: ...

    def register(
        self, name: str, *, doc: str, args: type[Args] = NoArgs
    ) -> Callable[[Callable[[D, Any], R]], Callable[[D, Any], R]]:
        """Declare ``name`` with its one-line ``doc`` and argument model; the decorated function handles it.

        The function is returned unchanged, so one function may handle several names
        (stack the decorators) and a method stays a method.
        """
        if not (isinstance(args, type) and issubclass(args, Args)):
            raise TypeError(f"{self.owner} {self.what} {name!r}: args must be an Args subclass, not {args!r}")

        def decorate(handler: Callable[[D, Any], R]) -> Callable[[D, Any], R]:
            if name in self._specs:
                raise ValueError(f"{self.owner} declares the {self.what} {name!r} twice")
            self._specs[name] = self._make(name, doc, args, handler)
            return handler

        return decorate

    # --- dispatching ------------------------------------------------------------------------
    def parse(self, name: str, args: object) -> tuple[S, Args]:
        """The declaration of ``name`` and ``args`` as an instance of its model; ``DeviceError`` otherwise."""
        spec = self._specs.get(name)
        if spec is None:
            known = ", ".join(self._specs) or "none"
            raise DeviceError("UNSUPPORTED", f"{self.owner} has no {self.what} {name!r} (known: {known})")
        if isinstance(args, spec.args_model):
            return spec, args
        if args is None or isinstance(args, Mapping):
            try:
                return spec, spec.parse_args(args)
            except ValidationError as exc:
                raise DeviceError(
                    "INVALID_ARGS", f"{self.owner} {self.what} {name!r}: {describe_validation_error(exc)}"
                ) from None
        raise DeviceError(
            "INVALID_ARGS",
            f"{self.owner} {self.what} {name!r} takes {spec.args_model.__name__}, not {type(args).__name__}",
        )

    def call(self, target: D, name: str, args: object) -> R:
        """Run the handler of ``name`` on ``target`` with validated ``args``."""
        spec, parsed = self.parse(name, args)
        handler = cast("Callable[[D, Args], R]", spec.handler)
        return handler(target, parsed)


class ActionTable(Table[D, ActionResult, ActionSpec]):
    """A kind's agent actions; handlers return an :class:`ActionResult`."""

    what = "action"

    def _make(self, name: str, doc: str, args: type[Args], handler: Callable[..., Any]) -> ActionSpec:
        return ActionSpec(name=name, doc=doc, args_model=args, handler=handler)

    def act(self, device: D, name: str, args: object) -> ActionResult:
        """:meth:`call`, with an unknown action or bad arguments reported as a failed result."""
        try:
            return self.call(device, name, args)
        except DeviceError as exc:
            return ActionResult.failure(exc.code, exc.message)


class OpTable(Table[D, None, OpSpec]):
    """A kind's setup (or cleanup) ops; handlers raise :class:`DeviceError` for bad data.

    Cleanup ops go in a second table (``OpTable(kind, what="cleanup op")``, given as the
    kind's ``cleanup_ops``); the controller runs both through ``device.setup``, which
    picks the table that has the op.
    """

    what = "setup op"

    def _make(self, name: str, doc: str, args: type[Args], handler: Callable[..., Any]) -> OpSpec:
        return OpSpec(name=name, doc=doc, args_model=args, handler=handler)


class GetterTable(Table[D, object, GetterSpec]):
    """A kind's getters; handlers return JSON-able data (verifiers compare it)."""

    what = "getter"

    def _make(self, name: str, doc: str, args: type[Args], handler: Callable[..., Any]) -> GetterSpec:
        return GetterSpec(name=name, doc=doc, args_model=args, handler=handler)


class CheckTable(Table[GetterFn, CheckOutcome, CheckSpec]):
    """A kind's checks; a handler reads the device only through the getter function it is given."""

    what = "check"

    def _make(self, name: str, doc: str, args: type[Args], handler: Callable[..., Any]) -> CheckSpec:
        return CheckSpec(name=name, doc=doc, args_model=args, fn=handler, handler=handler)

    def with_writes(self, writes: Mapping[str, WritesFn]) -> dict[str, CheckSpec]:
        """The checks, each carrying what it names as the task's output (``writes``), by name.

        A name in ``writes`` that is no check of this table is a mistake, not a no-op.
        """
        unknown = sorted(set(writes) - set(self._specs))
        if unknown:
            raise ValueError(f"{self.owner} declares writes for unknown checks: {', '.join(unknown)}")
        return {
            n: s.model_copy(update={"writes": writes[n]}) if n in writes else s
            for n, s in self._specs.items()
        }
