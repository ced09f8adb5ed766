"""LibreOffice kept warm in a pooled desktop, so that a task opening Writer or Calc resets in a blink.

Why: LibreOffice's start is most of a GUI reset with a document open (4-12 s loaded: the
process start, then the wait until it stops dropping keys). A pooled desktop
(:mod:`.pool`) starts it ahead of time, as a launch without a file does — its empty
"Untitled 1" document, idle and drawn — and the task's ``open_app`` hands it the task's
file; LibreOffice loads a file into the window of an untouched empty document, replacing
it, so the task sees the window a cold start shows (same window box, title, a document
with no undo history and no modified flag, no recent files but the task's own, the next
new document again "Untitled 1"). See :class:`~devicesworld.devices.desktop.gui.WarmApp`.

Which module to warm is learnt per pool key: the LibreOffice app the last task's setup
opened (:func:`note`), read when a spare's desktop is up (:func:`wanted`); a family's
tasks follow one another, so after its first task every spare is warm with the right
module. A spare warmed for nothing (the task opened no LibreOffice, or the other module)
stops it before the task's first observation or before the other module starts cold,
and removes what the killed process leaves (its profile lock, temp folders, IPC pipe).

**The task's own document, pre-opened** (issue #38: a Writer or Calc reset under 1 s). Loading a
file into LibreOffice's window is itself 1.0-1.2 CPU-s (its view, toolbars, layout), so a swap
into the empty document cannot make a reset fast on two cores. When a key's tasks open the same
document twice in a row — a task replayed: ``tasks validate``'s plays, repeated trials, a
benchmark — the pool learns that document (path, bytes, mode, date: :class:`Document`) and a
spare writes it into its home and starts LibreOffice on it exactly as the task's ``open_app``
would (the cold start itself, done ahead of time: the same window, box, title, focus, profile).
The task's setup then writes its file again (same bytes, a new file): the device gives it the
date LibreOffice read (or a save would ask about a file "changed by others") and the launch
adopts the window (:meth:`~devicesworld.devices.desktop.gui.GuiSession._launch`). Anything else
— another file, other bytes, the setup not writing it — stops that LibreOffice, removes the
file if the setup did not write its own, its lock file and the profile it changed
(:func:`undo_preload`), and the launch is a cold one; the next spares go back to an empty
document until a document repeats again, so a run of different tasks never pays for a guess.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import stat
import threading
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from devicesworld.devices.desktop.client import Desktop, DesktopError
from devicesworld.devices.desktop.gui import GuiSession, WarmApp
from devicesworld.devices.linux.gui.apps import APPS
from devicesworld.devices.linux.gui.template import template_home
from devicesworld.devices.linux.sandbox import HOME
from devicesworld.devices.safefs import FsError, RootedPath, SafeRoot

OFFICE_APPS = ("writer", "calc")
"""The apps one LibreOffice process serves (a launch of either goes to the running one)."""
LEFTOVERS = (
    "/home/user/.config/libreoffice/4/.lock",
    "/tmp/lu*.tmp",
    "/tmp/OSL_PIPE_*_SingleOfficeIPC_*",
    "/home/user/.cache/fontconfig",
)
"""What a killed LibreOffice leaves in the sandbox (a clean quit removes the first three itself; the
font cache it writes at its start stays, and a home whose task never opened LibreOffice has none)."""

PRELOAD_AFTER = 2
"""Tasks in a row of one key that opened the same document before spares pre-open it (a replay)."""
MAX_PRELOAD_BYTES = 16 << 20
"""A larger document is not pre-opened (task documents are kilobytes; a spare holds its copy)."""
FRESH_WRITE_NS = 60 * 1_000_000_000
"""A document is learnt only if its date is the host's clock within this (the setup wrote it now)."""
DATE_DRIFT_NS = 5 * 1_000_000_000
"""How far the adopted file's date may be from the one the setup gave it (see :func:`dates_agree`)."""
PROFILE = ".config/libreoffice"
"""LibreOffice's user profile in the home (its recent documents and window state change as it runs)."""


@dataclass(frozen=True)
class Document:
    """The file a task's setup opened in LibreOffice, as the setup left it."""

    path: str
    """Its absolute sandbox path, under the home."""
    data: bytes
    mode: int
    mtime_ns: int
    """Its date as the desktop's apps see it (the host's date shifted by the task clock's offset)."""

    def same_file(self, other: Document) -> bool:
        """The same path, bytes and mode (a setup's write dates its file by the host's clock: not compared)."""
        return (self.path, self.mode, self.data) == (other.path, other.mode, other.data)


