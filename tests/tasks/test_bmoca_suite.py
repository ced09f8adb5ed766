"""Suite ``bmoca``: B-MoCA's five categories, QC gates, and the oracle on every shipped profile."""

from __future__ import annotations

from collections import Counter

import pytest

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.env_split import split_presets, with_preset
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.suites.bmoca import CATEGORIES, solution_on, task_names
from devicesworld.tasks.validate import validate_task


@pytest.fixture(scope="module")
def bmoca() -> list[Task]:
    return load_suite("bmoca")


def test_covers_the_five_categories(bmoca: list[Task]) -> None:
    cats = Counter(t.metadata.category for t in bmoca)
    assert set(cats) == set(CATEGORIES) and all(n >= 3 for n in cats.values())
    assert len(bmoca) == 131 and len({t.id for t in bmoca}) == len(bmoca)
    assert all(t.id.startswith("bmoca-") and len(t.devices) == 1 for t in bmoca)
    assert list(task_names().values()) == [t.id for t in bmoca]


def test_every_task_validates(bmoca: list[Task]) -> None:
    bad = {r.task_id: r.problems for r in map(validate_task, bmoca) if not r.ok}
    assert not bad


def _solves(task: Task, preset: str) -> bool:
    moved = with_preset(task, preset)
    steps = solution_on(moved)
    assert steps is not None
    with CrossDeviceEnv(moved) as env:
        env.reset()
        for step in steps:
            env.step(step)
        return env.evaluate().success


@pytest.mark.slow
@pytest.mark.parametrize("name", list(task_names().values()))
def test_oracle_solves_on_sampled_profiles(bmoca: list[Task], name: str) -> None:
    task = next(t for t in bmoca if t.id == name)
    # one training and one test preset per task, rotating with the task's position so the
    # suite as a whole covers all 45; `python benchmarks/bmoca_splits.py --per-task 0
    # --oracle-only` checks every task on every preset
    i = [t.id for t in bmoca].index(name)
    train, test = split_presets("train"), split_presets("test")
    presets = [train[i % len(train)], test[(i * 7) % len(test)]]
    failed = [p for p in presets if not _solves(task, p)]
    assert not failed


def test_solution_on_is_none_for_other_tasks(bmoca: list[Task]) -> None:
    other = bmoca[0].model_copy(update={"id": "smoke-x"})
    assert solution_on(other) is None


def test_a_slider_solution_is_recorded_mirrored_on_a_right_to_left_profile(bmoca: list[Task]) -> None:
    from devicesworld.devices.android.profiles import DEVICE_TYPES, resolve_profile

    def width(t: Task) -> int:
        return DEVICE_TYPES[resolve_profile(t.devices[0].profile).device].width

    task = next(t for t in bmoca if t.id == "bmoca-brightness-max")
    assert solution_on(task) == task.solution  # recorded again on its own profile: the shipped steps
    arabic = next(
        p
        for p in split_presets("train") + split_presets("test")
        if resolve_profile({"preset": p}).language == "ar"
    )
    moved = with_preset(task, arabic)
    steps = solution_on(moved)
    assert steps is not None
    (slider,) = [s for s in steps if "x" in s.args]
    (shipped,) = [s for s in task.solution if "x" in s.args]
    assert shipped.args["x"] > width(task) / 2  # 0.97 of the way from the left
    assert slider.args["x"] < width(moved) / 2  # 0.97 of the way from the right
