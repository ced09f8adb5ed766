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
import hashlib
import json
import multiprocessing
import os
import signal
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    """``count`` strata spread evenly over ``items`` (all of them without a count). A count above
    the number of strata takes every stratum and repeats ``count - len(items)`` of them, spread
    evenly (a repeated stratum draws another instance of its family and difficulty): how a
    split that lost tasks is drawn at its full size (``--count 200`` like ``test-v2.2``'s 198)."""
    if count is None or count == len(items) or not items:
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


def seen_digest(key: str) -> bytes:
    """A short digest of a :func:`content_key`: what workers are given to skip shipped tasks
    (the keys themselves hold whole worlds, megabytes for ``full``)."""
    return hashlib.sha256(key.encode()).digest()[:16]


@dataclass(frozen=True)
class Drawn:
    """What one stratum gave: the task as drawn (JSON, build id) or None, and a note or None."""

    task: str | None
    note: str | None


@dataclass
class GroupResult:
    builder: str
    drawn: list[Drawn]
    stats: dict[str, Any]


def draw_group(group: list[Stratum], build_seed: int, seen: Collection[bytes]) -> GroupResult:
    """The strata of one builder, in plan order: each the first new instance of its difficulty in
    :data:`DRAW_TRIES` draws (else the first new one of any difficulty), instance numbers counted
    over the group. A group depends on nothing but its strata, the seed and ``seen``, so groups
    run in any order on any number of processes and give the bytes one process gives."""
    stats = BuildStats(seed=build_seed)
    taken = set(seen)
    index = 0
    out: list[Drawn] = []
    for stratum in group:
        fallback: Task | None = None
        found: Task | None = None
        for _ in range(DRAW_TRIES):
            task = build_one(stratum.shard, build_seed, index, stats, fresh=True)
            index += 1
            if task is None or seen_digest(content_key(task)) in taken:
                continue
            if task.metadata.difficulty == stratum.difficulty:
                found = task
                break
            fallback = fallback or task
        chosen = found or fallback
        if chosen is None:
            missing = (
                f"{stratum.like}: no new proven instance of {stratum.shard.builder} in {DRAW_TRIES} draws"
            )
            out.append(Drawn(None, missing))
            continue
        note: str | None = None
        if found is None:
            note = (
                f"{stratum.like}: {stratum.shard.builder} gave no {stratum.difficulty} instance in "
                f"{DRAW_TRIES} draws; took a {chosen.metadata.difficulty} one"
            )
        taken.add(seen_digest(content_key(chosen)))
        out.append(Drawn(chosen.model_dump_json(), note))
    return GroupResult(group[0].shard.builder, out, stats.model_dump())


def groups(plan: list[Stratum]) -> dict[str, list[int]]:
    """Plan positions per builder (in plan order), for the builders that can draw at all."""
    out: dict[str, list[int]] = {}
    for n, stratum in enumerate(plan):
        if not fixed_rows(stratum.shard):
            out.setdefault(stratum.shard.builder, []).append(n)
    return out


def plan_digest(plan: list[Stratum], seed: int, seen: Collection[bytes]) -> str:
    """What a journal belongs to: the strata, the seed and the shipped tasks skipped."""
    text = json.dumps(
        [
            seed,
            [[s.shard.builder, s.shard.prefix, s.difficulty, s.like] for s in plan],
            sorted(d.hex() for d in seen),
        ]
    )
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def journal_path(out: Path) -> Path:
    """Where the draw writing ``out`` keeps its finished families until it is done."""
    return out.with_suffix(".journal.jsonl")


