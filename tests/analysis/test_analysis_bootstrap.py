from __future__ import annotations

import math

import numpy as np
import pytest

from devicesworld.analysis import bootstrap_ci, bootstrap_distribution


def test_same_seed_same_interval_and_different_seed_differs() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    assert bootstrap_ci(values, seed=7) == bootstrap_ci(values, seed=7)
    dists = {tuple(bootstrap_distribution(values, seed=s, n_resamples=50)) for s in range(3)}
    assert len(dists) == 3


def test_interval_contains_point_estimate() -> None:
    rng = np.random.default_rng(1)
    values = rng.random(200)
    lo, hi = bootstrap_ci(values, seed=0)
    assert lo < float(np.mean(values)) < hi
    assert lo >= 0.0 and hi <= 1.0


def test_interval_narrows_with_more_tasks() -> None:
    small = [1.0, 0.0] * 10
    large = [1.0, 0.0] * 1000
    lo_s, hi_s = bootstrap_ci(small, seed=0)
    lo_l, hi_l = bootstrap_ci(large, seed=0)
    assert hi_l - lo_l < (hi_s - lo_s) / 5
    assert lo_l < 0.5 < hi_l


def test_percentile_width_matches_normal_approximation() -> None:
    values = [1.0] * 300 + [0.0] * 700
    lo, hi = bootstrap_ci(values, seed=0)
    se = math.sqrt(0.3 * 0.7 / 1000)
    assert hi - lo == pytest.approx(2 * 1.96 * se, rel=0.1)


def test_all_successes_gives_degenerate_interval() -> None:
    assert bootstrap_ci([1.0] * 25, seed=3) == (1.0, 1.0)
    assert bootstrap_ci([0.0] * 25, seed=3) == (0.0, 0.0)


def test_empty_and_single_value() -> None:
    lo, hi = bootstrap_ci([], seed=0)
    assert math.isnan(lo) and math.isnan(hi)
    assert bootstrap_ci([0.4], seed=0) == (0.4, 0.4)
    assert bootstrap_distribution([], seed=0).size == 0


def test_other_statistic_and_confidence() -> None:
    values = list(range(101))
    lo, hi = bootstrap_ci([float(v) for v in values], stat=np.median, seed=0)
    assert lo <= 50.0 <= hi
    lo80, hi80 = bootstrap_ci([float(v) for v in values], confidence=0.8, seed=0)
    lo95, hi95 = bootstrap_ci([float(v) for v in values], confidence=0.95, seed=0)
    assert lo95 <= lo80 and hi80 <= hi95


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"n_resamples": 0}, "n_resamples"), ({"confidence": 1.0}, "confidence")],
)
def test_invalid_arguments_raise(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bootstrap_ci([1.0, 0.0], **kwargs)  # type: ignore[arg-type]


def test_non_finite_values_raise() -> None:
    with pytest.raises(ValueError, match="finite"):
        bootstrap_ci([1.0, float("nan")])


def test_large_run_interval_is_tight_around_the_mean() -> None:
    # speed is measured by benchmarks/, not asserted here
    values = np.random.default_rng(0).integers(0, 2, 5000).astype(float)
    lo, hi = bootstrap_ci(values, n_resamples=2000, seed=0)
    assert lo < float(values.mean()) < hi
    assert hi - lo < 0.04
