"""Phone profile splits: put every android device of a task on a B-MoCA training or test profile.

B-MoCA evaluates the same daily tasks on 35 training and 10 test device
configurations. A task here names its phone's profile itself; choosing a split
replaces that profile's look (device type, language, theme, wallpaper, icons) by a
shipped preset of the split, keeping who owns the phone (``owner_name``,
``owner_number``) so that tasks between phones still address the right numbers.
The choice is deterministic: ``pick_preset(split, key)`` hashes the key, so an
episode gets the same profile whenever it is run again.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from devicesworld.devices.android.profiles import preset_names
from devicesworld.spec.models import Task

EnvSplit = Literal["train", "test"]
ANDROID = "android"
_KEEP = ("owner_name", "owner_number")


def split_presets(split: str) -> list[str]:
    """The shipped presets of a split (``train``: 35, ``test``: 10); ``ValueError`` for another name."""
    names = preset_names(split)
    if split not in ("train", "test") or not names:
        raise ValueError(f"unknown environment split {split!r}; use 'train' or 'test'")
    return names


def pick_preset(split: str, key: str) -> str:
    """A preset of ``split`` chosen by a stable hash of ``key`` (a task id and episode number)."""
    names = split_presets(split)
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return names[int.from_bytes(digest[:8], "big") % len(names)]


def with_preset(task: Task, preset: str) -> Task:
    """``task`` with every android device on ``preset`` (owner fields kept); other devices untouched."""
    devices = []
    for dev in task.devices:
        if dev.kind == ANDROID:
            kept = {k: v for k, v in dev.profile.items() if k in _KEEP}
            dev = dev.model_copy(update={"profile": {"preset": preset, **kept}})
        devices.append(dev)
    return task.model_copy(update={"devices": devices})


def apply_split(task: Task, split: str, key: str) -> Task:
    """``task`` on the preset :func:`pick_preset` chooses for ``key``; a ``bmoca`` task's reference
    solution is recorded again on that profile (other tasks keep theirs)."""
    if not any(d.kind == ANDROID for d in task.devices):
        return task
    moved = with_preset(task, pick_preset(split, key))
    from devicesworld.tasks.suites.bmoca import solution_on

    steps = solution_on(moved)
    return moved if steps is None else moved.model_copy(update={"solution": steps})
