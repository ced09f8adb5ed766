"""Strict numbers in argument models, nested models included."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field, ValidationError

from devicesworld.devices.base import Args, OpSpec
from devicesworld.numbers import number_errors, plan


class Inner(Args):
    level: float


class Outer(Args):
    count: int = Field(ge=0)
    ratio: float | None = None
    point: tuple[int, int] | None = None
    label: str = ""
    flag: bool = False
    inner: Inner | None = None
    many: list[Inner] = Field(default_factory=list)


SPEC = OpSpec(name="op", doc="An op.", args_model=Outer)


def test_the_plan_covers_numbers_and_nested_models_only() -> None:
    assert {name for name, _, _ in plan(Outer)} == {"count", "ratio", "point", "inner", "many"}


def test_numbers_and_non_number_fields_parse_as_before() -> None:
    args = SPEC.parse_args(
        {"count": 2, "ratio": 1, "point": [1, 2], "label": "5", "flag": True, "many": [{"level": 3}]}
    )
    assert isinstance(args, Outer) and args.ratio == 1.0 and args.point == (1, 2) and args.flag


@pytest.mark.parametrize(
    ("args", "where", "shown"),
    [({"count": True}, "count", "true"), ({"count": "2"}, "count", "a string"),
     ({"count": 1, "ratio": False}, "ratio", "false"), ({"count": 1, "point": [1, True]}, "point.1", "true"),
     ({"count": 1, "inner": {"level": "3"}}, "inner.level", "a string"),
     ({"count": 1, "many": [{"level": 1}, {"level": True}]}, "many.1.level", "true")],
)  # fmt: skip
def test_bools_and_strings_where_numbers_go_are_errors_at_their_field(
    args: dict[str, Any], where: str, shown: str
) -> None:
    with pytest.raises(ValidationError) as info:
        SPEC.parse_args(args)
    (error,) = info.value.errors()
    assert ".".join(map(str, error["loc"])) == where and error["msg"] == f"expected a number, got {shown}"


def test_models_without_numbers_cost_nothing() -> None:
    class Text(Args):
        name: str

    assert plan(Text) == () and number_errors(Text, {"name": True}) is None
