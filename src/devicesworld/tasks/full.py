"""The ``full`` suite: its recipe, a reproducible parallel build, and the shipped file.

Version 2 (issue #15) is built from the scenario families (``tasks/scenarios/``):
one shard per family, its count read from ``tasks/data/full-recipe.yaml``; then one shard per task source of the device kinds (their GUI tasks on Linux
desktops and Windows, issue #16; ``tasks/kind_sources.py``), each task proven on the
live desktop. Version 1 was built by the v1 composition engine, since deleted; it ships
frozen as ``full-v1.jsonl.gz`` (the suite ``full-v1``) for comparison, loaded and never
rebuilt (its recipe is kept as data in :mod:`devicesworld.legacy.full_v1`).

The recipe lists shards — a builder (a scenario family or a kind's task source) and how
many tasks it contributes. Task ``i`` of a shard comes from the first of
the sub-seeds ``(seed, builder, i, retry)`` whose candidate passes quality control,
so every task is independent of the others: a shard can be built in any number of
chunks on any number of processes, its prefix does not depend on its length, and
the same seed rebuilds the same bytes. After the build, the apps and surfaces of
each task are read off its solution and the evaluation split is selected by
coverage (``tasks/selection.py``).

The suite ships as ``tasks/data/full-v<N>.jsonl.gz``, written with a fixed gzip
header (no name, no time) so that ``tasks build --suite full`` reproduces it byte
for byte.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, ValidationError

from devicesworld import jsonl
from devicesworld.spec.models import Task
from devicesworld.tasks.selection import select_evaluation_set
from devicesworld.tasks.surfaces import task_surfaces
from devicesworld.tasks.validate import validate_task

FULL_VERSION = 2
FULL_SEED = 2026
TEST_SIZE = 200
RECIPE_FILE = "full-recipe.yaml"
"""Each scenario family's task count in `full` (data, :func:`family_counts`); a task no draw can
make valid is left out and counted, and later copies of an earlier task are dropped. The kinds' GUI
task sources (:func:`source_shards`) come after them (`devicesworld tasks list --suite full` and
docs/scenarios.md give the current counts). Proving them takes about 0.7 CPU-s per scenario task
and 4-15 per GUI task: on this 2-core machine about an hour of both cores (docs/scenarios.md)."""


@dataclass(frozen=True)
class Shard:
    builder: str
    """``family:<id>`` for a scenario family, ``source:<name>`` for a kind's task source (its GUI
    tasks)."""
    count: int
    prefix: str
    """Task ids are ``dw-<prefix>-<index>``."""
    first: int = 0
    """The first index built: a sample of later seeds (``tasks build --skip``) starts past the
    tasks ``full`` already holds, so held-out tasks are built without rebuilding those."""


class FullRecipe(BaseModel):
    """``tasks/data/full-recipe.yaml``: how many tasks each scenario family contributes."""

    model_config = ConfigDict(extra="forbid")
    families: dict[str, NonNegativeInt] = Field(description="family id -> its task count in `full`")


class RecipeError(ValueError):
    """The recipe file and the shipped families disagree (a family without a count, or a count
    for no family): said by name, before anything is built."""


def family_counts(text: str | None = None) -> dict[str, int]:
    """Each shipped family's task count, from the recipe file (or ``text``, a recipe's YAML); a
    family the recipe does not name, a name no family has, or a count over the family's
    ``max_tasks`` is a :class:`RecipeError`."""
    from devicesworld.tasks.scenarios.loader import shipped_families

    if text is None:
        text = (resources.files("devicesworld.tasks") / "data" / RECIPE_FILE).read_text(encoding="utf-8")
    try:
        counts = FullRecipe.model_validate(yaml.safe_load(text)).families
    except (ValidationError, yaml.YAMLError) as exc:
        raise RecipeError(f"{RECIPE_FILE}: {exc}") from None
    shipped = {f.family: f.max_tasks for f in shipped_families()}
    problems = [
        *(f"family {n!r} has no count (add `{n}: N`)" for n in shipped if n not in counts),
        *(f"{n!r} is no shipped family" for n in counts if n not in shipped),
        *(
            f"{n!r}: {counts[n]} is over its max_tasks {cap}"
            for n, cap in shipped.items()
            if cap is not None and counts.get(n, 0) > cap
        ),
    ]
    if problems:
        raise RecipeError(f"{RECIPE_FILE}: " + "; ".join(problems))
    return {n: counts[n] for n in shipped}


@cache
def recipe() -> tuple[Shard, ...]:
    """Version 2: one shard per shipped scenario family with its count from the recipe file
    (:func:`family_counts`), then the kinds' task sources."""
    from devicesworld.tasks.scenarios.loader import shipped_families

    counts = family_counts()
    scenario = tuple(
        Shard(f"family:{f.family}", counts[f.family], f.family.replace("_", "-"))
        for f in shipped_families()
        if counts[f.family] > 0
    )
    return scenario + source_shards()


