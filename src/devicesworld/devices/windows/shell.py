"""The Windows desktop a person recognises: a taskbar with a Start menu and a clock on the task's
time, and desktop icons for the home folders (issue #34), drawn by our ``dwshell.exe``.

Why our own program: Wine 8's ``explorer /desktop=shell`` taskbar is a Start button only (no clock,
no icons) and puts every app into one X window, which the session's window handling follows per X
window (docs/windows.md). ``dwshell.exe`` (``helper/dwshell.c``) is a small Win32 program: its
windows are in the Win32 tree like any app's, so the element list shows the ``Start`` button, the
clock (a ``Static`` in the ``Shell_TrayWnd``) and the icons (list items of the
desktop's ``SysListView32``), and its windows are shown without activation, so Wine leaves them to
no window manager: they are not in the window list and apps keep the focus.

Its windows are unmanaged, so the window manager would let a maximised app cover the taskbar: a
second shell program, :data:`STRUT` (python3-xlib, as :data:`LOWER`), holds a 1-pixel X dock window
in the taskbar's colour whose strut reserves the taskbar's strip, as a real panel's does, so openbox
maximises windows above it (and ``_NET_WORKAREA``, which Wine reads for the work area, leaves it out).
The same program keeps the desktop's X window below every app's, whatever Wine raises (see
:data:`STRUT`).

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
TASKBAR_HEIGHT = 36
"""Pixels of the taskbar along the bottom (``BAR_H`` in ``helper/dwshell.c``)."""
TASKBAR_PIXEL = 0x20242A
"""The taskbar's grey (``BAR_GREY`` in ``helper/dwshell.c``) as a 24-bit X pixel."""
DESKTOP_PIXEL = 0x1E5A96
"""The desktop's blue (``DESKTOP_BLUE`` in ``helper/dwshell.c``) as a 24-bit X pixel."""


def enabled() -> bool:
    return os.environ.get(SWITCH_ENV, "on").strip().lower() not in ("off", "0", "false", "no")


def start(desk: Desktop, env: dict[str, str], timeout_s: float = 60.0) -> bool:
    """Start the shell on a running desktop (``env``: the task clock's) and wait, bounded, until its
    windows are shown; False when it is off or did not come up (the desktop then stays bare)."""
    if not enabled():
        return False
    # its windows are unmanaged (not in the X client list the controller's wait follows): a short
    # wait there, then the shell's own ready file
    strut = ShellProgram(argv=["python3", "-c", STRUT, str(TASKBAR_HEIGHT), str(TASKBAR_PIXEL)])
    desk.start_shell(
        [strut, ShellProgram(argv=["wine", EXE], env=dict(env), in_server_namespaces=True)], timeout_s=1.0
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


STRUT = """
import os, select, sys
from Xlib import X, Xatom, Xutil, display, error
from Xlib.protocol import event
height, pixel = int(sys.argv[1]), int(sys.argv[2])
d = display.Display()
s = d.screen()
root = s.root
root.change_attributes(event_mask=X.SubstructureNotifyMask)
w = root.create_window(0, s.height_in_pixels - 1, 1, 1, 0, s.root_depth, X.InputOutput,
                       X.CopyFromParent, background_pixel=pixel)
w.set_wm_name("taskbar strut")
w.set_wm_class("dwstrut", "dwstrut")
w.set_wm_hints(flags=Xutil.InputHint, input=0)
w.set_wm_normal_hints(flags=Xutil.USPosition | Xutil.USSize, x=0, y=s.height_in_pixels - 1,
                      width=1, height=1)
atom = d.intern_atom
w.change_property(atom("_NET_WM_WINDOW_TYPE"), Xatom.ATOM, 32, [atom("_NET_WM_WINDOW_TYPE_DOCK")])
w.change_property(atom("_NET_WM_STRUT"), Xatom.CARDINAL, 32, [0, 0, 0, height])
w.change_property(atom("_NET_WM_STRUT_PARTIAL"), Xatom.CARDINAL, 32,
                  [0, 0, 0, height, 0, 0, 0, 0, 0, 0, 0, s.width_in_pixels - 1])
w.map()
d.sync()
request = os.path.join(os.environ["HOME"], ".wine/drive_c/windows/temp/dw-activate")
active = atom("_NET_ACTIVE_WINDOW")
desk = None


def find_desktop():
    for c in root.query_tree().children:
        try:
            if "dwshell.exe" in (c.get_wm_class() or ()) and c.get_wm_name() == "Program Manager":
                return c
        except error.XError:
            pass
    return None


def keep_desktop_down():
    global desk
    try:
        desk = desk or find_desktop()
        if desk is None:
            return
        below = []
        for c in root.query_tree().children:
            if c.id == desk.id:
                break
            below.append(c)
        if any(c.get_attributes().map_state == X.IsViewable for c in below):
            desk.configure(stack_mode=X.Below)
            d.sync()
    except error.XError:
        desk = None


while True:
    changed = False
    while d.pending_events():
        changed = d.next_event().type in (X.ConfigureNotify, X.MapNotify, X.CreateNotify) or changed
    if changed:
        keep_desktop_down()
    try:
        with open(request) as f:
            xid = int(f.read().strip() or 0)
        os.unlink(request)
    except (OSError, ValueError):
        xid = 0
    if xid:
        target = d.create_resource_object("window", xid)
        ask = event.ClientMessage(window=target, client_type=active, data=(32, [2, X.CurrentTime, 0, 0, 0]))
        root.send_event(ask, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        d.flush()
    select.select([d.fileno()], [], [], 0.05)
"""
"""The taskbar's X side: a dock window (1 pixel, in the bottom-left corner of the taskbar, in its
colour) whose ``_NET_WM_STRUT_PARTIAL`` reserves the bottom ``height`` pixels, living as long as this
program, a shell program (not in the window list, kept across resets of the apps); and the window
manager's activation of the window a taskbar button names (``dwshell.exe`` writes its X id to
``dw-activate`` in Wine's temp folder; this asks openbox as a pager does: ``_NET_ACTIVE_WINDOW``,
source 2), since the Win32 taskbar cannot move the X focus itself.

It also keeps the desktop's X window at the bottom of the X stack, for good (session 49): when the
last app window closes (Alt+F4), Wine activates the desktop ("Program Manager") and raises its X
window above everything -- an X raise no ``WM_WINDOWPOSCHANGING`` sees, as the Win32 order keeps it
at the bottom -- and the window manager stacks the next app's frame below it, so the screenshot
showed only the desktop while the element list named the app focused, and clicks on the app landed
on the desktop. So this program watches the root's children (``SubstructureNotify``) and, whenever
a mapped window sits below the desktop's, lowers the desktop again (:data:`LOWER`'s move, done for
every restack rather than once)."""
