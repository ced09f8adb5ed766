"""Hostile-agent probes from a GUI desktop's terminal: every limit ends in RESOURCE_LIMIT or a capped
result, the desktop answers the next step, nothing outlives its command, the controller cannot be
traced and a forged window does not count. One desktop is shared by the module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld.devices.base import ActionResult
from devicesworld.devices.desktop import actions as a
from devicesworld.devices.desktop.client import Desktop
from devicesworld.devices.desktop.gui import GuiSession
from tests.devices.desktop.desktop_harness import fresh_desktop


@pytest.fixture(scope="module")
def gui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GuiSession]:
    with fresh_desktop(Path(tmp_path_factory.mktemp("jail"))) as desk:
        yield GuiSession(desk, {}, settle_timeout_s=1.0)


def _run(gui: GuiSession, command: str) -> ActionResult:
    return gui.act("run_command", a.RunCommandArgs(command=command, timeout_s=120))


def _answers(gui: GuiSession) -> None:
    r = _run(gui, "echo still-here")
    assert r.ok and r.data["stdout"] == "still-here\n", r


def test_a_2_gib_allocation_is_a_resource_limit(gui: GuiSession) -> None:
    r = _run(gui, "python3 -c 'b = bytearray(2 << 30)'")
    assert not r.ok and r.error_code == "RESOURCE_LIMIT" and "memory" in r.message, r
    _answers(gui)


def test_1000_processes_is_a_resource_limit(gui: GuiSession) -> None:
    spawn = "import os, time\nfor i in range(1000):\n    if os.fork() == 0:\n        time.sleep(100)\n        os._exit(0)"
    r = _run(gui, f"python3 -c '{spawn}'")
    assert not r.ok and r.error_code == "RESOURCE_LIMIT" and "processes" in r.message, r
    _answers(gui)


def test_a_2_gb_file_is_a_resource_limit(gui: GuiSession) -> None:
    r = _run(gui, "head -c 2G /dev/zero > /tmp/big")
    assert not r.ok and r.error_code == "RESOURCE_LIMIT" and "file size" in r.message, r
    _run(gui, "rm -f /tmp/big")
    _answers(gui)


def test_150_mb_of_output_is_capped(gui: GuiSession) -> None:
    r = gui.desktop.run("head -c 150000000 /dev/zero | tr '\\0' a", timeout_s=120)
    assert r.exit_code == 0 and r.cut_bytes > 149_000_000 and "[cut: " in r.stdout
    assert len(r.stdout) < 200_000
    _answers(gui)


def test_a_backgrounded_process_does_not_outlive_its_command(gui: GuiSession) -> None:
    assert _run(gui, "setsid sleep 1000 & sleep 2000 & echo started").ok
    left = _run(gui, "for p in /proc/[0-9]*; do grep -l '^sleep' $p/comm 2>/dev/null; done; echo end")
    assert left.data["stdout"] == "end\n", left


def test_the_controller_cannot_be_traced(gui: GuiSession) -> None:
    probe = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "ctl = [p for p in pids if b'ctl.py' in open(f'/proc/{p}/cmdline', 'rb').read()]\n"
        "got = [libc.ptrace(16, int(p), 0, 0) for p in ctl]\n"
        "print('denied' if ctl and all(g == -1 for g in got) else f'traced {got}')"
    )
    r = gui.desktop.run(argv=["python3", "-c", probe])
    assert r.stdout.strip() == "denied", r


def test_a_forged_window_is_not_launched(gui: GuiSession) -> None:
    forge = (
        "from Xlib import display, X\n"
        "import time\n"
        "d = display.Display()\n"
        "w = d.screen().root.create_window(0, 0, 200, 100, 0, d.screen().root_depth)\n"
        "w.set_wm_name('Forged - Mousepad')\n"
        "w.map(); d.sync(); time.sleep(3)"
    )
    desk: Desktop = gui.desktop
    # the forging process is killed with its command, and while it ran its window was not launched
    r = desk.run(argv=["python3", "-c", forge], timeout_s=30)
    assert r.exit_code == 0, r
    assert not any(w.title == "Forged - Mousepad" for w in gui.owned_windows())
