"""A variant played back from a record gets the verdict its full replay gets (tasks/recorded.py).

The shortcut is only worth having if nothing can tell it from the full replay: for every near
miss and correct variant of a few tasks, the played-back run's verdict (success, score, each
condition, the changes listed per device, the failed steps) must equal the full replay's, and
a run that leaves the record must be noticed and replayed in full.
"""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.spec.models import Step, Task
from devicesworld.tasks import validate as v
from devicesworld.tasks.nearmiss import near_misses
from devicesworld.tasks.paraphrase import paraphrases
from devicesworld.tasks.recorded import Recording, playable, recordable
from tests.devices.linux.linux_harness import require_bwrap
from tests.tasks.verdict_tasks import VERDICT_TASKS

TASKS = VERDICT_TASKS


def _verdict(run: Any) -> Any:
    played, failures, _ = run
    if played is None:
        return None
    r = played.result
    conditions = [(c.id, c.passed, c.detail) for c in r.conditions]
    changes = {d: sorted(c) for d, c in played.changes.items()}
    return (r.success, r.score, conditions, played.applicable, changes, failures)


def _recorded_player(task: Task) -> v._Player:
    records = [Recording(task, []), Recording(task, task.solution)]
    assert not v._setup_alone_fails(task, records[0])
    _, problems = v._solution_passes(task, records[1])
    assert not problems
    return v._Player(task, records)


def _compare(task: Task) -> int:
    """Every variant both ways; the number played back (each with the full replay's verdict)."""
    player = _recorded_player(task)
    variants = [(m.steps, m.stray_on, m.output_on) for m in near_misses(task)]
    variants += [(p.steps, None, None) for p in paraphrases(task)]
    for steps, stray_on, output_on in variants:
        before = player.played_back
        quick = player.play(steps, stray_on=stray_on, output_on=output_on)
        if player.played_back > before:
            full = v._play(task, steps, stray_on=stray_on, output_on=output_on)
            assert _verdict(quick) == _verdict(full)
    return player.played_back


@pytest.mark.parametrize("task_id", ["dw-alarm-opens-curtains-0001", "dw-laundry-done-text-0010"])
def test_phone_and_home_variants_played_back_give_the_full_verdict(task_id: str) -> None:
    assert _compare(TASKS[task_id]) >= 2


@pytest.mark.parametrize(
    "task_id",
    ["dw-tidy-before-cleaner-0003", "dw-grocery-list-sync-0002", "dw-delivery-window-household-0009"],
)
def test_desktop_variants_played_back_give_the_full_verdict(task_id: str) -> None:
    require_bwrap()
    assert _compare(TASKS[task_id]) >= 2


def test_devices_that_share_a_service_with_a_live_device_run_live() -> None:
    task = TASKS["dw-delivery-window-household-0009"]  # two phones, a desktop, the home
    assert recordable(task) == ["android_0", "android_1", "linux_0", "smarthome_0"]
    assert recordable(TASKS["dw-movie-night-0013"]) == []  # the home alone: nothing to play back
    everything = {"android_0", "android_1", "linux_0", "smarthome_0"}
    # the phones text each other: one live phone keeps the other live; the drive is watched
    assert playable(task, everything - {"android_0"}) == {"linux_0", "smarthome_0"}
    assert playable(task, everything - {"smarthome_0"}) == everything - {"smarthome_0"}
    assert playable(task, everything - {"linux_0"}) == everything - {"linux_0"}


def test_a_device_the_variant_changes_runs_live() -> None:
    task = TASKS["dw-alarm-opens-curtains-0001"]
    record = Recording(task, task.solution)
    phone = next(s for s in task.solution if s.device == "android_0")
    assert record.covers(task.solution) == {"android_0", "smarthome_0"}
    assert record.covers([*task.solution, phone]) == {"smarthome_0"}
    assert record.covers(task.solution, stray_on="android_0") == {"smarthome_0"}
    assert record.covers(task.solution, output_on=("smarthome_0", "undo")) == {"android_0"}


def test_a_run_that_leaves_the_record_is_noticed() -> None:
    """The same phone steps, but the home's clock moves before them: the phone would see another
    time, so the played-back run diverges and the player replays it in full."""
    task = TASKS["dw-alarm-opens-curtains-0001"]
    player = _recorded_player(task)
    wait = Step(device="smarthome_0", action="advance_time", args={"minutes": 90})
    steps = [wait, *task.solution]
    record = player.records[1]
    assert record.covers(steps) == {"android_0"}
    replay = record.replay({"android_0"})
    v._play(task, steps, kinds=replay.kinds)
    assert replay.diverged()
    before = player.played_back
    quick = player.play(steps)
    assert player.played_back == before
    assert _verdict(quick) == _verdict(v._play(task, steps))
