"""A forged window does not satisfy ``window_title``, with the forging process alive while the check runs.

The hostile path: the agent opens the desktop's terminal (an app the device launched) and
runs a python3-xlib script there that maps a window titled as the task expects and then
waits. A ``run_command`` cannot do it (its tree dies with the command, and the controller
answers one request at a time, so no check runs while a command does); the terminal keeps
the forger alive for as long as it likes. The check must still fail: a window counts only
if the X server says its owner is in the session of an app the device launched.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld.devices.linux.device import LinuxDevice
from tests.devices.desktop.desktop_harness import require_app, require_gui_stack
from tests.devices.linux.test_linux_gui import GuiDesk

FORGED = "Forged notes.txt - Mousepad"
# (without the task clock's libfaketime, under which python3-xlib's connect fails with EINVAL: an
# agent can unset LD_PRELOAD as easily)
FORGE = (
    'env -u LD_PRELOAD python3 -c "from Xlib import display; import time; d = display.Display(); s = d.screen(); '
    "w = s.root.create_window(0, 0, 400, 200, 0, s.root_depth); "
    f"w.set_wm_name('{FORGED}'); w.map(); d.sync(); time.sleep(300)\"\n"
)


@pytest.fixture
def gui(tmp_path: Path) -> Iterator[GuiDesk]:
    require_gui_stack()
    require_app("xfce4-terminal")
    desk = GuiDesk(tmp_path)
    yield desk
    desk.device.close()


def _forged_window_shown(device: LinuxDevice, timeout_s: float = 90.0) -> bool:
    """Wait until the forged window is mapped on the screen (every window, not only launched ones)."""
    assert device.gui is not None
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if any(w.mapped and w.title == FORGED for w in device.gui.session.desktop.windows()):
            return True
        time.sleep(0.5)
    return False


def test_a_window_forged_from_the_terminal_does_not_satisfy_window_title(gui: GuiDesk) -> None:
    gui.ok("launch_app", app="terminal")
    gui.ok("type_text", text=FORGE)
    assert _forged_window_shown(gui.device), "the forging script did not map its window"
    # the forger is alive and its window is on screen while the checks run
    present = gui.check("window_title", contains="Forged notes.txt")
    assert not present.passed, present.detail
    absent = gui.check("window_title", contains="Forged notes.txt", present=False)
    assert absent.passed, absent.detail
    assert FORGED not in [w["title"] for w in gui.get("windows")]
    assert _forged_window_shown(gui.device, timeout_s=1), "the forger died before the checks ran"
    # a window of an app the device launched does count (the check is not simply blind)
    gui.ok("launch_app", app="text_editor")
    shown = gui.check("window_title", contains="Mousepad")
    assert shown.passed, shown.detail


def test_a_title_the_agent_prints_in_the_terminal_does_not_count(gui: GuiDesk) -> None:
    # any program in the launched terminal sets the terminal's own title with an escape sequence
    gui.ok("launch_app", app="terminal")
    gui.ok("type_text", text="printf '\\033]0;Forged notes.txt - Mousepad\\007'; sleep 300\n")
    assert gui.device.gui is not None
    desktop = gui.device.gui.session.desktop
    end = time.monotonic() + 60
    while time.monotonic() < end and not any(
        w.launched and FORGED in w.title for w in desktop.windows()
    ):  # the launched terminal now carries the forged title ("Terminal - Forged notes.txt - Mousepad")
        time.sleep(0.5)
    assert any(w.launched and FORGED in w.title for w in desktop.windows())
    got = gui.check("window_title", contains="Forged notes.txt")
    assert not got.passed, got.detail
