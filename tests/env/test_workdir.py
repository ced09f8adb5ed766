"""Work folders are made only when a device asks for one, and removed at close."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceContext, register_kind
from devicesworld.devices.drive import get_drive
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec import Task
from tests.toykind import TOY, ToyDevice, toy_task

SEEN: list[tuple[Path, bool]] = []


def _writer(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> ToyDevice:
    """A toy device that writes into its work folder and onto the shared drive at creation."""
    folder = context.workdir
    SEEN.append((folder, folder.is_dir()))
    (folder / "note.txt").write_text("hello")
    (get_drive(context).root / "shared.txt").write_text("from " + device_id)
    return ToyDevice(device_id, profile, context)


register_kind(dataclasses.replace(TOY, name="writer", factory=_writer))


def _writer_task() -> Task:
    doc = toy_task(id="w")
    doc["devices"] = [{"id": "writer_0", "kind": "writer"}, {"id": "toy_0", "kind": "toy"}]
    return Task.model_validate(doc)


def test_a_task_whose_devices_never_look_makes_no_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = tempfile.mkdtemp

    def counting(*args: Any, **kwargs: Any) -> str:
        made.append("x")
        folder: str = real(*args, **kwargs)
        return folder

    monkeypatch.setattr(tempfile, "mkdtemp", counting)
    env = CrossDeviceEnv(Task.model_validate(toy_task()))
    for _ in range(3):
        env.reset()
        env.step({"device": "toy_0", "action": "press"})
    env.close()
    assert made == []


def test_a_device_that_reads_its_workdir_finds_it_made_and_it_is_removed_at_close() -> None:
    SEEN.clear()
    env = CrossDeviceEnv(_writer_task())
    env.reset()
    folder, existed = SEEN[-1]
    assert existed and folder.name == "writer_0"
    assert (folder / "note.txt").read_text() == "hello"
    assert (folder.parent / "_shared_drive" / "shared.txt").read_text() == "from writer_0"
    env.reset()  # the previous episode's folder goes, a fresh one comes
    second, existed = SEEN[-1]
    assert existed and second != folder and not folder.parent.exists()
    env.close()
    assert not second.parent.exists()


def test_an_explicit_workdir_is_used_and_kept(tmp_path: Path) -> None:
    SEEN.clear()
    with CrossDeviceEnv(_writer_task(), workdir=tmp_path / "wd") as env:
        env.reset()
    assert SEEN[-1][0] == tmp_path / "wd" / "writer_0"
    assert (tmp_path / "wd" / "writer_0" / "note.txt").exists()
