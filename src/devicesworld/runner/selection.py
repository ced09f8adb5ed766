"""What a run ran: the selection recorded in ``run.json``, and the check that a resume keeps it.

Why: ``--resume`` without the original ``--filter`` once ran the whole default suite into a
6-task run directory, and a different agent or seed was accepted without a word. So a run
records its full selection (suite or file, frozen manifest and its hash, filters, ids, limit,
agent, model, agent options, seed, trials) under ``config.selection``; a resume whose
selection differs is refused with one line naming each difference, unless ``--force-resume``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from devicesworld.tasks.manifest import (
    Manifest,
    ManifestError,
    Protocol,
    load_manifest,
    read_manifest,
    resolve,
)

COMPARED = (
    "suite",
    "tasks",
    "manifest_hash",
    "filters",
    "task_ids",
    "limit",
    "env_split",
    "agent",
    "model",
    "options",
    "seed",
    "trials",
    "trial_seeds",
    "protocol",
)
"""The selection keys a resume must keep (in the order a refusal names them)."""


def manifest_of(suite: str | None, tasks_path: str | None = None) -> tuple[str, str]:
    """``(label, hash)`` of the frozen split ``suite`` names (``test``, ``test-v2.1``), or of the
    manifest beside a task file (``private.jsonl`` -> ``private.manifest.json``, from ``tasks draw``);
    else empty."""
    manifest = _manifest(suite, tasks_path)
    return (manifest.label, manifest.hash) if manifest is not None else ("", "")


def protocol_of(suite: str | None, tasks_path: str | None = None) -> Protocol | None:
    """The protocol the run of ``suite`` (or of a drawn task file) is under: the paper's uniform
    50-step budget for every version of ``test`` and for splits drawn like it; else None."""
    manifest = _manifest(suite, tasks_path)
    return manifest.run_protocol if manifest is not None else None


def _manifest(suite: str | None, tasks_path: str | None) -> Manifest | None:
    try:
        if tasks_path:
            beside = Path(tasks_path).with_suffix(".manifest.json")
            manifest = read_manifest(beside) if beside.is_file() else None
        elif suite and resolve(suite) is not None:
            manifest = load_manifest(suite)
        else:
            manifest = None
    except ManifestError:
        return None
    return manifest


def make_selection(
    *,
    suite: str | None,
    tasks_path: str | None,
    filters: tuple[str, ...] | list[str] = (),
    task_ids: tuple[str, ...] | list[str] = (),
    limit: int | None = None,
    env_split: str | None = None,
    agent: str,
    model: str | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    trials: int = 1,
    trial_seeds: list[int] | None = None,
) -> dict[str, Any]:
    """The selection as recorded in ``run.json`` (JSON-able, stable key order)."""
    label, digest = manifest_of(suite, tasks_path)
    protocol = protocol_of(suite, tasks_path)
    return {
        "suite": suite,
        "tasks": tasks_path,
        "manifest": label,
        "manifest_hash": digest,
        "filters": list(filters),
        "task_ids": list(task_ids),
        "limit": limit,
        "env_split": env_split,
        "agent": agent,
        "model": model,
        "options": dict(options or {}),
        "seed": seed,
        "trials": trials,
        "trial_seeds": list(trial_seeds) if trial_seeds else None,
        "protocol": protocol.model_dump() if protocol is not None else None,
    }


def trial_seed(selection: dict[str, Any], seed: int, trial: int) -> int:
    """The agent's seed in ``trial`` (1-based): ``--trial-seeds`` if given, else the run's seed + trial - 1."""
    seeds = selection.get("trial_seeds") or []
    return int(seeds[trial - 1]) if trial <= len(seeds) else seed + trial - 1


def recorded_selection(out_dir: Path) -> dict[str, Any] | None:
    """The selection in ``out_dir/run.json``; for a run written before selections were recorded,
    what its config says (agent, model, seed); None without a readable ``run.json``."""
    try:
        manifest = json.loads((out_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    config = manifest.get("config") if isinstance(manifest, dict) else None
    if not isinstance(config, dict):
        return None
    selection = config.get("selection")
    if isinstance(selection, dict) and selection:
        return selection
    return {k: config.get(k) for k in ("agent", "model", "seed")}


def resume_difference(out_dir: Path, selection: dict[str, Any]) -> str | None:
    """One line naming what differs between ``selection`` and the run in ``out_dir``, or None."""
    before = recorded_selection(out_dir)
    if before is None:
        return None
    diffs = [
        f"{key} {_show(selection.get(key))} here but {_show(before.get(key))} in the run"
        for key in COMPARED
        if key in before and _norm(selection.get(key)) != _norm(before.get(key))
    ]
    if not diffs:
        return None
    return (
        f"refusing to resume {out_dir}: {'; '.join(diffs)} "
        "(repeat the run's options, or pass --force-resume to continue anyway)"
    )


def _norm(value: Any) -> Any:
    if value in (None, [], {}, ""):
        return None
    return value


def _show(value: Any) -> str:
    value = _norm(value)
    return "none" if value is None else json.dumps(value, ensure_ascii=False)
