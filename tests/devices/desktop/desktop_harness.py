"""Helpers for desktop tests: skip without the GUI stack (fail with DEVICESWORLD_REQUIRE_SYSTEM=1).

``fresh_desktop`` starts a real desktop over two fresh folders in the test's tmp folder,
owned by the unprivileged user bubblewrap runs as under a root harness.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest

from devicesworld.devices.desktop.client import Desktop, DesktopConfig, missing_stack
from devicesworld.devices.safefs import sandbox_host_ids

REQUIRE_SYSTEM = os.environ.get("DEVICESWORLD_REQUIRE_SYSTEM") == "1"


@cache
def _missing() -> str | None:
    return missing_stack()


def require_gui_stack() -> None:
    why = _missing()
    if why is None:
        return
    if REQUIRE_SYSTEM:
        pytest.fail(f"the GUI desktop stack is required (DEVICESWORLD_REQUIRE_SYSTEM=1): {why}")
    pytest.skip(f"no GUI desktop stack: {why}")


def require_app(binary: str) -> None:
    """Skip without ``binary`` (an app of the GUI desktop); fail instead in CI."""
    if shutil.which(binary) is not None:
        return
    why = f"{binary} is not installed (scripts/system-deps.sh installs it)"
    if REQUIRE_SYSTEM:
        pytest.fail(f"an app of the GUI desktop is required (DEVICESWORLD_REQUIRE_SYSTEM=1): {why}")
    pytest.skip(why)


@contextmanager
def fresh_desktop(root: Path, **config: object) -> Iterator[Desktop]:
    require_gui_stack()
    ids = sandbox_host_ids()
    for folder in (root, *root.parents):
        if folder.stat().st_uid == os.geteuid():
            folder.chmod(folder.stat().st_mode | 0o001)
    home, tmp = root / "home", root / "tmp"
    for p in (home, tmp):
        p.mkdir(parents=True, exist_ok=True)
        if ids:
            os.chown(p, *ids)
    desk = Desktop(DesktopConfig(home=home, tmp=tmp, run_as=ids, **config))
    desk.start()
    try:
        yield desk
    finally:
        desk.close()


MAXIMISE = """
import sys
from Xlib import X, display
from Xlib.protocol import event
d = display.Display()
root = d.screen().root
win = d.create_resource_object("window", int(sys.argv[1]))
state = d.intern_atom("_NET_WM_STATE")
horz, vert = d.intern_atom("_NET_WM_STATE_MAXIMIZED_HORZ"), d.intern_atom("_NET_WM_STATE_MAXIMIZED_VERT")
ev = event.ClientMessage(window=win, client_type=state, data=(32, [1, horz, vert, 1, 0]))
root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
d.sync()
"""


def maximise(desk: Desktop, window_id: int) -> None:
    """Ask the window manager to maximise one X window (what a double click on its title bar asks
    for), through python3-xlib inside the desktop's sandbox."""
    r = desk.run(f"python3 -c '{MAXIMISE}' {window_id}", timeout_s=30, jail=False)
    assert r.exit_code == 0, r
