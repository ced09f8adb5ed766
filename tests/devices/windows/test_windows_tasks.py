"""The Windows task builder: enough tasks, unique ids, GUI-only Windows solutions, shipped files in sync."""

from __future__ import annotations

from collections import Counter

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.devices.desktop.actions import GUI_ACTION_NAMES
from devicesworld.devices.windows import tasks as wt
from devicesworld.spec.models import Task


@pytest.fixture(scope="module")
def built() -> tuple[list[Task], list[Task]]:
    return wt.build_tasks(), wt.smoke_tasks()


def test_counts_and_unique_ids(built: tuple[list[Task], list[Task]]) -> None:
    gui, smoke = built
    assert len(gui) >= 60 and len(smoke) >= 10
    ids = [t.id for t in gui + smoke]
    assert len(ids) == len(set(ids))
    assert {t.id.split("-", 1)[1].rsplit("-", 1)[0] for t in gui} == set(wt.FAMILIES)
    cross = [t for t in gui if len(t.devices) > 1]
    assert {k for t in cross for k in t.metadata.device_kinds} >= {"windows", "linux", "android"}


def test_windows_solutions_use_gui_actions_only_and_parse(built: tuple[list[Task], list[Task]]) -> None:
    gui, smoke = built
    kind = get_kind("windows")
    assert kind is not None
    used: Counter[str] = Counter()
    for t in gui + smoke:
        for s in t.solution:
            if s.device == wt.DEV:
                assert s.action in GUI_ACTION_NAMES, (t.id, s.action)
                kind.actions[s.action].parse_args(s.args)
                used[s.action] += 1
        for c in t.evaluation.conditions:
            if c.device == wt.DEV:
                kind.checks[c.check].parse_args(c.args)
    assert {"launch_app", "type_text", "hotkey", "click", "run_command"} <= set(used)


def test_shipped_files_match_the_builder(built: tuple[list[Task], list[Task]]) -> None:
    gui, smoke = built
    for name, tasks in ((wt.GUI_FILE, gui), (wt.SMOKE_FILE, smoke)):
        shipped = (wt.data_dir() / name).read_text(encoding="utf-8").splitlines()
        assert [Task.model_validate_json(line) for line in shipped] == tasks, (
            f"{name} is stale: run `python -m devicesworld.devices.windows.tasks`"
        )


def test_the_apps_a_task_opens_are_its_windows_surfaces(built: tuple[list[Task], list[Task]]) -> None:
    from devicesworld.tasks.surfaces import task_surfaces

    for task in built[0] + built[1]:
        found = {s for s in task_surfaces(task) if s.startswith("windows:")}
        declared = {a for a in task.metadata.apps if a.startswith("windows:")}
        assert found == declared, (task.id, sorted(found), sorted(declared))
