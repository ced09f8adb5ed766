"""Argument models of the agent's actions: AndroidWorld's JSON actions plus B-MoCA's dual gesture.

The actions themselves are declared on their handlers in :mod:`.device`.

Elements are addressed by their index in the latest observation's ``ui_elements``;
coordinates are screen pixels (``bbox_pixels``), the gesture's points are
normalised ``[y, x]`` in 0..1 as in B-MoCA.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from devicesworld.devices.base import Args, NoArgs


class TargetArgs(Args):
    """An element by ``index``, or a point by ``x`` and ``y`` (pixels)."""

    index: int | None = Field(default=None, ge=0, description="Element index.")
    x: float | None = Field(default=None, ge=0, description="Pixel x (with y).")
    y: float | None = Field(default=None, ge=0, description="Pixel y (with x).")

    @model_validator(mode="after")
    def _one_target(self) -> TargetArgs:
        has_point = self.x is not None or self.y is not None
        if self.index is None and not has_point:
            raise ValueError("give an element index, or both x and y")
        if self.index is not None and has_point:
            raise ValueError("give either an index or x/y, not both")
        if has_point and (self.x is None or self.y is None):
            raise ValueError("x and y go together")
        return self


class InputTextArgs(Args):
    text: str
    index: int | None = Field(default=None, ge=0, description="A field to tap first.")
    x: float | None = Field(
        default=None,
        ge=0,
        description="A point to tap first (with y).",
    )
    y: float | None = Field(default=None, ge=0, description="(with x)")
    clear: bool = Field(default=False, description="Replace the field's text, not append.")
    enter: bool = Field(default=False, description="Press Enter after typing.")

    @model_validator(mode="after")
    def _one_target(self) -> InputTextArgs:
        if (self.x is None) != (self.y is None):
            raise ValueError("x and y go together")
        if self.index is not None and self.x is not None:
            raise ValueError("give either an index or x/y, not both")
        return self


class ScrollArgs(Args):
    direction: Literal["up", "down", "left", "right"]
    index: int | None = Field(default=None, ge=0, description="The list to scroll (default: the screen's).")
    distance: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Pages to scroll (1: a page less one row).",
    )


class SwipeArgs(Args):
    direction: Literal["up", "down", "left", "right"] = Field(description="Finger direction.")
    from_edge: bool = Field(
        default=False, description="Start at the screen edge ('down' opens notifications)."
    )


class OpenAppArgs(Args):
    app_name: str = Field(min_length=1, description="App label (as on the launcher) or package name.")


class WaitArgs(Args):
    seconds: float = Field(default=2.0, gt=0, le=3600, description="Virtual seconds to let pass.")


class GestureArgs(Args):
    touch_point: tuple[float, float] = Field(description="[y, x] in 0..1 where the finger lands.")
    lift_point: tuple[float, float] = Field(description="[y, x] in 0..1 where it lifts.")

    @model_validator(mode="after")
    def _in_unit_square(self) -> GestureArgs:
        for p in (*self.touch_point, *self.lift_point):
            if not 0.0 <= p <= 1.0:
                raise ValueError("gesture points are normalised: every coordinate in 0..1")
        return self


__all__ = [
    "GestureArgs",
    "InputTextArgs",
    "NoArgs",
    "OpenAppArgs",
    "ScrollArgs",
    "SwipeArgs",
    "TargetArgs",
    "WaitArgs",
]
