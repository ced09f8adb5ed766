"""The desktop a person sees: a panel with the application menu, a Home menu, the window list and a
clock on the task's time along the top, and the desktop icons (Home, File System and the files of
``~/Desktop``) on a plain background (issue #34).

Why Xfce's panel and desktop (``xfce4-panel``, ``xfdesktop``, Debian packages of 12 small
libraries): they are GTK 3, so the menu button (``toggle button "Applications"``), the Home menu
and the clock (named by the task's date) are in the element list like any app's controls, and
the file manager, terminal and editor the desktop already has are Xfce's too. Their settings are
two xfconf channels written into every device home (``data/shell/*.xml``); the panel runs on the
task's clock (the desktop's libfaketime environment), so its clock shows the task's date and time.
``launch_app`` stays as a convenience: the menu opens the same apps.

The programs start once per desktop (``Desktop.start_shell``): kept across resets of the apps,
left out of the window list, and apps opened from the menu or an icon count as launched. The file
manager's daemon that the desktop icons start through the session bus is stopped, so the ``files``
app's own launch owns its window. ``DEVICESWORLD_DESKTOP_SHELL=off`` starts a bare desktop (the
screen is then black until an app opens), and a machine without the packages gets one too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from importlib import resources
from pathlib import Path

from devicesworld.devices.desktop.client import Desktop
from devicesworld.devices.desktop.clock import FILE_NAME as CLOCK_FILE
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.messages import ShellProgram, ShellStarted

ICONS = ["xfdesktop"]
PANEL = ["xfce4-panel"]
PROGRAMS = (ICONS, PANEL)
"""The desktop icons and the panel, in start order, on a cold desktop and on a pooled one alike (a
pooled one before its task: the panel's clock is told of the task's clock when the device writes it,
:data:`CLOCK_NUDGER`), so both register with the accessibility bus, and list their elements, alike."""
PACKAGES = "xfce4-panel xfdesktop4"
CONFIG_DIR = ".config/xfce4/xfconf/xfce-perchannel-xml"
CHANNELS = ("xfce4-panel.xml", "xfce4-desktop.xml")
KEEP = ["xfconfd"]
"""The settings daemon the panel and the desktop read their channels from (started by the bus)."""
STOP = ["Thunar"]
"""The file manager's daemon the desktop icons start through the bus; ``launch_app files`` starts its own."""
SWITCH_ENV = "DEVICESWORLD_DESKTOP_SHELL"
OWN_FILES = "/tmp/.dw-shell"
"""Where the shell programs keep their own files (icon positions, caches), outside the home: they
write them at moments that depend on timing, and a home must not (a pooled desktop's home equals a
cold one's; the collateral guard reads the home). Their settings still come from the home's xfconf."""
SHELL_ENV = {
    "XDG_CONFIG_HOME": f"{OWN_FILES}/config",
    "XDG_CACHE_HOME": f"{OWN_FILES}/cache",
    "XDG_DATA_HOME": f"{OWN_FILES}/data",
}
CLOCK_SHOWN = f"{OWN_FILES}/clock-shown"
"""Where the clock's nudger (:data:`CLOCK_NUDGER`) writes the offset it last told the panel about."""
LOGIN_BUS = "unix:path=/tmp/dbus-session"
"""The bus the panel takes for the system bus: the desktop's session bus, where the nudger stands in
for logind (a sandbox has no system bus; the panel only listens there for "woke from sleep")."""
CLOCK_NUDGER = r"""
import os, sys
r, w = os.pipe()
if os.fork():
    os.close(w)
    os.read(r, 1)
    os._exit(0)
os.close(r)
try:
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    name = GLib.Variant("(su)", ("org.freedesktop.login1", 4))
    bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                  "RequestName", name, None, Gio.DBusCallFlags.NONE, -1, None)
finally:
    os.write(w, b"1")
    os.close(w)
path, shown = sys.argv[1], sys.argv[2]
told = [None]

def check(*_):
    try:
        with open(path) as f:
            now = f.read()
    except OSError:
        return
    if now == told[0]:
        return
    told[0] = now
    bus.emit_signal(None, "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                    "PrepareForSleep", GLib.Variant("(b)", (False,)))
    bus.flush_sync(None)
    os.makedirs(os.path.dirname(shown), exist_ok=True)
    with open(shown + ".tmp", "w") as f:
        f.write(now)
    os.replace(shown + ".tmp", shown)

monitor = Gio.File.new_for_path(os.path.dirname(path)).monitor_directory(Gio.FileMonitorFlags.NONE, None)
monitor.connect("changed", check)
check()
GLib.MainLoop().run()
"""
"""Tells the panel's clock to show the time again whenever the task's clock file changes.

Why: the panel's clock redraws once a minute, so a panel started before its task (a pooled
desktop, whose clock file is written only when a device takes it) or a clock the task advances
would show the old time for up to a minute. The clock redraws at once when logind says the
machine woke from sleep (``PrepareForSleep(false)``): the nudger owns logind's name on the
bus the panel takes for the system bus (:data:`LOGIN_BUS`), watches the clock's folder and
says so on every change, then writes what it saw to :data:`CLOCK_SHOWN`. It runs on Debian's
Python (GObject introspection), forks once it owns the name so the panel starts after it, and
has no window, so it adds no element."""
UCA = Path("/etc/xdg/Thunar/uca.xml")
"""The file manager's custom actions, which its daemon copies into the home when it first runs: put
there up front so the home is the same whether or not the daemon got that far."""


