"""``tasks freeze`` and ``tasks draw``: freeze an evaluation split, draw a private one like it."""

from __future__ import annotations

import gzip
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from devicesworld.spec.models import Task

from devicesworld.cli.common import (
    UserError,
    err_console,
)


@click.command("freeze")
@click.option("--name", default="test", show_default=True, help="The split to freeze.")
@click.option("--version", "version", help="The new version (default: the next minor one, 2.1 -> 2.2).")
@click.option(
    "--size", type=click.IntRange(min=1), default=200, show_default=True, help="Tasks in the selection."
)
@click.option("--seed", type=int, default=2026, show_default=True, help="Seed of the stratified selection.")
@click.option("--description", default="", help="What changed, for the manifest and the changelog.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Folder to write to (default: the package's tasks/data/manifests).",
)
@click.option(
    "--same-ids",
    is_flag=True,
    help="Keep the newest version's ids (those still in `full`) with their current hashes: a new version "
    "after tasks were rebuilt in place, not a new selection. The old version's tasks are archived first "
    "(<name>-v<old>.jsonl.gz) so it still loads as frozen.",
)
@click.option(
    "--held-out",
    "held_out",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Tasks never in train (e.g. `tasks build --skip` output, also taken into `full`): the selection "
    "draws only from these and the newest version's ids, so no train task enters the split (repeatable).",
)
@click.option(
    "--long-share", type=click.FloatRange(0, 1), default=0.0, help="At least this share of long-tier tasks."
)
@click.option(
    "--min-median-steps",
    type=click.IntRange(min=0),
    default=0,
    help="The median reference solution at least this many steps.",
)
@click.option(
    "--gui-only-share",
    type=click.FloatRange(0, 1),
    default=0.0,
    help="At least this share of the tasks with a desktop run every desktop GUI-only.",
)
@click.option(
    "--max-steps",
    type=click.IntRange(min=1),
    help="Choose no task whose reference solution is longer (default: the split's step budget, `test`: 50; "
    "less leaves an agent room to look around).",
)
@click.option("--dry-run", is_flag=True, help="Select and print the split's figures; write nothing.")
def tasks_freeze(
    name: str,
    version: str | None,
    size: int,
    seed: int,
    description: str,
    out: str | None,
    same_ids: bool,
    held_out: tuple[str, ...],
    long_share: float,
    min_median_steps: int,
    gui_only_share: float,
    max_steps: int | None,
    dry_run: bool,
) -> None:
    """Select a new evaluation split from `full` and write it as a new manifest version.

    The old versions stay loadable by name (--suite test-v2.1); runs record which one they ran.
    """
    from devicesworld.tasks.manifest import build_manifest, manifest_text, manifests_dir, next_version
    from devicesworld.tasks.selection import select_evaluation_set
    from devicesworld.tasks.shipped import read_suite

    folder = Path(out) if out else manifests_dir()
    version = version or next_version(name, folder)
    path = folder / f"{name}-v{version}.json"
    if path.exists():
        raise UserError(f"{path} exists: a frozen version is never rewritten; choose another --version")
    if same_ids and (held_out or long_share or min_median_steps or gui_only_share or max_steps or dry_run):
        raise UserError(
            "--same-ids keeps the newest version's ids: it selects nothing, so it takes no selection option"
        )
    pool = read_suite("full")
    if same_ids:
        from devicesworld.tasks.manifest import archive_path, load_manifest

        previous = load_manifest(name, folder)
        if not archive_path(previous.label, folder).exists():
            raise UserError(
                f"archive {previous.label}'s tasks first ({archive_path(previous.label, folder).name}): "
                "the rebuilt `full` no longer holds them as frozen"
            )
        by_id = {t.id: t for t in pool}
        kept = [by_id[i] for i in previous.ids if i in by_id]
        manifest = build_manifest(name, version, kept, description=description)
    else:
        from devicesworld.tasks.manifest import SPLIT_PROTOCOLS
        from devicesworld.tasks.selection_shape import ShapeTargets, split_shape, unmet

        if held_out:
            pool = _unseen(pool, name, folder, held_out)
        budget = SPLIT_PROTOCOLS.get(name)
        if max_steps is None:
            max_steps = budget.max_steps if budget else 0
        targets = ShapeTargets(long_share, min_median_steps, gui_only_share, max_steps)
        over = [t.id for t in pool if not targets.fits_budget(t)]
        if over:
            click.echo(
                f"left out {len(over)} tasks whose reference solution exceeds {targets.max_steps} steps "
                f"({', '.join(over[:4])}{', ...' if len(over) > 4 else ''})"
            )
        chosen = set(select_evaluation_set(pool, size=size, seed=seed, targets=targets))
        picked = [t for t in pool if t.id in chosen]
        click.echo(f"selected {len(picked)} of {len(pool)}: {split_shape(picked).model_dump_json()}")
        missed = unmet(picked, targets)
        if dry_run:
            click.echo("dry run, nothing written" + "".join(f"; unmet: {m}" for m in missed))
            return
        if missed:
            raise UserError("the selection misses its targets: " + "; ".join(missed))
        manifest = build_manifest(name, version, picked, description=description)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(manifest_text(manifest), encoding="utf-8")
    click.echo(f"wrote {path}: {len(manifest.tasks)} tasks, {manifest.hash}")
    click.echo("add a changelog line saying why the split changed; old versions stay loadable by name")


