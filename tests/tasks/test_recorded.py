"""A variant played back from a record gets the verdict its full replay gets (tasks/recorded.py).

The shortcut is only worth having if nothing can tell it from the full replay: for every near
miss and correct variant of a few tasks, the played-back run's verdict (success, score, each
condition, the changes listed per device, the failed steps) must equal the full replay's, and
a run that leaves the record must be noticed and replayed in full.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from devicesworld.spec.models import Step, Task
from devicesworld.tasks import validate as v
from devicesworld.tasks.nearmiss import near_misses
from devicesworld.tasks.paraphrase import paraphrases
from devicesworld.tasks.recorded import Recording, played_back
from tests.devices.linux.linux_harness import require_bwrap

HERE = Path(__file__).parent
TASKS = {
    t.id: t
    for t in (
        Task.model_validate_json(line)
        for line in (HERE / "validate_verdicts_tasks.jsonl").read_text().splitlines()
    )
}


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


def test_desktop_and_home_variants_played_back_give_the_full_verdict() -> None:
    require_bwrap()
    assert _compare(TASKS["dw-tidy-before-cleaner-0003"]) >= 2


def test_only_isolated_devices_run_live() -> None:
    task = TASKS["dw-alarm-opens-curtains-0001"]
    assert played_back(task) == ["android_0"]
    assert played_back(TASKS["dw-movie-night-0013"]) == []  # the home alone: nothing to play back
    assert played_back(TASKS["dw-which-sam-plumber-0004"]) == []  # no isolated device


def test_a_variant_that_changes_a_played_back_device_is_replayed() -> None:
    task = TASKS["dw-alarm-opens-curtains-0001"]
    record = Recording(task, task.solution)
    phone = next(s for s in task.solution if s.device == "android_0")
    other = [*task.solution, phone]
    assert record.covers(task.solution)
    assert not record.covers(other)
    assert not record.covers(task.solution, stray_on="android_0")
    assert record.covers(task.solution, stray_on="smarthome_0")


def test_a_run_that_leaves_the_record_is_noticed() -> None:
    """The same phone steps, but the home's clock moves before them: the phone would see another
    time, so the played-back run diverges and the player replays it in full."""
    task = TASKS["dw-alarm-opens-curtains-0001"]
    player = _recorded_player(task)
    wait = Step(device="smarthome_0", action="advance_time", args={"minutes": 90})
    steps = [wait, *task.solution]
    record = player.records[1]
    assert record.covers(steps)
    replay = record.replay()
    v._play(task, steps, kinds=replay.kinds)
    assert replay.diverged()
    before = player.played_back
    quick = player.play(steps)
    assert player.played_back == before
    assert _verdict(quick) == _verdict(v._play(task, steps))
