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
from importlib import resources
from pathlib import Path

from devicesworld.devices.desktop.client import Desktop
from devicesworld.devices.desktop.messages import ShellProgram, ShellStarted

ICONS = ["xfdesktop"]
PANEL = ["xfce4-panel"]
PROGRAMS = (ICONS, PANEL)
"""The desktop icons and the panel, in start order: a pooled desktop starts the icons ahead of its
task (:func:`start_icons`; they read no clock) and the panel, whose clock must show the task's time
from its first frame, once the task's clock is written (:func:`start_panel`); a cold desktop starts
them in the same order, so both register with the accessibility bus, and list their elements, alike."""
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
    """Start the panel (its clock on the task's time: once the task's clock is written)."""
    return _start(desk, PANEL, env)


def _start(desk: Desktop, argv: list[str], env: dict[str, str]) -> ShellStarted | None:
    if not enabled():
        return None
    return desk.start_shell([ShellProgram(argv=list(argv), env={**env, **SHELL_ENV})], keep=KEEP, stop=STOP)
