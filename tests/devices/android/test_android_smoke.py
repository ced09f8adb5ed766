"""The phone part of ``smoke``: proven by its solutions, failed by setup alone and by a noop agent."""

from __future__ import annotations

from collections import Counter

import pytest

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.suites.smoke_android import build_android_smoke
from devicesworld.tasks.validate import validate_task

TASKS = build_android_smoke()


def test_suite_shape() -> None:
    assert len(TASKS) >= 40
    combos = Counter(t.device_combo for t in TASKS)
    assert combos["androidx2"] >= 5 and combos["android+smarthome"] >= 3
    apps = {a for t in TASKS for a in t.metadata.apps}
    assert {"messages", "contacts", "settings", "clock", "calendar", "files", "markor", "phone"} <= apps
    ids = {t.id for t in load_suite("smoke")}
    assert {t.id for t in TASKS} <= ids


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_solution_passes_and_setup_alone_fails(task: Task) -> None:
    report = validate_task(task)
    assert report.ok, report.problems


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_noop_fails(task: Task) -> None:
    with CrossDeviceEnv(task) as env:
        env.reset()
        env.step({"action": "finish"})
        assert not env.evaluate().success
