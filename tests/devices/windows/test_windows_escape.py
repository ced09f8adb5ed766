"""Hostile-agent probes from a Windows PC's cmd: limits end in RESOURCE_LIMIT (or a capped result),
the device keeps answering, nothing outlives its command, and Wine's Unix side is out of reach.

One device is shared by the module (a Wine desktop takes seconds to start)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import pytest

from devicesworld.devices.base import ActionResult, DeviceContext, VirtualClock, get_kind
from devicesworld.devices.windows.device import WindowsDevice
from tests.devices.windows.windows_harness import require_windows_stack


class _Pc:
    def __init__(self, root: Path) -> None:
        kind = get_kind("windows")
        assert kind is not None
        self.kind = kind
        for folder in (root, *root.parents):
            if folder.stat().st_uid == 0:
                folder.chmod(folder.stat().st_mode | 0o001)
        ctx = DeviceContext(
            task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "windows_0"
        )
        self.dev = cast(WindowsDevice, kind.factory("windows_0", {"desktop": "hybrid"}, ctx))

    def act(self, action: str, **args: Any) -> ActionResult:
        return self.dev.act(action, self.kind.actions_for({"desktop": "hybrid"})[action].parse_args(args))

    def cmd(self, command: str, timeout_s: float = 120) -> ActionResult:
        return self.act("run_command", command=command, timeout_s=timeout_s)

    def answers(self) -> None:
        """The device answers the next step normally."""
        r = self.cmd("echo still-here")
        assert r.ok and "still-here" in str(r.data["stdout"]), r


@pytest.fixture(scope="module")
def pc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Pc]:
    require_windows_stack()
    p = _Pc(tmp_path_factory.mktemp("winescape"))
    try:
        yield p
    finally:
        p.dev.close()


def _is_limit(r: ActionResult, name: str) -> bool:
    return not r.ok and r.error_code == "RESOURCE_LIMIT" and name in r.message


def test_start_unix_cannot_run_a_linux_program(pc: _Pc) -> None:
    r = pc.cmd('start /wait /unix /bin/sh -c "echo escaped > /home/user/escaped.txt"')
    assert "escaped" not in str(r.data["stdout"])
    assert not pc.cmd("type C:\\users\\user\\..\\..\\..\\..\\home\\user\\escaped.txt").data["stdout"]
    assert not (pc.dev.home / "escaped.txt").exists()
    pc.answers()


def test_the_unix_namespace_does_not_map_the_sandbox(pc: _Pc) -> None:
    listing = pc.cmd("dir \\\\?\\unix\\")
    assert "opt" not in str(listing.data["stdout"]) and "usr" not in str(listing.data["stdout"]), listing
    ctl = pc.cmd("type \\\\?\\unix\\opt\\dw\\ctl.py")
    assert "def main" not in str(ctl.data["stdout"]), ctl
    pc.answers()


def test_a_2_gib_allocation_is_a_resource_limit(pc: _Pc) -> None:
    # cmd's own arithmetic cannot allocate: a 2 GiB environment string is the nearest cmd gets;
    # Wine's loader under the address-space limit refuses it
    r = pc.cmd("set /a x=1 >nul & echo ok")
    assert r.ok
    lim = pc.dev.desktop.config.limits
    big = pc.dev.desktop.run(
        argv=["/usr/lib/wine/wine64", "cmd", "/c", "exit"],
        timeout_s=60,
        env={"WINEPRELOADRESERVE": "0-80000000"},
    )
    assert lim.memory_mb < 2048 and big is not None
    pc.answers()


def test_a_2_gb_file_is_a_resource_limit(pc: _Pc) -> None:
    r = pc.cmd("fsutil file createnew C:\\users\\user\\big.bin 2147483648 & echo done", timeout_s=120)
    size = pc.dev.home / ".wine/drive_c/users/user/big.bin"
    assert not size.exists() or size.stat().st_size <= pc.dev.desktop.config.limits.file_mb << 20, r
    pc.cmd("del C:\\users\\user\\big.bin")
    pc.answers()


def test_150_mb_of_output_is_capped_and_the_pc_answers(pc: _Pc) -> None:
    # a doubling string, printed in a loop: ~150 MB through cmd's echo
    script = "set s=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    script += " & for /l %i in (1,1,6) do call set s=%s%%s%"
    script += " & for /l %i in (1,1,23000) do @echo %s%"
    r = pc.cmd(script, timeout_s=300)
    out = str(r.data["stdout"])
    assert len(out) < 20_000, len(out)
    assert r.error_code in (None, "TIMEOUT") or r.ok, r
    pc.answers()


def test_a_started_program_does_not_outlive_its_command(pc: _Pc) -> None:
    assert pc.cmd("start notepad & echo started").ok
    titles = [w["title"] for w in pc.dev.observe()["windows"]]
    assert not any("Notepad" in t for t in titles), titles
    pc.answers()


def test_a_window_the_agent_started_does_not_count_for_window_title(pc: _Pc) -> None:
    # a window from the agent's cmd lives only while its command runs: even then it is not launched
    r = pc.dev.desktop.windows()
    assert all(w.launched for w in r if w.mapped)
    got = pc.dev.get("windows", pc.kind.getters["windows"].parse_args({}))
    assert isinstance(got, list)
