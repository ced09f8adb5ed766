"""Seeded percentile bootstrap confidence intervals over tasks.

Why a bootstrap: success is a per-task 0/1 outcome and score a bounded
per-task value; benchmark runs are small (tens to a few thousand tasks) and the
paper's headline numbers differ by a couple of points, so every rate is shown
with an interval. The resampling unit is the task. The generator is seeded so
that the same run always reports the same interval.

Why vectorised: a report over 5,000 tasks with 2,000 resamples must feel
instant. Resample indices are drawn as a matrix, in row blocks so memory stays
bounded, and the statistic is applied along each row.

Empty input returns ``(nan, nan)`` (a float pair keeps the return type simple;
callers that serialise turn NaN into ``null``). One value ``v`` returns ``(v, v)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

Stat = Callable[..., Any]
"""A statistic called as ``stat(samples, axis=1)`` on a 2-D array, returning one value per row
(``np.mean``, ``np.median`` and friends qualify)."""

_BLOCK_ELEMENTS = 4_000_000  # at most ~32 MB of float64 samples per block


def _check_args(n_resamples: int, confidence: float) -> None:
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def _as_array(values: Sequence[float] | NDArray[np.float64]) -> NDArray[np.float64]:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("values must be finite (no NaN or infinity)")
    return arr


def bootstrap_distribution(
    values: Sequence[float] | NDArray[np.float64],
    *,
    stat: Stat = np.mean,
    n_resamples: int = 2000,
    seed: int = 0,
) -> NDArray[np.float64]:
    """Return the ``n_resamples`` bootstrap replicates of ``stat`` over ``values``.

    Each replicate resamples the values (tasks) with replacement. The result is
    deterministic for a given ``seed``. Empty input gives an empty array.
    """
    _check_args(n_resamples, 0.5)
    arr = _as_array(values)
    n = arr.size
    if n == 0:
        return np.empty(0, dtype=np.float64)
    rng = np.random.default_rng(seed)
    rows_per_block = max(1, _BLOCK_ELEMENTS // n)
    out = np.empty(n_resamples, dtype=np.float64)
    for start in range(0, n_resamples, rows_per_block):
        stop = min(start + rows_per_block, n_resamples)
        idx = rng.integers(0, n, size=(stop - start, n))
        out[start:stop] = np.asarray(stat(arr[idx], axis=1), dtype=np.float64)
    return out


def bootstrap_ci(
    values: Sequence[float] | NDArray[np.float64],
    *,
    stat: Stat = np.mean,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``stat`` over ``values`` (one value per task).

    Returns ``(lo, hi)``; ``(nan, nan)`` for no values; ``(v, v)`` for one value
    (a single task carries no sampling information, and every resample equals it).
    Raises ``ValueError`` for non-finite values, ``n_resamples < 1`` or a
    ``confidence`` outside (0, 1).
    """
    _check_args(n_resamples, confidence)
    arr = _as_array(values)
    if arr.size == 0:
        return (math.nan, math.nan)
    if arr.size == 1:
        v = float(stat(arr.reshape(1, 1), axis=1)[0])
        return (v, v)
    reps = bootstrap_distribution(arr, stat=stat, n_resamples=n_resamples, seed=seed)
    alpha = 1.0 - confidence
    lo, hi = np.quantile(reps, [alpha / 2.0, 1.0 - alpha / 2.0])
    return (float(lo), float(hi))
