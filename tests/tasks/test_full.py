"""The shipped ``full`` suite (v2, from scenario families): size, coverage, naturalness,
byte-for-byte rebuilds; and ``full-v1`` still loads for comparison."""

from __future__ import annotations

import gzip
from collections import Counter
from functools import cache

import pytest

from devicesworld.spec.metadata import CATEGORIES
from devicesworld.spec.models import Task
from devicesworld.tasks import full
from devicesworld.tasks.full import BuildStats, build_one, load_full, recipe, suite_bytes, with_test_split
from devicesworld.tasks.naturalness import masked, repeated_clauses
from devicesworld.tasks.scenarios.loader import shipped_families
from devicesworld.tasks.scenarios.model import MIN_PHRASINGS
from devicesworld.tasks.suites import load_suite
from tests.devices.desktop.desktop_harness import require_gui_stack


@cache
def everything() -> tuple[Task, ...]:
    return tuple(load_full())


@cache
def shipped() -> tuple[Task, ...]:
    """The scenario tasks of the shipped suite (the kinds' GUI tasks are tested on their own)."""
    return tuple(t for t in everything() if not _from_source(t))


def _from_source(t: Task) -> bool:
    return any(t.id.startswith(f"dw-{s.prefix}-") for s in full.source_shards())


def _category(t: Task) -> str:
    return str(t.metadata.composition.category if t.metadata.composition else None)


def _family(t: Task) -> str:
    return str(t.metadata.composition.family if t.metadata.composition else None)


def test_the_full_suite_is_built_from_the_families_with_every_pattern_and_category() -> None:
    tasks = shipped()
    assert full.FULL_VERSION == 2
    assert len({t.id for t in tasks}) == len(tasks)
    assert {t.metadata.origin for t in tasks} == {"scenario"}
    assert {_family(t) for t in tasks} <= {f.family for f in shipped_families()}
    categories = {_category(t) for t in tasks}
    assert categories == set(CATEGORIES)
    # every family with all three device classes / four devices contributes (counts: docs/scenarios.md)
    wide = {f.family for f in shipped_families() if len(set(f.roles.values())) == 3}
    four = {f.family for f in shipped_families() if len(f.roles) == 4}
    assert {_family(t) for t in tasks if len({d.kind for d in t.devices}) == 3} == wide != set()
    assert {_family(t) for t in tasks if len(t.devices) == 4} == four != set()
    for t in tasks:
        assert t.metadata.split in {"train", "test"} and t.solution
        # every task names the apps it is done in, an infeasible request too (what shows it cannot be done)
        assert t.metadata.apps, t.id


def test_the_full_suite_reaches_its_size_and_the_nine_patterns() -> None:
    tasks = shipped()
    patterns = Counter(t.metadata.pattern for t in tasks)
    scenario_shards = [s for s in recipe() if s.builder.startswith("family:")]
    # a few draws may fail every gate (0.95); 0.86 (5,311 of the recipe's 6,142) while 519 GUI-family
    # tasks that failed the coherence gate's seeded_times/email_identity rules and report_v3_missing's
    # 58 wait for their rebuild (issue #33: not shipped until coherent; their families are fixed,
    # `tasks rebuild --ids` proves them again), and a long family's seeds 0002-0004 (3 of its 5) are
    # held out of `full` for `test`
    assert len(tasks) >= 0.86 * sum(s.count for s in scenario_shards)
    assert set(patterns) == {f.pattern for f in shipped_families()} | {"infeasible_request"}
    assert len(patterns) == 9


