"""Repeated trials: the unbiased pass@k / pass^k estimators, and 0 flips for deterministic agents."""

from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld.analysis.trials import compute_trials, pass_at_k, pass_hat_k
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.runner.selection import make_selection
from devicesworld.spec.records import EpisodeResult
from devicesworld.tasks.suites import load_suite

FEW_TEST_TASKS = ("dw-away-for-the-day-0054", "dw-dehumidify-if-damp-0001", "dw-fahrenheit-for-grandma-0025")
"""Phone and smart-home tasks of the frozen test split: they need no system tool."""


def _result(task_id: str, trial: int, success: bool) -> EpisodeResult:
    return EpisodeResult(
        task_id=task_id,
        trial=trial,
        success=success,
        score=float(success),
        steps=1,
        duration_s=0.1,
        termination="finished",
    )


def test_the_estimators_are_the_unbiased_ones() -> None:
    assert pass_at_k(3, 0, 3) == 0.0 and pass_at_k(3, 1, 3) == 1.0
    assert pass_hat_k(3, 3, 3) == 1.0 and pass_hat_k(3, 2, 3) == 0.0
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - 3 / 10)  # 1 - C(3,2)/C(5,2)
    assert pass_hat_k(5, 2, 2) == pytest.approx(1 / 10)  # C(2,2)/C(5,2)
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_suite_figures_and_the_flip_rate() -> None:
    results = [_result("a", k, True) for k in (1, 2, 3)] + [_result("b", k, k == 2) for k in (1, 2, 3)]
    results += [_result("c", k, False) for k in (1, 2, 3)]
    trials = compute_trials(results, seed=1)
    assert trials is not None and trials.k == 3 and trials.n_tasks == 3
    assert trials.pass_at_1 == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert trials.pass_at_k == pytest.approx(2 / 3) and trials.pass_hat_k == pytest.approx(1 / 3)
    assert trials.flip_rate == pytest.approx(1 / 3)
    assert [t.task_id for t in trials.tasks if t.flipped] == ["b"]
    assert trials.flip_rate_ci95[0] <= trials.flip_rate <= trials.flip_rate_ci95[1]
    assert compute_trials(results, seed=1) == trials  # seeded CIs
    assert compute_trials([_result("a", 1, True)]) is None


@pytest.mark.parametrize(("agent", "seed"), [("oracle", 0), ("random", 1)])
def test_deterministic_agents_never_flip_on_test_tasks(tmp_path: Path, agent: str, seed: int) -> None:
    """The environment resets to the same state every trial: the oracle and a seeded random agent
    give the same outcome in each of three trials (the random agent's seed moves per trial)."""
    tasks = [t for t in load_suite("test") if t.id in FEW_TEST_TASKS]
    selection = make_selection(suite="test", tasks_path=None, agent=agent, seed=seed, trials=3)
    config = RunConfig(agent=agent, source="suite:test", seed=seed, trials=3, selection=selection)
    outcome = execute_run(tasks, config, tmp_path)
    assert len(outcome.results) == 9
    assert {r.manifest for r in outcome.results} == {selection["manifest_hash"]}
    trials = compute_trials(outcome.results, seed=0)
    assert trials is not None and trials.flip_rate == 0.0
    if agent == "oracle":
        assert trials.pass_hat_k == 1.0