@dataclass(frozen=True)
class Preloaded:
    """A document a spare wrote into its home and opened: what the device checks the setup's against."""

    document: Document
    ino: int
    ctime_ns: int
    """The spare's own file (a setup that writes the path makes a new one)."""
    folders: tuple[tuple[str, int], ...] = ()
    """Folders the spare made for it (relative to the home, with their inode), outermost first."""


@dataclass(frozen=True)
class _Hint:
    app: str
    document: Document | None
    seen: int
    """Tasks in a row that opened ``document`` (1: the last one only)."""


_hints: dict[Hashable, _Hint] = {}
_lock = threading.Lock()


def note(key: Hashable, app: str | None, document: Document | None = None) -> None:
    """The LibreOffice app a task of ``key`` opened in its setup (``None``: none), and on which
    document; spares follow it. Call once per task."""
    with _lock:
        if app not in OFFICE_APPS:
            _hints.pop(key, None)
            return
        prev = _hints.get(key)
        repeated = (
            prev is not None
            and prev.app == app
            and prev.document is not None
            and document is not None
            and prev.document.same_file(document)
        )
        _hints[key] = _Hint(app, document, prev.seen + 1 if repeated and prev is not None else 1)


def wanted(key: Hashable) -> str | None:
    with _lock:
        hint = _hints.get(key)
        return hint.app if hint is not None else None


def wanted_document(key: Hashable) -> Document | None:
    """The document a new spare of ``key`` pre-opens: the last task's, once it repeated."""
    with _lock:
        hint = _hints.get(key)
        return hint.document if hint is not None and hint.seen >= PRELOAD_AFTER else None


def read_document(place: RootedPath, path: str, shift_ns: int) -> Document | None:
    """The regular file at ``place`` (sandbox path ``path``) as a :class:`Document`, dated as apps on a
    clock ``shift_ns`` from the host's see it; ``None`` when it is not one a spare can pre-open
    (outside the home, missing, a link, too large)."""
    if place.root.shown != HOME or not place.rel:
        return None
    try:
        with place.root.open_read(place.rel) as (fd, st, _):
            if st.st_size > MAX_PRELOAD_BYTES or st.st_nlink != 1:
                return None
            data = os.pread(fd, st.st_size + 1, 0)
            if len(data) != st.st_size:
                return None
            return Document(path, data, stat.S_IMODE(st.st_mode), st.st_mtime_ns + shift_ns)
    except (FsError, OSError):
        return None


def _rel(document: Document) -> str:
    return document.path[len(HOME) + 1 :]


def preload(home: SafeRoot, document: Document) -> Preloaded | None:
    """Write ``document`` into a spare's ``home`` (bytes, mode, date; its folders made as a setup's
    write makes them); ``None`` if it cannot be (something already there). A spare's apps run on
    the host's clock until a device writes the task's (no offset file yet): the date is the shown one."""
    rel = _rel(document)
    folders = rel.split("/")[:-1]
    made: list[str] = []
    for i in range(1, len(folders) + 1):
        sub = "/".join(folders[:i])
        st = home.lstat(sub)
        if st is None:
            made.append(sub)
        elif not stat.S_ISDIR(st.st_mode):
            return None
    if home.lstat(rel) is not None:
        return None
    if made:
        home.mkdir("/".join(folders))
    home.write_bytes(rel, document.data, parents=False)
    with home.open_read(rel) as (fd, _, _):
        os.fchmod(fd, document.mode)
        os.utime(fd, ns=(document.mtime_ns, document.mtime_ns))
        st = os.fstat(fd)
    folder_ids = []
    for sub in made:
        found = home.lstat(sub)
        if found is not None:
            folder_ids.append((sub, found.st_ino))
    return Preloaded(document, st.st_ino, st.st_ctime_ns, tuple(folder_ids))


def rewritten(place: RootedPath, preloaded: Preloaded) -> bool:
    """The setup wrote its own file at the pre-opened path (not the spare's file left as it was)."""
    st = place.root.lstat(place.rel)
    return st is not None and (st.st_ino, st.st_ctime_ns) != (preloaded.ino, preloaded.ctime_ns)


def dates_agree(written: Document, preloaded: Document) -> bool:
    """The setup's file can take the pre-opened one's date (:func:`take_preloaded`) without a date a
    cold start would not give. Both are dates as the task's apps see them: the task's start plus the
    moment the setup wrote the file after the clock was set, so the two differ by how much longer one
    setup took than the other (under a second); a file the setup dates itself (a world's file) would
    move by the time between the two resets, and is not adopted."""
    return abs(written.mtime_ns - preloaded.mtime_ns) <= DATE_DRIFT_NS


