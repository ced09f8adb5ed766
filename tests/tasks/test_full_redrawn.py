"""A build says which tasks came from a later retry (session 47: a rebuild "drew other values" for a
task whose shipped draw was retry 1, its retry 0 having failed a GUI proof in that build)."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.spec.models import Task
from devicesworld.tasks import full
from devicesworld.tasks.scenarios import build


def _task(task_id: str) -> Task:
    return Task.model_validate(
        {
            "id": task_id,
            "instruction": "Say done.",
            "devices": [{"id": "android_0", "kind": "android"}],
            "evaluation": {"conditions": [{"id": "c", "device": "global", "check": "finished"}]},
        }
    )


@pytest.mark.parametrize(("rejections", "redrawn"), [(0, {}), (2, {"dw-dinner-moved-0003": 2})])
def test_a_task_drawn_at_a_later_retry_is_named(
    monkeypatch: pytest.MonkeyPatch, rejections: int, redrawn: dict[str, int]
) -> None:
    def drawn(family: Any, seed: int, index: int, task_id: str, rejected: dict[str, int]) -> Task:
        if rejections:
            rejected["dinner_moved: reference solution fails condition x"] = rejections
        return _task(task_id)

    monkeypatch.setattr(build, "build_task", drawn)
    shard, index = full.shard_of("dw-dinner-moved-0003") or (None, 0)
    assert shard is not None
    stats = full.BuildStats(seed=full.FULL_SEED)
    assert full.build_one(shard, full.FULL_SEED, index, stats) is not None
    assert stats.redrawn == redrawn
    merged = full.BuildStats(seed=full.FULL_SEED)
    merged.merge(stats)
    assert merged.redrawn == redrawn
    assert ("redrawn" in stats.model_dump()) is True
