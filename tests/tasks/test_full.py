"""The shipped ``full`` suite: its size and coverage, and that its seed rebuilds it byte for byte."""

from __future__ import annotations

import gzip
from collections import Counter
from functools import cache

import pytest

from devicesworld.spec.models import Task
from devicesworld.tasks import full
from devicesworld.tasks.build import default_composer
from devicesworld.tasks.composition.patterns import PATTERNS
from devicesworld.tasks.full import RECIPE, BuildStats, build_one, load_full, suite_bytes, with_test_split
from devicesworld.tasks.suites import load_suite


@cache
def shipped() -> tuple[Task, ...]:
    return tuple(load_full())


def test_the_full_suite_has_every_pattern_and_the_required_spread() -> None:
    tasks = shipped()
    assert len(tasks) >= 6140
    assert len({t.id for t in tasks}) == len(tasks)
    patterns = Counter(t.metadata.pattern for t in tasks)
    assert set(PATTERNS) <= set(patterns)
    assert sum(len({d.kind for d in t.devices}) == 3 for t in tasks) >= 100
    assert sum(len(t.devices) == 4 for t in tasks) >= 50
    combos = {t.device_combo for t in tasks}
    assert any("androidx2" in c for c in combos) and any("linuxx2" in c for c in combos)
    for t in tasks:
        assert t.metadata.apps and t.metadata.split in {"train", "test"} and t.solution


def test_the_evaluation_split_is_a_stratified_selection_of_150_to_250_tasks() -> None:
    tasks = shipped()
    test = load_suite("test")
    assert 150 <= len(test) <= 250
    assert {t.id for t in test} == {t.id for t in tasks if t.metadata.split == "test"}
    assert set(PATTERNS) <= {t.metadata.pattern for t in test}
    assert {t.metadata.difficulty for t in test} == {t.metadata.difficulty for t in tasks}
    # the selection is reproducible from the pool alone
    pool = [
        t.model_copy(update={"metadata": t.metadata.model_copy(update={"split": "train"})}) for t in tasks
    ]
    assert [t.metadata.split for t in with_test_split(pool)] == [t.metadata.split for t in tasks]


def test_the_shipped_file_is_its_tasks_serialised_with_a_fixed_header() -> None:
    data = full.shipped_path().read_bytes()
    assert data[4:8] == b"\0\0\0\0", "gzip mtime must be 0 for byte-identical rebuilds"
    assert suite_bytes(shipped()) == data
    assert gzip.decompress(data).count(b"\n") == len(shipped())


@pytest.mark.parametrize("shard", [RECIPE[i] for i in (0, 4, 6, 10)], ids=lambda s: s.builder)
def test_rebuilding_from_the_seed_gives_the_same_bytes(shard: full.Shard) -> None:
    by_id = {t.id: t for t in shipped()}
    composer = default_composer()
    for index in range(2):
        rebuilt = build_one(composer, shard, full.FULL_SEED, index, BuildStats(seed=full.FULL_SEED))
        assert rebuilt is not None
        original = by_id[rebuilt.id]
        split = original.metadata.split  # assigned afterwards, over the whole pool
        rebuilt = rebuilt.model_copy(
            update={"metadata": rebuilt.metadata.model_copy(update={"split": split})}
        )
        assert rebuilt.model_dump_json() == original.model_dump_json()
