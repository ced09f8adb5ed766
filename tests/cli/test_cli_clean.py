"""``devicesworld clean``: folders of dead owners go, a live owner's stay, a dry run only lists."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.devices import workspace
from devicesworld.devices.ownership import make_owned_dir, remove_owned

HOLDER = """
import sys, time
from devicesworld.devices.ownership import make_owned_dir
print(make_owned_dir("dw-cli-", sys.argv[1]), flush=True)
time.sleep(600)
"""


@pytest.fixture
def roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """An empty work-folder root and temp folder of this test's own."""
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmp.mkdir()
    monkeypatch.setenv("DEVICESWORLD_TMPDIR", str(work))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    workspace.work_root.cache_clear()
    yield work, tmp
    workspace.work_root.cache_clear()


def _dead_folder(root: Path) -> tuple[Path, int]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(root)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    folder = Path(proc.stdout.readline().strip())
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    return folder, proc.pid


def test_clean_removes_only_folders_of_dead_owners(roots: tuple[Path, Path]) -> None:
    work, tmp = roots
    dead_work, pid = _dead_folder(work)
    dead_tmp, _ = _dead_folder(tmp)
    mine = make_owned_dir("dw-live-", str(work))
    try:
        dry = CliRunner().invoke(main, ["clean", "--dry-run"])
        assert dry.exit_code == 0, dry.output
        assert f"would remove {dead_work} (pid {pid}, dead)" in dry.output
        assert "2 folder(s) of dead processes to remove" in dry.output
        assert dead_work.is_dir() and dead_tmp.is_dir()
        done = CliRunner().invoke(main, ["clean", "--json"])
        assert done.exit_code == 0, done.output
        lines = [json.loads(line) for line in done.output.splitlines()]
        assert sorted(x["path"] for x in lines) == sorted([str(dead_work), str(dead_tmp)])
        assert all(x["removed"] for x in lines) and not dead_work.exists() and not dead_tmp.exists()
        assert mine.is_dir()  # alive (this process)
        again = CliRunner().invoke(main, ["clean"])
        assert "0 folder(s) of dead processes removed" in again.output
    finally:
        remove_owned(mine)


def test_caches_go_only_when_asked(
    roots: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from devicesworld import diskcache

    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(diskcache.SWITCH_ENV, raising=False)
    key = diskcache.key_of("clean")
    diskcache.write("worlds", key, b"1")
    (tmp_path / "cache" / "wine").mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["clean"]).exit_code == 0
    assert diskcache.read("worlds", key) == b"1"
    dry = runner.invoke(main, ["clean", "--caches", "--dry-run"])
    assert dry.exit_code == 0 and "would remove cache" in dry.output
    assert "1 cache folder(s) to remove" in dry.output
    assert diskcache.read("worlds", key) == b"1"
    done = runner.invoke(main, ["clean", "--caches"])
    assert done.exit_code == 0, done.output
    assert "1 cache folder(s) removed" in done.output
    assert diskcache.read("worlds", key) is None
    assert (tmp_path / "cache" / "wine").is_dir()  # the Windows prefix is not ours to drop
