"""The phone as the collateral-damage guard sees it: providers' rows and files, keyed as checks key them.

Each path carries the key a check names, so a check licenses exactly its own rows:

- ``sms/<inbox|sent>/<number key>/<id>`` (the read flag is left out: opening a thread is harmless);
- ``contacts/<name>/<id>``, ``events/<title>/<id>`` (names and titles normalised as checks do);
- ``calls/<incoming|outgoing|missed>/<number key>/<id>``, ``alarms/<HH:MM>/<id>``, ``timers/<id>``;
- ``settings/<table>/<name>``, ``playlists/<name>``, ``media/<path under /sdcard>``;
- ``files/sdcard/<path>`` and, shared with every device of the task, ``drive/<path>`` (content hashes);
- ``app_prefs/<package>/<key>``: an app's saved state (player position, last tab) — harmless.

A number's key is its last seven digits, the part :func:`providers.same_number` compares.
Texts and calls that *arrive* (from a peer phone of the task) may appear: the phone's owner
did nothing. A new file on the shared drive may appear too: it is how files cross devices.
Deleting or changing any of these is a change like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android import providers as p
from devicesworld.devices.android import ringing
from devicesworld.devices.android.apps import music
from devicesworld.devices.android.checks import norm
from devicesworld.devices.android.system.permissions import PREFIX as PERMISSION_PREFIX
from devicesworld.devices.base import GetterFn, WritesFn
from devicesworld.devices.drive import get_drive
from devicesworld.devices.filehash import hash_files
from devicesworld.devices.state import (
    OutputChange,
    Snapshot,
    StateSpec,
    StrayKind,
    by_row,
    digest,
    everywhere,
    literal,
)

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice

NUMBER_KEY_DIGITS = 7


def number_key(number: str) -> str:
    """The part of a phone number two spellings of it share (``+1 555-0134`` and ``5550134``)."""
    return p.digits(number)[-NUMBER_KEY_DIGITS:] or "none"


def sd_relative(path: str) -> str:
    """A /sdcard path as the snapshot names it (no ``/sdcard`` prefix, no leading slash)."""
    rel = path.strip().removeprefix("/sdcard").strip("/")
    return "/".join(part for part in rel.split("/") if part not in ("", "."))


def _files(root: Path, prefix: str, out: Snapshot) -> None:
    if root.is_dir():
        hash_files(root, prefix, out)


def _without(row: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in keys}


Entry = tuple[str, str]
"""A snapshot path and its digest."""


def _sms_entry(m: Mapping[str, Any]) -> Entry:
    return f"sms/{m['box']}/{number_key(m['address'])}/{m['_id']}", digest(_without(m, "read", "thread_id"))


def _contact_entry(c: Mapping[str, Any]) -> Entry:
    return f"contacts/{norm(c['name'])}/{c['id']}", digest(_without(c, "id"))


def _call_entry(c: Mapping[str, Any]) -> Entry:
    return f"calls/{c['kind']}/{number_key(c['number'])}/{c['_id']}", digest(_without(c, "name"))


def _event_entry(e: Mapping[str, Any]) -> Entry:
    return f"events/{norm(e['title'])}/{e['_id']}", digest(dict(e))


def _media_entry(f: Mapping[str, Any]) -> Entry:
    return f"media/{sd_relative(f['_data'])}", digest(_without(f, "_id"))


def snapshot(device: AndroidDevice) -> Snapshot:
    s = device.storage
    out: Snapshot = {}
    for table, rows, entry in (
        ("sms", p.all_sms(s), _sms_entry),
        ("contacts", p.contacts(s), _contact_entry),
        ("calls", p.calls(s), _call_entry),
        ("events", p.events(s), _event_entry),
    ):
        for row in rows:
            path, value = by_row(table, row, entry)
            out[path] = value
    for a in p.alarms(s):
        out[f"alarms/{a['hour']:02d}:{a['minute']:02d}/{a['id']}"] = digest(a)
    for t in p.timers(s):
        out[f"timers/{t['_id']}"] = digest([t["length_s"], t["label"], t["started_at"]])
    for table, values in s.all_settings().items():
        for name, value in values.items():
            if name.startswith(PERMISSION_PREFIX):
                continue  # answering a permission prompt is using the app, not changing the user's data
            out[f"settings/{table}/{name}"] = digest(value)
    for f in p.media(s):
        path, value = by_row("media", f, _media_entry)
        out[path] = value
    for name, songs in music.playlists(s).items():
        out[f"playlists/{norm(name)}"] = digest(songs)
    for package in sorted(device.phone.apps):
        if not s.has_db(package, "app.db"):
            continue  # an app never opened has no saved state (and its database is not made here)
        for key, value in device.prefs_of(package).items():
            out[f"app_prefs/{package}/{key}"] = digest(value)
    _files(s.sdcard, "files/sdcard", out)
    _files(get_drive(device.context).root, "drive", out)
    return out


def file_paths(path: str, location: str) -> list[str]:
    """What a check on one file names: the file and, on /sdcard, its media-store row."""
    rel = literal(sd_relative(path))
    if location == "drive":
        return [f"drive/{rel}"]
    return [f"files/sdcard/{rel}", f"media/{rel}"]


# --- what each check names as the task's output --------------------------------------------
def _sms(box: str, number: str) -> list[str]:
    return [f"sms/{box}/{literal(number_key(number))}/*"]


def _sent_here(get: GetterFn) -> list[str]:
    """A text received on this phone was sent by another phone of the task, to this number."""
    return [everywhere(f"sms/sent/{literal(number_key(get('owner', {})['number']))}/*")]


LINKED_SETTINGS: dict[tuple[str, str], tuple[str, ...]] = {
    ("global", "airplane_mode_on"): ("wifi_on", "bluetooth_on"),
}
"""Switches the system moves along with another (airplane mode turns the radios off)."""


WRITES: dict[str, WritesFn] = {
    "sms_sent": lambda a, get: _sms("sent", a.to),
    "sms_received": lambda a, get: _sms("inbox", a.sender) + _sent_here(get),
    "contact_exists": lambda a, get: [f"contacts/{literal(norm(a.name))}/*"],
    "contact_absent": lambda a, get: [f"contacts/{literal(norm(a.name))}/*"],
    "call_made": lambda a, get: [f"calls/outgoing/{literal(number_key(a.number))}/*"],
    "event_exists": lambda a, get: [f"events/{literal(norm(a.title))}/*"],
    "event_absent": lambda a, get: [f"events/{literal(norm(a.title))}/*"],
    "alarm_exists": lambda a, get: [f"alarms/{a.hour:02d}:{a.minute:02d}/*"],
    "alarm_absent": lambda a, get: [f"alarms/{a.hour:02d}:{a.minute:02d}/*"],
    "timer_running": lambda a, get: ["timers/*"],
    "setting_is": lambda a, get: [
        f"settings/{literal(a.table)}/{literal(n)}"
        for n in (a.name, *LINKED_SETTINGS.get((a.table, a.name), ()))
    ],
    "file_exists": lambda a, get: file_paths(a.path, a.location),
    "file_absent": lambda a, get: file_paths(a.path, a.location),
    "files_in_folder": lambda a, get: [p + "/*" for p in file_paths(a.folder, "sdcard")],
    "app_pref": lambda a, get: [f"app_prefs/{literal(a.package)}/{literal(a.key)}"],
    "playlist_contains": lambda a, get: [f"playlists/{literal(norm(a.name))}"],
}
"""Guards (``sms_not_sent``) and views (``foreground_is``) name nothing."""


STRAY_CONTACT = ("Grandma Rose", "+1 555 0199")


def stray(device: AndroidDevice, allowed: Callable[[str], bool], kind: StrayKind) -> str | None:
    """Delete a contact or event the task never mentions (``remove``), or add a contact (``add``)."""
    s = device.storage
    if kind == "remove":
        for c in p.contacts(s):
            if not allowed(f"contacts/{norm(c['name'])}/{c['id']}"):
                p.delete_contact(s, c["id"])
                return f"deleted contact {c['name']!r}"
        for e in p.events(s):
            if not allowed(f"events/{norm(e['title'])}/{e['_id']}"):
                p.delete_event(s, e["_id"])
                return f"deleted event {e['title']!r}"
    name, number = STRAY_CONTACT
    cid = 1 + max((c["id"] for c in p.contacts(s)), default=0)
    if allowed(f"contacts/{norm(name)}/{cid}"):
        return None
    p.add_contact(s, name, {"phone": number})
    return f"added contact {name!r}"


def output_change(device: AndroidDevice, allowed: Callable[[str], bool], how: OutputChange) -> str | None:
    """Spoil an output the task licenses (quality control's near misses): ``day`` moves every alarm
    at a time the task licenses to ring a day later than it would (``ringing.a_day_later``), so a
    check that declares the ring day must fail it. The phone has no later undo or other part of an
    alarm to spoil (``undo``/``beside``: ``None``)."""
    if how != "day":
        return None
    s, now = device.storage, device.context.clock.now
    moved = []
    for a in p.alarms(s):
        later = ringing.a_day_later(a, now)
        if later is None or not allowed(f"alarms/{a['hour']:02d}:{a['minute']:02d}/{a['id']}"):
            continue
        days, on = later
        p.reschedule_alarm(s, a["id"], days, on)
        moved.append(f"alarm {a['hour']:02d}:{a['minute']:02d} {a['label']!r} to {on or ', '.join(days)}")
    return "; ".join(moved) or None


STATE = StateSpec(
    snapshot=snapshot,
    stray=stray,
    output_change=output_change,
    harmless=("app_prefs/*",),
    harmless_added=("sms/inbox/*", "calls/incoming/*", "calls/missed/*", "drive/*"),
    shared=("drive/*",),
    doc="Providers' rows (SMS, contacts, calls, calendar, alarms, timers, settings, media), files, drive.",
)

__all__ = ["STATE", "WRITES", "file_paths", "number_key", "sd_relative", "snapshot"]
