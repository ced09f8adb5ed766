"""Read a run directory (``results.jsonl`` and ``run.json``) tolerantly.

Why tolerant: a run can be killed at any moment (Ctrl-C, OOM, a lost cluster
node), and the runner appends one ``results.jsonl`` line per finished episode.
The last line may therefore be half-written; that must not make the finished
episodes before it unreportable. Corrupt lines are skipped and described in
``LoadedRun.warnings`` (with their line number) so the caller can show them.
With ``--resume`` or a re-run of a few tasks, a ``task_id`` can appear more
than once; the record written last is the current one, so it wins.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld import jsonl
from devicesworld.analysis.errors import ReportError
from devicesworld.spec.records import RECORD_SCHEMA_VERSION, EpisodeResult

RESULTS_FILE = "results.jsonl"
RUN_CONFIG_FILE = "run.json"

log = logging.getLogger(__name__)


class LoadedRun(BaseModel):
    """Everything a report needs from one run directory."""

    model_config = ConfigDict(frozen=True)

    run_dir: Path
    results: list[EpisodeResult]
    config: dict[str, Any] | None = Field(
        default=None, description="Contents of run.json, or None when absent or unreadable."
    )
    warnings: list[str] = Field(
        default_factory=list, description="Human-readable notes about skipped or duplicate lines."
    )


def _resolve_paths(run_dir: Path) -> tuple[Path, Path]:
    """Return ``(run_dir, results_file)``; also accept a path to ``results.jsonl`` itself."""
    path = Path(run_dir)
    if not path.exists():
        raise ReportError(f"run directory does not exist: {path}")
    if path.is_file():
        return path.parent, path
    results_file = path / RESULTS_FILE
    if not results_file.is_file():
        raise ReportError(f"no {RESULTS_FILE} in {path} (is this a run directory?)")
    return path, results_file


def _parse_line(raw: bytes) -> EpisodeResult:
    """Parse one line; raise ``ValueError`` (with a short reason) when it is not a valid record."""
    try:
        obj = jsonl.parse_line(raw)
    except jsonl.LineError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    try:
        return EpisodeResult.model_validate(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise ValueError(f"not an episode result ({where}: {first['msg']})") from None


def read_results(results_file: Path, *, strict: bool = False) -> tuple[list[EpisodeResult], list[str]]:
    """Parse a ``results.jsonl`` file; return the de-duplicated results and warnings.

    Blank lines are ignored. A bad last line is reported as truncated; a bad line
    elsewhere is reported with its 1-based line number and skipped, or raises
    ``ReportError`` when ``strict`` is true. Results keep the order in which their
    (last) record was written.
    """
    try:
        data = results_file.read_bytes()
    except OSError as exc:
        raise ReportError(f"cannot read {results_file}: {exc}") from exc

    numbered = list(jsonl.split_lines(data))
    last_lineno = jsonl.last_line_number(data)

    warnings: list[str] = []
    by_task: dict[str, EpisodeResult] = {}
    duplicates: set[str] = set()
    newer_schema = 0
    for lineno, raw in numbered:
        try:
            result = _parse_line(raw)
        except ValueError as exc:
            if lineno == last_lineno:
                msg = (
                    f"{results_file.name} line {lineno}: skipped truncated or corrupt last line "
                    f"(the run was probably interrupted mid-write): {exc}"
                )
            else:
                msg = f"{results_file.name} line {lineno}: skipped corrupt line: {exc}"
            if strict:
                raise ReportError(msg) from None
            warnings.append(msg)
            continue
        if result.schema_version > RECORD_SCHEMA_VERSION:
            newer_schema += 1
        key = result.episode_key  # a task run in several trials (--trials) keeps each
        if key in by_task:
            duplicates.add(key)
            del by_task[key]  # re-insert so order follows the record that wins
        by_task[key] = result

    if duplicates:
        shown = ", ".join(sorted(duplicates)[:5]) + (", ..." if len(duplicates) > 5 else "")
        warnings.append(
            f"{len(duplicates)} task(s) appear more than once in {results_file.name}; "
            f"kept the last record of each: {shown}"
        )
    if newer_schema:
        warnings.append(
            f"{newer_schema} record(s) have a schema_version newer than {RECORD_SCHEMA_VERSION}; "
            "unknown fields were ignored"
        )
    for w in warnings:
        log.warning(w)
    return list(by_task.values()), warnings


def read_run_config(run_dir: Path) -> tuple[dict[str, Any] | None, list[str]]:
    """Read ``run.json`` if present; return ``(config or None, warnings)``.

    An unreadable ``run.json`` only costs the report its header, so it is a
    warning, not an error.
    """
    path = Path(run_dir) / RUN_CONFIG_FILE
    if not path.is_file():
        return None, []
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [f"{RUN_CONFIG_FILE}: ignored, unreadable: {exc}"]
    if not isinstance(obj, dict):
        return None, [f"{RUN_CONFIG_FILE}: ignored, expected a JSON object, got {type(obj).__name__}"]
    return obj, []


def load_run(run_dir: Path, *, strict: bool = False) -> LoadedRun:
    """Load a run directory: results (tolerantly), ``run.json`` and the warnings from both.

    Raises ``ReportError`` when the directory or its ``results.jsonl`` does not
    exist. ``run_dir`` may also point at a ``results.jsonl`` file directly.
    """
    directory, results_file = _resolve_paths(Path(run_dir))
    results, warnings = read_results(results_file, strict=strict)
    config, config_warnings = read_run_config(directory)
    return LoadedRun(run_dir=directory, results=results, config=config, warnings=warnings + config_warnings)


def load_results(
    run_dir: Path, *, warnings: list[str] | None = None, strict: bool = False
) -> list[EpisodeResult]:
    """Return the episode results of a run; warnings are appended to ``warnings`` when given.

    A thin form of :func:`load_run` for callers that need only the results.
    """
    run = load_run(run_dir, strict=strict)
    if warnings is not None:
        warnings.extend(run.warnings)
    return run.results
