"""Ready Linux GUI desktops: a fresh sized home with the template in it and a desktop running over it.

Why: a GUI reset used to make a sized home, copy the template and start a desktop
(1.2 s under load), all on the episode's path. :class:`ReadyDesktop` is all of that done
ahead of time by the shared pool (:mod:`devicesworld.devices.desktop.pool`); a new GUI
device takes one and is ready at once. What a spare cannot know in advance is bound in
when it is taken:

* the task's shared drive: the spare's home is a tmpfs made *shared* in its holder's
  namespace (:func:`devicesworld.devices.homefs.start_home`), so binding the drive over ``home/Drive`` there
  (:meth:`devicesworld.devices.homefs.HomeMount.bind`) reaches the running desktop, whose binds are slaves
  of it;
* the task's local sites: the desktop's proxy port already forwards to a socket in a
  folder of the spare bound at :data:`.sites_relay.SOCKET_DIR`; the device's relay
  listens there once it owns the spare.

A spare is used once, by one device, and closed with it: the home an episode sees is a
template copy nothing has run in except the desktop's own start (openbox's log in
``~/.cache``, which a cold start writes too before the first observation), its desktop
icons and panel (:func:`.shell.start`; the panel's clock is told to show the task's time when
the device writes the task's clock, :data:`.shell.CLOCK_NUDGER`) and, when the
key's last task opened Writer or Calc, LibreOffice started without a file — or on the task's own
document, written into the home, once the key's tasks opened the same one twice in a row
(:mod:`.warm_office`) — which the task's ``open_app`` takes over or the device stops before the
first observation. Pooling
needs what the sized home needs — a root harness with ``unshare``/``nsenter`` — and
bubblewrap; elsewhere :func:`take` returns ``None`` and the device starts cold.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from devicesworld.devices.desktop.client import Desktop, DesktopConfig, DesktopError
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.clock import clock_env, faketime_library, prepare_folder
from devicesworld.devices.desktop.gui import WarmApp
from devicesworld.devices.desktop.pool import (
    ReadySpare,
    WarmPool,
    discarded_on_failure,
    renice_tree,
    spare_wrapper,
    start_desktop,
)
from devicesworld.devices.homefs import start_home
from devicesworld.devices.linux.gui import shell, warm_office
from devicesworld.devices.linux.gui.sites_relay import PROXY_PORT, SOCKET_DIR
from devicesworld.devices.linux.gui.template import copy_template
from devicesworld.devices.linux.limits import default_limits
from devicesworld.devices.linux.sandbox import HOME, bwrap_path, bwrap_problem
from devicesworld.devices.ownership import make_owned_dir, remove_owned
from devicesworld.devices.safefs import SafeRoot, sandbox_host_ids


@dataclass(frozen=True)
class SpareKey:
    """What a spare must match to be given to a device."""

    home_bytes: int
    ids: tuple[int, int]
    hostname: str
    width: int
    height: int
    bwrap: str


class ReadyDesktop(ReadySpare):
    """A started desktop over a fresh template home on its own sized tmpfs (see the module docstring)."""

    warm: WarmApp | None = None
    """LibreOffice started without a file, for the device's session to take over (:mod:`.warm_office`)."""
    preloaded: warm_office.Preloaded | None = None
    """The document ``warm`` was started on, written into the home by the spare (:mod:`.warm_office`)."""

    @property
    def relay_folder(self) -> Path:
        return self.folder / "relay"

    @property
    def clock_folder(self) -> Path:
        """Bound read-only at the clock's mount: the device writes the task's clock here."""
        return self.folder / "clock"


def make_ready(key: SpareKey) -> ReadyDesktop:
    """Start one spare now (called by the pool's background thread); raises on failure."""
    folder = make_owned_dir("dw-gui-spare-")
    try:
        folder.chmod(0o711)  # the sandbox's host user passes through to the relay folder
        relay = folder / "relay"
        relay.mkdir()
        relay.chmod(0o755)
        clock = folder / "clock"
        prepare_folder(clock)  # with the file dates' library the apps preload
        mount, problem = start_home(folder / "store", key.home_bytes, key.ids, shared=True)
        if mount is None:
            raise DesktopError("DESKTOP_FAILED", f"no sized home for a pooled desktop: {problem}")
    except BaseException:
        remove_owned(folder)
        raise
    with discarded_on_failure(folder, mount):
        copy_template(mount.view / "home", key.ids)
        cfg = DesktopConfig(
            home=mount.store / "home",
            tmp=mount.store / "tmp",
            binds=[(relay, SOCKET_DIR)],
            ro_binds=[(clock, CLOCK_MOUNT)],
            width=key.width,
            height=key.height,
            hostname=key.hostname,
            wrapper=[*spare_wrapper(), *mount.nsenter(key.ids)],
            bwrap=key.bwrap,
        )
        desk = start_desktop(cfg, lambda d: d.forward(PROXY_PORT, f"{SOCKET_DIR}/sock"))
        with _lock:
            _starting[key] = desk
            rushed = key in _rushed
        if rushed:  # a device is already waiting for this spare
            _unnice(desk)
        spare = ReadyDesktop(folder, mount, desk)
        library = faketime_library()  # the apps' clock: the file-based offset the device's session passes
        env = clock_env(library) if library else {}
        try:
            shell.start(desk, env)  # the panel's clock follows the clock file the device writes
            home = SafeRoot(mount.view / "home", HOME, owner=key.ids)
            spare.warm, spare.preloaded = warm_office.warm_spare(desk, key, env, home)
        except BaseException:
            desk.close()
            raise
        finally:
            with _lock:
                _starting.pop(key, None)
                _rushed.discard(key)
    return spare


_lock = threading.Lock()
_starting: dict[SpareKey, Desktop] = {}
"""The spare being started per key, once its desktop is up (:func:`_hurry` raises its priority)."""
_rushed: set[SpareKey] = set()
"""Keys a device is waiting on: their spare runs at the device's priority from its desktop's start."""


def _unnice(desk: Desktop) -> None:
    if desk.proc is not None:
        renice_tree(desk.proc.pid, os.getpriority(os.PRIO_PROCESS, 0))


def _hurry(key: SpareKey) -> None:
    """A device waits for the spare of ``key`` being started: it runs at the device's priority now."""
    with _lock:
        _rushed.add(key)
        desk = _starting.get(key)
    if desk is not None:
        _unnice(desk)


POOL: WarmPool[SpareKey, ReadyDesktop] = WarmPool("linux-gui")


def spare_key(hostname: str, width: int, height: int) -> SpareKey | None:
    """The key of a device's spare, or ``None`` where desktops cannot be pooled (see the module docstring)."""
    limits = default_limits()
    ids = sandbox_host_ids()
    found = bwrap_path()
    if not limits.sized_home or ids is None or os.geteuid() != 0 or found is None:
        return None
    if bwrap_problem(found) is not None:
        return None
    return SpareKey(limits.home_bytes, ids, hostname, width, height, found)


def take(hostname: str, width: int, height: int, drive: Path | None) -> ReadyDesktop | None:
    """A ready desktop for a new device, its drive bound in; ``None`` to start cold."""
    key = spare_key(hostname, width, height)
    if key is None:
        return None
    spare = POOL.take(key, make_ready, hurry=_hurry)
    if spare is None:
        return None
    spare.claim()
    try:
        if drive is not None:
            spare.mount.bind(drive, "home/Drive")
    except OSError:
        spare.close()
        return None
    return spare
