"""A persona world's phone surface on an Android device, and the phone's census counters.

Rows go into the providers' databases in bulk (one ``executemany`` per table, in
the same shapes :mod:`.providers` writes) once per world, on a scratch phone; each
reset then copies those databases page by page (SQLite's backup) into the fresh
phone's (the filled databases are also kept in the disk cache,
:mod:`devicesworld.diskcache` namespace ``phone-databases``, as SQLite images keyed by
the world's JSON and this code, so a new process deserializes them instead of filling
a scratch phone). Files are written from bytes made once per world (pictures and audio are
rendered once, not per reset), with their hashes handed to the collateral guard, so
a lived phone with hundreds of rows is ready in a few milliseconds. A person's second number is
a second contact, ``<name> (work)``: the near-duplicate a real address book has.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import sqlite3
import tempfile
import threading
import wave
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from devicesworld import diskcache
from devicesworld.devices.android import providers as p
from devicesworld.devices.android import storage as st
from devicesworld.devices.android.apps.browser import PACKAGE as BROWSER
from devicesworld.devices.android.apps.maps import PACKAGE as MAPS
from devicesworld.devices.android.media import RATE, picture
from devicesworld.devices.android.profiles import AndroidProfile
from devicesworld.devices.base import DeviceContext, GetterFn, VirtualClock, WorldSupport
from devicesworld.devices.filehash import content_hash, remember_stat
from devicesworld.worlds.model import PhoneWorld, World

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice

MARKOR = "Documents/Markor"
MUSIC = "Music"


@functools.cache
def _wav() -> bytes:
    """One second of silence: every world song and recording (lengths live in the media store)."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(b"\x80" * RATE)
    return buf.getvalue()


@functools.lru_cache(maxsize=256)
def _png(label: str) -> bytes:
    buf = io.BytesIO()
    seed = sum(map(ord, label))
    picture(label, (60 + seed % 140, 90 + seed * 7 % 120, 120 + seed * 13 % 110)).save(buf, format="PNG")
    return buf.getvalue()


def song_path(title: str, artist: str) -> str:
    """Where a world song lives under /sdcard (artist in the name: two artists may share a title)."""
    safe = "".join(c if c.isalnum() or c in " -_.&'" else "_" for c in f"{artist} - {title}")
    return f"{MUSIC}/{safe}.wav"


def _contacts(device: AndroidDevice, phone: PhoneWorld) -> None:
    conn = device.storage.db(*p.CONTACTS_DB)
    start = 1 + (conn.execute("SELECT COALESCE(MAX(_id), 0) FROM raw_contacts").fetchone()[0])
    raw: list[tuple[int, str, int]] = []
    data: list[tuple[int, str, str]] = []
    for person in phone.contacts:
        cid = start + len(raw)
        raw.append((cid, person.name, int(person.relation == "household")))
        for mime, value in (
            (st.MIME_PHONE, person.phone),
            (st.MIME_EMAIL, person.email),
            (st.MIME_ORG, person.company),
        ):
            if value:
                data.append((cid, mime, value))
        if person.birthday:
            data.append((cid, st.MIME_NOTE, f"Birthday {person.birthday}"))
        if person.phone2:
            wid = start + len(raw)
            raw.append((wid, f"{person.name} (work)", 0))
            data.append((wid, st.MIME_PHONE, person.phone2))
            if person.company:
                data.append((wid, st.MIME_ORG, person.company))
    conn.executemany("INSERT INTO raw_contacts (_id, display_name, starred) VALUES (?, ?, ?)", raw)
    conn.executemany("INSERT INTO data (raw_contact_id, mimetype, data1) VALUES (?, ?, ?)", data)


