"""The Windows desktop a person recognises: a taskbar with a Start menu and a clock on the task's
time, and desktop icons for the home folders (issue #34), drawn by our ``dwshell.exe``.

Why our own program: Wine 8's ``explorer /desktop=shell`` taskbar is a Start button only (no clock,
no icons) and puts every app into one X window, which the session's window handling follows per X
window (docs/windows.md). ``dwshell.exe`` (``helper/dwshell.c``) is a small Win32 program: its
windows are in the Win32 tree like any app's, so the element list shows the ``Start`` button, the
clock (a ``Static`` in the ``Shell_TrayWnd``) and the icons (list items of the
desktop's ``SysListView32``), and its windows are shown without activation, so Wine leaves them to
no window manager: they are not in the window list and apps keep the focus.

It starts once per desktop, after the task's clock is written (its clock must show the task's time
from the first screenshot), through the controller's ``start_shell`` (kept across resets of the
apps; apps opened from its menu or icons count as launched). ``DEVICESWORLD_DESKTOP_SHELL=off``
leaves the desktop bare, as on Linux.
"""

from __future__ import annotations

import os

from devicesworld.devices.desktop.client import Desktop
from devicesworld.devices.desktop.messages import ShellProgram

EXE = r"C:\windows\dwshell.exe"
READY = "$HOME/.wine/drive_c/windows/temp/dw-shell.ready"
"""The file the shell writes once its windows are shown (Wine's own folder: not the task's state)."""
SWITCH_ENV = "DEVICESWORLD_DESKTOP_SHELL"


def enabled() -> bool:
    return os.environ.get(SWITCH_ENV, "on").strip().lower() not in ("off", "0", "false", "no")


def start(desk: Desktop, env: dict[str, str], timeout_s: float = 60.0) -> bool:
    """Start the shell on a running desktop (``env``: the task clock's) and wait, bounded, until its
    windows are shown; False when it is off or did not come up (the desktop then stays bare)."""
    if not enabled():
        return False
    # its windows are unmanaged (not in the X client list the controller's wait follows): a short
    # wait there, then the shell's own ready file
    desk.start_shell(
        [ShellProgram(argv=["wine", EXE], env=dict(env), in_server_namespaces=True)], timeout_s=1.0
    )
    ticks = int(timeout_s * 10)
    r = desk.run(
        f'for i in $(seq {ticks}); do [ -e "{READY}" ] && exec python3 -c "$DW_LOWER"; sleep 0.1; done; exit 1',
        timeout_s=timeout_s + 10,
        jail=False,
        env={"DW_LOWER": LOWER},
    )
    return r.exit_code == 0


LOWER = """
from Xlib import X, display
d = display.Display()
n = 0
for w in d.screen().root.query_tree().children:
    try:
        cls = w.get_wm_class() or ()
        if "dwshell.exe" in cls and w.get_wm_name() == "Program Manager":
            w.configure(stack_mode=X.Below)
            n += 1
    except Exception:
        pass
d.sync()
raise SystemExit(0 if n else 1)
"""
"""Put the desktop's X window below every other (once, after it is mapped). Wine maps it on top and
never lowers an X window (it only raises the one on top of the Win32 order, and the desktop stays
at the bottom of that); the window manager keeps app frames just above its own support window,
which the desktop's windows, mapped later, would otherwise cover."""
