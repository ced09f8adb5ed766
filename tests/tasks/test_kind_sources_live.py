"""Live: tasks of the kinds' GUI sources built as the full build builds them, each proven on a real desktop.

``build_one`` on a source shard draws the task, records its phone steps and runs
``validate_task`` (the GUI-only reference solution passes on the live desktop, setup alone
and the near misses fail). Skipped without the GUI stack (or Wine), unless
``DEVICESWORLD_REQUIRE_SYSTEM=1``.
"""

from __future__ import annotations

import pytest

from devicesworld.spec.models import Task
from devicesworld.tasks import full
from tests.devices.desktop.desktop_harness import require_gui_stack
from tests.devices.windows.windows_harness import require_windows_stack


def _build(prefix: str) -> tuple[Task | None, full.BuildStats]:
    shard = next(s for s in full.source_shards() if s.prefix == prefix)
    stats = full.BuildStats(seed=full.FULL_SEED)
    return full.build_one(shard, full.FULL_SEED, 0, stats), stats


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["gui-lx-editor-append", "gui-lx-desktop-file-sms"])
def test_a_built_linux_gui_task_is_proven_on_the_live_desktop(prefix: str) -> None:
    require_gui_stack()
    task, stats = _build(prefix)
    assert task is not None, stats.rejected
    assert task.id == f"dw-{prefix}-0000"
    assert stats.built == {f"source:{prefix}": 1} and stats.rejected == {}
    assert task.metadata.split == "train"


@pytest.mark.slow
def test_a_built_windows_task_is_proven_on_wine() -> None:
    require_windows_stack()
    task, stats = _build("gui-win-np-append")
    assert task is not None, stats.rejected
    assert stats.built == {"source:gui-win-np-append": 1}


@pytest.mark.slow
def test_first_match_reads_the_twin_of_a_guarded_gui_task_and_fails_where_the_oracle_passes() -> None:
    """The desktop file holds last month's value above the current one: the first-match baseline
    texts the old one (a declared distractor of the check); the GUI-only reference solution passes."""
    from devicesworld.runner.calibrate import baseline_successes
    from devicesworld.tasks import kind_sources
    from devicesworld.tasks.kind_sources import TaskDraw

    require_gui_stack()
    source = kind_sources.source_by_name("gui-lx-desktop-file-sms")
    task = kind_sources.draw(source, TaskDraw(seed=3, index=0, task_id="dw-gui-lx-desktop-file-sms-0000"))
    twins = [d for c in task.evaluation.conditions for d in c.args.get("distractors") or []]
    assert twins, "the task declares its near-miss value as a distractor"
    done = baseline_successes([task], ["first-match", "oracle"])
    assert done == {"first-match": {task.id: False}, "oracle": {task.id: True}}