def _messages(device: AndroidDevice, phone: PhoneWorld) -> None:
    """Threads first (one per address, as :func:`providers.thread_for` keys them), then every text."""
    s = device.storage
    conn = s.db(*p.SMS_DB)
    if conn.execute("SELECT 1 FROM threads LIMIT 1").fetchone() is not None:
        raise ValueError("a world goes on a fresh phone (this one already has texts)")
    order: dict[str, list[Any]] = {}
    for m in phone.messages:
        ms = p.to_ms(m.at)
        t = order.setdefault(m.address, [len(order) + 1, 0, 0, "", 1])
        t[1] += 1
        if ms >= t[2]:
            t[2], t[3] = ms, m.body
        t[4] = t[4] and int(m.read)
    conn.executemany(
        "INSERT INTO threads (_id, address, date, message_count, snippet, read) VALUES (?,?,?,?,?,?)",
        [
            (tid, address, date, count, snippet, read)
            for address, (tid, count, date, snippet, read) in order.items()
        ],
    )
    known: dict[str, int] = s.cache.setdefault("threads_by_digits", {})
    for address, (tid, *_rest) in order.items():
        known[p.digits(address) or address.strip().casefold()] = tid
    conn.executemany(
        "INSERT INTO sms (thread_id, address, date, date_sent, read, seen, type, body) VALUES (?,?,?,?,?,?,?,?)",
        [
            (
                order[m.address][0],
                m.address,
                p.to_ms(m.at),
                p.to_ms(m.at),
                int(m.read),
                int(m.read),
                st.SMS_SENT if m.sent else st.SMS_INBOX,
                m.body,
            )
            for m in phone.messages
        ],
    )


def _calls(device: AndroidDevice, phone: PhoneWorld) -> None:
    name = p.namer(device.storage)
    kinds = {"incoming": p.CALL_INCOMING, "outgoing": p.CALL_OUTGOING, "missed": p.CALL_MISSED}
    device.storage.db(*p.CALLS_DB).executemany(
        "INSERT INTO calls (number, date, duration, type, name) VALUES (?,?,?,?,?)",
        [(c.number, p.to_ms(c.at), c.duration, kinds[c.kind], name(c.number) or "") for c in phone.calls],
    )


def _events(device: AndroidDevice, phone: PhoneWorld) -> None:
    device.storage.db(*p.CAL_DB).executemany(
        "INSERT INTO events (title, dtstart, dtend, eventLocation, description) VALUES (?,?,?,?,?)",
        [
            (
                e.title,
                e.start.isoformat(timespec="minutes"),
                e.end.isoformat(timespec="minutes"),
                e.location,
                e.description,
            )
            for e in phone.events
        ],
    )


def _alarms(device: AndroidDevice, phone: PhoneWorld) -> None:
    device.storage.db(*p.ALARMS_DB).executemany(
        "INSERT INTO alarm_templates (hour, minutes, enabled, daysofweek, label) VALUES (?,?,?,?,?)",
        [(a.hour, a.minute, int(a.enabled), p.days_mask(a.days), a.label) for a in phone.alarms],
    )


@dataclass(frozen=True)
class _Files:
    """A world's /sdcard files as bytes, and their media-store rows, made once per world."""

    files: tuple[tuple[str, bytes, str], ...]
    """(path under /sdcard, bytes, content hash)."""
    media: tuple[tuple[str, str, str, str, str, str, str, int], ...]
    folders: tuple[str, ...]


WorldKey = tuple[int, str, datetime, str, bool]
"""A world's identity (:attr:`World.identity`): what its prepared files and databases are kept under."""
T = TypeVar("T")

_FILES: dict[WorldKey, _Files] = {}
_BUILD_LOCK = threading.RLock()
"""One preparation at a time: a pre-warming thread waits for the world's files instead of redoing them."""


def _built_once(cache: dict[WorldKey, T], world: World, make: Callable[[World, WorldKey], T]) -> T:
    """What ``cache`` keeps for the world, else ``make`` (which stores it) run under the build lock.

    The lock is taken only on a miss, and the cache is read again under it: a thread that
    waited for another's build finds its result instead of building the world again.
    """
    key = world.identity
    found = cache.get(key)
    if found is not None:
        return found
    with _BUILD_LOCK:
        return cache.get(key) or make(world, key)


