"""``devicesworld report`` and ``view``: metrics of finished runs, in the terminal or a browser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape

if TYPE_CHECKING:
    pass

from devicesworld.cli.common import (
    UserError,
    console,
    err_console,
)


# ---------------------------------------------------------------------------- report
@click.command()
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
@click.option("--compare", type=click.Path(), help="Another run directory to compare against, task by task.")
@click.option(
    "--html", "html_out", type=click.Path(dir_okay=False), help="Also write a self-contained HTML report."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap CIs.")
@click.option(
    "--allow-mixed",
    is_flag=True,
    help="Report or compare runs of different task sets (manifests) together; refused otherwise.",
)
@click.option(
    "--floors",
    "floor_dirs",
    multiple=True,
    type=click.Path(),
    help="Runs of the trivial agents (noop, random, first-match) shown under Table 1 when they ran "
    "the same task set (repeatable).",
)
@click.option(
    "--price-in", type=click.FloatRange(min=0), help="The model's input price, USD per million tokens."
)
@click.option(
    "--price-out", type=click.FloatRange(min=0), help="The model's output price, USD per million tokens."
)
def report(
    run_dirs: tuple[str, ...],
    as_json: bool,
    compare: str | None,
    html_out: str | None,
    seed: int,
    allow_mixed: bool,
    floor_dirs: tuple[str, ...],
    price_in: float | None,
    price_out: float | None,
) -> None:
    """Metrics of one or more runs, with bootstrap confidence intervals and failure diagnosis;
    Table 1 with the floors of the same task set; pass@k, pass^k and flips when --trials were run."""
    from devicesworld.analysis.table1 import Prices

    if (price_in is None) != (price_out is None):
        raise UserError("give both --price-in and --price-out (USD per million tokens), or neither")
    print_report(
        [Path(d) for d in run_dirs],
        as_json=as_json,
        compare=Path(compare) if compare else None,
        html_out=Path(html_out) if html_out else None,
        seed=seed,
        allow_mixed=allow_mixed,
        floor_dirs=[Path(d) for d in floor_dirs],
        prices=Prices(input=price_in, output=price_out)
        if price_in is not None and price_out is not None
        else None,
    )


def print_report(
    run_dirs: Path | list[Path],
    *,
    as_json: bool,
    compare: Path | None,
    html_out: Path | None = None,
    seed: int = 0,
    allow_mixed: bool = False,
    floor_dirs: list[Path] | None = None,
    prices: Any = None,
) -> None:
    from devicesworld import analysis
    from devicesworld.analysis.report import build_report, render_reports, report_to_json, table1_rows
    from devicesworld.analysis.sets import mixed_sets

    dirs = [run_dirs] if isinstance(run_dirs, Path) else run_dirs
    try:
        reports = [build_report(d, seed=seed) for d in dirs]
        other = analysis.load_run(compare) if compare else None
        floors = [analysis.load_run(d) for d in floor_dirs or []]
    except analysis.ReportError as exc:
        raise UserError(str(exc)) from None
    runs = {str(d): r.run for d, r in zip(dirs, reports, strict=True)} | (
        {str(compare): other} if other else {}
    )
    mixed = mixed_sets(runs)
    if mixed and not allow_mixed:
        raise UserError(
            f"{mixed}; their numbers are not comparable (pass --allow-mixed to report them anyway)"
        )
    if mixed:
        err_console.print(f"[yellow]warning:[/] mixing task sets: {escape(mixed)}", highlight=False)
    for warning in [w for r in reports for w in r.run.warnings] + (other.warnings if other else []):
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    comparison = (
        analysis.compare_runs(
            [r for r in reports[0].run.results if r.valid], [r for r in other.results if r.valid], seed=seed
        )
        if other
        else None
    )
    if html_out is not None:
        from devicesworld.analysis.html import write_html_report

        write_html_report(reports, html_out, comparison=comparison)
        err_console.print(f"HTML report: {html_out}")
    if as_json:
        docs = [report_to_json(r) for r in reports]
        doc: dict[str, Any] = docs[0] if len(docs) == 1 else {"runs": docs}
        rows, notes = table1_rows(reports, floors, prices)
        doc["table1"] = [row.model_dump(mode="json") for row in rows]
        doc["table1_notes"] = notes
        if comparison is not None:
            doc["compare"] = {"a": str(dirs[0]), "b": str(compare)} | comparison.model_dump(mode="json")
        click.echo(json.dumps(doc, indent=2))
        return
    render_reports(reports, console, floors=floors, prices=prices)
    if comparison is not None and other is not None:
        a_agent = reports[0].run.results[0].agent if reports[0].run.results else ""
        b_agent = other.results[0].agent if other.results else ""
        console.print(
            f"comparing A = {dirs[0]} ({a_agent or '?'}) with B = {compare} ({b_agent or '?'}); "
            "differences are B minus A",
            highlight=False,
            markup=False,
        )
        analysis.render_comparison(comparison, console)


# ------------------------------------------------------------------------------ view
@click.command()
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path())
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0 picks a free port."
)
@click.option("--open/--no-open", "open_browser", default=False, help="Open the dashboard in a web browser.")
def view(run_dirs: tuple[str, ...], port: int, open_browser: bool) -> None:
    """Serve a web dashboard of one or more runs on 127.0.0.1 (Ctrl-C stops it)."""
    from devicesworld.viewer import ViewerError, make_server

    try:
        server = make_server([Path(d) for d in run_dirs], port)
    except ViewerError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc} (try --port 0)") from None
    console.print(f"DevicesWorld viewer: [bold]{server.url}[/] (Ctrl-C to stop)", highlight=False)
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
