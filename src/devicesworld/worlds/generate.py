"""Build a :class:`World` from ``(persona_seed, size, start)`` (implementation follows)."""

from __future__ import annotations

from datetime import datetime

from devicesworld.worlds.model import DEFAULT_START, World, WorldSize


def build_world(persona_seed: int, size: WorldSize = "lived", start: datetime = DEFAULT_START) -> World:
    raise NotImplementedError("world generation lands in the next commit")
