"""Declaration tables: registration, the published mapping and the one dispatch."""

from __future__ import annotations

import pytest

from devicesworld.devices.base import (
    ActionResult,
    ActionSpec,
    Args,
    CheckOutcome,
    DeviceError,
    GetterFn,
    NoArgs,
)
from devicesworld.devices.declare import ActionTable, CheckTable, OpTable


class CountArgs(Args):
    n: int


class Counter:
    def __init__(self) -> None:
        self.total = 0


ACTIONS: ActionTable[Counter] = ActionTable("counter")
CLEANUP: OpTable[Counter] = OpTable("counter", what="cleanup op")


@ACTIONS.register("reset", doc="Back to zero.")
@ACTIONS.register("zero", doc="Same as reset.")
def reset(device: Counter, args: NoArgs) -> ActionResult:
    device.total = 0
    return ActionResult.success("zero")


@ACTIONS.register("add", doc="Add n.", args=CountArgs)
def add(device: Counter, args: CountArgs) -> ActionResult:
    device.total += args.n
    return ActionResult.success(str(device.total))


def test_a_table_is_the_ordered_mapping_of_its_declarations() -> None:
    assert list(ACTIONS) == ["zero", "reset", "add"]
    spec = ACTIONS["add"]
    assert isinstance(spec, ActionSpec) and spec.args_model is CountArgs and spec.handler is add
    assert spec.describe() == {"name": "add", "doc": "Add n.", "args_schema": spec.args_schema}
    assert "handler" not in spec.model_dump()


def test_call_validates_mappings_and_runs_the_handler() -> None:
    c = Counter()
    assert ACTIONS.act(c, "add", CountArgs(n=2)).ok
    assert ACTIONS.act(c, "add", {"n": 3}).message == "5"
    assert ACTIONS.act(c, "zero", None).ok and c.total == 0


@pytest.mark.parametrize(
    ("name", "args", "code", "says"),
    [
        ("nope", NoArgs(), "UNSUPPORTED", "counter has no action 'nope' (known: zero, reset, add)"),
        ("add", {"n": "3"}, "INVALID_ARGS", "counter action 'add': n:"),
        ("add", {"n": 1, "m": 2}, "INVALID_ARGS", "m: unknown field"),
        ("add", NoArgs(), "INVALID_ARGS", "counter action 'add' takes CountArgs, not NoArgs"),
    ],
)
def test_bad_calls_are_device_errors_and_failed_results(
    name: str, args: object, code: str, says: str
) -> None:
    with pytest.raises(DeviceError) as info:
        ACTIONS.call(Counter(), name, args)
    assert info.value.code == code and says in info.value.message
    result = ACTIONS.act(Counter(), name, args)
    assert not result.ok and result.error_code == code and says in result.message


def test_declaring_twice_or_with_a_non_model_is_refused() -> None:
    table: ActionTable[Counter] = ActionTable("counter")
    table.register("x", doc="x")(reset)
    with pytest.raises(ValueError, match="declares the action 'x' twice"):
        table.register("x", doc="x")(reset)
    with pytest.raises(TypeError, match="args must be an Args subclass"):
        table.register("y", doc="y", args=dict)  # type: ignore[type-var]


def test_cleanup_tables_say_what_they_hold() -> None:
    with pytest.raises(DeviceError, match="counter has no cleanup op 'wipe'"):
        CLEANUP.call(Counter(), "wipe", NoArgs())


def test_with_writes_attaches_write_sets_and_refuses_unknown_checks() -> None:
    checks = CheckTable("counter")

    @checks.register("positive", doc="Total above zero.")
    def positive(get: GetterFn, args: NoArgs) -> CheckOutcome:
        raise AssertionError("not run")

    out = checks.with_writes({"positive": lambda a, get: ["total"]})
    assert out["positive"].writes is not None and out["positive"].fn is positive
    with pytest.raises(ValueError, match="writes for unknown checks: nope"):
        checks.with_writes({"nope": lambda a, get: []})
