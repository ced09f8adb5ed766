"""What the viewer knows about its runs, loaded lazily and cached.

Why lazy: a run of thousands of episodes must open in seconds. Opening a run reads
only ``results.jsonl`` (one line per episode) into compact task rows. Metrics with
bootstrap CIs are computed on the first request for them; failure diagnosis, which
reads every failed episode's ``steps.jsonl``, likewise; an episode's steps are read
only when that episode is opened. Results are cached per run and recomputed when
``results.jsonl`` changes (a run still in progress grows while it is viewed).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from devicesworld.analysis.errors import ReportError
from devicesworld.analysis.failures import diagnose, summarize_failures
from devicesworld.analysis.loading import LoadedRun, load_run
from devicesworld.analysis.metrics import (
    compute_metrics,
    device_combo_of,
    invalid_counts,
    invalid_line,
    is_valid,
)
from devicesworld.analysis.render import metrics_to_json
from devicesworld.analysis.report import run_label
from devicesworld.analysis.trajectory import episode_dir, read_trajectory
from devicesworld.spec.records import EpisodeResult


class ViewerError(Exception):
    """A request the viewer cannot answer (unknown run, task or file)."""


def _task_row(r: EpisodeResult) -> dict[str, Any]:
    return {
        "episode": r.episode_key,
        "task_id": r.task_id,
        "trial": r.trial,
        "valid": r.valid,
        "invalid_cause": r.invalid_cause,
        "success": r.success,
        "score": r.score,
        "steps": r.steps,
        "duration_s": r.duration_s,
        "termination": r.termination,
        "pattern": r.pattern or "unknown",
        "difficulty": r.difficulty or "unknown",
        "device_combo": device_combo_of(r),
        "apps": r.apps,
        "tokens": r.tokens_in + r.tokens_out,
    }


class RunEntry:
    """One run directory and its cached views."""

    def __init__(self, index: int, run_dir: Path) -> None:
        self.index = index
        self.run_dir = Path(run_dir)
        self._lock = threading.Lock()
        self._stamp: tuple[float, int] | None = None
        self._run: LoadedRun | None = None
        self._rows: list[dict[str, Any]] = []
        self._by_id: dict[str, EpisodeResult] = {}
        """Results by episode key (``task`` for trial 1, ``task~N`` for trial N)."""
        self._metrics: dict[str, Any] | None = None
        self._diagnoses: dict[str, dict[str, Any]] | None = None

    def _results_stamp(self) -> tuple[float, int]:
        path = self.run_dir / "results.jsonl" if self.run_dir.is_dir() else self.run_dir
        try:
            st = path.stat()
        except OSError:
            return (0.0, 0)
        return (st.st_mtime, st.st_size)

    def load(self) -> LoadedRun:
        """The run, re-read when results.jsonl changed since the last request."""
        with self._lock:
            stamp = self._results_stamp()
            if self._run is None or stamp != self._stamp:
                run = load_run(self.run_dir)
                self._run, self._stamp = run, stamp
                self._rows = [_task_row(r) for r in run.results]
                self._by_id = {r.episode_key: r for r in run.results}  # every trial of a task
                self._metrics = None
                self._diagnoses = None
            return self._run

    def summary(self) -> dict[str, Any]:
        """The run-list row: who ran what when, and how well (success and mean score with 95% CIs,
        the share of invalid episodes). Metrics are cached until results.jsonl changes."""
        run = self.load()
        valid = [r for r in run.results if is_valid(r)]
        n = len(valid)
        ok = sum(1 for r in valid if r.success)
        cfg = run.config or {}
        inner = cfg.get("config") if isinstance(cfg.get("config"), dict) else {}
        assert isinstance(inner, dict)
        metrics = self.metrics() if n else {}
        invalid = sum(1 for r in run.results if not is_valid(r))
        return {
            "id": self.index,
            "label": run_label(run),
            "run_dir": str(run.run_dir),
            "agent": inner.get("agent") or (run.results[0].agent if run.results else None),
            "model": inner.get("model"),
            "n": n,
            "n_episodes": len(run.results),
            "n_success": ok,
            "success_rate": ok / n if n else None,
            "invalid": invalid_counts(run.results),
            "invalid_line": invalid_line(run.results),
            "trials": max((r.trial for r in run.results), default=1),
            "success_ci95": metrics.get("success_ci95"),
            "mean_score": metrics.get("mean_score"),
            "score_ci95": metrics.get("score_ci95"),
            "invalid_rate": invalid / len(run.results) if run.results else None,
            "status": cfg.get("status"),
            "started_at": cfg.get("started_at"),
            "warnings": run.warnings,
        }

    def outcomes(self) -> dict[str, EpisodeResult]:
        """The result of each valid episode (``task`` or ``task~N`` for trial N; the last line of
        an episode wins). An invalid episode says nothing of the agent, so it is left out and a
        pairwise view lists its task apart."""
        self.load()
        return {key: r for key, r in self._by_id.items() if is_valid(r)}

    def tasks(self) -> list[dict[str, Any]]:
        self.load()
        return self._rows

    def metrics(self) -> dict[str, Any]:
        run = self.load()
        with self._lock:
            if self._metrics is None:
                self._metrics = metrics_to_json(compute_metrics(run.results), warnings=run.warnings)
            return self._metrics

    def diagnoses(self) -> dict[str, Any]:
        """Diagnosis of every failed episode (reads their step logs once) and the summary."""
        run = self.load()
        with self._lock:
            if self._diagnoses is None:
                by_episode: dict[str, dict[str, Any]] = {}
                ds = []
                for r in run.results:
                    if r.success or not is_valid(r):  # an invalid episode is no agent failure
                        continue
                    d = diagnose(r, read_trajectory(run.run_dir, r.episode_key))
                    if d is not None:
                        ds.append(d)
                        by_episode[r.episode_key] = {
                            "mode": d.mode,
                            "failure_type": d.failure_type,
                            "reason": d.reason,
                        }
                self._diagnoses = {
                    "summary": summarize_failures(ds).model_dump(mode="json"),
                    "by_task": by_episode,
                }
            return self._diagnoses

    def episode(self, key: str) -> dict[str, Any]:
        """One episode (``task`` or, for trial N > 1, ``task~N``): its result record, diagnosis,
        every step (read now) and the keys of the task's other trials."""
        self.load()
        result = self._by_id.get(key)
        if result is None:
            raise ViewerError(f"no episode {key!r} in run {self.index}")
        traj = read_trajectory(self.run_dir, key)
        d = diagnose(result, traj)
        return {
            "result": result.model_dump(mode="json"),
            "diagnosis": d.model_dump(mode="json") if d else None,
            "steps": [s.model_dump(mode="json") for s in traj.steps],
            "errors": traj.errors,
            "trajectory_found": traj.found,
            "skipped_lines": traj.skipped_lines,
            "skipped": traj.skipped,
            "trials": sorted(
                (k for k, r in self._by_id.items() if r.task_id == result.task_id),
                key=lambda k: self._by_id[k].trial,
            ),
        }

    def file(self, task_id: str, name: str, sub: str | None = None) -> Path:
        """A screenshot of an episode, or (``sub="images"``) an image the model saw; refuses
        anything outside that episode's folder."""
        self.load()
        if task_id not in self._by_id:
            raise ViewerError(f"no episode {task_id!r} in run {self.index}")
        if "/" in name or "\\" in name or name.startswith(".") or not name.lower().endswith(".png"):
            raise ViewerError(f"not a screenshot name: {name!r}")
        if sub not in (None, "images"):
            raise ViewerError(f"no folder {sub!r} in an episode")
        folder = episode_dir(self.run_dir, task_id).resolve()
        if sub is not None:
            folder = folder / sub
        path = (folder / name).resolve()
        if path.parent != folder or not path.is_file():
            raise ViewerError(f"no screenshot {name!r} for {task_id!r}")
        return path


