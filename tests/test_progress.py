"""Progress: a rich bar with counts and ETA on a terminal, a plain line per tenth elsewhere."""

from __future__ import annotations

import io

from rich.console import Console

from devicesworld.progress import progress_bar


def test_a_terminal_gets_a_bar_with_counts_fields_and_eta() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with progress_bar(console, "validate", 3) as bar:
        for _ in range(3):
            bar.advance(failed=0)
    text = out.getvalue()
    assert "validate" in text and "3/3" in text and "0 failed" in text and "ETA" in text


def test_without_a_terminal_one_plain_line_per_tenth() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=120)
    with progress_bar(console, "run x", 20, plain_every_s=1e9) as bar:
        for i in range(20):
            bar.advance(ok=i + 1)
    lines = out.getvalue().splitlines()
    assert len(lines) == 10 and "\x1b" not in out.getvalue()
    assert lines[0].startswith("run x: 2/20 (10%), 2 ok,") and "left" in lines[0]
    assert lines[-1].startswith("run x: 20/20 (100%), 20 ok,") and "left" not in lines[-1]


def test_batches_larger_than_a_tenth_print_once_each() -> None:
    out = io.StringIO()
    with progress_bar(Console(file=out, force_terminal=False), "validate", 100, plain_every_s=1e9) as bar:
        bar.advance(40)
        bar.advance(60)
    assert [line.split(",")[0] for line in out.getvalue().splitlines()] == [
        "validate: 40/100 (40%)",
        "validate: 100/100 (100%)",
    ]
