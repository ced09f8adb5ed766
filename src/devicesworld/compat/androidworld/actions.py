"""AndroidWorld's ``JSONAction``, validated: the fields, the action types, their rules.

An agent written for AndroidWorld sends a ``JSONAction`` (or the dict it was parsed
from). Both are accepted: anything with the attributes, or a mapping with the keys
``action_type, index, x, y, text, direction, goal_status, app_name, keycode,
clear_text``. The rules are AndroidWorld's: a known action type, an index *or* a
point, a scroll direction among up/down/left/right, a keycode spelled
``KEYCODE_*``; ``index`` may be a numeric string and ``text`` any value (turned
into text). A broken action raises :class:`InvalidAction` with the reason, as
``JSONAction`` itself raises ``ValueError`` before an action reaches AndroidWorld's
environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from devicesworld.devices.base import describe_validation_error

ActionType = Literal[
    "click",
    "double_tap",
    "scroll",
    "swipe",
    "input_text",
    "navigate_home",
    "navigate_back",
    "keyboard_enter",
    "open_app",
    "status",
    "wait",
    "long_press",
    "answer",
    "unknown",
]
ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
"""AndroidWorld's 14 action types."""

FIELDS = (
    "action_type",
    "index",
    "x",
    "y",
    "text",
    "direction",
    "goal_status",
    "app_name",
    "keycode",
    "clear_text",
)
"""``JSONAction``'s attributes."""


class InvalidAction(ValueError):
    """An action AndroidWorld's ``JSONAction`` would refuse; the message says why."""


class AWAction(BaseModel):
    """One ``JSONAction``, checked by AndroidWorld's rules."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action_type: ActionType
    index: int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: Literal["left", "right", "down", "up"] | None = None
    goal_status: str | None = None
    app_name: str | None = None
    keycode: str | None = None
    clear_text: bool | None = None

    @field_validator("index", mode="before")
    @classmethod
    def _int_index(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        return value

    @field_validator("x", "y", mode="before")
    @classmethod
    def _int_point(cls, value: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, float):
            return round(value)
        return value

    @field_validator("text", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return value if value is None or isinstance(value, str) else str(value)

    @field_validator("keycode")
    @classmethod
    def _keycode(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("KEYCODE_"):
            raise ValueError(f"invalid keycode {value!r} (AndroidWorld keycodes start with KEYCODE_)")
        return value

    @model_validator(mode="after")
    def _one_target(self) -> AWAction:
        if self.index is not None and (self.x is not None or self.y is not None):
            raise ValueError("either an index or <x, y> should be provided, not both")
        return self


def parse_action(action: Any) -> AWAction:
    """A ``JSONAction`` (any object with its attributes) or a dict, validated; raises :class:`InvalidAction`."""
    if isinstance(action, AWAction):
        return action
    if isinstance(action, Mapping):
        raw = {k: v for k, v in action.items() if v is not None}
    elif hasattr(action, "action_type"):
        raw = {k: getattr(action, k) for k in FIELDS if getattr(action, k, None) is not None}
    else:
        raise InvalidAction(
            f"expected a JSONAction or a dict with 'action_type', got {type(action).__name__}"
        )
    try:
        return AWAction.model_validate(raw)
    except ValidationError as exc:
        raise InvalidAction(
            f"invalid AndroidWorld action {raw!r}: {describe_validation_error(exc)}"
        ) from None


__all__ = ["ACTION_TYPES", "FIELDS", "AWAction", "ActionType", "InvalidAction", "parse_action"]