def _sdcard_files(world: World) -> _Files:
    return _built_once(_FILES, world, _make_sdcard_files)


def _make_sdcard_files(world: World, key: WorldKey) -> _Files:
    phone = world.phone
    when = world.start.isoformat(timespec="seconds")
    files: list[tuple[str, bytes]] = []
    media: list[tuple[str, str, str, str, str, str, str, int]] = []
    wav = _wav()
    for song in phone.songs:
        rel = song_path(song.title, song.artist)
        files.append((rel, wav))
        name = rel.rsplit("/", 1)[-1]
        media.append(
            (
                "/sdcard/" + rel,
                name,
                "audio/wav",
                when,
                song.title,
                song.artist,
                song.album,
                song.seconds * 1000,
            )
        )
    for f in phone.files:
        name = f.path.rsplit("/", 1)[-1]
        stem = name.rsplit(".", 1)[0]
        if f.media == "picture":
            files.append((f.path, _png(f.text or stem)))
            media.append(("/sdcard/" + f.path, name, "image/png", when, f.text or stem, "", "", 0))
        elif f.media == "recording":
            files.append((f.path, wav))
            media.append(("/sdcard/" + f.path, name, "audio/wav", when, stem, "", "", 60_000))
        else:
            files.append((f.path, f.text.encode("utf-8")))
    files += [(f"{MARKOR}/{note.name}", note.text.encode("utf-8")) for note in phone.notes]
    folders = sorted(
        {rel.rsplit("/", 1)[0] for rel, _ in files if "/" in rel}, key=lambda d: (d.count("/"), d)
    )
    found = _Files(
        tuple((rel, data, content_hash(data)) for rel, data in files), tuple(media), tuple(folders)
    )
    if len(_FILES) >= 16:
        _FILES.pop(next(iter(_FILES)))
    _FILES[key] = found
    return found


