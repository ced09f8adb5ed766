"""Tool mode with a cgroup v2 group per device (where the host delegates one): every command joins it.

This host has no delegated cgroup v2 group, so the group here is a fake one (a folder the
harness writes ``cgroup.procs`` etc. into): what is checked is the wiring — each command's
first process writes its pid into the device's group before ``bwrap`` starts, the command
still runs as the sandbox's user, and the group goes with the device.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld.devices import cgroups
from tests.devices.linux.linux_harness import Desktop, require_bwrap


def test_every_command_joins_the_devices_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_bwrap()
    base = tmp_path / "cg"
    base.mkdir()
    monkeypatch.setattr(cgroups, "host_support", lambda: cgroups.CgroupSupport(base, "fake"))
    desk = Desktop(tmp_path / "dev")
    group = desk.device.sandbox.cgroup
    assert group is not None and group.path.parent == base
    try:
        assert (group.path / "pids.max").read_text() == f"{desk.device.sandbox.limits.sandbox_processes}\n"
        out = desk.sh("id -un; echo ran")
        assert out["exit_code"] == 0 and out["stdout"].split() == ["user", "ran"], out
        joined = (group.path / "cgroup.procs").read_text().split()
        assert len(joined) == 1 and joined[0].isdigit()
    finally:
        for name in ("memory.max", "pids.max", "cgroup.procs", "memory.swap.max"):
            (base / group.path.name / name).unlink(missing_ok=True)  # a real group's files go with it
        desk.close()
    assert not group.path.exists()


def test_without_a_delegated_group_commands_run_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_bwrap()
    monkeypatch.setattr(cgroups, "host_support", lambda: cgroups.CgroupSupport(None, "cgroup v1 only"))
    desk = Desktop(tmp_path / "dev")
    try:
        assert desk.device.sandbox.cgroup is None
        assert desk.sh("echo ran")["stdout"] == "ran\n"
    finally:
        desk.close()