def source_shards() -> tuple[Shard, ...]:
    """One shard per task source of the kinds (their GUI families, ``tasks/kind_sources.py``),
    after the scenario families: task ids ``dw-<source>-<index>``, e.g. ``dw-gui-lx-calc-total-0003``."""
    from devicesworld.tasks.kind_sources import sources

    return tuple(Shard(f"source:{s.name}", s.full, s.name) for s in sources() if s.full > 0)


class BuildStats(BaseModel):
    """What a build did: built and attempted per shard, rejections per builder and reason."""

    seed: int
    built: dict[str, int] = Field(default_factory=dict)
    attempts: dict[str, int] = Field(default_factory=dict)
    rejected: dict[str, int] = Field(default_factory=dict, description="'builder: reason' -> count")
    duplicates: int = Field(default=0, description="Tasks left out as copies of earlier ones.")
    redrawn: dict[str, int] = Field(
        default_factory=dict,
        description="task id -> the retry its draw came from, when a gate rejected the earlier ones: a later "
        "build whose gates pass an earlier retry gives that task other values (docs/scenarios.md)",
    )

    def merge(self, other: BuildStats) -> None:
        for mine, theirs in ((self.built, other.built), (self.attempts, other.attempts)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        for k, v in other.rejected.items():
            self.rejected[k] = self.rejected.get(k, 0) + v
        self.redrawn.update(other.redrawn)


def sub_seed(seed: int, builder: str, index: int, retry: int) -> int:
    return zlib.crc32(f"{seed}:{builder}:{index}:{retry}".encode())


def build_one(shard: Shard, seed: int, index: int, stats: BuildStats, *, fresh: bool = False) -> Task | None:
    """Task ``index`` of ``shard``: the first candidate that passes every quality gate, written as
    a version-2 document whose desktops state their narrowest profile (issue #34), so a build, a
    rebuild and a draw give what `tasks declare-profiles` leaves in the shipped file.

    ``fresh``: a private draw's (``tasks draw``): a kind's source of fixed rows draws a new
    instance from the seed where it can (``TaskSource.fresh_draws``)."""
    from devicesworld.tasks.profiles import declare_profiles

    task = _first_passing(shard, seed, index, stats, fresh=fresh)
    return None if task is None else declare_profiles(task)


def _first_passing(shard: Shard, seed: int, index: int, stats: BuildStats, *, fresh: bool) -> Task | None:
    task_id = f"dw-{shard.prefix}-{index:04d}"
    if shard.builder.startswith("family:"):
        return _build_family_task(shard, seed, index, task_id, stats)
    if shard.builder.startswith("source:"):
        return _build_source_task(shard, seed, index, task_id, stats, fresh=fresh)
    raise ValueError(
        f"unknown builder {shard.builder!r}: a shard is a scenario family or a kind's task source"
    )


def _build_family_task(shard: Shard, seed: int, index: int, task_id: str, stats: BuildStats) -> Task | None:
    from devicesworld.tasks.scenarios.build import build_task
    from devicesworld.tasks.scenarios.compile import gui_unavailable
    from devicesworld.tasks.scenarios.loader import family_by_name

    family = family_by_name(shard.builder.split(":", 1)[1])
    problem = gui_unavailable(family)
    if problem is not None:
        raise SourceUnavailable(
            f"{shard.builder} runs {problem}; install the system packages (README, set-up) and build again"
        )
    rejected: dict[str, int] = {}
    task = build_task(family, seed, index, task_id, rejected)
    stats.attempts[shard.builder] = stats.attempts.get(shard.builder, 0) + 1 + sum(rejected.values())
    for k, v in rejected.items():
        key = f"{shard.builder}: {k.split(': ', 1)[-1]}"
        stats.rejected[key] = stats.rejected.get(key, 0) + v
    if task is None:
        return None
    if rejected:  # one rejection per retry before the one that passed
        stats.redrawn[task_id] = sum(rejected.values())
    stats.built[shard.builder] = stats.built.get(shard.builder, 0) + 1
    return task.model_copy(update={"metadata": task.metadata.model_copy(update={"split": "train"})})


SOURCE_RETRIES = 3
"""Draws a kind's task source gets per task (each is proven on the live desktop, seconds apiece)."""


class SourceUnavailable(RuntimeError):
    """A kind's task source cannot be proven on this machine (its system tools are missing)."""


def _build_source_task(
    shard: Shard, seed: int, index: int, task_id: str, stats: BuildStats, *, fresh: bool = False
) -> Task | None:
    """Task ``index`` of a kind's task source, proven by its reference solution on the live devices.

    A draw that fails the coherence gate is redrawn before any proof (``coherence <rule>`` among
    the rejections), as a scenario family's is (:func:`devicesworld.tasks.scenarios.build.build_proven`).

    A machine that cannot start the source's devices stops the build (:class:`SourceUnavailable`)
    rather than leaving the shard out: the suite would silently lose its GUI tasks.
    """
    from devicesworld.tasks.availability import unavailable
    from devicesworld.tasks.coherence import coherence_problems
    from devicesworld.tasks.kind_sources import SourceError, draw, source_by_name
    from devicesworld.tasks.sources.compile import TaskDraw

    source = source_by_name(shard.builder.split(":", 1)[1])
    previous: str | None = None
    for retry in range(SOURCE_RETRIES):
        s = sub_seed(seed, shard.builder, index, retry)
        made = TaskDraw(s, index, task_id, fresh=fresh)
        moves = source.redraw or (fresh and source.fresh_draws)
        doc_key = repr(source.build(made)) if not moves else None
        if doc_key is not None and doc_key == previous:
            break  # a fixed row: another draw is the same task
        previous = doc_key
        stats.attempts[shard.builder] = stats.attempts.get(shard.builder, 0) + 1
        try:
            task = draw(source, made)
        except SourceError as exc:
            _reject(stats, shard.builder, str(exc))
            continue
        incoherent = coherence_problems(task)  # before the (slow) proof, as a scenario family's draw
        if incoherent:
            _reject(stats, shard.builder, f"coherence {incoherent[0].rule}")
            continue
        problem = unavailable(task)
        if problem is not None:
            raise SourceUnavailable(
                f"{shard.builder} needs its devices to prove its tasks, but {problem}; install the system "
                "packages (README, set-up) and build again"
            )
        report = validate_task(task)
        if not report.ok:
            _reject(stats, shard.builder, report.problems[0])
            continue
        stats.built[shard.builder] = stats.built.get(shard.builder, 0) + 1
        if retry:
            stats.redrawn[task_id] = retry
        metadata = task.metadata.model_copy(update={"apps": task_surfaces(task), "split": "train"})
        return task.model_copy(update={"metadata": metadata})
    return None


def _reject(stats: BuildStats, builder: str, message: str) -> None:
    key = f"{builder}: {rejection_reason(message)}"
    stats.rejected[key] = stats.rejected.get(key, 0) + 1


def rejection_reason(message: str) -> str:
    """A message with its specifics (ids, values) cut, so equal causes count together."""
    return message.split(":")[0].split("(")[0].strip()


def _build_chunk(job: tuple[int, int, int, int]) -> tuple[list[str], dict[str, object]]:
    """Worker entry: tasks ``start..end`` of shard number ``shard_no``, as JSON lines (nothing pickled)."""
    shard_no, seed, start, end = job
    shard = recipe()[shard_no]
    stats = BuildStats(seed=seed)
    lines = []
    for i in range(start, end):
        task = build_one(shard, seed, i, stats)
        if task is not None:
            lines.append(task.model_dump_json())
    return lines, stats.model_dump()


def chunk_count(shards: Iterable[Shard] | None = None, chunk: int = 25) -> int:
    """How many chunks :func:`build_full` reports progress over."""
    return sum(-(-(s.count - s.first) // chunk) for s in (recipe() if shards is None else shards))


def sample_shards(pattern: str | None = None, per_shard: int | None = None, skip: int = 0) -> list[Shard]:
    """The recipe's shards whose builder matches the glob ``pattern``, each cut to ``per_shard`` tasks,
    the first ``skip`` of them left out (tasks ``skip .. per_shard - 1``).

    Task ``i`` of a shard does not depend on the shard's length, so a sample's tasks are
    the same as the full build's (same ids, same bytes).
    """
    from fnmatch import fnmatchcase

    out = [s for s in recipe() if pattern is None or fnmatchcase(s.builder, pattern)]
    if per_shard is not None:
        out = [Shard(s.builder, min(s.count, per_shard), s.prefix) for s in out]
    if skip:
        out = [Shard(s.builder, s.count, s.prefix, first=skip) for s in out if s.count > skip]
    return out


def build_full(
    seed: int = FULL_SEED,
    *,
    shards: Iterable[Shard] | None = None,
    workers: int = 1,
    chunk: int = 25,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Task], BuildStats]:
    """Every shard of ``recipe``, then surfaces and the evaluation split."""
    full_recipe = recipe()
    shards = list(full_recipe if shards is None else shards)
    numbers = {s.builder: n for n, s in enumerate(full_recipe)}
    if any(s.builder not in numbers or s.count > full_recipe[numbers[s.builder]].count for s in shards):
        raise ValueError("build_full only builds shards of recipe() (workers look them up by number)")
    index = {s: numbers[s.builder] for s in shards}
    jobs = [
        (index[s], seed, start, min(start + chunk, s.count))
        for s in shards
        for start in range(s.first, s.count, chunk)
    ]
    stats = BuildStats(seed=seed)
    lines: list[str] = []
    if workers <= 1:
        results: Iterable[tuple[list[str], dict[str, object]]] = map(_build_chunk, jobs)
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(_build_chunk, jobs)
    for done, (chunk_lines, chunk_stats) in enumerate(results, start=1):
        lines += chunk_lines
        stats.merge(BuildStats.model_validate(chunk_stats))
        if progress is not None:
            progress(done, len(jobs))
    if workers > 1:
        pool.shutdown()
    tasks, dropped = without_duplicates([Task.model_validate_json(line) for line in lines])
    stats.duplicates = dropped
    return with_test_split(tasks), stats


def without_duplicates(tasks: list[Task]) -> tuple[list[Task], int]:
    """The tasks with every later copy of an earlier one left out (the same request on the same
    devices: instruction, world and setup); a family with few distinct draws repeats itself."""
    seen: set[str] = set()
    out: list[Task] = []
    for t in tasks:
        key = t.model_copy(update={"id": "x"}).model_dump_json(
            include={"instruction", "world", "setup", "devices"}
        )
        if key in seen:
            continue
        seen.add(key)
        out.append(t)
    return out, len(tasks) - len(out)


def with_test_split(tasks: list[Task], size: int = TEST_SIZE) -> list[Task]:
    """``tasks`` with the frozen ``test`` split marked: the newest manifest's ids (a rebuild never
    re-selects it, :mod:`devicesworld.tasks.manifest`); without a manifest, a fresh selection.
    Every other task is ``train``: a task of an older version that the newest one left out goes
    back to training (it was never in the new split, so it leaks nothing into it)."""
    from devicesworld.tasks.manifest import load_manifest, resolve

    if resolve("test") is not None:
        chosen = set(load_manifest("test").ids)
    else:
        chosen = set(select_evaluation_set(tasks, size=size, seed=FULL_SEED))
    marked = [(t, "test" if t.id in chosen else "train") for t in tasks]
    return [
        t
        if t.metadata.split == split
        else t.model_copy(update={"metadata": t.metadata.model_copy(update={"split": split})})
        for t, split in marked
    ]


def suite_bytes(tasks: Iterable[Task]) -> bytes:
    """The shipped form: one JSON document per line, gzip with a fixed header."""
    raw = "".join(jsonl.model_line(t) for t in tasks).encode("utf-8")
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as fh:
        fh.write(raw)
    return out.getvalue()


def shipped_path(version: int = FULL_VERSION) -> Path:
    return Path(str(resources.files("devicesworld.tasks") / "data" / f"full-v{version}.jsonl.gz"))


def load_full(version: int = FULL_VERSION) -> list[Task]:
    """The shipped suite; a clear error when the package was installed without it."""
    path = shipped_path(version)
    if not path.exists():
        raise FileNotFoundError(
            f"the full suite file {path.name} is missing from the package; rebuild it with "
            "`devicesworld tasks build --suite full --out DIR`"
        )
    with gzip.open(path, "rb") as fh:
        return [Task.model_validate_json(line) for _, line in jsonl.split_lines(fh.read())]


def counts(tasks: Iterable[Task]) -> dict[str, dict[str, int]]:
    """Counts by pattern, category, family, device combination, classes, devices, app surface,
    difficulty and split (for the docs)."""
    keys = ("pattern", "category", "family", "combo", "classes", "devices", "app", "difficulty", "split")
    tables: dict[str, Counter[str]] = {k: Counter() for k in keys}
    for t in tasks:
        composition = t.metadata.composition
        tables["category"][(composition.category if composition is not None else None) or "-"] += 1
        tables["family"][(composition.family if composition is not None else None) or "-"] += 1
        for app in t.metadata.apps:
            tables["app"][app] += 1
        tables["pattern"][t.metadata.pattern] += 1
        tables["combo"][t.device_combo] += 1
        tables["classes"][str(len({d.kind for d in t.devices}))] += 1
        tables["devices"][str(len(t.devices))] += 1
        tables["difficulty"][t.metadata.difficulty] += 1
        tables["split"][t.metadata.split] += 1
    return {k: dict(sorted(v.items(), key=lambda kv: -kv[1])) for k, v in tables.items()}


def with_taken(pool: list[Task], taken: Mapping[str, Task]) -> list[Task]:
    """``pool`` with each ``taken`` task in place of the task of its id, and those whose id the pool
    lacks (a task left out of the suite until a rebuild made it valid) added, in recipe order.

    Why: ``tasks rebuild --take`` applies journals of tasks rebuilt elsewhere; a task left out of
    the shipped suite (issue #33: incoherent, not shipped) comes back only this way."""
    have = {t.id for t in pool}
    out = [taken.get(t.id, t) for t in pool]
    out += [t for i, t in taken.items() if i not in have and shard_of(i) is not None]
    position = {s.prefix: n for n, s in enumerate(recipe())}

    def key(t: Task) -> tuple[int, int]:
        found = shard_of(t.id)
        return (position[found[0].prefix], found[1]) if found is not None else (len(position), 0)

    return sorted(out, key=key)  # stable: ids outside the recipe keep their order, last


def shard_of(task_id: str) -> tuple[Shard, int] | None:
    """The recipe shard and index a task id ``dw-<prefix>-<NNNN>`` comes from (None for another id)."""
    prefix, _, number = task_id.removeprefix("dw-").rpartition("-")
    by_prefix = {s.prefix: s for s in recipe()}
    if not number.isdigit() or prefix not in by_prefix:
        return None
    return by_prefix[prefix], int(number)


def _rebuild_chunk(job: tuple[int, list[str]]) -> tuple[dict[str, str | None], dict[str, object]]:
    """Worker entry: rebuild the named tasks from the current builders (id -> JSON line, or None)."""
    seed, ids = job
    stats = BuildStats(seed=seed)
    out: dict[str, str | None] = {}
    for task_id in ids:
        found = shard_of(task_id)
        if found is None:
            out[task_id] = None
            continue
        shard, index = found
        task = build_one(shard, seed, index, stats)
        out[task_id] = task.model_dump_json() if task is not None else None
    return out, stats.model_dump()


def rebuild_tasks(
    tasks: list[Task],
    ids: Iterable[str],
    seed: int = FULL_SEED,
    *,
    workers: int = 1,
    chunk: int = 4,
    progress: Callable[[int, int], None] | None = None,
    journal: Path | None = None,
) -> tuple[list[Task], BuildStats, list[str]]:
    """``tasks`` with the named ones rebuilt in place from the current builders (issue #33).

    Why: a full rebuild proves every GUI task on live desktops (an hour of both cores on an idle
    machine); when a gate or a family changes, only the tasks it touches need building again.
    Task ``i`` of a shard does not depend on the others, so a task rebuilt alone is the task a
    full build would make. A task no draw can make valid any more is left out; its id is returned.
    A named task the suite lacks (left out earlier) joins it in recipe order once rebuilt.
    ``journal`` (a JSON-lines file) gets every rebuilt task as its chunk lands (``rebuild --take`` reads it).
    """
    wanted = list(dict.fromkeys(ids))
    jobs = [(seed, wanted[i : i + chunk]) for i in range(0, len(wanted), chunk)]
    stats = BuildStats(seed=seed)
    rebuilt: dict[str, str | None] = {}
    if workers <= 1:
        results: Iterable[tuple[dict[str, str | None], dict[str, object]]] = map(_rebuild_chunk, jobs)
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(_rebuild_chunk, jobs)
    for done, (lines, chunk_stats) in enumerate(results, start=1):
        rebuilt.update(lines)
        if journal is not None:  # each chunk as it lands: a long rebuild cut short keeps its work
            with journal.open("a", encoding="utf-8") as fh:
                fh.writelines(line + "\n" for line in lines.values() if line is not None)
        stats.merge(BuildStats.model_validate(chunk_stats))
        if progress is not None:
            progress(done, len(jobs))
    if workers > 1:
        pool.shutdown()
    out: list[Task] = []
    dropped: list[str] = []
    for t in tasks:
        if t.id not in rebuilt:
            out.append(t)
        elif (line := rebuilt[t.id]) is None:
            dropped.append(t.id)
        else:
            out.append(Task.model_validate_json(line))
    have = {t.id for t in tasks}
    back = {i: Task.model_validate_json(line) for i, line in rebuilt.items() if line and i not in have}
    dropped += [i for i, line in rebuilt.items() if line is None and i not in have]
    return with_test_split(with_taken(out, back)), stats, dropped
