"""``results.jsonl``: appended one line per finished episode, durable across kills.

Each line is written whole and flushed to disk before the next episode is reported,
so a ``kill -9`` loses at most the episode in flight. A line cut short by a kill is
removed when the run is resumed, before anything is appended after it.
"""

from __future__ import annotations

import os
from pathlib import Path

from devicesworld import jsonl
from devicesworld.analysis.loading import read_results
from devicesworld.spec.records import EpisodeResult


def repair_and_read(path: Path) -> tuple[list[EpisodeResult], list[str]]:
    """Read finished episodes, dropping a torn last line from the file; returns (results, warnings).

    Only the repair is the runner's own: parsing is the report's reader, so a resumed
    run and ``devicesworld report`` agree on which episodes a file holds.
    """
    if not path.exists():
        return [], []
    data = path.read_bytes()
    warnings: list[str] = []
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        warnings.append(
            f"{path}: dropped an unfinished last line ({len(data) - cut} bytes) from an interrupted run"
        )
        with path.open("r+b") as fh:
            fh.truncate(cut)
        data = data[:cut]
    results, parse_warnings = read_results(path)
    return results, warnings + parse_warnings


def append_result(path: Path, result: EpisodeResult) -> None:
    append_results(path, [result])


def append_results(path: Path, results: list[EpisodeResult]) -> None:
    """Append whole lines, then one fsync for all of them (episodes that finished together)."""
    text = "".join(jsonl.model_line(result) for result in results)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
