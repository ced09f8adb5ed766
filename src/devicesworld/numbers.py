"""Strict numbers: ``true`` and ``"5"`` are not numbers, wherever a model expects one.

Why: pydantic's default (lax) mode turns ``true`` into ``1`` and ``"5"`` into ``5``
for an ``int`` field, so ``{"max_steps": true}`` or ``{"level": true}`` would load as
a task that means something its author did not write. Full strict mode would also
refuse what JSON cannot spell (an enum or a date from a string), so only numbers are
made strict: :func:`check_number` backs a ``before`` validator for every field whose
type is numbers only (``int``, ``float``, optional ones, lists and tuples of them),
installed on the argument base class and on the task models.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationInfo

Shape = Literal["number", "numbers"] | None
"""``number``: the field holds one number (or null); ``numbers``: a list/tuple of them."""


def _is_number_type(annotation: Any) -> bool:
    if get_origin(annotation) is Annotated:
        return _is_number_type(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return bool(members) and all(_is_number_type(a) for a in members)
    return annotation in (int, float)


def _shape(annotation: Any) -> Shape:
    if _is_number_type(annotation):
        return "number"
    origin = get_origin(annotation)
    if origin is Annotated:
        return _shape(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return _shape(members[0]) if len(members) == 1 else None
    if origin in (list, tuple):
        inner = [a for a in get_args(annotation) if a is not Ellipsis]
        return "numbers" if inner and all(_is_number_type(a) for a in inner) else None
    return None


@cache
def field_shape(model: type[BaseModel], name: str) -> Shape:
    field = model.model_fields.get(name)
    return None if field is None else _shape(field.annotation)


def _loose(value: Any) -> bool:
    return isinstance(value, bool | str)


def _what(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else "a string"


def check_number(model: type[BaseModel], value: Any, info: ValidationInfo) -> Any:
    """The value unchanged, or ``ValueError`` when a number field got a bool or a string."""
    if info.field_name is None:
        return value
    shape = field_shape(model, info.field_name)
    if shape == "number" and _loose(value):
        raise ValueError(f"expected a number, got {_what(value)}")
    if shape == "numbers" and isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if _loose(item):
                raise ValueError(f"item {i}: expected a number, got {_what(item)}")
    return value
