"""Getters: JSON views of a phone's state for verifiers (never shown to agents)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps import music
from devicesworld.devices.base import Args, DeviceError, GetterSpec

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice


class PathArgs(Args):
    path: str = Field(min_length=1)
    location: Literal["sdcard", "drive"] = "sdcard"


class FolderArgs(Args):
    location: Literal["sdcard", "drive"] = "sdcard"


def _listing(device: AndroidDevice, location: str) -> list[str]:
    root = device.resolve(location, "")
    return sorted(str(x.relative_to(root)) for x in root.rglob("*") if x.is_file())


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
        path = device.resolve(args.location, args.path)
        if not path.is_file():
            return None
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return {"binary": True, "size": path.stat().st_size}
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
