"""The task's clock inside a desktop sandbox, through libfaketime.

The phone and the home read the task's :class:`~devicesworld.devices.base.VirtualClock`;
a desktop's programs (``date``, LibreOffice, Chromium, the file manager) read the
kernel's clock, which is the host's. Debian's libfaketime, preloaded into every app
and shell command a desktop starts, moves their clock to the task's: the host writes
an offset in seconds (``+N``/``-N``) to a file in a folder it owns, bound read-only
into the sandbox at :data:`MOUNT`, and libfaketime reads that file
(``FAKETIME_TIMESTAMP_FILE``), so the agent cannot change it and a desktop started
before its task (a pooled one) still follows the task's clock.

Why an offset and not a frozen time: a frozen clock stalls apps that wait on it (a
save that is "not yet due", a cursor that never blinks); with an offset the desktop
starts at the task's start time and ticks with real time. When the task's clock is
advanced, the offset grows so the desktop is at least at the task's new time; it never
moves back (a clock running backwards breaks more apps than one a few minutes ahead).

What is not faked: monotonic clocks (``FAKETIME_DONT_FAKE_MONOTONIC``, so timeouts and
animations keep real time, and ``FAKETIME_FORCE_MONOTONIC_FIX=0``, so a wait on a monotonic
condition variable is not shifted either: with that "fix" on, Chromium's renderers hung), and
libfaketime's own shift of file dates (``NO_FAKE_STAT``: Debian's build shifted what LibreOffice's
``stat`` returned but not Python's or coreutils', so a seeded file showed two dates). The kernel
dates every write by the host's clock; :mod:`.filetimes` moves those dates to the task's clock
(a library preloaded with libfaketime shows them moved at once, and :meth:`DesktopClock.settle_files`
moves them on disk after each action), while seeded files keep their own dates.
Naive task times are read as UTC and the sandbox runs with ``TZ=UTC``, so 09:00 on the
phone is 09:00 on the desktop.
"""

from __future__ import annotations

import glob
import math
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from devicesworld.devices.desktop import filetimes

MOUNT = "/run/dw-clock"
"""Where the offset's folder is bound (read-only) inside a sandbox."""
FILE_NAME = "faketime"
_LIBRARY_PATTERNS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
    "/usr/lib/*/faketime/libfaketimeMT.so.1",
)
DISABLE_ENV = "DEVICESWORLD_DESKTOP_CLOCK"
"""Set to ``host`` to leave desktops on the host's clock."""


def faketime_library() -> str | None:
    """The multi-threaded libfaketime to preload (GUI apps are threaded), or ``None`` if absent."""
    if os.environ.get(DISABLE_ENV, "").strip().lower() == "host":
        return None
    for pattern in _LIBRARY_PATTERNS:
        for found in sorted(glob.glob(pattern)):
            if os.path.isfile(found):
                return found
    return None


def as_utc_seconds(moment: datetime) -> float:
    """Seconds since the epoch; a naive time is read as UTC (the sandbox's zone)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def offset_spec(seconds: float) -> str:
    """libfaketime's relative form: whole seconds with their sign (``+0``, ``-24105600``), rounded up
    so the desktop is never a moment behind the task."""
    whole = math.ceil(seconds)
    return f"+{whole}" if whole >= 0 else str(whole)


def clock_env(library: str) -> dict[str, str]:
    """The environment that puts a process inside the sandbox on the task's clock (with the file
    dates' library first, when this machine built it: :mod:`.filetimes`; its clock folder has it,
    :func:`prepare_folder`)."""
    shim = f"{MOUNT}/{filetimes.SHIM_NAME}" if filetimes.shim_library() is not None else None
    return {
        "LD_PRELOAD": f"{shim}:{library}" if shim else library,
        "NO_FAKE_STAT": "1",
        "FAKETIME_TIMESTAMP_FILE": f"{MOUNT}/{FILE_NAME}",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        "FAKETIME_CACHE_DURATION": "1",
        # libfaketime's "monotonic fix" rewrites condition-variable waits on CLOCK_MONOTONIC as if
        # they were on the faked clock; with the monotonic clock left real it only breaks them
        # (Chromium's renderers then never drew a page, measured): off
        "FAKETIME_FORCE_MONOTONIC_FIX": "0",
        "TZ": "UTC",
    }


def prepare_folder(folder: Path) -> None:
    """Make a clock folder (bound read-only at :data:`MOUNT`) with the file dates' library in it."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    filetimes.install(folder)


class DesktopClock:
    """Keeps one desktop's offset file at the task clock's distance from the host's clock."""

    def __init__(
        self,
        folder: Path,
        start: datetime,
        *,
        library: str | None = None,
        host_now: Callable[[], float] = time.time,
    ) -> None:
        """``folder``: a host folder the harness owns, bound read-only at :data:`MOUNT`."""
        self.folder = folder
        self.library = library if library is not None else faketime_library()
        self._host_now = host_now
        self.offset_s: float | None = None
        self.roots: list[Path] = []
        """The host folders whose files the desktop writes (:meth:`settle_files` walks them)."""
        prepare_folder(folder)
        self.set(start)

    @property
    def path(self) -> Path:
        return self.folder / FILE_NAME

    @property
    def env(self) -> dict[str, str]:
        """The environment of the desktop's apps and commands (empty without libfaketime)."""
        return clock_env(self.library) if self.library else {}

    def pinned_env(self) -> dict[str, str]:
        """The environment of an app whose sandboxed children cannot open the offset file (Chromium's
        renderers): the offset as it is now in ``FAKETIME``, which libfaketime prefers to the file.
        The app ticks on from the task's time but does not follow a later advance."""
        if not self.library or self.offset_s is None:
            return {}
        return {**clock_env(self.library), "FAKETIME": offset_spec(self.offset_s)}

    def set(self, task_now: datetime) -> None:
        """Put the desktop at ``task_now`` now, or leave it where it is if it is already later."""
        wanted = as_utc_seconds(task_now) - self._host_now()
        if self.offset_s is not None and wanted <= self.offset_s:
            return
        self.settle_files()  # what was written under the old offset is dated by it
        self.offset_s = wanted
        tmp = self.folder / f".{FILE_NAME}.tmp"
        tmp.write_text(offset_spec(wanted) + "\n")
        tmp.chmod(0o644)
        os.replace(tmp, self.path)  # one rename: a reader sees the old offset or the new one

    def watch(self, *roots: Path) -> None:
        """Folders whose files :meth:`settle_files` keeps on the task's clock (home, ``/tmp``, drive)."""
        self.roots += [r for r in roots if r not in self.roots]

    def settle_files(self) -> int:
        """Date the files written since the last call by the task's clock (:mod:`.filetimes`); how many
        moved. Nothing moves when the desktop is on the host's clock."""
        if not self.library or self.offset_s is None:
            return 0
        offset = int(offset_spec(self.offset_s))
        return sum(filetimes.redate_tree(root, offset) for root in self.roots)

    def on_advance(self, old: datetime, new: datetime) -> None:
        """A :meth:`VirtualClock.subscribe` listener."""
        self.set(new)

    def desktop_now(self) -> datetime:
        """The time the desktop's programs read now (UTC)."""
        return datetime.fromtimestamp(self._host_now() + (self.offset_s or 0.0), UTC)
