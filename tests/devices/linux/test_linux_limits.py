"""Per-sandbox resource limits: each one stops a hostile command with RESOURCE_LIMIT, and the next command runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld.devices.linux.limits import Limits, LimitsError, default_limits, limits_from_env
from devicesworld.devices.linux.sandbox import bwrap_disables_userns, bwrap_path
from tests.devices.linux.linux_harness import Desktop, require_bwrap


def _limit(desk: Desktop, **values: int | float) -> Limits:
    lim = Limits(**values)
    desk.device.sandbox.limits = lim
    return lim


def _count_processes() -> str:
    # globbing is a bash builtin: counting needs no fork, which the limit may refuse
    return "n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo n=$n"


def test_a_fork_bomb_stays_under_the_process_limit(desk: Desktop) -> None:
    _limit(desk, processes=40)
    result = desk.act(
        "run_command",
        command=f"(f(){{ f | f & }}; f) 2>/dev/null; sleep 1; {_count_processes()}",
        timeout_s=60,
    )
    out = str(result.data["stdout"])
    assert "n=" in out, result
    assert int(out.rsplit("n=", 1)[1].split()[0]) <= 40 + 2
    assert desk.sh("echo alive")["stdout"] == "alive\n"  # the bomb died with its command


def test_too_many_processes_is_a_resource_limit(desk: Desktop) -> None:
    _limit(desk, processes=20)
    spawn = "import os, time\nfor i in range(60):\n    if os.fork() == 0:\n        time.sleep(5)\n        os._exit(0)"
    result = desk.act("run_command", command=f"python3 -c '{spawn}'", timeout_s=60)
    assert not result.ok and result.error_code == "RESOURCE_LIMIT", result
    assert "processes" in result.message


def test_allocating_1_5_gib_fails_with_the_default_memory_limit(desk: Desktop) -> None:
    assert Limits().memory_mb < 1536
    desk.device.sandbox.limits = Limits()
    result = desk.act("run_command", command="python3 -c 'b = bytearray(1536 * 1024 * 1024); print(len(b))'")
    assert not result.ok and result.error_code == "RESOURCE_LIMIT", result
    assert "memory" in result.message and "1610612736" not in str(result.data["stdout"])


@pytest.fixture(params=["sized", "watched"])
def small_home(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Desktop]:
    """A desktop created with a 32 MiB home (a sized tmpfs is sized when the device starts)."""
    require_bwrap()
    monkeypatch.setenv("DEVICESWORLD_LIMIT_SIZED_HOME", "1" if request.param == "sized" else "0")
    monkeypatch.setenv("DEVICESWORLD_LIMIT_HOME_MB", "32")
    monkeypatch.setenv("DEVICESWORLD_LIMIT_FILE_MB", "256")
    default_limits.cache_clear()
    d = Desktop(tmp_path)
    try:
        assert d.device.sandbox.limits.home_mb == 32
        yield d
    finally:
        d.close()
        default_limits.cache_clear()


def test_writing_past_the_home_size_is_a_resource_limit(small_home: Desktop) -> None:
    desk = small_home
    result = desk.act(
        "run_command", command="for i in 1 2 3; do head -c 24M /dev/zero > ~/f$i; done", timeout_s=60
    )
    assert not result.ok and result.error_code == "RESOURCE_LIMIT", result
    assert "home size" in result.message
    refused = desk.act("write_file", path="~/more.txt", content="x" * 300_000)
    assert not refused.ok and refused.error_code == "RESOURCE_LIMIT", refused
    assert desk.sh("rm -f ~/f*; echo freed")["stdout"] == "freed\n"  # shrinking is always allowed
    assert desk.act("write_file", path="~/more.txt", content="x" * 1000).ok
    if desk.device.sandbox.home_mount is not None:  # a real tmpfs: the kernel holds the size
        assert "32M" in desk.sh("df -h ~ | tail -1")["stdout"]


def test_a_file_past_the_file_size_limit_is_a_resource_limit(desk: Desktop) -> None:
    _limit(desk, file_mb=1)
    result = desk.act("run_command", command="head -c 2M /dev/zero > ~/big")
    assert not result.ok and result.error_code == "RESOURCE_LIMIT" and "file size" in result.message
    assert (desk.device.sandbox.paths.home / "big").stat().st_size <= 1024 * 1024


def test_a_spinning_command_is_killed_at_its_cpu_limit(desk: Desktop) -> None:
    _limit(desk, cpu_s=1)
    result = desk.act("run_command", command="python3 -c 'while True: pass'", timeout_s=300)
    assert not result.ok and result.error_code == "RESOURCE_LIMIT" and "CPU time" in result.message, result
    result = desk.act("run_command", command="while :; do :; done", timeout_s=300)
    assert not result.ok and result.error_code == "RESOURCE_LIMIT", result


def test_a_command_past_its_wall_clock_timeout_is_killed(desk: Desktop) -> None:
    result = desk.act("run_command", command="sleep 600", timeout_s=1)
    assert not result.ok and result.error_code == "TIMEOUT"


def test_the_command_time_limit_caps_what_a_command_may_ask_for(desk: Desktop) -> None:
    _limit(desk, command_s=1)
    result = desk.act("run_command", command="sleep 600", timeout_s=300)
    assert not result.ok and result.error_code == "TIMEOUT"


def test_a_flooded_cwd_channel_is_ignored(desk: Desktop) -> None:
    desk.sh("mkdir -p ~/work && cd ~/work")
    desk.sh("head -c 131072 /dev/zero | tr '\\0' a | sed 's/^/\\//' > /run/dw-cwd")
    assert desk.device.sandbox.cwd == "/home/user/work"
    desk.sh("printf '/home/user\\n\\x1b[31mfake' > /run/dw-cwd")
    assert desk.device.sandbox.cwd == "/home/user/work"
    assert desk.sh("pwd")["stdout"] == "/home/user/work\n"
    assert desk.device.observe()["cwd"] == "/home/user/work"


def test_no_user_namespaces_inside_the_sandbox(desk: Desktop) -> None:
    path = bwrap_path()
    if path is None or not bwrap_disables_userns(path):
        pytest.skip("this bubblewrap has no --disable-userns (0.8+)")
    result = desk.sh("unshare -U true && echo made-one || echo refused")
    assert result["stdout"].strip().endswith("refused")


def test_limits_come_from_the_environment_with_clear_errors() -> None:
    assert limits_from_env({"DEVICESWORLD_LIMIT_MEMORY_MB": "2048"}).memory_mb == 2048
    assert limits_from_env({}) == Limits()
    with pytest.raises(LimitsError, match="DEVICESWORLD_LIMIT_MEMORY_MB"):
        limits_from_env({"DEVICESWORLD_LIMIT_MEMORY_MB": "lots"})
    with pytest.raises(LimitsError, match="not a known limit"):
        limits_from_env({"DEVICESWORLD_LIMIT_BANANAS": "1"})


def test_the_sized_home_goes_away_when_the_harness_is_killed(tmp_path: Path) -> None:
    require_bwrap()
    script = (
        "import sys, time, pathlib\n"
        "from devicesworld.devices.linux.sandbox import Sandbox\n"
        "sb = Sandbox(pathlib.Path(sys.argv[1]))\n"
        "m = sb.home_mount\n"
        "print(m.pid if m else 'none', flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path / "dev")], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if line == "none":
        proc.kill()
        proc.wait()
        pytest.skip("this host gives no sized home (see Sandbox.home_mount_problem)")
    holder = int(line)
    assert Path(f"/proc/{holder}").exists()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while Path(f"/proc/{holder}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{holder}").exists() or "Z" in Path(f"/proc/{holder}/stat").read_text().split()[2]


def test_a_pooled_home_is_fresh_and_never_shared(tmp_path: Path) -> None:
    require_bwrap()
    from devicesworld.devices import homefs
    from devicesworld.devices.linux.sandbox import Sandbox

    first = Sandbox(tmp_path / "a")
    try:
        if first.home_mount is None:
            pytest.skip(f"no sized home here: {first.home_mount_problem}")
        deadline = time.monotonic() + 60
        key = (first.home_mount.size, first.host_ids)
        while not homefs._POOL.ready.get(key) and time.monotonic() < deadline:  # type: ignore[arg-type]
            time.sleep(0.05)
        second = Sandbox(tmp_path / "b")
        try:
            assert second.home_mount is not None and second.home_mount.owns_store  # taken from the pool
            assert second.home_mount.pid != first.home_mount.pid
            assert first.run("echo first > ~/who.txt").exit_code == 0
            listing = second.run("ls -A ~ /tmp").stdout
            assert "who.txt" not in listing and "Drive" not in listing.split("/tmp:")[1]
        finally:
            second.close()
    finally:
        first.close()
