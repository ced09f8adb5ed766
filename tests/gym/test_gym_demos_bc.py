"""Reference solutions become discrete-action demonstrations; a numpy behaviour-cloning policy imitates them."""

from __future__ import annotations

from devicesworld.gym.bc import collect, evaluate, train
from devicesworld.gym.demos import cell_for, discrete_demo
from devicesworld.gym.env import PhoneTaskEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.env_split import split_presets
from devicesworld.tasks.suites import load_suite


def _task(task_id: str) -> Task:
    return next(t for t in load_suite("bmoca") if t.id == task_id)


def test_cell_for_picks_a_cell_inside_the_box() -> None:
    assert cell_for({"x_min": 0.0, "y_min": 0.0, "x_max": 0.07, "y_max": 0.037}) == 0
    assert cell_for({"x_min": 0.5, "y_min": 0.5, "x_max": 0.51, "y_max": 0.501}) is None


def test_tap_only_solutions_replay_as_discrete_actions() -> None:
    task = _task("bmoca-airplane-on")
    env = PhoneTaskEnv(task)
    demo = discrete_demo(env, task.solution)
    assert demo is not None and demo.success and len(demo.actions) == 3
    assert len(demo.observations) == 3
    env.close()


def test_solutions_that_type_have_no_discrete_demo() -> None:
    task = _task("bmoca-text-number")
    env = PhoneTaskEnv(task)
    assert discrete_demo(env, task.solution) is None
    env.close()


def test_behaviour_cloning_imitates_on_the_demonstrated_profiles() -> None:
    task = _task("bmoca-open-clock")
    presets = split_presets("train")[:2]
    demos = collect([task], presets)
    assert len(demos) == 2
    policy = train(demos, {task.id: task.instruction})
    assert evaluate(policy, task, presets, max_steps=3) == 1.0
