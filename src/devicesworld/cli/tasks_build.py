"""``tasks build``, ``rebuild``, ``declare-profiles`` and ``refine``: make the shipped suites
from their data files, rebuild some of their tasks, and rewrite instructions with a model."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from devicesworld.spec.models import Task

from devicesworld.cli.common import (
    UserError,
    console,
    err_console,
)


@click.command("build")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option(
    "--suite",
    type=click.Choice(["full", "smoke", "smoke-gui", "bmoca"]),
    help="The shipped suite to rebuild byte for byte (required).",
)
@click.option(
    "--seed", type=int, default=None, help="With --suite full: another seed (default: the suite's)."
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
@click.option(
    "--shards",
    "shard_pattern",
    help="With --suite full: build a sample, only the shards whose builder matches this glob "
    "(e.g. 'source:gui-*' for the GUI tasks); not the shipped file.",
)
@click.option(
    "--per-shard",
    type=click.IntRange(min=1),
    help="With --suite full: at most this many tasks per shard (a sample).",
)
@click.option(
    "--skip",
    type=click.IntRange(min=0),
    default=0,
    help="With --suite full: leave out each shard's first SKIP tasks (with --per-shard N: tasks "
    "SKIP..N-1), e.g. later seeds of families whose first tasks `full` already holds.",
)
def tasks_build(
    out_dir: str,
    suite: str | None,
    seed: int | None,
    workers: int,
    shard_pattern: str | None,
    per_shard: int | None,
    skip: int,
) -> None:
    """Rebuild a shipped suite from its data files; --suite full builds the full suite (or a sample)."""
    if suite is None:
        raise UserError(
            "give --suite full|smoke|smoke-gui|bmoca: every task is built from data files now "
            "(the v1 engine that composed tasks without --suite is retired; full-v1 ships frozen)"
        )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if (shard_pattern or per_shard or skip) and suite != "full":
        raise UserError("--shards, --per-shard and --skip sample the full suite: give --suite full")
    if suite == "full":
        _build_full_suite(out, seed, workers, shard_pattern, per_shard, skip)
        return
    _build_named_suite(out, suite)


@click.command("rebuild")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option(
    "--base",
    type=click.Path(exists=True, dir_okay=False),
    help="The full suite file to start from (default: the shipped one); chain batches through it.",
)
@click.option("--ids", "id_list", multiple=True, help="Task ids to rebuild (repeatable).")
@click.option(
    "--take",
    "take_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Tasks rebuilt earlier (another rebuild's journal DIR/rebuilt.jsonl, or `build --shards` output): "
    "each replaces the task of its id, or joins the suite if it was left out, so give only rebuilt "
    "tasks, not a whole suite (repeatable).",
)
@click.option("--incoherent", is_flag=True, help="Rebuild every task that fails the coherence gate.")
@click.option(
    "--shards", "shard_pattern", help="Only tasks of the recipe shards whose builder matches this glob."
)
@click.option(
    "--drop-incoherent",
    is_flag=True,
    help="Leave out every task that still fails the coherence gate (a task failing it is not shipped).",
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
def tasks_rebuild(
    out_dir: str,
    base: str | None,
    id_list: tuple[str, ...],
    take_files: tuple[str, ...],
    incoherent: bool,
    shard_pattern: str | None,
    drop_incoherent: bool,
    workers: int,
) -> None:
    """Rebuild chosen tasks of `full` in place from the current builders (each proven as in a full build).

    A full rebuild proves every GUI task on live desktops (an hour of both cores); after a family or
    a gate changes, rebuilding only the tasks it touches gives the same tasks a full build would.
    """
    import gzip
    from fnmatch import fnmatchcase

    from devicesworld.progress import progress_bar
    from devicesworld.spec.models import Task
    from devicesworld.tasks import full
    from devicesworld.tasks.coherence import check_coherence

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if base is None:
        pool = full.load_full()
    else:
        with gzip.open(base, "rt", encoding="utf-8") as fh:
            pool = [Task.model_validate_json(line) for line in fh if line.strip()]
    before = check_coherence(pool)
    taken: dict[str, Task] = {}
    for name in take_files:
        with (
            gzip.open(name, "rt", encoding="utf-8") if name.endswith(".gz") else open(name, encoding="utf-8")
        ) as fh:
            taken.update((t.id, t) for t in (Task.model_validate_json(line) for line in fh if line.strip()))
    pool = full.with_test_split(full.with_taken(pool, taken))
    wanted = list(id_list)
    if incoherent:
        wanted += sorted({p.task_id for p in before.problems})
    if shard_pattern is not None:
        wanted = [
            i
            for i in wanted
            if (found := full.shard_of(i)) is not None and fnmatchcase(found[0].builder, shard_pattern)
        ]
    unknown = [i for i in wanted if full.shard_of(i) is None]
    if unknown:
        raise UserError(f"not a task id of the full recipe: {', '.join(unknown[:5])}")
    with progress_bar(err_console, "rebuild (chunks)", max(1, -(-len(wanted) // 4))) as bar:

        def progress(done: int, total: int) -> None:
            if done > bar.done:
                bar.advance(done - bar.done)

        try:
            tasks_built, stats, lost = full.rebuild_tasks(
                pool, wanted, workers=workers, progress=progress, journal=out / "rebuilt.jsonl"
            )
        except full.SourceUnavailable as exc:
            raise UserError(str(exc)) from None
    after = check_coherence(tasks_built)
    left_out: list[str] = []
    if drop_incoherent:
        bad = {p.task_id for p in after.problems}
        left_out = [t.id for t in tasks_built if t.id in bad]
        tasks_built = [t for t in tasks_built if t.id not in bad]
    target = out / full.shipped_path().name
    target.write_bytes(full.suite_bytes(tasks_built))
    report = {
        "rebuilt": len(wanted) - len(lost),
        "taken": len(taken),
        "lost": lost,
        "left_out_incoherent": left_out,
        "seconds": round(time.perf_counter() - started),
        "gate_before": {"total": before.total, "coherent": before.coherent, **before.tasks_per_rule},
        "gate_after": {"total": after.total, "coherent": after.coherent, **after.tasks_per_rule},
        "stats": stats.model_dump(),
    }
    (out / "_rebuild_report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    console.print(
        f"rebuilt {len(wanted) - len(lost)}/{len(wanted)} tasks ({len(lost)} no longer valid, left out) "
        f"in {report['seconds']} s; {len(left_out)} incoherent left out; {len(tasks_built)} tasks -> {target}"
    )
    console.print(f"coherent before {before.coherent}/{before.total}, after {after.coherent}/{after.total}")
    if stats.redrawn:  # a gate rejected their first draws: their values are another retry's
        shown = ", ".join(f"{i} (retry {r})" for i, r in sorted(stats.redrawn.items())[:20])
        console.print(f"redrawn: {shown}{' ...' if len(stats.redrawn) > 20 else ''}")
    for rule in after.tasks_per_rule:
        console.print(
            f"  {rule:<22} {before.tasks_per_rule.get(rule, 0):>6} -> {after.tasks_per_rule[rule]:>6} task(s)"
        )


def _build_named_suite(out: Path, name: str) -> None:
    """Rebuild ``smoke`` or ``bmoca`` from its builders and say whether it matches the shipped file."""
    from devicesworld.tasks.shipped import shipped_path, suite_bytes
    from devicesworld.tasks.suites import build_suite

    started = time.perf_counter()
    data = suite_bytes(build_suite(name))
    target = out / shipped_path(name).name
    target.write_bytes(data)
    console.print(f"built suite {name} ({time.perf_counter() - started:.1f} s) -> {target}")
    shipped = shipped_path(name)
    same = shipped.exists() and shipped.read_bytes() == data
    console.print(f"identical to the shipped {shipped.name}: {'yes' if same else 'NO'}")
    if not same:
        console.print(
            f"  to ship it: cp {target} {shipped} && python -m devicesworld.tasks.shipped  (rewrites the index)",
            highlight=False,
            markup=False,
        )


def _build_full_suite(
    out: Path,
    seed: int | None,
    workers: int,
    shard_pattern: str | None = None,
    per_shard: int | None = None,
    skip: int = 0,
) -> None:
    from devicesworld.progress import progress_bar
    from devicesworld.tasks import full

    started = time.perf_counter()
    shards = full.sample_shards(shard_pattern, per_shard, skip)
    if not shards:
        raise UserError(
            f"no shard of the full recipe matches {shard_pattern!r} with tasks past --skip {skip}"
        )
    chunks = full.chunk_count(shards)
    with progress_bar(err_console, "build full (chunks)", chunks) as bar:

        def progress(done: int, total: int) -> None:
            if done > bar.done:
                bar.advance(done - bar.done)

        try:
            tasks_built, stats = full.build_full(
                seed if seed is not None else full.FULL_SEED,
                shards=shards,
                workers=workers,
                progress=progress,
            )
        except full.SourceUnavailable as exc:
            raise UserError(str(exc)) from None
    target = out / full.shipped_path().name
    target.write_bytes(full.suite_bytes(tasks_built))
    report = {"stats": stats.model_dump(), "counts": full.counts(tasks_built)}
    (out / "_build_report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    console.print(
        f"built {len(tasks_built)} tasks in {sum(stats.attempts.values())} attempts "
        f"({time.perf_counter() - started:.0f} s) -> {target}"
    )
    for reason, n in sorted(stats.rejected.items(), key=lambda kv: -kv[1]):
        console.print(f"  rejected {n:4d}  {reason}", highlight=False, markup=False)
    shipped = full.shipped_path()
    if shard_pattern is not None or per_shard is not None or skip:
        console.print("a sample of the full recipe (--shards/--per-shard), not the shipped file")
    elif shipped.exists():
        same = shipped.read_bytes() == target.read_bytes()
        console.print(f"identical to the shipped {shipped.name}: {'yes' if same else 'NO'}")


# ---------------------------------------------------------------------- tasks refine
@click.command("declare-profiles")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option(
    "--count", is_flag=True, help="Only count: tasks per profile now and as declared; write nothing."
)
@click.option("--suite", "suite_name", help="Count a suite by name (with --count), e.g. test.")
@click.option(
    "--take",
    "take_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="With --count: rebuilt tasks (a rebuild journal) counted in place of the tasks of their ids.",
)
def tasks_declare_profiles(
    files: tuple[str, ...], count: bool, suite_name: str | None, take_files: tuple[str, ...]
) -> None:
    """State every desktop's narrowest profile and write the tasks as schema_version 2 (issue #34).

    A desktop whose reference solution uses no shell on it is declared `desktop: gui` (GUI-only),
    else `hybrid`; nothing else in a task changes. Without FILES it rewrites the shipped `full` in
    place: the one command to run at integration, after the rebuild journals are taken.
    """
    from collections import Counter

    from devicesworld.tasks import full
    from devicesworld.tasks.profiles import count_tasks, declare_file, read_tasks

    if suite_name is not None and (not count or files):
        raise UserError("--suite counts a suite by name: give it with --count and no FILES")
    if take_files and not count:
        raise UserError(
            "--take only counts (with --count): the rebuilt tasks are applied by `tasks rebuild --take`"
        )
    taken = {t.id: t for name in take_files for t in _read_declared(name, read_tasks)}
    if suite_name is not None:
        from devicesworld.tasks.suites import load_suite

        try:
            chosen = load_suite(suite_name)
        except (KeyError, ValueError, OSError) as exc:
            raise UserError(f"cannot load suite {suite_name}: {exc.args[0] if exc.args else exc}") from None
        targets: list[tuple[str, Counter[str]]] = [
            (suite_name, count_tasks([taken.get(t.id, t) for t in chosen]))
        ]
    else:
        paths = [Path(f) for f in files] or [full.shipped_path()]
        targets = []
        for path in paths:
            if not path.exists():
                raise UserError(f"{path}: no such task file")
            try:
                counts = (
                    count_tasks([taken.get(t.id, t) for t in read_tasks(path)])
                    if count
                    else declare_file(path)
                )
            except (OSError, ValueError) as exc:
                raise UserError(f"{path}: {exc}") from None
            targets.append((str(path), counts))
    for name, counts in targets:
        shares = ""
        if count and counts["with_desktop"]:
            gui, desk = counts["every_desktop_gui"], counts["with_desktop"]
            shares = f"; every desktop GUI-only: {gui}/{desk} ({100 * gui / desk:.1f}%) of the tasks with a desktop"
        listed = ", ".join(
            f"{k} {v}" for k, v in sorted(counts.items()) if k not in ("with_desktop", "every_desktop_gui")
        )
        verb = "" if count else "declared (schema 2): "
        click.echo(f"{name}: {verb}{listed}{shares}")


def _read_declared(name: str, read: Any) -> list[Any]:
    try:
        return list(read(Path(name)))
    except (OSError, ValueError) as exc:
        raise UserError(f"{name}: {exc}") from None


@click.command("refine")
@click.option(
    "--tasks", "tasks_path", required=True, type=click.Path(), help="Tasks to refine (JSONL/folder)."
)
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option("--rewrite", is_flag=True, help="Rewrite instructions into natural requests (guarded).")
@click.option("--judge", is_flag=True, help="Score realism, coherence, evaluability; drop low scores.")
@click.option("--model", help="Model name (or DEVICESWORLD_MODEL).")
@click.option("--base-url", help="OpenAI-compatible endpoint (or DEVICESWORLD_BASE_URL).")
@click.option(
    "--api-key-env",
    help="Read the API key from this variable (default DEVICESWORLD_API_KEY, OPENAI_API_KEY).",
)
@click.option(
    "--min-score",
    type=click.IntRange(1, 5),
    default=3,
    show_default=True,
    help="Lowest score kept, per axis.",
)
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N tasks.")
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Concurrent requests."
)
@click.option("--max-retries", type=click.IntRange(min=0), default=2, show_default=True, help="Per request.")
@click.option(
    "--timeout",
    "timeout_s",
    type=click.FloatRange(min=1),
    default=60.0,
    show_default=True,
    help="Seconds per request.",
)
def tasks_refine(
    tasks_path: str,
    out_dir: str,
    rewrite: bool,
    judge: bool,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None,
    min_score: int,
    limit: int | None,
    workers: int,
    max_retries: int,
    timeout_s: float,
) -> None:
    """Optional LLM stages (off by default): guarded instruction rewriting and an LLM-as-judge filter."""
    if not (rewrite or judge):
        raise UserError(
            "the LLM stages are off by default: pass --rewrite and/or --judge (and --model, --base-url)"
        )
    from devicesworld.tasks.loading import dump_tasks_jsonl, load_tasks
    from devicesworld.tasks.refine import EndpointError, RefineOptions, open_endpoint, refine_tasks

    items = load_tasks(tasks_path)[:limit]
    options = RefineOptions(rewrite=rewrite, judge=judge, min_score=min_score, workers=workers)

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            err_console.print(f"  {done}/{total} tasks refined", highlight=False)

    try:
        chat = open_endpoint(
            model, base_url, api_key_env=api_key_env, timeout_s=timeout_s, max_retries=max_retries
        )
        kept, report = refine_tasks(items, chat, options, progress=progress)
    except EndpointError as exc:
        raise UserError(str(exc)) from None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dump_tasks_jsonl(kept, out / "tasks.jsonl")
    (out / "_refine_report.json").write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    console.print(
        f"{report.tasks_out}/{report.tasks_in} tasks kept -> {out / 'tasks.jsonl'}", highlight=False
    )
    if rewrite:
        reasons = ", ".join(f"{k} {v}" for k, v in report.kept.items()) or "none"
        console.print(
            f"  rewritten {report.rewritten}; kept original: {reasons}", highlight=False, markup=False
        )
    if judge:
        console.print(
            f"  judged {report.judged}, unjudged {report.unjudged}, filtered {report.filtered} "
            f"(min score {min_score})",
            highlight=False,
        )
    if report.errors:
        console.print(
            f"  endpoint errors {report.errors} (those tasks pass through unchanged)", highlight=False
        )
    console.print(
        f"  {report.calls} calls, {report.tokens_in} tokens in, {report.tokens_out} out", highlight=False
    )
