"""Getters: JSON views of a phone's state for verifiers (never shown to agents), each declared on its handler."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps import music
from devicesworld.devices.android.storage import Storage
from devicesworld.devices.base import Args, DeviceError, NoArgs
from devicesworld.devices.declare import GetterTable
from devicesworld.devices.safefs import FsError

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice


class PathArgs(Args):
    path: str = Field(min_length=1)
    location: Literal["sdcard", "drive"] = "sdcard"


class FolderArgs(Args):
    location: Literal["sdcard", "drive"] = "sdcard"


MAX_FILE_BYTES = 16 * 1024 * 1024
"""The ``file`` getter reads at most this much (a bigger file is reported by size)."""


GETTERS: GetterTable[AndroidDevice] = GetterTable("android")


def _of_storage(read: Callable[[Storage], object]) -> Callable[[AndroidDevice, NoArgs], object]:
    """A getter that is one read of the phone's storage (a content provider or settings.db)."""

    def getter(d: AndroidDevice, args: NoArgs) -> object:
        return read(d.storage)

    return getter


for _name, _doc, _read in (
    ("sms", "Every SMS: address, body, box (inbox/sent), date, read.", p.all_sms),
    ("threads", "Conversation threads.", p.threads),
    ("contacts", "Live contacts with name, phone, email, company, notes.", p.contacts),
    ("calls", "Call log, newest first.", p.calls),
    ("events", "Calendar events (dtstart/dtend as ISO minutes).", p.events),
    ("alarms", "Alarms: hour, minute, enabled, days, label.", p.alarms),
    ("timers", "Clock timers.", p.timers),
    ("settings", "settings.db: global, system and secure tables.", Storage.all_settings),
    ("media", "The media store's files (songs, photos, recordings).", p.media),
):
    GETTERS.register(_name, doc=_doc)(_of_storage(_read))


@GETTERS.register("app_prefs", doc="Each app's saved preferences (player state, saved places, ...).")
def app_prefs(d: AndroidDevice, args: NoArgs) -> object:
    return {pkg: d.prefs_of(pkg) for pkg in sorted(d.phone.apps)}


@GETTERS.register("playlists", doc="Music playlists: name -> song titles in order.")
def playlists(d: AndroidDevice, args: NoArgs) -> object:
    return music.playlists(d.storage)


@GETTERS.register("ui", doc="Foreground app/activity and the visible elements' texts.")
def ui(d: AndroidDevice, args: NoArgs) -> object:
    return d.ui_summary()


@GETTERS.register("clock", doc="The phone's time now and when the task started (ISO seconds).")
def clock(d: AndroidDevice, args: NoArgs) -> object:
    return {"now": d.context.clock.now.isoformat(), "start": d.started.isoformat()}


@GETTERS.register("owner", doc="The phone's own number (what Settings > About phone shows).")
def owner(d: AndroidDevice, args: NoArgs) -> object:
    return {"number": d.phone.number}


@GETTERS.register("permissions", doc="Each app that asks for a permission: package -> granted/denied/ask.")
def permissions(d: AndroidDevice, args: NoArgs) -> object:
    from devicesworld.devices.android.system import permissions as perms

    return perms.all_states(d.phone)


@GETTERS.register("notifications", doc="Notifications not yet opened or cleared.")
def notifications(d: AndroidDevice, args: NoArgs) -> object:
    return [{"package": n.package, "title": n.title, "text": n.text} for n in d.phone.notifications]


@GETTERS.register("files", doc="Files under /sdcard or the shared drive.", args=FolderArgs)
def files(d: AndroidDevice, args: FolderArgs) -> object:
    return d.fs(args.location).walk_files()


@GETTERS.register("file", doc="A text file's content (null when missing).", args=PathArgs)
def file(d: AndroidDevice, args: PathArgs) -> object:
    fs, rel = d.fs(args.location), d.relative(args.location, args.path)
    try:
        st = fs.lstat(rel) if fs.kind(rel) == "file" else None
        if st is None:
            return None
        if st.st_size > MAX_FILE_BYTES:
            return {"binary": False, "size": st.st_size, "too_large": True}
        data = fs.read_bytes(rel, MAX_FILE_BYTES)
    except FsError as exc:
        raise DeviceError(exc.code, exc.message) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"binary": True, "size": len(data)}
