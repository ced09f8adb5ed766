"""The full suite's recipe is data (tasks/data/full-recipe.yaml): each family's count is its own,
so adding a family moves no other family's task ids, and every shipped task lies inside it."""

from __future__ import annotations

from collections import defaultdict

import pytest

from devicesworld.tasks.full import RecipeError, family_counts, load_full, recipe
from devicesworld.tasks.scenarios.loader import shipped_families


def _lines(counts: dict[str, int]) -> str:
    return "families:\n" + "".join(f"  {name}: {n}\n" for name, n in counts.items())


def test_every_shipped_task_of_a_family_lies_inside_its_count() -> None:
    shards = {s.prefix: s.count for s in recipe()}
    indices: dict[str, list[int]] = defaultdict(list)
    for t in load_full():
        prefix, index = t.id.removeprefix("dw-").rsplit("-", 1)
        indices[prefix].append(int(index))
    outside = {p: max(i) for p, i in indices.items() if max(i) >= shards.get(p, 0)}
    assert outside == {}, "shipped tasks beyond their family's recipe count"
    # a family's count is what ships, not an even share of a target (most families ship whole)
    whole = [p for p, i in indices.items() if max(i) + 1 == shards[p]]
    assert len(whole) >= 0.8 * len(indices)


def test_a_family_without_a_count_is_named() -> None:
    counts = family_counts()
    first = next(iter(counts))
    with pytest.raises(RecipeError, match=f"family '{first}' has no count"):
        family_counts(_lines({k: v for k, v in counts.items() if k != first}))


def test_a_count_for_no_family_and_a_negative_count_are_refused() -> None:
    counts = family_counts()
    with pytest.raises(RecipeError, match="'no_such_family' is no shipped family"):
        family_counts(_lines({**counts, "no_such_family": 3}))
    first = next(iter(counts))
    with pytest.raises(RecipeError, match="greater than or equal to 0"):
        family_counts(_lines({**counts, first: -1}))
    with pytest.raises(RecipeError, match=r"full-recipe\.yaml"):
        family_counts("families: [unclosed")


def test_a_count_over_a_familys_max_tasks_is_refused() -> None:
    capped = next(f for f in shipped_families() if f.max_tasks is not None)
    counts = family_counts()
    assert capped.max_tasks is not None
    with pytest.raises(RecipeError, match="over its max_tasks"):
        family_counts(_lines({**counts, capped.family: capped.max_tasks + 1}))


def test_a_family_counted_zero_has_no_shard() -> None:
    counts = family_counts()
    assert all(n > 0 for n in counts.values()), "the shipped recipe leaves no family out"
    first = next(iter(counts))
    assert family_counts(_lines({**counts, first: 0}))[first] == 0
