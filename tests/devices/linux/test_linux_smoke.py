"""The Linux smoke tasks: shape, and (with the built-in browser) solved by the oracle, not by setup or noop.

The suite-level tests in ``tests/tasks`` run the same tasks with the default browser
(Chromium where installed), so the web tasks are proven on both backends.
"""

from __future__ import annotations

from collections import Counter

import pytest

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec.models import Step, Task
from devicesworld.tasks.suites import load_suite
from devicesworld.tasks.suites.smoke_linux import build_linux_smoke
from tests.devices.linux.linux_harness import require_bwrap

TASKS = build_linux_smoke()


def test_suite_shape() -> None:
    assert len(TASKS) >= 40
    ids = [t.id for t in TASKS]
    assert len(set(ids)) == len(ids) and all(i.startswith("smoke-lx-") for i in ids)
    combos = Counter(t.device_combo for t in TASKS)
    two_desktops = sum(n for combo, n in combos.items() if "linuxx2" in combo or combo.count("linux") >= 2)
    assert two_desktops >= 5, combos
    assert sum(1 for t in TASKS if {d.kind for d in t.devices} == {"linux", "smarthome"}) >= 5
    assert sum(1 for t in TASKS if "browser" in t.metadata.apps) >= 8
    suite_ids = {t.id for t in load_suite("smoke")}
    assert set(ids) <= suite_ids


def _run(task: Task, steps: list[Step]) -> tuple[bool, list[str]]:
    failed: list[str] = []
    with CrossDeviceEnv(task) as env:
        env.reset()
        for s in steps:
            out = env.step(s)
            if not out.result.ok:
                failed.append(f"{s.action}: {out.result.message}")
        verdict = env.evaluate()
    return verdict.success, failed + [f"{c.id}: {c.detail}" for c in verdict.conditions if not c.passed]


@pytest.fixture(autouse=True)
def _builtin_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    require_bwrap()
    monkeypatch.setenv("DEVICESWORLD_BROWSER", "builtin")


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_oracle_passes_and_noop_fails(task: Task) -> None:
    ok, problems = _run(task, task.solution)
    assert ok and problems == [], problems
    assert not _run(task, [])[0]
    assert not _run(task, [Step(action="finish")])[0]