def _write_files(device: AndroidDevice, world: World) -> None:
    s = device.storage
    made = _sdcard_files(world)
    stamp = int(world.start.replace(tzinfo=UTC).timestamp() * 1e9) - 86_400 * 10**9
    for folder in made.folders:
        (s.sdcard / folder).mkdir(parents=True, exist_ok=True)
    root = s.sdcard
    for rel, data, digest in made.files:
        fd = os.open(root / rel, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        try:
            os.write(fd, data)
            os.utime(fd, ns=(stamp, stamp))
            remember_stat(root, rel, os.fstat(fd), digest)
        finally:
            os.close(fd)


def _media_rows(device: AndroidDevice, world: World) -> None:
    conn = device.storage.db(*p.MEDIA_DB)
    conn.executemany(
        "INSERT OR REPLACE INTO files (_data, _display_name, mime_type, date_added, title, artist, album, duration) "
        "VALUES (?,?,?,?,?,?,?,?)",
        _sdcard_files(world).media,
    )
    ids = {
        (r[1], r[2]): r[0]
        for r in conn.execute("SELECT _id, title, artist FROM files WHERE mime_type LIKE 'audio/%'")
    }
    for playlist in world.phone.playlists:
        pid = conn.execute(
            "INSERT OR IGNORE INTO audio_playlists (name) VALUES (?)", (playlist.name,)
        ).lastrowid
        conn.executemany(
            "INSERT INTO audio_playlists_map (playlist_id, audio_id, play_order) VALUES (?,?,?)",
            [(pid, ids[(t, a)], i) for i, (t, a) in enumerate(playlist.songs) if (t, a) in ids],
        )


PROVIDER_DBS = (p.CONTACTS_DB, p.SMS_DB, p.CALLS_DB, p.CAL_DB, p.ALARMS_DB, p.MEDIA_DB)
"""The providers a world fills, and the table of each that a fresh phone leaves empty."""
_MAIN_TABLE = {
    p.CONTACTS_DB: "raw_contacts",
    p.SMS_DB: "sms",
    p.CALLS_DB: "calls",
    p.CAL_DB: "events",
    p.ALARMS_DB: "alarm_templates",
    p.MEDIA_DB: "files",
}


def _rows(device: AndroidDevice, world: World) -> None:
    """Every provider row of the world, inserted in bulk."""
    phone = world.phone
    _contacts(device, phone)
    _messages(device, phone)
    _calls(device, phone)
    _events(device, phone)
    _alarms(device, phone)
    _media_rows(device, world)


_DATABASES: dict[WorldKey, dict[tuple[str, str], sqlite3.Connection]] = {}
_DB_LOCK = threading.Lock()


def _databases(world: World) -> dict[tuple[str, str], sqlite3.Connection]:
    """The world's provider databases, filled once per world on a scratch phone and kept in memory."""
    return _built_once(_DATABASES, world, _make_databases)


def _make_databases(world: World, key: WorldKey) -> dict[tuple[str, str], sqlite3.Connection]:
    disk_key = _disk_key(world)
    found = _databases_from_disk(disk_key)
    if found is None:
        found = _fill_databases(world)
        images = [found[db].serialize() for db in PROVIDER_DBS]
        diskcache.write(_NAMESPACE, disk_key, diskcache.pack(["/".join(db) for db in PROVIDER_DBS], images))
    with _DB_LOCK:
        if len(_DATABASES) >= 16:  # the oldest world's copies go; a reset still using them keeps them alive
            _DATABASES.pop(next(iter(_DATABASES)))
        kept = _DATABASES.setdefault(key, found)
    if kept is not found:  # another thread built the same world first
        for conn in found.values():
            conn.close()
    return kept


def _fill_databases(world: World) -> dict[tuple[str, str], sqlite3.Connection]:
    """The world's provider rows inserted on a scratch phone, copied into memory databases."""
    from devicesworld.devices.android.device import factory

    with tempfile.TemporaryDirectory(prefix="dw-world-phone-") as tmp:
        context = DeviceContext(task_id="world-template", clock=VirtualClock(world.start), workdir=Path(tmp))
        scratch = factory("android_0", {}, context)
        try:
            _rows(scratch, world)
            scratch.storage.commit()
            found = {}
            for db in PROVIDER_DBS:
                mem = sqlite3.connect(":memory:", check_same_thread=False)
                scratch.storage.db(*db).backup(mem)
                found[db] = mem
        finally:
            scratch.close()
    return found


_NAMESPACE = "phone-databases"
_CODE = (__name__, "devicesworld.devices.android.providers", "devicesworld.devices.android.storage")


def _disk_key(world: World) -> str:
    code = diskcache.code_digest(_CODE)
    return diskcache.key_of(
        hashlib.sha256(world.to_json().encode()).hexdigest(), sqlite3.sqlite_version, code
    )


def _databases_from_disk(key: str) -> dict[tuple[str, str], sqlite3.Connection] | None:
    """The stored databases (SQLite images), or ``None`` when absent or not what this code stores."""
    payload = diskcache.read(_NAMESPACE, key)
    if payload is None:
        return None
    try:
        names, images = diskcache.unpack(payload)
    except ValueError:
        return None
    if names != ["/".join(db) for db in PROVIDER_DBS]:
        return None
    found: dict[tuple[str, str], sqlite3.Connection] = {}
    try:
        for db, image in zip(PROVIDER_DBS, images, strict=True):
            mem = sqlite3.connect(":memory:", check_same_thread=False)
            found[db] = mem
            mem.deserialize(image)
            mem.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.Error, ValueError):
        for conn in found.values():
            conn.close()
        return None
    return found


def _copy_rows(device: AndroidDevice, world: World) -> None:
    """The provider rows: a page copy of the world's databases into a fresh phone's (inserts otherwise)."""
    s = device.storage
    dbs = _databases(world)
    s.commit()
    fresh = all(
        s.db(*db).execute(f"SELECT 1 FROM {_MAIN_TABLE[db]} LIMIT 1").fetchone() is None for db in dbs
    )
    if not fresh:
        _rows(device, world)
        return
    with _DB_LOCK:
        for db, mem in dbs.items():
            mem.backup(s.db(*db))
    s.cache.pop("threads_by_digits", None)