def _unseen(pool: list[Task], name: str, folder: Path, files: tuple[str, ...]) -> list[Task]:
    """The newest version's tasks and the held-out ``files`` (:func:`unseen_pool`)."""
    from devicesworld import jsonl
    from devicesworld.spec.models import Task
    from devicesworld.tasks.manifest import ManifestError, load_manifest
    from devicesworld.tasks.selection import unseen_pool

    extra: list[Task] = []
    for f in files:
        raw = Path(f).read_bytes()
        if f.endswith(".gz"):
            raw = gzip.decompress(raw)
        extra += [Task.model_validate_json(line) for _, line in jsonl.split_lines(raw)]
    try:
        previous = load_manifest(name, folder).ids
    except ManifestError as exc:
        raise UserError(f"--held-out adds to the newest version's ids: {exc}") from None
    return unseen_pool(pool, previous, extra)


@click.command("draw")
@click.option("--like", default="test", show_default=True, help="The frozen split whose strata to draw in.")
@click.option("--seed", type=int, required=True, help="The draw's seed (keep it private until published).")
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="The JSONL file to write.")
@click.option(
    "--count",
    type=click.IntRange(min=1),
    help="Draw this many strata: fewer spread evenly over the split, more repeat strata evenly "
    "(default: one per task of the split).",
)
@click.option(
    "--only",
    metavar="GLOB",
    help="Only the strata whose family matches, e.g. 'family:*' (no kind GUI sources) or 'family:grocery*'.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Processes drawing families side by side (default: the CPUs, at most 4). Same bytes for any number.",
)
@click.option("--restart", is_flag=True, help="Forget the journal of an interrupted draw and start over.")
def tasks_draw(
    like: str, seed: int, out: str, count: int | None, only: str | None, workers: int | None, restart: bool
) -> None:
    """Draw a fresh private split: unseen instances of the families, strata and difficulty mix of
    a frozen split, each proven by every QC gate; writes OUT and OUT's manifest (.manifest.json).

    The same seed gives the same bytes. Every finished family is kept in OUT's journal
    (.journal.jsonl): an interrupted draw (Ctrl+C, SIGTERM, a crash) continues when the same
    command runs again. Run the split with `devicesworld run --tasks OUT`.
    """
    import signal
    from types import FrameType

    from devicesworld import jsonl
    from devicesworld.progress import progress_bar
    from devicesworld.tasks.draw import (
        DrawError,
        content_key,
        draw_split,
        journal_path,
        private_manifest,
        spread,
        strata,
    )
    from devicesworld.tasks.manifest import ManifestError, load_manifest, manifest_text
    from devicesworld.tasks.shipped import read_suite
    from devicesworld.tasks.suites import load_suite

    try:
        manifest = load_manifest(like)
    except ManifestError as exc:
        raise UserError(str(exc)) from None
    target = Path(out)
    try:
        plan = spread(strata(load_suite(like), only), count)
    except DrawError as exc:
        raise UserError(str(exc)) from None
    if not plan:
        raise UserError(f"no stratum of {manifest.label} matches --only {only}")
    journal = journal_path(target)
    if restart:
        journal.unlink(missing_ok=True)
    elif journal.exists():
        err_console.print(f"continuing the draw kept in {journal}", highlight=False)
    seen = {content_key(t) for t in read_suite(manifest.source)}
    n_workers = workers or max(1, min(4, os.cpu_count() or 1))
    started = time.monotonic()

    def interrupt(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)  # SIGTERM stops the draw as Ctrl+C does
    try:
        with progress_bar(err_console, f"draw like {manifest.label}", len(plan)) as bar:
            drawn, stats, notes = draw_split(
                plan,
                seed,
                seen,
                workers=n_workers,
                journal=journal,
                progress=lambda n, builder: bar.advance(n, last=builder.split(":", 1)[-1]),
            )
    except DrawError as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        err_console.print(
            f"interrupted: the finished families are kept in {journal}; run the same command to continue",
            highlight=False,
        )
        raise SystemExit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    for note in notes:
        err_console.print(f"note: {note}", highlight=False, markup=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(jsonl.model_line(t) for t in drawn), encoding="utf-8")
    written = private_manifest(drawn, seed, manifest.label, target.name, manifest.run_protocol)
    manifest_path = target.with_suffix(".manifest.json")
    manifest_path.write_text(manifest_text(written), encoding="utf-8")
    journal.unlink(missing_ok=True)
    rejected = sum(stats.rejected.values())
    click.echo(
        f"{len(drawn)} proven tasks drawn like {manifest.label} (seed {seed}, {rejected} draw(s) rejected by the "
        f"gates) in {time.monotonic() - started:.0f} s with {n_workers} worker(s) -> {target}; "
        f"manifest {manifest_path} ({written.hash})"
    )
