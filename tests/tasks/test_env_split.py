"""Profile splits: presets chosen deterministically, applied to every phone, owners kept."""

from __future__ import annotations

import pytest

from devicesworld.spec.models import Condition, DeviceSpec, Evaluation, Task
from devicesworld.tasks.env_split import apply_split, pick_preset, split_presets, with_preset


def _task() -> Task:
    return Task(
        id="two-phones",
        instruction="x",
        devices=[
            DeviceSpec(id="android_0", kind="android", profile={"preset": "ar_tablet", "owner_name": "Kim"}),
            DeviceSpec(id="android_1", kind="android"),
            DeviceSpec(id="smarthome_0", kind="smarthome", profile={"home": "flat"}),
        ],
        evaluation=Evaluation(
            conditions=[Condition(id="c", device="android_0", check="foreground_is", args={"package": "x"})]
        ),
    )


def test_split_sizes_and_errors() -> None:
    assert len(split_presets("train")) == 35 and len(split_presets("test")) == 10
    with pytest.raises(ValueError, match="train"):
        split_presets("dev")


def test_pick_is_deterministic_and_spreads() -> None:
    assert pick_preset("train", "t#0") == pick_preset("train", "t#0")
    assert len({pick_preset("test", f"t#{i}") for i in range(40)}) > 5


def test_with_preset_touches_only_phones_and_keeps_owners() -> None:
    moved = with_preset(_task(), "test_04")
    assert moved.devices[0].profile == {"preset": "test_04", "owner_name": "Kim"}
    assert moved.devices[1].profile == {"preset": "test_04"}
    assert moved.devices[2].profile == {"home": "flat"}


def test_apply_split_leaves_phone_less_tasks_alone() -> None:
    task = _task().model_copy(update={"devices": [_task().devices[2]]})
    assert apply_split(task, "train", "k") is task
