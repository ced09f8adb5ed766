"""Getters: JSON views of a phone's state for verifiers (never shown to agents)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps import music
from devicesworld.devices.base import Args, DeviceError, GetterSpec
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


def _listing(device: AndroidDevice, location: str) -> list[str]:
    return device.fs(location).walk_files()


def get(device: AndroidDevice, name: str, args: Any) -> Any:
    s = device.storage
    phone = device.phone
    simple: dict[str, Any] = {
        "sms": lambda: p.all_sms(s),
        "threads": lambda: p.threads(s),
        "contacts": lambda: p.contacts(s),
        "calls": lambda: p.calls(s),
        "events": lambda: p.events(s),
        "alarms": lambda: p.alarms(s),
        "timers": lambda: p.timers(s),
        "settings": s.all_settings,
        "media": lambda: p.media(s),
        "app_prefs": lambda: {pkg: device.prefs_of(pkg) for pkg in sorted(phone.apps)},
        "playlists": lambda: music.playlists(s),
        "ui": lambda: device.ui_summary(),
        "owner": lambda: {"number": phone.number},
        "notifications": lambda: [
            {"package": n.package, "title": n.title, "text": n.text} for n in phone.notifications
        ],
    }
    if name in simple:
        return simple[name]()
    if name == "files":
        return _listing(device, args.location)
    if name == "file":
        fs, rel = device.fs(args.location), device.relative(args.location, args.path)
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
    raise DeviceError("UNKNOWN_GETTER", f"android has no getter {name!r}")


GETTERS = [
    GetterSpec(name="sms", doc="Every SMS: address, body, box (inbox/sent), date, read."),
    GetterSpec(name="threads", doc="Conversation threads."),
    GetterSpec(name="contacts", doc="Live contacts with name, phone, email, company, notes."),
    GetterSpec(name="calls", doc="Call log, newest first."),
    GetterSpec(name="events", doc="Calendar events (dtstart/dtend as ISO minutes)."),
    GetterSpec(name="alarms", doc="Alarms: hour, minute, enabled, days, label."),
    GetterSpec(name="timers", doc="Clock timers."),
    GetterSpec(name="settings", doc="settings.db: global, system and secure tables."),
    GetterSpec(name="media", doc="The media store's files (songs, photos, recordings)."),
    GetterSpec(name="app_prefs", doc="Each app's saved preferences (player state, saved places, ...)."),
    GetterSpec(name="playlists", doc="Music playlists: name -> song titles in order."),
    GetterSpec(name="ui", doc="Foreground app/activity and the visible elements' texts."),
    GetterSpec(name="owner", doc="The phone's own number (what Settings > About phone shows)."),
    GetterSpec(name="notifications", doc="Notifications not yet opened or cleared."),
    GetterSpec(name="files", doc="Files under /sdcard or the shared drive.", args_model=FolderArgs),
    GetterSpec(name="file", doc="A text file's content (null when missing).", args_model=PathArgs),
]