def enabled() -> bool:
    """The shell is on unless ``DEVICESWORLD_DESKTOP_SHELL=off`` or its programs are not installed."""
    if os.environ.get(SWITCH_ENV, "").strip().lower() in ("off", "0", "no"):
        return False
    return missing() is None


def missing() -> str | None:
    """Which shell program is not installed here (None: all are)."""
    for argv in PROGRAMS:
        if shutil.which(argv[0]) is None:
            return f"{argv[0]} (apt-get install --no-install-recommends {PACKAGES})"
    return None


def write_config(home: Path, owner: tuple[int, int] | None) -> None:
    """Put the panel's and the desktop's settings into a device home (before its desktop starts)."""
    folder = home / CONFIG_DIR
    folder.mkdir(parents=True, exist_ok=True)
    data = resources.files("devicesworld.devices.linux.gui") / "data" / "shell"
    made = [folder / name for name in CHANNELS]
    for name in CHANNELS:
        target = folder / name
        target.write_bytes((data / name).read_bytes())
        target.chmod(0o644)
    (home / ".local/share").mkdir(parents=True, exist_ok=True)
    made += [home / ".local/share", home / ".local"]
    uca = home / ".config/Thunar/uca.xml"
    if UCA.is_file() and not uca.exists():
        uca.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(UCA, uca)
        uca.chmod(0o644)
        made += [uca, uca.parent]
    if owner is not None:
        for p in (folder, *folder.parents):
            if p == home.parent:
                break
            made.append(p)
        for p in made:
            with contextlib.suppress(OSError):
                os.chown(p, *owner, follow_symlinks=False)


def start(desk: Desktop, env: dict[str, str]) -> ShellStarted | None:
    """Start the desktop icons and the panel on a running desktop (``env``: the task clock's)."""
    if start_icons(desk, env) is None:
        return None
    return start_panel(desk, env)


def start_icons(desk: Desktop, env: dict[str, str]) -> ShellStarted | None:
    """Start the desktop icons (a pooled desktop does it before its task is known)."""
    return _start(desk, ICONS, env)


def start_panel(desk: Desktop, env: dict[str, str]) -> ShellStarted | None:
    """Start the panel, its clock on the task's clock (``env``), and the clock's nudger with it when
    the clock is the task's (:data:`CLOCK_NUDGER`): a pooled desktop starts it before its task."""
    if not env.get("FAKETIME_TIMESTAMP_FILE"):
        return _start(desk, PANEL, env)
    argv = [
        "sh",
        "-c",
        f'env -u LD_PRELOAD python3 -c "$0" {CLOCK_MOUNT}/{CLOCK_FILE} {CLOCK_SHOWN}; exec {" ".join(PANEL)}',
        CLOCK_NUDGER,
    ]
    # the panel reads the clock file at every redraw (libfaketime's cache would keep the old
    # offset for up to two seconds after it changed)
    more = {"DBUS_SYSTEM_BUS_ADDRESS": LOGIN_BUS, "FAKETIME_NO_CACHE": "1"}
    return _start(desk, argv, {**env, **more})


def show_clock(desk: Desktop, tmp: Path, clock_file: Path, timeout_s: float = 5.0) -> bool:
    """Wait until the panel's clock was told of the task's clock file as it is now (``tmp``: the
    sandbox's ``/tmp`` on the host), then until the screen is quiet (its redraw); True if told."""
    if not enabled():
        return False
    try:
        wanted = clock_file.read_text()
    except OSError:
        return False
    shown = tmp / CLOCK_SHOWN.removeprefix("/tmp/")
    end = time.monotonic() + timeout_s
    told = False
    while not told and time.monotonic() < end:
        with contextlib.suppress(OSError):
            told = shown.read_text() == wanted
        if not told:
            time.sleep(0.01)
    desk.settle(quiet_s=0.05, timeout_s=1.0)
    return told


def _start(desk: Desktop, argv: list[str], env: dict[str, str]) -> ShellStarted | None:
    if not enabled():
        return None
    return desk.start_shell([ShellProgram(argv=list(argv), env={**env, **SHELL_ENV})], keep=KEEP, stop=STOP)