def test_the_evaluation_split_is_a_stratified_selection_of_200_natural_instructions() -> None:
    tasks = shipped()
    test = load_suite("test")
    # v2.2 keeps v2.1's 200 ids but the few no rebuild made coherent (issue #33: not shipped)
    assert full.TEST_SIZE - 5 <= len(test) <= full.TEST_SIZE
    assert {t.id for t in test} == {t.id for t in everything() if t.metadata.split == "test"}
    test = [t for t in test if not _from_source(t)]
    assert {t.metadata.pattern for t in test} == {t.metadata.pattern for t in tasks}
    assert {t.metadata.difficulty for t in test} == {t.metadata.difficulty for t in tasks}
    assert {_category(t) for t in test} == {_category(t) for t in tasks}
    assert {len(t.devices) for t in test} == {len(t.devices) for t in tasks}
    # a hard benchmark: most of the split is hard or expert (selection.DIFFICULTY_MIX)
    assert sum(t.metadata.difficulty in ("hard", "expert") for t in test) >= 0.7 * len(test)
    # naturalness: no two instructions equal once their values are masked, no repeated clause
    masks = Counter(masked(t.instruction) for t in test)
    assert max(masks.values()) == 1, masks.most_common(2)
    assert [t.id for t in test if repeated_clauses(t.instruction)] == []
    # the selection is reproducible from the pool alone
    pool = [
        t.model_copy(update={"metadata": t.metadata.model_copy(update={"split": "train"})})
        for t in everything()
    ]
    assert [t.metadata.split for t in with_test_split(pool)] == [t.metadata.split for t in everything()]


def test_every_family_has_four_phrasings_in_every_style() -> None:
    for f in shipped_families():
        assert len(f.phrasings) >= MIN_PHRASINGS
        assert {p.style for p in f.phrasings} == {"polite", "terse", "indirect", "context"}
        for p in f.phrasings:
            assert repeated_clauses(p.text) == [], (f.family, p.text)


def test_the_shipped_file_is_its_tasks_serialised_with_a_fixed_header() -> None:
    data = full.shipped_path().read_bytes()
    assert data[4:8] == b"\0\0\0\0", "gzip mtime must be 0 for byte-identical rebuilds"
    assert suite_bytes(everything()) == data
    assert gzip.decompress(data).count(b"\n") == len(everything())


@pytest.mark.parametrize("number", [0, 5, 8], ids=lambda n: f"shard{n}")
def test_rebuilding_from_the_seed_gives_the_same_bytes(number: int) -> None:
    shard = recipe()[number % len(recipe())]
    by_id = {t.id: t for t in shipped()}
    for index in range(2):
        rebuilt = build_one(shard, full.FULL_SEED, index, BuildStats(seed=full.FULL_SEED))
        assert rebuilt is not None
        original = by_id[rebuilt.id]
        split = original.metadata.split  # assigned afterwards, over the whole pool
        rebuilt = rebuilt.model_copy(
            update={"metadata": rebuilt.metadata.model_copy(update={"split": split})}
        )
        assert rebuilt.model_dump_json() == original.model_dump_json()


def test_a_gui_familys_tasks_rebuild_to_the_same_bytes_through_their_twin_and_gui_proof() -> None:
    """A family whose desktop runs through the GUI is built by compiling, proving its tool-step
    twin with every gate and its own GUI solution on a live desktop (docs/scenarios.md)."""
    require_gui_stack()
    shard = next(s for s in recipe() if s.builder == "family:service_code_to_desktop")
    by_id = {t.id: t for t in shipped()}
    rebuilt = build_one(shard, full.FULL_SEED, 0, BuildStats(seed=full.FULL_SEED))
    assert rebuilt is not None
    original = by_id[rebuilt.id]
    assert any(d.profile == {"desktop": "gui"} for d in original.devices)
    split = original.metadata.split
    rebuilt = rebuilt.model_copy(update={"metadata": rebuilt.metadata.model_copy(update={"split": split})})
    assert rebuilt.model_dump_json() == original.model_dump_json()


def test_version_1_stays_loadable_for_comparison() -> None:
    v1 = load_suite("full-v1")
    assert len(v1) == 6200
    assert {t.metadata.origin for t in v1} == {"composition"}
    assert not {t.id for t in v1} & {t.id for t in everything()}
