"""Persona worlds: one person's coherent digital life that every device of a task starts from.

See docs/worlds.md. :mod:`.model` is the data (pure pydantic, imported by the task
spec); :mod:`.generate` builds it from a seed with Faker, imported only when a world
is built, so loading a task file does not pay for Faker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devicesworld.worlds.model import DEFAULT_START, SIZES, VALUE_KINDS, Pick, World, WorldSize, WorldValue

if TYPE_CHECKING:
    from devicesworld.worlds.generate import build_world

__all__ = [
    "DEFAULT_START",
    "SIZES",
    "VALUE_KINDS",
    "Pick",
    "World",
    "WorldSize",
    "WorldValue",
    "build_world",
]


def __getattr__(name: str) -> Any:
    if name == "build_world":
        from devicesworld.worlds.generate import build_world

        return build_world
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
