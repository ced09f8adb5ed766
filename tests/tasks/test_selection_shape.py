"""The shape targets of a split (issue #34): long tasks, long solutions, GUI-only desktops."""

from __future__ import annotations

from collections import Counter
from typing import Any

from devicesworld.spec.models import Task
from devicesworld.tasks.selection import features, select_evaluation_set, unseen_pool
from devicesworld.tasks.selection_shape import ISSUE_34, ShapeTargets, split_shape, unmet

GRADES = ("easy", "medium", "hard", "expert")
KEYS = {"device": "linux_0", "action": "hotkey", "args": {"keys": ["ctrl", "s"]}}
SHELL = {"device": "linux_0", "action": "run_command", "args": {"command": "ls"}}


def _task(i: int, *, steps: int, difficulty: str, long: bool = False, gui: bool = True) -> Task:
    """Task ``i``: a Linux desktop (GUI-only or hybrid) and a phone, ``steps`` solution steps."""
    desktop: dict[str, Any] = {
        "id": "linux_0",
        "kind": "linux",
        "profile": {"desktop": "gui" if gui else "hybrid"},
    }
    family = f"long_f{i % 6}" if long else f"f{i % 9}"
    return Task.model_validate(
        {
            "schema_version": 2,
            "id": f"{'long' if long else 't'}{i}",
            "instruction": "do " + "".join(chr(97 + int(d)) for d in str(i)) + (" long" if long else ""),
            "devices": [desktop, {"id": "android_0", "kind": "android"}],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "solution": [KEYS if gui else SHELL] * steps,
            "metadata": {
                "pattern": f"p{i % 4}",
                "difficulty": "expert" if long else difficulty,
                "apps": [f"app{i % 5}"],
                "tier": "long" if long else None,
                "tags": [f"family:{family}"],
            },
        }
    )


# The pool of issue #34 in small: short standard tasks (some with a shell on the desktop), a
# minority of standard tasks with long solutions, and a few long-tier tasks.
POOL = [
    *(_task(i, steps=4 + i % 9, difficulty=GRADES[min(3, i % 6)], gui=i % 5 != 0) for i in range(600)),
    *(_task(1000 + i, steps=15 + i % 6, difficulty=GRADES[2 + i % 2]) for i in range(40)),
    *(_task(2000 + i, steps=25 + i % 10, difficulty="expert", long=True) for i in range(30)),
]


def test_without_targets_the_pool_shape_shows_through() -> None:
    chosen = _chosen(select_evaluation_set(POOL, size=80, seed=1))
    assert unmet(chosen, ISSUE_34)  # the plain selection is short: the targets are what makes it long


def test_the_targets_give_a_long_share_a_long_median_and_gui_only_desktops() -> None:
    ids = select_evaluation_set(POOL, size=80, seed=1, targets=ISSUE_34)
    chosen = _chosen(ids)
    shape = split_shape(chosen)
    assert len(ids) == len(set(ids)) == 80
    assert unmet(chosen, ISSUE_34) == []
    assert shape.long_share >= 0.25 and shape.median_steps >= 15 and shape.gui_only_share >= 0.8
    assert shape.long_families == 6  # long tasks are spread over their families


def test_the_targets_keep_the_strata() -> None:
    """Every feature the plain selection covers is still covered, and the difficulty mix stays within
    the swaps the long tier forces (long tasks are expert: they take expert places first)."""
    plain = _chosen(select_evaluation_set(POOL, size=80, seed=1))
    shaped = _chosen(select_evaluation_set(POOL, size=80, seed=1, targets=ISSUE_34))
    covered = set().union(*(features(t) for t in plain)) - {
        f for f in _all_features() if f.startswith("family:")
    }
    assert covered <= set().union(*(features(t) for t in shaped))
    before, after = (
        Counter(t.metadata.difficulty for t in plain),
        Counter(t.metadata.difficulty for t in shaped),
    )
    assert after["easy"] == before["easy"] and after["medium"] == before["medium"]


def test_targets_the_pool_cannot_meet_are_reported_not_hidden() -> None:
    short = [t for t in POOL if t.metadata.tier != "long"]
    chosen = _chosen(select_evaluation_set(short, size=80, seed=1, targets=ISSUE_34))
    assert any(m.startswith("long tier 0%") for m in unmet(chosen, ISSUE_34))


def test_a_zero_target_changes_nothing() -> None:
    assert select_evaluation_set(POOL, size=60, seed=2, targets=ShapeTargets()) == select_evaluation_set(
        POOL, size=60, seed=2
    )


def test_the_unseen_pool_is_the_previous_split_and_the_held_out_tasks() -> None:
    previous = [t.id for t in POOL[:50]]
    held = [_task(3000 + i, steps=30, difficulty="expert", long=True) for i in range(5)]
    rebuilt = POOL[3].model_copy(update={"instruction": "do it again"})
    pool = unseen_pool(POOL, previous, [*held, rebuilt])
    assert [t.id for t in pool] == [t.id for t in POOL[:50] if t.id != rebuilt.id] + [t.id for t in held] + [
        rebuilt.id
    ]
    assert next(t for t in pool if t.id == rebuilt.id).instruction == "do it again"


def _chosen(ids: list[str]) -> list[Task]:
    keep = set(ids)
    return [t for t in POOL if t.id in keep]


def _all_features() -> set[str]:
    return set().union(*(features(t) for t in POOL))


def test_the_gui_target_swaps_out_desktops_with_a_shell() -> None:
    plain = _chosen(select_evaluation_set(POOL, size=80, seed=1))
    shaped = _chosen(select_evaluation_set(POOL, size=80, seed=1, targets=ShapeTargets(gui_only_share=1.0)))
    assert split_shape(plain).gui_only_share < 1.0
    assert split_shape(shaped).gui_only_share == 1.0
    assert Counter(t.metadata.difficulty for t in shaped) == Counter(t.metadata.difficulty for t in plain)


def test_a_task_longer_than_the_splits_budget_is_never_chosen() -> None:
    targets = ShapeTargets(long_share=0.25, max_steps=30)  # 18 of the 30 long tasks fit
    chosen = _chosen(select_evaluation_set(POOL, size=60, seed=1, targets=targets))
    assert max(len(t.solution) for t in chosen) <= 30
    assert split_shape(chosen).long_share >= 0.25  # the long tasks that fit still reach the share


def test_the_swaps_spread_over_the_patterns_and_spare_a_short_one() -> None:
    """A pattern that is short by nature (infeasible requests: one report) keeps most of its
    places: a swap gives up a task of the pattern the set holds most of."""
    short = [_one_pattern_short(t) for t in POOL]
    by_id = {t.id: t for t in short}

    def p3(ids: list[str]) -> int:
        return sum(by_id[i].metadata.pattern == "p3" for i in ids)

    before = p3(select_evaluation_set(short, size=80, seed=1))
    after = p3(select_evaluation_set(short, size=80, seed=1, targets=ISSUE_34))
    assert after >= before * 2 // 3


def _one_pattern_short(t: Task) -> Task:
    """Pattern p3 with one-step solutions; the long tasks all of their own pattern (as long families
    are mostly multi-source integration), so no swap trades a task for one of its own pattern."""
    if t.metadata.tier == "long":
        return t.model_copy(update={"metadata": t.metadata.model_copy(update={"pattern": "p_long"})})
    if t.metadata.pattern == "p3":
        return t.model_copy(update={"solution": t.solution[:1]})
    return t
