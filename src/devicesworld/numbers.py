"""Strict numbers: ``true`` and ``"5"`` are not numbers, wherever an argument model expects one.

Why: pydantic's default (lax) mode turns ``true`` into ``1`` and ``"5"`` into ``5``
for an ``int`` field, so ``{"value": true}`` or ``{"max_steps": true}`` would load as
a task that means something its author did not write. Full strict mode would also
refuse what JSON cannot spell (an enum or a date from a string), so only numbers are
made strict.

Why here and not as a validator on every model: a ``before`` validator on every
field (or every model) makes pydantic hand each input to Python, which cost a third
more time to load the full suite. Every argument a task or an agent supplies passes
through :meth:`~devicesworld.devices.base._Declared.parse_args`, which calls
:func:`number_errors` first; it looks only at the fields whose type is numbers only
(``int``, ``float``, optional ones, lists and tuples of them), descending into nested
argument models, from a plan computed once per model. The task's own numbers
(``limits``) have field validators of their own (:func:`check_number`).
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

Kind = Literal["number", "numbers", "model", "models"]
"""One number (or null), a list/tuple of numbers, a nested model, a list of nested models."""


def _unwrap(annotation: Any) -> Any:
    """``Annotated[X, ...]`` -> X; ``X | None`` -> X (other unions are left alone)."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            members = [a for a in get_args(annotation) if a is not type(None)]
            if len(members) != 1:
                return annotation
            annotation = members[0]
        else:
            return annotation


def _is_number_type(annotation: Any) -> bool:
    annotation = _unwrap(annotation)
    if get_origin(annotation) in (Union, types.UnionType):
        return all(_is_number_type(a) for a in get_args(annotation) if a is not type(None))
    return annotation in (int, float)


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _kind(annotation: Any) -> tuple[Kind, Any] | None:
    if _is_number_type(annotation):
        return "number", None
    inner = _unwrap(annotation)
    if _is_model(inner):
        return "model", inner
    if get_origin(inner) in (list, tuple):
        items = [_unwrap(a) for a in get_args(inner) if a is not Ellipsis]
        if items and all(_is_number_type(a) for a in items):
            return "numbers", None
        if len(items) == 1 and _is_model(items[0]):
            return "models", items[0]
    return None


@cache
def plan(model: type[BaseModel]) -> tuple[tuple[str, Kind, Any], ...]:
    """The fields of ``model`` that hold numbers or nested models (computed once per model)."""
    out: list[tuple[str, Kind, Any]] = []
    for name, field in model.model_fields.items():
        kind = _kind(field.annotation)
        if kind is not None:
            out.append((name, *kind))
    return tuple(out)


def _loose(value: Any) -> bool:
    return isinstance(value, bool | str)


def _what(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else "a string"


def _error(loc: tuple[str | int, ...], value: Any) -> InitErrorDetails:
    return {
        "type": PydanticCustomError("number_type", "expected a number, got {what}", {"what": _what(value)}),
        "loc": loc,
        "input": value,
    }


def _collect(
    model: type[BaseModel], data: Any, loc: tuple[str | int, ...], out: list[InitErrorDetails]
) -> None:
    if not isinstance(data, dict):
        return
    for name, kind, sub in plan(model):
        if name not in data:
            continue
        value = data[name]
        if kind == "number" and _loose(value):
            out.append(_error((*loc, name), value))
        elif kind == "numbers" and isinstance(value, list | tuple):
            out.extend(_error((*loc, name, i), item) for i, item in enumerate(value) if _loose(item))
        elif kind == "model":
            _collect(sub, value, (*loc, name), out)
        elif kind == "models" and isinstance(value, list | tuple):
            for i, item in enumerate(value):
                _collect(sub, item, (*loc, name, i), out)


def number_errors(model: type[BaseModel], data: Any) -> ValidationError | None:
    """A ``ValidationError`` listing every bool or string given where ``model`` expects a number."""
    if not plan(model):
        return None
    found: list[InitErrorDetails] = []
    _collect(model, data, (), found)
    return ValidationError.from_exception_data(model.__name__, found) if found else None


def check_number(value: Any) -> Any:
    """A ``before`` field validator: ``value`` unchanged, or the same error for a bool or a string."""
    if _loose(value):
        raise PydanticCustomError("number_type", "expected a number, got {what}", {"what": _what(value)})
    return value
