"""An AndroidWorld-style agent loop solves the single-phone smoke tasks through the compat layer.

The agent (``compat.androidworld.oracle``) is written against AndroidWorld's interface only: it reads
``get_state().ui_elements``, chooses a ``JSONAction`` dict, calls ``execute_action``,
and ends with ``status``; its choices come from each task's reference solution.
Every action has AndroidWorld's semantics (Enter after typing, AndroidWorld's app
names, one-second waits, answer before an infeasible status), so a task that needs
our own semantics fails here.
"""

from __future__ import annotations

from pathlib import Path

from devicesworld.analysis.loading import read_results
from devicesworld.compat.androidworld import AndroidWorldEnv
from devicesworld.compat.androidworld.oracle import OracleError, run_oracle
from devicesworld.spec.records import EpisodeResult
from devicesworld.tasks.suites import load_suite

REQUIRED_SUCCESS = 0.95


def test_every_single_phone_smoke_task_through_androidworlds_interface(tmp_path: Path) -> None:
    tasks = [t for t in load_suite("smoke") if [d.kind for d in t.devices] == ["android"]]
    assert len(tasks) >= 40
    results: list[EpisodeResult] = []
    for task in tasks:
        env = AndroidWorldEnv(task, tmp_path, pixels=False)
        try:
            run_oracle(env, task)
        except OracleError:
            pass  # the episode is scored as it stands
        finally:
            results.append(env.close())
    failed = [(r.task_id, [c.detail for c in r.conditions if not c.passed]) for r in results if not r.success]
    rate = 1 - len(failed) / len(results)
    assert rate >= REQUIRED_SUCCESS, f"{rate:.1%} succeeded; failed: {failed}"
    # recorded like native runs: one results line per task, one steps line per counted step
    recorded, warnings = read_results(tmp_path / "results.jsonl")
    assert not warnings and {r.task_id for r in recorded} == {t.id for t in tasks}
    for r in recorded:
        steps = (tmp_path / "episodes" / r.task_id / "steps.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(steps) == r.steps > 0
    infeasible = [r for r in recorded if r.termination == "infeasible_reported"]
    assert infeasible and all(r.success for r in infeasible)
