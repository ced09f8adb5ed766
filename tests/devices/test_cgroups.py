"""cgroup v2 detection and the per-sandbox group, on fake cgroup trees (no real cgroup needed)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from devicesworld.devices import cgroups
from devicesworld.devices.cgroups import ENV_BASE, SandboxCgroup, detect
from devicesworld.devices.limits import limits_from_env

V1_HYBRID = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / {mount} rw,relatime - cgroup2 cgroup2 rw
"""
V1_ONLY = """\
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
"""


def _host(
    tmp: Path, *, controllers: str, own: str, subtree: str | None, mountinfo: str = V1_HYBRID
) -> dict[str, Path]:
    mount = tmp / "cg"
    mount.mkdir()
    (mount / "cgroup.controllers").write_text(controllers + "\n")
    group = mount / own.lstrip("/")
    group.mkdir(parents=True, exist_ok=True)
    (group / "cgroup.controllers").write_text(controllers + "\n")
    if subtree is not None:
        (group / "cgroup.subtree_control").write_text(subtree + "\n")
    (tmp / "mountinfo").write_text(mountinfo.format(mount=mount))
    (tmp / "cgroup").write_text(f"4:memory:/x\n0::{own}\n")
    return {"mountinfo": tmp / "mountinfo", "proc_cgroup": tmp / "cgroup", "group": group}


def _detect(paths: dict[str, Path], environ: dict[str, str] | None = None) -> cgroups.CgroupSupport:
    return detect(environ=environ or {}, mountinfo=paths["mountinfo"], proc_cgroup=paths["proc_cgroup"])


def test_cgroup_v1_only_falls_back_with_the_reason(tmp_path: Path) -> None:
    paths = _host(tmp_path, controllers="", own="/", subtree=None, mountinfo=V1_ONLY)
    got = _detect(paths)
    assert not got.available and "cgroup v1 only" in got.reason


def test_an_empty_v2_hierarchy_beside_v1_falls_back(tmp_path: Path) -> None:
    # this host: cgroup v1 holds memory and pids, the v2 hierarchy at .../unified has no controllers
    paths = _host(tmp_path, controllers="", own="/", subtree="")
    got = _detect(paths)
    assert not got.available and "without the memory and pids controllers" in got.reason


def test_a_group_that_does_not_enable_the_controllers_for_children_falls_back(tmp_path: Path) -> None:
    paths = _host(tmp_path, controllers="cpu memory pids", own="/user.slice/app.scope", subtree="cpu")
    got = _detect(paths)
    assert not got.available and "memory and pids" in got.reason and ENV_BASE in got.reason


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anything: the not-writable case needs a user")
def test_a_group_not_delegated_to_this_user_falls_back(tmp_path: Path) -> None:
    paths = _host(tmp_path, controllers="memory pids", own="/sys.slice", subtree="memory pids")
    paths["group"].chmod(0o555)
    try:
        got = _detect(paths)
    finally:
        paths["group"].chmod(0o755)
    assert not got.available and "not delegated" in got.reason


def test_a_delegated_group_with_memory_and_pids_is_used(tmp_path: Path) -> None:
    paths = _host(tmp_path, controllers="cpu memory pids", own="/user.slice/dw.scope", subtree="memory pids")
    got = _detect(paths)
    assert got.available and got.base == paths["group"]


def test_the_environment_names_the_delegated_group(tmp_path: Path) -> None:
    paths = _host(tmp_path, controllers="memory pids", own="/", subtree="")
    chosen = paths["group"] / "delegated"
    chosen.mkdir()
    (chosen / "cgroup.subtree_control").write_text("memory pids\n")
    got = _detect(paths, {ENV_BASE: str(chosen)})
    assert got.available and got.base == chosen
    outside = _detect(paths, {ENV_BASE: str(tmp_path / "elsewhere")})
    assert not outside.available and "not a group under" in outside.reason


def test_a_sandbox_group_gets_its_totals_counts_hits_and_is_removed(tmp_path: Path) -> None:
    lim = limits_from_env({"DEVICESWORLD_LIMIT_SANDBOX_MEMORY_MB": "3072"})
    group = SandboxCgroup.create(
        tmp_path, "windows-0", memory_bytes=lim.sandbox_memory_bytes, processes=lim.sandbox_processes
    )
    assert group.path.parent == tmp_path and group.path.name.startswith("dw-windows-0-")
    assert (group.path / "memory.max").read_text() == f"{3072 << 20}\n"
    assert (group.path / "pids.max").read_text() == "1024\n"
    (group.path / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    (group.path / "pids.events").write_text("max 7\n")
    assert group.events() == {"memory": 4, "processes": 7}
    for name in ("memory.max", "pids.max", "memory.events", "pids.events"):
        (group.path / name).unlink()  # a real group's files go with it; the fake's must go first
    group.close()
    assert not group.path.exists()


def test_the_entering_prefix_writes_the_pid_then_runs_the_command(tmp_path: Path) -> None:
    group = SandboxCgroup(tmp_path)
    done = subprocess.run(
        [*group.enter_argv(), "/bin/sh", "-c", "echo $$ ran"], capture_output=True, text=True
    )
    joined = (tmp_path / "cgroup.procs").read_text().split()
    assert done.returncode == 0 and done.stdout.split() == [joined[0], "ran"]  # exec: the same process


def test_without_support_no_group_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cgroups, "host_support", lambda: cgroups.CgroupSupport(None, "cgroup v1 only"))
    assert cgroups.sandbox_cgroup("x", memory_bytes=1 << 30, processes=64) is None


def test_this_host_is_detected_without_error() -> None:
    got = detect()
    assert got.available == (got.base is not None) and got.reason
