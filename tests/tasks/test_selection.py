from __future__ import annotations

from devicesworld.spec.models import Task
from devicesworld.tasks.selection import features, select_evaluation_set


def _task(i: int, pattern: str, difficulty: str, kinds: list[str]) -> Task:
    return Task.model_validate(
        {
            "id": f"t{i}",
            "instruction": "do " + "".join(chr(97 + int(d)) for d in str(i)),
            "devices": [{"id": f"{k}_{n}", "kind": k} for n, k in enumerate(kinds)],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "metadata": {"pattern": pattern, "difficulty": difficulty, "apps": [f"app{i % 7}"]},
        }
    )


POOL = [
    _task(
        i,
        f"p{i % 5}",
        ("easy", "medium", "hard", "expert")[i % 4],
        [["linux", "android"], ["smarthome", "linux"], ["android", "android"]][i % 3],
    )
    for i in range(300)
]


def test_selection_covers_every_feature_and_has_the_asked_size() -> None:
    ids = select_evaluation_set(POOL, size=40, seed=1)
    assert len(ids) == len(set(ids)) == 40
    chosen = [t for t in POOL if t.id in set(ids)]
    pool_features = set().union(*(features(t) for t in POOL))
    got = set().union(*(features(t) for t in chosen))
    assert got == pool_features


def test_selection_is_deterministic_and_in_pool_order() -> None:
    a = select_evaluation_set(POOL, size=30, seed=3)
    assert a == select_evaluation_set(POOL, size=30, seed=3)
    order = [t.id for t in POOL]
    assert a == sorted(a, key=order.index)
    assert a != select_evaluation_set(POOL, size=30, seed=4)


def test_a_rare_feature_is_always_picked() -> None:
    rare = _task(999, "rare_pattern", "easy", ["linux", "linux"])
    ids = select_evaluation_set([*POOL, rare], size=20, seed=0)
    assert "t999" in ids


def test_no_two_chosen_instructions_differ_only_in_their_values() -> None:
    twins = [
        t.model_copy(update={"id": f"twin{i}", "instruction": f"Set the lamp to {30 + i}% at 18:{i:02d}."})
        for i, t in enumerate(POOL[:50])
    ]
    ids = set(select_evaluation_set([*twins, *POOL[50:]], size=40, seed=2))
    assert len(ids) == 40
    assert sum(i.startswith("twin") for i in ids) <= 1


def test_the_difficulty_mix_is_met_when_the_pool_allows() -> None:
    from collections import Counter

    from devicesworld.tasks.selection import DIFFICULTY_MIX, quotas

    ids = set(select_evaluation_set(POOL, size=60, seed=5))
    got = Counter(t.metadata.difficulty for t in POOL if t.id in ids)
    want = quotas(POOL, 60)
    assert sum(want.values()) == 60
    assert want == {g: round(60 * share) for g, share in DIFFICULTY_MIX.items()}
    assert got == Counter(want)


def test_a_grade_the_pool_lacks_passes_its_quota_to_the_others() -> None:
    from devicesworld.tasks.selection import quotas

    few_easy = [t for t in POOL if t.metadata.difficulty != "easy"] + [
        t for t in POOL if t.metadata.difficulty == "easy"
    ][:1]
    want = quotas(few_easy, 100)
    assert want["easy"] == 1 and sum(want.values()) == 100


def test_cover_takes_the_harder_of_two_tasks_that_cover_the_same() -> None:
    easy = _task(1001, "solo_pattern", "easy", ["linux"])
    expert = easy.model_copy(
        update={
            "id": "t1002",
            "instruction": "something else entirely",
            "metadata": easy.metadata.model_copy(update={"difficulty": "expert"}),
        }
    )
    assert select_evaluation_set([easy, expert], size=1, seed=0, min_per_feature=1) == ["t1002"]
    assert select_evaluation_set([expert, easy], size=1, seed=3, min_per_feature=1) == ["t1002"]