class RunStore:
    """The runs given on the command line, by position."""

    def __init__(self, run_dirs: list[Path]) -> None:
        self.runs = [RunEntry(i, Path(d)) for i, d in enumerate(run_dirs)]

    def check(self) -> None:
        """Load every run once, so a wrong path is reported before the server starts."""
        for entry in self.runs:
            try:
                entry.load()
            except ReportError as exc:
                raise ViewerError(str(exc)) from None

    def get(self, index: int) -> RunEntry:
        if not 0 <= index < len(self.runs):
            raise ViewerError(f"no run {index}")
        return self.runs[index]

    def pairwise(self, a: int, b: int) -> dict[str, Any]:
        """Two runs task by task: solved by both, only by A, only by B, by neither; tasks that
        only one of them ran are listed apart."""
        first, second = self.get(a), self.get(b)
        left, right = first.outcomes(), second.outcomes()
        groups: dict[str, list[dict[str, Any]]] = {"both": [], "only_a": [], "only_b": [], "neither": []}
        unpaired: list[dict[str, Any]] = []
        for task_id in sorted(set(left) | set(right)):
            ra, rb = left.get(task_id), right.get(task_id)
            row = {"task_id": task_id, "a": _brief(ra), "b": _brief(rb)}
            if ra is None or rb is None:
                unpaired.append(row)
                continue
            key = (
                ("both" if rb.success else "only_a")
                if ra.success
                else ("only_b" if rb.success else "neither")
            )
            groups[key].append(row)
        return {"a": first.summary(), "b": second.summary(), "groups": groups, "unpaired": unpaired}


def _brief(r: EpisodeResult | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"success": r.success, "score": r.score, "steps": r.steps, "termination": r.termination}
