"""The per-process cache of a kind's prepared slice of a world: made once per world, bounded."""

from __future__ import annotations

import threading
import time
from datetime import datetime

from devicesworld.worlds import build_world
from devicesworld.worlds.model import World
from devicesworld.worlds.prepared import PerWorld

START = datetime(2026, 3, 2, 9, 0)


def test_a_world_is_prepared_once_however_many_ask_at_once() -> None:
    calls: list[int] = []

    def make(world: World) -> str:
        calls.append(world.persona.seed if hasattr(world.persona, "seed") else 0)
        time.sleep(0.05)  # long enough for the other threads to arrive while it is being made
        return f"made {len(calls)}"

    cache: PerWorld[str] = PerWorld()
    world = build_world(3, "small", START)
    got: list[str] = []
    threads = [threading.Thread(target=lambda: got.append(cache.get(world, make))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and got == ["made 1"] * 6
    cache.clear()
    assert cache.get(world, make) == "made 2"


def test_the_cache_keeps_at_most_its_bound_dropping_the_oldest() -> None:
    made: list[tuple[object, ...]] = []

    def make(world: World) -> tuple[object, ...]:
        made.append(world.identity)
        return world.identity

    cache: PerWorld[tuple[object, ...]] = PerWorld(keep=2)
    a, b, c = (build_world(s, "small", START) for s in (1, 2, 3))
    for w in (a, b, c, c, b):
        cache.get(w, make)
    assert made == [a.identity, b.identity, c.identity]
    cache.get(a, make)  # a was dropped when c came in
    assert made[-1] == a.identity and len(made) == 4
