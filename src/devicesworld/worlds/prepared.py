"""What a kind prepares once per world (rendered files), kept per process and bounded.

Why: every kind that shows a world renders its slice once (documents, pictures, mail) and
hands the same bytes to each fresh device; a pre-warming thread may ask for the same world
at the same time, so the first asker renders and the others wait for it.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Lock
from typing import Generic, TypeVar

from devicesworld.worlds.model import World

T = TypeVar("T")


class PerWorld(Generic[T]):
    """A per-process cache of one kind's prepared slice of each world, keyed by the world's identity."""

    def __init__(self, keep: int = 16) -> None:
        self._keep = keep
        self._made: dict[object, T] = {}
        self._lock = Lock()

    def get(self, world: World, make: Callable[[World], T]) -> T:
        """``make(world)`` the first time a world is asked for (once, whoever asks), then the same object."""
        key = world.identity
        found = self._made.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._made.get(key)
            if found is None:
                found = make(world)
                if len(self._made) >= self._keep:
                    self._made.pop(next(iter(self._made)))
                self._made[key] = found
        return found

    def clear(self) -> None:
        """Forget what this process prepared (tests)."""
        with self._lock:
            self._made.clear()


__all__ = ["PerWorld"]
