"""Profile splits: put every device of a split-capable kind on a training or test preset (B-MoCA).

B-MoCA evaluates the same daily tasks on 35 training and 10 test device
configurations. A task here names its device's profile itself; choosing a split
replaces that profile's look by a shipped preset of the split, keeping the fields the
kind names in its :class:`~devicesworld.devices.traits.EnvSplit` (who owns a phone, so
that tasks between phones still address the right numbers). Which kinds have presets
is the kinds' business (``KindTraits.env_split``); nothing here names one.
The choice is deterministic: ``pick_preset(split, key)`` hashes the key, so an
episode gets the same profile whenever it is run again.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Literal

from devicesworld.devices.base import kind_names, traits_of
from devicesworld.devices.traits import EnvSplit
from devicesworld.spec.models import Task

SplitName = Literal["train", "test"]
"""The splits the shipped presets come in."""


def _split_kinds() -> dict[str, EnvSplit]:
    """Every registered kind with profile presets, by name."""
    out: dict[str, EnvSplit] = {}
    for name in kind_names():
        split = traits_of(name).env_split
        if split is not None:
            out[name] = split
    return out


@cache
def _all_presets(kind: str) -> frozenset[str]:
    split = traits_of(kind).env_split
    return frozenset(split.presets(None)) if split is not None else frozenset()


def all_presets() -> list[str]:
    """Every shipped preset of every kind with presets, in a split or not (sorted)."""
    return sorted({p for k in _split_kinds() for p in _all_presets(k)})


def split_presets(split: str, kind: str | None = None) -> list[str]:
    """The shipped presets of a split (of ``kind``, or of every kind with presets); ``ValueError`` when none."""
    kinds = _split_kinds()
    chosen = {kind: kinds[kind]} if kind in kinds else {} if kind is not None else kinds
    names = [p for s in chosen.values() if split in s.splits for p in s.presets(split)]
    if not names:
        known = list(dict.fromkeys(s for k in chosen.values() for s in k.splits)) or ["train", "test"]
        raise ValueError(f"unknown environment split {split!r}; use {' or '.join(repr(k) for k in known)}")
    return names


def pick_preset(split: str, key: str) -> str:
    """A preset of ``split`` chosen by a stable hash of ``key`` (a task id and episode number)."""
    names = split_presets(split)
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return names[int.from_bytes(digest[:8], "big") % len(names)]


def has_presets(task: Task) -> bool:
    """Whether any device of ``task`` is of a kind with profile presets."""
    kinds = _split_kinds()
    return any(d.kind in kinds for d in task.devices)


def with_preset(task: Task, preset: str) -> Task:
    """``task`` with every device of a kind that has ``preset`` on it (kept fields kept); others untouched.

    A preset no kind has goes on every device with presets, whose profile then says the
    name is unknown when the device is made.
    """
    kinds = _split_kinds()
    known = any(preset in _all_presets(k) for k in kinds)
    devices = []
    for dev in task.devices:
        split = kinds.get(dev.kind)
        if split is not None and (preset in _all_presets(dev.kind) or not known):
            kept = {k: v for k, v in dev.profile.items() if k in split.keep}
            dev = dev.model_copy(update={"profile": {"preset": preset, **kept}})
        devices.append(dev)
    return task.model_copy(update={"devices": devices})


def apply_split(task: Task, split: str, key: str) -> Task:
    """``task`` on the preset :func:`pick_preset` chooses for ``key``; a ``bmoca`` task's reference
    solution is recorded again on that profile (other tasks keep theirs)."""
    if not has_presets(task):
        return task
    moved = with_preset(task, pick_preset(split, key))
    from devicesworld.tasks.suites.bmoca import solution_on

    steps = solution_on(moved)
    return moved if steps is None else moved.model_copy(update={"solution": steps})
