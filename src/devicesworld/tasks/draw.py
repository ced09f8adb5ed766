"""Fresh private splits: unseen instances drawn in the strata of a frozen split.

Why: a public test set leaks into training data sooner or later. Every task of ``full``
comes from a scenario family (or a kind's task source) by a seed, so new instances can be
drawn at any time. ``devicesworld tasks draw --like test --seed S`` takes the strata of
the frozen split — for each of its tasks, the family it came from and its difficulty — and
draws, for each, a new instance of the same family and difficulty from a seed space derived
from ``S``, proven by every gate of ``tasks validate`` while it is built
(:func:`devicesworld.tasks.full.build_one`), and never a copy of a shipped task (same
instruction, world, setup and devices). The same ``S`` gives the same bytes, so a
leaderboard can keep its seeds private and publish them later.
"""

from __future__ import annotations

import fnmatch
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from devicesworld.spec.models import Task
from devicesworld.tasks.full import BuildStats, Shard, build_one, recipe
from devicesworld.tasks.manifest import Manifest, Protocol, build_manifest

DRAW_TRIES = 6
"""Instances drawn per stratum looking for the stratum's difficulty before any difficulty is taken."""


class DrawError(Exception):
    """A split whose tasks cannot be traced to a family, or nothing left to draw."""


@dataclass(frozen=True)
class Stratum:
    shard: Shard
    difficulty: str
    like: str
    """The frozen task this stratum stands for."""


def content_key(task: Task) -> str:
    """What makes two tasks the same request (the key ``full`` de-duplicates on)."""
    return task.model_copy(update={"id": "x"}).model_dump_json(
        include={"instruction", "world", "setup", "devices"}
    )


def strata(tasks: list[Task], only: str | None = None) -> list[Stratum]:
    """One stratum per task of the frozen split: its family's shard (from the id ``dw-<prefix>-NNNN``)
    and its difficulty; ``only`` keeps the shards whose builder matches the glob."""
    by_prefix = {s.prefix: s for s in recipe()}
    out = []
    for task in tasks:
        prefix = task.id.removeprefix("dw-").rsplit("-", 1)[0]
        shard = by_prefix.get(prefix)
        if shard is None:
            raise DrawError(f"{task.id}: no family of the shipped recipe makes it (prefix {prefix!r})")
        if only is None or fnmatch.fnmatch(shard.builder, only):
            out.append(Stratum(shard, task.metadata.difficulty, task.id))
    return out


def spread(items: list[Stratum], count: int | None) -> list[Stratum]:
    """``count`` strata spread evenly over ``items`` (all of them without a count)."""
    if count is None or count >= len(items):
        return list(items)
    return [items[(i * len(items)) // count] for i in range(count)]


def fixed_rows(shard: Shard) -> bool:
    """A kind's task source whose tasks do not move with the seed, not even in a private draw
    (``TaskSource.redraw`` and ``fresh_draws`` false): every instance it can make is shipped."""
    if not shard.builder.startswith("source:"):
        return False
    from devicesworld.tasks.kind_sources import source_by_name

    source = source_by_name(shard.builder.split(":", 1)[1])
    return not (source.redraw or source.fresh_draws)


def draw_seed(seed: int) -> int:
    """The build seed of a private draw: never the shipped suite's (a different seed space)."""
    return zlib.crc32(f"private-draw:{seed}".encode())


def draw_split(
    plan: list[Stratum],
    seed: int,
    seen: set[str],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Task], BuildStats, list[str]]:
    """One proven, unseen task per stratum; returns (tasks, build stats, notes on strata that could
    only be filled in another difficulty or not at all)."""
    build_seed = draw_seed(seed)
    stats = BuildStats(seed=build_seed)
    taken = set(seen)
    next_index: dict[str, int] = {}
    tasks: list[Task] = []
    notes: list[str] = []
    for n, stratum in enumerate(plan, start=1):
        fallback: Task | None = None
        found: Task | None = None
        if fixed_rows(stratum.shard):
            notes.append(
                f"{stratum.like}: {stratum.shard.builder} is a fixed list of tasks (its rows do not move "
                "with the seed), so it has no unseen instance; stratum left empty"
            )
            if progress is not None:
                progress(n, len(plan))
            continue
        for _ in range(DRAW_TRIES):
            index = next_index.get(stratum.shard.builder, 0)
            next_index[stratum.shard.builder] = index + 1
            task = build_one(None, stratum.shard, build_seed, index, stats, fresh=True)
            if task is None or content_key(task) in taken:
                continue
            if task.metadata.difficulty == stratum.difficulty:
                found = task
                break
            fallback = fallback or task
        chosen = found or fallback
        if chosen is None:
            notes.append(
                f"{stratum.like}: no new proven instance of {stratum.shard.builder} in {DRAW_TRIES} draws"
            )
        else:
            if found is None:
                notes.append(
                    f"{stratum.like}: {stratum.shard.builder} gave no {stratum.difficulty} instance in "
                    f"{DRAW_TRIES} draws; took a {chosen.metadata.difficulty} one"
                )
            taken.add(content_key(chosen))
            task_id = f"p{seed}-{stratum.shard.prefix}-{len(tasks):04d}"
            metadata = chosen.metadata.model_copy(update={"split": "private"})
            tasks.append(chosen.model_copy(update={"id": task_id, "metadata": metadata}))
        if progress is not None:
            progress(n, len(plan))
    if not tasks:
        raise DrawError("no stratum gave a proven instance")
    return tasks, stats, notes


def private_manifest(
    tasks: list[Task], seed: int, like: str, file_name: str, protocol: Protocol | None = None
) -> Manifest:
    """The draw's manifest: stable bytes for a seed (no date), named ``private-v<seed>``; it is run
    under the protocol of the split it was drawn like (``test``: the paper's 50-step budget)."""
    manifest = build_manifest(
        "private",
        str(seed),
        tasks,
        source=f"file:{file_name}",
        description=f"{len(tasks)} tasks drawn like {like} with seed {seed} (devicesworld tasks draw)",
        created="",
        protocol=protocol,
    )
    return manifest