def take_preloaded(place: RootedPath, preloaded: Preloaded, shift_ns: int) -> None:
    """The setup's file (the same bytes as the pre-opened one) gets the date LibreOffice read when it
    opened the spare's, as LibreOffice sees it now on the task's clock (``shift_ns`` from the host's:
    libfaketime shifts the dates ``stat`` gives it): a save compares the file's date with the one
    read at load, and asks before overwriting a file "changed by others" when they differ."""
    with place.root.open_read(place.rel) as (fd, st, _):
        os.utime(fd, ns=(st.st_atime_ns, preloaded.document.mtime_ns - shift_ns))


def remove_preloaded(home: SafeRoot, preloaded: Preloaded) -> None:
    """Remove the spare's file if the setup did not write its own there, and the folders the spare
    made for it if nothing else went in."""
    with contextlib.suppress(FsError, OSError):
        if not rewritten(RootedPath(home, _rel(preloaded.document)), preloaded):
            home.remove(_rel(preloaded.document))
    for sub, ino in reversed(preloaded.folders):
        with contextlib.suppress(FsError, OSError):
            st = home.lstat(sub)
            if st is not None and st.st_ino == ino and not home.listdir(sub):
                home.remove(sub)


def undo_preload(home: SafeRoot, preloaded: Preloaded, owner: tuple[int, int] | None) -> None:
    """After the pre-opened LibreOffice is stopped: remove what the spare wrote for it
    (:func:`remove_preloaded`) and put back the template's LibreOffice profile (the stopped instance
    listed the file among its recent documents), so the cold start that follows is a cold start's."""
    remove_preloaded(home, preloaded)
    profile = home.root / PROFILE
    shutil.rmtree(profile, ignore_errors=True)
    src = template_home() / PROFILE
    if src.is_dir():
        shutil.copytree(src, profile, symlinks=True)
        if owner is not None:
            for p in (profile, *profile.rglob("*")):
                with contextlib.suppress(OSError):
                    os.chown(p, *owner, follow_symlinks=False)


def start(
    desk: Desktop, app_name: str, env: Mapping[str, str], document: str | None = None
) -> WarmApp | None:
    """Start ``app_name`` on ``desk`` without a file (or on the sandbox path ``document``, as a task's
    ``open_app`` does) and wait until it is idle and drawn; ``None`` if it did not open its window (it
    is stopped again)."""
    app = APPS[app_name]
    leftovers: tuple[str, ...] = LEFTOVERS
    if document is not None:
        folder, _, name = document.rpartition("/")
        leftovers = (*LEFTOVERS, f"{glob.escape(folder)}/{glob.escape(f'.~lock.{name}#')}")
    # the task's clock is written only when a device takes the spare, and the task's file may be
    # handed over a moment later: LibreOffice must read the clock's new offset at once (with
    # libfaketime's one-second cache it loaded the file on the host's date and then, saving it on
    # the task's, asked whether to overwrite a file "changed by others": measured, 5 of 6 replays)
    more = {"FAKETIME_NO_CACHE": "1"} if env.get("FAKETIME_TIMESTAMP_FILE") else {}
    argv = [*app.argv, *([document] if document is not None else [])]
    launched = desk.launch(argv, env={**env, **app.env, **more})
    win = desk.wait_window(
        lambda w: w.mapped and app.window.lower() in (w.app + " " + w.title).lower(), app.start_timeout_s
    )
    if win is None:
        desk.stop_app(launched.pid, list(leftovers))
        return None
    desk.wait_idle(timeout_s=max(app.start_timeout_s / 2, 5), quiet_s=app.idle_s)
    session = GuiSession(desk, APPS)
    session._wait_tree(app, win.title, win=win.id)
    # one read as the task's first observation makes it: the controller's cache is then filled
    b = session.budget
    desk.tree(budget_s=b.budget_s, max_nodes=b.max_nodes, max_children=b.max_children, max_cells=b.max_cells)
    title = next((w.title for w in desk.windows() if w.id == win.id), win.title)
    return WarmApp(
        app=app_name,
        pid=launched.pid,
        window=win.id,
        title=title,
        shares=tuple(a for a in OFFICE_APPS if a != app_name),
        leftovers=leftovers,
        document=document,
    )


def warm_spare(
    desk: Desktop, key: Hashable, env: Mapping[str, str], home: SafeRoot
) -> tuple[WarmApp | None, Preloaded | None]:
    """The warm office a new spare of ``key`` should have, started (``None``: none wanted, or it
    failed), and the document it pre-opened from ``home`` (the spare's home), if any."""
    app = wanted(key)
    if app is None:
        return None, None
    document = wanted_document(key)
    preloaded = None
    if document is not None:
        with contextlib.suppress(FsError, OSError):
            preloaded = preload(home, document)
    try:
        warm = start(desk, app, env, preloaded.document.path if preloaded is not None else None)
    except DesktopError:
        warm = None
    if warm is None and preloaded is not None:
        undo_preload(home, preloaded, home.owner)
        preloaded = None
    return warm, preloaded
