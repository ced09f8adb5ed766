"""How a Wine desktop is made ready, cold or ahead of time, and the pool of ready ones.

Why: a Windows device's start — prefix copy, desktop, ``wineserver`` and Wine's
services — takes seconds (3.7 s p50 at load 13-17), all on the reset's path. The shared
pool (:mod:`devicesworld.devices.desktop.pool`) keeps a spare :class:`ReadyWindows`
per key: a fresh home with the template prefix and the tree helper in it, on its own
tmpfs (:mod:`devicesworld.devices.homefs`), and the desktop running over it with the
keymap bound and Wine's services up. A new device adopts it; the task's ``N:`` drive,
unknown in advance, is bound in afterwards: the desktop's ``/mnt/drive`` is a bind of
the spare's ``drive/`` folder on a tmpfs that is a *shared* mount in its holder's
namespace, so a bind over that folder made there propagates into the running desktop.

Pooling needs a root harness with ``unshare``/``nsenter`` (as the sized home does);
elsewhere :func:`take` returns ``None`` and the device starts cold, exactly as before.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from devicesworld.devices.desktop.client import Desktop, DesktopConfig, DesktopError
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.clock import prepare_folder
from devicesworld.devices.desktop.pool import ReadySpare, WarmPool, discarded_on_failure, start_desktop
from devicesworld.devices.homefs import start_home
from devicesworld.devices.ownership import make_owned_dir, remove_owned
from devicesworld.devices.safefs import sandbox_host_ids
from devicesworld.devices.windows import prefix
from devicesworld.devices.windows.helper.build import helper_exe, shell_exe
from devicesworld.devices.windows.session import PREBOUND, SERVER_ARGV, desktop_fence

DRIVE_MOUNT = "/mnt/drive"
HOME_BYTES = 1 << 30
"""Size of a pooled spare's tmpfs (home and /tmp); a slim prefix is 12 MB."""


def prepare_home(home: Path, ids: tuple[int, int] | None) -> None:
    """Copy the template prefix, the tree helper and the desktop shell into ``home``; ``N:`` points at the drive's mount."""
    exe = helper_exe()
    prefix.install(prefix.template(), home, ids)
    helper = home / ".wine" / "drive_c" / "windows" / "wintree.exe"
    shutil.copyfile(exe, helper)
    desktop_shell = home / ".wine" / "drive_c" / "windows" / "dwshell.exe"
    shutil.copyfile(shell_exe(), desktop_shell)
    link = home / ".wine" / "dosdevices" / "n:"
    link.symlink_to(DRIVE_MOUNT)
    if ids is not None:
        for place in (helper, desktop_shell, link):
            os.lchown(place, *ids)


def warm_up(desktop: Desktop) -> None:
    """After the desktop starts: bind the keymap, start wineserver and Wine's services."""
    # Wine apps read the keymap when they start and miss some later changes, so
    # the accented letters people type most are bound before any Wine app runs.
    desktop.keys(list(PREBOUND), "up")
    # wineserver and Wine's services up before the first app (a persistent server); their
    # output goes to /dev/null, or the services would hold the reply pipe open
    desktop.launch(list(SERVER_ARGV), env={"DW_NS": "mount"})
    # its socket up before the first client, or that client would start a server of its own
    desktop.run(SERVER_UP, timeout_s=30, jail=False)
    # (not jailed: the services must outlive this command, which is the harness's, not an agent's)
    desktop.run("wine cmd /c exit </dev/null >/dev/null 2>&1", timeout_s=120, jail=False)


SERVER_UP = (
    "for i in $(seq 200); do ls /tmp/*wine-*/server-*/socket >/dev/null 2>&1 && exit 0; sleep 0.1; done"
)


@dataclass(frozen=True)
class SpareKey:
    ids: tuple[int, int]
    hostname: str
    width: int
    height: int
    template: str
    """The template prefix's stamp: a spare made from another Wine or layout is not reused."""


class ReadyWindows(ReadySpare):
    """A running Wine desktop over a fresh home on its own tmpfs (see the module docstring)."""

    @property
    def home(self) -> Path:
        return self.mount.view / "home"

    @property
    def clock_folder(self) -> Path:
        """Bound read-only at the clock's mount: the device writes the task's clock here."""
        return self.folder / "clock"

    @property
    def tmp(self) -> Path:
        return self.mount.view / "tmp"


def make_ready(key: SpareKey) -> ReadyWindows:
    """Start one spare now (the pool's background thread); raises on failure."""
    folder = make_owned_dir("dw-win-spare-")
    try:
        folder.chmod(0o711)
        mount, problem = start_home(folder / "store", HOME_BYTES, key.ids, shared=True)
        if mount is None:
            raise DesktopError("DESKTOP_FAILED", f"no home for a pooled Windows desktop: {problem}")
    except BaseException:
        remove_owned(folder)
        raise
    with discarded_on_failure(folder, mount):
        (mount.view / "home" / "Drive").rmdir()  # a Windows home has no ~/Drive
        drive = mount.view / "drive"
        drive.mkdir()
        os.chown(drive, *key.ids)
        prepare_home(mount.view / "home", key.ids)
        clock = folder / "clock"  # the task's clock, written when a device takes the spare
        prepare_folder(clock)  # with the file dates' library the apps preload
        cfg = DesktopConfig(
            home=mount.store / "home",
            tmp=mount.store / "tmp",
            binds=[(mount.store / "drive", DRIVE_MOUNT)],
            ro_binds=[(clock, CLOCK_MOUNT)],
            width=key.width,
            height=key.height,
            hostname=key.hostname,
            env=dict(prefix.WINE_ENV),
            memory_kind="data",
            fence=desktop_fence(),
            wrapper=mount.nsenter(key.ids),
        )
        desk = start_desktop(cfg, warm_up)
    return ReadyWindows(folder, mount, desk)


POOL: WarmPool[SpareKey, ReadyWindows] = WarmPool("windows")


def spare_key(hostname: str, width: int, height: int) -> SpareKey | None:
    """The key of a device's spare, or ``None`` where Wine desktops cannot be pooled."""
    ids = sandbox_host_ids()
    if ids is None or os.geteuid() != 0 or shutil.which("nsenter") is None:
        return None
    return SpareKey(ids, hostname, width, height, prefix.template().stamp)


def take(hostname: str, width: int, height: int, drive: Path) -> ReadyWindows | None:
    """A ready Wine desktop for a new device with ``drive`` bound at ``N:``; ``None`` to start cold."""
    key = spare_key(hostname, width, height)
    if key is None:
        return None
    spare = POOL.take(key, make_ready)
    if spare is None:
        return None
    try:
        spare.mount.bind(drive, "drive")
    except OSError:
        spare.close()
        return None
    return spare
