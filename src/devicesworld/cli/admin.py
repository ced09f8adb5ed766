"""``devicesworld clean`` and ``kinds``: leftovers of killed runs, and the registered device kinds."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    pass

from devicesworld.cli.common import (
    UserError,
    console,
)


@click.command()
@click.option("--dry-run", is_flag=True, help="Only list what would be removed.")
@click.option("--json", "as_json", is_flag=True, help="Print what was found as JSON lines.")
@click.option(
    "--caches",
    is_flag=True,
    help="Also remove the cached worlds, rendered documents and proven files (rebuilt when needed).",
)
def clean(dry_run: bool, as_json: bool, caches: bool) -> None:
    """Remove work folders left by runs that were killed (their owner process is gone).

    Folders of live processes are never touched; every `run` does this at its start too.
    With --caches, the disk cache of derived bytes goes too (docs/performance.md).
    """
    from devicesworld.devices.ownership import default_roots, reap

    if caches:
        from devicesworld import diskcache

        folders = diskcache.folders() if dry_run else diskcache.clear()
        if not as_json:
            verb = "would remove" if dry_run else "removed"
            for folder in folders:
                click.echo(f"{verb} cache {folder}")
            gone = "to remove" if dry_run else "removed"
            click.echo(f"{len(folders)} cache folder(s) {gone} in {diskcache.cache_root()}")
    found = reap(dry_run=dry_run)
    if as_json:
        for item in found:
            click.echo(item.model_dump_json())
        return
    for item in found:
        owner = f"pid {item.owner.pid}" if item.owner else "unknown owner"
        state = "would remove" if dry_run else ("removed" if item.removed else "could not remove")
        click.echo(f"{state} {item.path} ({owner}, dead)")  # unwrapped: paths stay whole
    where = ", ".join(str(r) for r in default_roots())
    verb = "to remove" if dry_run else "removed"
    done = sum(1 for i in found if i.removed or dry_run)
    click.echo(f"{done} folder(s) of dead processes {verb} in {where}")


# ----------------------------------------------------------------------------- kinds
@click.command()
@click.argument("names", nargs=-1)
@click.option("--check", is_flag=True, help="Run check_kind on each kind; exit 1 if any does not conform.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def kinds(names: tuple[str, ...], check: bool, as_json: bool) -> None:
    """The registered device kinds: their declarations and traits (--check: their conformance)."""
    from devicesworld.devices import check_kind
    from devicesworld.devices.base import get_kind, kind_names

    chosen = list(names) or kind_names()
    unknown = [n for n in chosen if get_kind(n) is None]
    if unknown:
        raise UserError(f"no device kind named {', '.join(unknown)}; registered: {', '.join(kind_names())}")
    rows: list[dict[str, Any]] = []
    for name in chosen:
        kind = get_kind(name)
        assert kind is not None
        t = kind.traits
        row: dict[str, Any] = {
            "kind": name,
            "actions": len(kind.actions),
            "setup_ops": len(kind.setup_ops) + len(kind.cleanup_ops),
            "getters": len(kind.getters),
            "checks": len(kind.checks),
            "noun": t.noun,
            "surfaces": t.surfaces is not None,
            "env_split": t.env_split is not None,
            "screenshots": t.screenshots,
        }
        if check:
            row["problems"] = check_kind(kind)
        rows.append(row)
    failed = [r["kind"] for r in rows if r.get("problems")]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        table = Table(
            "kind",
            "actions",
            "ops",
            "getters",
            "checks",
            "noun",
            "traits",
            *(["check_kind"] if check else []),
        )
        for r in rows:
            traits = ", ".join(k for k in ("surfaces", "env_split") if r[k]) + (
                f", screenshots {r['screenshots']}" if r["screenshots"] != "never" else ""
            )
            cells = [r["kind"], str(r["actions"]), str(r["setup_ops"]), str(r["getters"]), str(r["checks"])]
            cells += [r["noun"] or "-", traits.strip(", ") or "-"]
            if check:
                cells.append("ok" if not r["problems"] else f"{len(r['problems'])} problem(s)")
            table.add_row(*(escape(c) for c in cells))
        console.print(table)
        for r in rows:
            for problem in r.get("problems") or []:
                console.print(f"{escape(r['kind'])}: {escape(problem)}", highlight=False)
    if failed:
        raise SystemExit(1)
