"""Owned folders: a lock file names the owner; only folders of dead owners are reaped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devicesworld.devices import ownership
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from tests.toykind import toy_task

HOLDER = """
import sys, time
from devicesworld.devices.ownership import make_owned_dir
folder = make_owned_dir("dw-held-", sys.argv[1])
print(folder, flush=True)
time.sleep(600)
"""


def _holder(root: Path) -> tuple[subprocess.Popen[str], Path]:
    """A process that owns a folder under ``root`` and lives until killed."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(root)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, Path(proc.stdout.readline().strip())


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)


def test_the_lock_file_names_the_owner_and_is_held(tmp_path: Path) -> None:
    folder = ownership.make_owned_dir("dw-t-", str(tmp_path))
    try:
        owner = ownership.Owner.model_validate(json.loads((folder / ownership.LOCK_NAME).read_text()))
        assert owner.pid == os.getpid() and owner.process_start == ownership.process_start(os.getpid())
        assert abs(owner.created - time.time()) < 3600
        assert not (folder / (ownership.LOCK_NAME + ".new")).exists()
        assert ownership.reap([tmp_path]) == [] and folder.is_dir()  # ours, and we are alive
    finally:
        assert ownership.remove_owned(folder)
    assert folder not in ownership.held()


def test_a_killed_owners_folder_is_reaped_and_a_live_ones_is_not(tmp_path: Path) -> None:
    dead, dead_folder = _holder(tmp_path)
    alive, alive_folder = _holder(tmp_path)
    try:
        (dead_folder / "home").mkdir()
        (dead_folder / "home" / "big.bin").write_bytes(b"x" * 1000)
        _kill(dead)
        assert dead_folder.is_dir()  # kill -9: nobody cleaned up
        dry = ownership.reap([tmp_path], dry_run=True)
        assert [(r.path, r.removed) for r in dry] == [(str(dead_folder), False)] and dead_folder.is_dir()
        reaped = ownership.reap([tmp_path])
        assert [r.path for r in reaped] == [str(dead_folder)] and reaped[0].removed
        assert reaped[0].owner is not None and reaped[0].owner.pid == dead.pid
        assert not dead_folder.exists() and alive_folder.is_dir()
    finally:
        _kill(alive)
    assert [r.path for r in ownership.reap([tmp_path])] == [str(alive_folder)]


def test_folders_without_a_lock_or_not_named_dw_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / "dw-legacy-x").mkdir()  # no lock file: being made, or from an older version
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / ownership.LOCK_NAME).write_text("{}")
    (tmp_path / "dw-file").write_text("not a folder")
    (tmp_path / "dw-link").symlink_to(tmp_path / "other")
    assert ownership.reap([tmp_path]) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dw-file", "dw-legacy-x", "dw-link", "other"]


def test_an_unreadable_lock_still_means_a_dead_owner_when_it_can_be_taken(tmp_path: Path) -> None:
    folder = tmp_path / "dw-garbled"
    folder.mkdir()
    (folder / ownership.LOCK_NAME).write_text("not json")
    reaped = ownership.reap([tmp_path])
    assert [(r.path, r.owner, r.removed) for r in reaped] == [(str(folder), None, True)]


def test_a_missing_root_is_no_error(tmp_path: Path) -> None:
    assert ownership.reap([tmp_path / "nope"]) == []


def test_owned_folders_must_be_named_dw(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="dw-"):
        ownership.make_owned_dir("mine-", str(tmp_path))


def test_a_run_removes_what_a_killed_run_left_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from devicesworld.devices import workspace

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("DEVICESWORLD_TMPDIR", str(work))
    monkeypatch.setattr(ownership, "default_roots", lambda: [work])
    workspace.work_root.cache_clear()
    try:
        dead, folder = _holder(work)
        _kill(dead)
        outcome = execute_run(
            [Task.model_validate(toy_task())], RunConfig(agent="oracle", source="t"), tmp_path / "run"
        )
    finally:
        workspace.work_root.cache_clear()
    assert not folder.exists()
    assert any(
        f"removed 1 folder(s) left by processes that died (pid {dead.pid})" in w for w in outcome.warnings
    )
    assert [r.success for r in outcome.results] == [True]