def _apps(device: AndroidDevice, phone: PhoneWorld) -> None:
    s = device.storage
    maps = s.db(MAPS, "app.db")
    maps.execute(
        "CREATE TABLE IF NOT EXISTS places (_id INTEGER PRIMARY KEY, name TEXT, address TEXT, lat REAL, "
        "lon REAL, category TEXT)"
    )
    maps.executemany(
        "INSERT INTO places (name, address, lat, lon, category) VALUES (?,?,?,?,?)",
        [(pl.name, pl.address, pl.lat, pl.lon, pl.category) for pl in phone.places],
    )
    saved = list(s.pref(MAPS, "saved_places", []))
    s.put_pref(MAPS, "saved_places", [*saved, *(pl.name for pl in phone.places if pl.saved)])
    browser = s.db(BROWSER, "app.db")
    browser.execute("CREATE TABLE IF NOT EXISTS pages (url TEXT PRIMARY KEY, title TEXT, text TEXT)")
    browser.executemany(
        "INSERT OR REPLACE INTO pages VALUES (?,?,?)",
        [(pg.url.rstrip("/"), pg.title, pg.text) for pg in phone.pages],
    )
    history = list(s.pref(BROWSER, "history", []))
    s.put_pref(BROWSER, "history", [*history, *(pg.url.rstrip("/") for pg in phone.pages if pg.visited)])
    s.put_pref(
        BROWSER,
        "bookmarks",
        [{"title": pg.title, "url": pg.url.rstrip("/")} for pg in phone.pages if pg.bookmarked],
    )


DEFAULT_OWNER: str = AndroidProfile.model_fields["owner_name"].default
"""The profile's owner name when a task names nobody ("Me")."""


def owner_label(profile_owner: str, world: World, model: str) -> str:
    """The device name a phone that takes ``world`` shows: a task's own owner name wins; else the
    world's owner's, as people name their phones ("Maria Lopez's Pixel 3"). Two phones of one
    household were both "Me" (session 49's careful players spent 15 steps telling them apart)."""
    if profile_owner != DEFAULT_OWNER:
        return profile_owner
    return f"{world.persona.person.name}'s {model}"


def apply(device: AndroidDevice, world: World) -> None:
    """Put the world's phone surface on a freshly created phone (before the task's own setup)."""
    device.phone.owner_label = owner_label(device.profile.owner_name, world, device.profile.device_type.name)
    _copy_rows(device, world)
    _write_files(device, world)
    _apps(device, world.phone)


def census(get: GetterFn) -> dict[str, int]:
    """What a phone holds, read through its getters."""
    media = get("media", {})
    files = get("files", {})
    prefs: dict[str, Any] = get("app_prefs", {})
    by_folder: dict[str, int] = defaultdict(int)
    for f in files:
        by_folder[str(f).split("/", 1)[0]] += 1
    return {
        "contacts": len(get("contacts", {})),
        "messages": len(get("sms", {})),
        "threads": len(get("threads", {})),
        "calls": len(get("calls", {})),
        "events": len(get("events", {})),
        "songs": sum(1 for m in media if str(m["_data"]).startswith(f"/sdcard/{MUSIC}/")),
        "playlists": len(get("playlists", {})),
        "notes": sum(1 for f in files if str(f).startswith(MARKOR + "/")),
        "files": len(files),
        "pictures": sum(1 for m in media if str(m["mime_type"]).startswith("image/")),
        "alarms": len(get("alarms", {})),
        "saved_places": len(prefs.get(MAPS, {}).get("saved_places", [])),
        "bookmarks": len(prefs.get(BROWSER, {}).get("bookmarks", [])),
        "download_files": by_folder.get("Download", 0),
    }


WORLD = WorldSupport(apply=apply, census=census)

__all__ = ["WORLD", "apply", "census", "song_path"]
