"""Which frozen task set a run ran, so that reports never silently mix two sets.

Why: numbers from ``test-v2.1`` and a later ``test-v2.2`` (or from ``full``) are not
comparable; each result line carries the manifest hash of its split (empty when the run's
tasks came from no manifest) and ``run.json`` its label. A report or comparison over runs
of different sets is refused unless ``--allow-mixed``, and then it says what it mixed.
"""

from __future__ import annotations

import hashlib

from devicesworld.analysis.loading import LoadedRun


def run_set(run: LoadedRun) -> str:
    """``test-v2.1 (sha256:6fbedb91…)``, ``no manifest`` or, for a run that mixed several, all of them;
    a run of part of a manifest (``--filter``, ``--task-ids``, ``--limit``) adds which part
    (``… subset of 47 tasks #1a2b3c4d``: its task ids' digest), so that it is not taken for the whole."""
    selection = (run.config or {}).get("config", {}).get("selection") or {}
    label = str(selection.get("manifest") or "")
    hashes = sorted({r.manifest for r in run.results}) or [str(selection.get("manifest_hash") or "")]
    whole = " + ".join(_name(label, h) for h in hashes)
    if any(selection.get(k) for k in ("filters", "task_ids", "limit")) and whole != "no manifest":
        ids = sorted({r.task_id for r in run.results})
        digest = hashlib.sha256("\n".join(ids).encode()).hexdigest()[:8]
        whole += f" subset of {len(ids)} tasks #{digest}"
    return whole


def _name(label: str, digest: str) -> str:
    if not digest:
        return "no manifest"
    return f"{label or 'manifest'} ({digest[:15]}…)"


def mixed_sets(runs: dict[str, LoadedRun]) -> str | None:
    """One line naming each run's set when they are not all the same set, else None."""
    sets = {name: run_set(run) for name, run in runs.items()}
    if len(set(sets.values())) <= 1:
        return None
    listed = "; ".join(f"{name}: {s}" for name, s in sets.items())
    return f"these runs ran different task sets ({listed})"
