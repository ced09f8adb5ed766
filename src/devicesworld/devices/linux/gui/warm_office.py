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
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Mapping

from devicesworld.devices.desktop.client import Desktop, DesktopError
from devicesworld.devices.desktop.gui import GuiSession, WarmApp
from devicesworld.devices.linux.gui.apps import APPS

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

_hints: dict[Hashable, str] = {}
_lock = threading.Lock()


def note(key: Hashable, app: str | None) -> None:
    """The LibreOffice app a task of ``key`` opened in its setup (``None``: none); spares follow it."""
    with _lock:
        if app in OFFICE_APPS:
            _hints[key] = app
        else:
            _hints.pop(key, None)


def wanted(key: Hashable) -> str | None:
    with _lock:
        return _hints.get(key)


def start(desk: Desktop, app_name: str, env: Mapping[str, str]) -> WarmApp | None:
    """Start ``app_name`` without a file on ``desk`` and wait until it is idle and drawn; ``None`` if it
    did not open its window (it is stopped again)."""
    app = APPS[app_name]
    # the task's clock is written only when a device takes the spare, and the task's file may be
    # handed over a moment later: LibreOffice must read the clock's new offset at once (with
    # libfaketime's one-second cache it loaded the file on the host's date and then, saving it on
    # the task's, asked whether to overwrite a file "changed by others": measured, 5 of 6 replays)
    more = {"FAKETIME_NO_CACHE": "1"} if env.get("FAKETIME_TIMESTAMP_FILE") else {}
    launched = desk.launch(list(app.argv), env={**env, **app.env, **more})
    win = desk.wait_window(
        lambda w: w.mapped and app.window.lower() in (w.app + " " + w.title).lower(), app.start_timeout_s
    )
    if win is None:
        desk.stop_app(launched.pid, list(LEFTOVERS))
        return None
    desk.wait_idle(timeout_s=max(app.start_timeout_s / 2, 5), quiet_s=app.idle_s)
    session = GuiSession(desk, APPS)
    session._wait_tree(app, win.title)
    title = next((w.title for w in desk.windows() if w.id == win.id), win.title)
    return WarmApp(
        app=app_name,
        pid=launched.pid,
        window=win.id,
        title=title,
        shares=tuple(a for a in OFFICE_APPS if a != app_name),
        leftovers=LEFTOVERS,
    )


def warm_spare(desk: Desktop, key: Hashable, env: Mapping[str, str]) -> WarmApp | None:
    """The warm office a new spare of ``key`` should have, started (``None``: none wanted, or it failed)."""
    app = wanted(key)
    if app is None:
        return None
    try:
        return start(desk, app, env)
    except DesktopError:
        return None