class Journal:
    """Each builder's draws, one JSON line as it lands, so an interrupted draw continues where it
    stopped: the same command again reads the finished builders back and draws the rest (the
    result is the bytes of an uninterrupted draw, since every group is independent). The first
    line names the draw (:func:`plan_digest`); a journal of another draw is refused."""

    def __init__(self, path: Path, digest: str) -> None:
        self.path = path
        self.digest = digest

    def read(self) -> dict[str, GroupResult]:
        if not self.path.exists():
            return {}
        done: dict[str, GroupResult] = {}
        with self.path.open(encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        if not lines:
            return {}
        try:
            head = json.loads(lines[0])
        except json.JSONDecodeError:
            head = {}
        if not isinstance(head, dict) or head.get("draw") != self.digest:
            raise DrawError(
                f"{self.path} is the journal of another draw (other seed, split or strata); "
                "remove it or pass --restart"
            )
        for line in lines[1:]:
            try:
                row = json.loads(line)
                done[row["builder"]] = GroupResult(
                    row["builder"], [Drawn(d["task"], d["note"]) for d in row["drawn"]], row["stats"]
                )
            except (json.JSONDecodeError, KeyError, TypeError):
                break  # a line cut short by the interruption: drawn again
        return done

    def start(self, done: dict[str, GroupResult]) -> None:
        """Write the head and the groups kept (drops a cut-short last line)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("w", encoding="utf-8") as fh:
            fh.write(json.dumps({"draw": self.digest}) + "\n")
            for result in done.values():
                fh.write(self._line(result))

    def add(self, result: GroupResult) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(self._line(result))
            fh.flush()
            os.fsync(fh.fileno())

    @staticmethod
    def _line(result: GroupResult) -> str:
        drawn = [{"task": d.task, "note": d.note} for d in result.drawn]
        return json.dumps({"builder": result.builder, "drawn": drawn, "stats": result.stats}) + "\n"


_WORKER_SEEN: frozenset[bytes] = frozenset()


def _init_worker(seen: frozenset[bytes]) -> None:
    global _WORKER_SEEN
    _WORKER_SEEN = seen
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers (Ctrl+C reaches all)
    signal.signal(
        signal.SIGTERM, signal.SIG_DFL
    )  # not the parent's handler: the pool's terminate() ends us quietly


def _group_job(job: tuple[list[Stratum], int]) -> GroupResult:
    group, build_seed = job
    return draw_group(group, build_seed, _WORKER_SEEN)


def _work_order(todo: dict[str, list[Stratum]]) -> list[str]:
    """Slow builders first (kinds' GUI sources, then the largest groups), so the last ones to
    finish are short: only the order of work, never the result."""
    return sorted(todo, key=lambda b: (not b.startswith("source:"), -len(todo[b]), b))


def draw_split(
    plan: list[Stratum],
    seed: int,
    seen: set[str] | frozenset[bytes],
    *,
    workers: int = 1,
    journal: Path | None = None,
    progress: Callable[[int, str], None] | None = None,
) -> tuple[list[Task], BuildStats, list[str]]:
    """One proven, unseen task per stratum; returns (tasks, build stats, notes on strata that could
    only be filled in another difficulty or not at all).

    ``seen``: content keys (or their :func:`seen_digest`) never to draw. ``workers`` processes draw
    builders side by side (each keeps its own warm desktops, so a builder's strata run in one
    process); ``journal`` keeps every finished builder (:class:`Journal`); ``progress`` is told
    the strata each finished builder filled and its name."""
    build_seed = draw_seed(seed)
    digests = frozenset(d if isinstance(d, bytes) else seen_digest(d) for d in seen)
    by_builder = groups(plan)
    keeper = Journal(journal, plan_digest(plan, seed, digests)) if journal is not None else None
    done = keeper.read() if keeper is not None else {}
    done = {b: r for b, r in done.items() if b in by_builder and len(r.drawn) == len(by_builder[b])}
    if keeper is not None:
        keeper.start(done)
    skipped = len(plan) - sum(len(p) for p in by_builder.values())
    if progress is not None and (skipped or done):
        progress(skipped + sum(len(r.drawn) for r in done.values()), "")
    todo = {b: [plan[n] for n in ps] for b, ps in by_builder.items() if b not in done}
    jobs = [(todo[b], build_seed) for b in _work_order(todo)]

    def landed(result: GroupResult) -> None:
        done[result.builder] = result
        if keeper is not None:
            keeper.add(result)
        if progress is not None:
            progress(len(result.drawn), result.builder)

    if workers <= 1 or len(jobs) <= 1:
        for group, _ in jobs:
            landed(draw_group(group, build_seed, digests))
    else:
        pool = multiprocessing.Pool(min(workers, len(jobs)), initializer=_init_worker, initargs=(digests,))
        try:
            for result in pool.imap_unordered(_group_job, jobs):
                landed(result)
        except BaseException:
            pool.terminate()  # an interrupt: the finished builders are in the journal
            pool.join()
            raise
        pool.close()
        pool.join()
    return assemble(plan, seed, done)


def assemble(
    plan: list[Stratum], seed: int, done: dict[str, GroupResult]
) -> tuple[list[Task], BuildStats, list[str]]:
    """The split in plan order, ids numbered by position (``p<seed>-<prefix>-NNNN``), notes in plan order."""
    stats = BuildStats(seed=draw_seed(seed))
    for result in sorted(done.values(), key=lambda r: r.builder):
        stats.merge(BuildStats.model_validate(result.stats))
    cursor = dict.fromkeys(done, 0)
    tasks: list[Task] = []
    notes: list[str] = []
    keys: set[str] = set()
    for stratum in plan:
        builder = stratum.shard.builder
        if builder not in done:
            notes.append(
                f"{stratum.like}: {builder} is a fixed list of tasks (its rows do not move "
                "with the seed), so it has no unseen instance; stratum left empty"
            )
            continue
        drawn = done[builder].drawn[cursor[builder]]
        cursor[builder] += 1
        if drawn.note is not None:
            notes.append(drawn.note)
        if drawn.task is None:
            continue
        chosen = Task.model_validate_json(drawn.task)
        key = content_key(chosen)
        if key in keys:  # two families writing the same request: never seen, kept once
            notes.append(
                f"{stratum.like}: {builder} drew a copy of another stratum's task; stratum left empty"
            )
            continue
        keys.add(key)
        task_id = f"p{seed}-{stratum.shard.prefix}-{len(tasks):04d}"
        metadata = chosen.metadata.model_copy(update={"split": "private"})
        tasks.append(chosen.model_copy(update={"id": task_id, "metadata": metadata}))
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
