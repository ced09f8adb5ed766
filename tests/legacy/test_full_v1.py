"""``full-v1`` is a frozen data file: it loads, and it is what its recipe says."""

from __future__ import annotations

from devicesworld.legacy.full_v1 import RECIPE_V1, shard_counts
from devicesworld.tasks.suites import load_suite


def test_the_frozen_file_has_every_task_of_the_v1_recipe() -> None:
    tasks = load_suite("full-v1")
    assert shard_counts(tasks) == {s.builder: s.count for s in RECIPE_V1}
    assert {t.metadata.origin for t in tasks} == {"composition"}
