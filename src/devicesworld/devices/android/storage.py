"""Phone state on disk, laid out like Android: per-app SQLite databases and an ``/sdcard`` folder.

Each provider gets its own database under ``data/data/<package>/databases/`` in the
device's work folder (``mmssms.db`` for SMS and threads, ``contacts2.db`` with
``raw_contacts`` + ``data`` rows by MIME type, ``calllog.db``, ``calendar.db``,
``alarms.db``, ``settings.db`` with ``system``/``global``/``secure`` tables,
``external.db`` for media), so verifiers read state the way AndroidWorld reads an
emulator's. Connections stay open for the device's life with synchronous writes
off: the databases are scratch state of one episode, and speed matters more than
crash safety. ``close`` removes everything.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

TELEPHONY = "com.android.providers.telephony"
CONTACTS = "com.android.providers.contacts"
CALENDAR = "com.android.providers.calendar"
SETTINGS = "com.android.providers.settings"
MEDIA = "com.android.providers.media"
DESKCLOCK = "com.google.android.deskclock"

MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
MIME_ORG = "vnd.android.cursor.item/organization"
MIME_NOTE = "vnd.android.cursor.item/note"

SMS_INBOX = 1
SMS_SENT = 2

SDCARD_DIRS = ("DCIM/Camera", "Documents/Markor", "Download", "Music", "Pictures", "Recordings", "Alarms")

_SCHEMAS: dict[tuple[str, str], str] = {
    (TELEPHONY, "mmssms.db"): """
        CREATE TABLE threads (_id INTEGER PRIMARY KEY, address TEXT UNIQUE, date INTEGER,
            message_count INTEGER DEFAULT 0, snippet TEXT, read INTEGER DEFAULT 1);
        CREATE TABLE sms (_id INTEGER PRIMARY KEY, thread_id INTEGER, address TEXT, date INTEGER,
            date_sent INTEGER, read INTEGER DEFAULT 1, seen INTEGER DEFAULT 1, type INTEGER, body TEXT);
        CREATE INDEX sms_thread ON sms(thread_id);
    """,
    (CONTACTS, "contacts2.db"): """
        CREATE TABLE raw_contacts (_id INTEGER PRIMARY KEY, display_name TEXT, starred INTEGER DEFAULT 0,
            deleted INTEGER DEFAULT 0);
        CREATE TABLE data (_id INTEGER PRIMARY KEY, raw_contact_id INTEGER, mimetype TEXT, data1 TEXT);
        CREATE INDEX data_contact ON data(raw_contact_id);
    """,
    (CONTACTS, "calllog.db"): """
        CREATE TABLE calls (_id INTEGER PRIMARY KEY, number TEXT, date INTEGER, duration INTEGER,
            type INTEGER, name TEXT);
    """,
    (CALENDAR, "calendar.db"): """
        CREATE TABLE events (_id INTEGER PRIMARY KEY, calendar_id INTEGER DEFAULT 1, title TEXT,
            description TEXT DEFAULT '', eventLocation TEXT DEFAULT '', dtstart TEXT, dtend TEXT,
            allDay INTEGER DEFAULT 0, deleted INTEGER DEFAULT 0);
        CREATE INDEX events_start ON events(dtstart);
    """,
    (DESKCLOCK, "alarms.db"): """
        CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY, hour INTEGER, minutes INTEGER,
            enabled INTEGER, daysofweek INTEGER DEFAULT 0, vibrate INTEGER DEFAULT 1, label TEXT DEFAULT '',
            date TEXT DEFAULT '');
        CREATE TABLE timers (_id INTEGER PRIMARY KEY, length_s INTEGER, remaining_s INTEGER,
            state TEXT, label TEXT DEFAULT '', started_at TEXT);
    """,
    (SETTINGS, "settings.db"): """
        CREATE TABLE system (name TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE global (name TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE secure (name TEXT PRIMARY KEY, value TEXT);
    """,
    (MEDIA, "external.db"): """
        CREATE TABLE files (_id INTEGER PRIMARY KEY, _data TEXT UNIQUE, _display_name TEXT, mime_type TEXT,
            date_added TEXT, title TEXT, artist TEXT DEFAULT '', album TEXT DEFAULT '', duration INTEGER DEFAULT 0);
        CREATE TABLE audio_playlists (_id INTEGER PRIMARY KEY, name TEXT UNIQUE);
        CREATE TABLE audio_playlists_map (_id INTEGER PRIMARY KEY, playlist_id INTEGER, audio_id INTEGER,
            play_order INTEGER);
    """,
}

DEFAULT_SETTINGS: dict[str, dict[str, str]] = {
    "global": {"airplane_mode_on": "0", "wifi_on": "1", "bluetooth_on": "0", "mobile_data": "1"},
    "system": {"screen_brightness": "128", "font_scale": "1.0", "system_locales": "en", "time_12_24": "12"},
    "secure": {"ui_night_mode": "1", "location_mode": "3"},
}


class Storage:
    """The databases and files of one phone."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sdcard = root / "sdcard"
        self._conns: dict[tuple[str, str], sqlite3.Connection] = {}
        self.cache: dict[str, Any] = {}
        """Derived lookups (e.g. thread ids by number) that providers keep in step with their writes."""
        for d in SDCARD_DIRS:
            (self.sdcard / d).mkdir(parents=True, exist_ok=True)
        settings = self.db(SETTINGS, "settings.db")
        for table, values in DEFAULT_SETTINGS.items():
            settings.executemany(f"INSERT INTO {table} VALUES (?, ?)", list(values.items()))

    def _open(self, package: str, name: str) -> sqlite3.Connection:
        path = self.root / "data" / "data" / package / "databases" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=MEMORY")
        conn.execute("PRAGMA synchronous=OFF")
        conn.row_factory = sqlite3.Row
        self._conns[(package, name)] = conn
        return conn

    def db(self, package: str, name: str) -> sqlite3.Connection:
        """The open database of a provider or app, created on first use (so a phone pays only for
        the providers its task touches): providers get their schema, app databases a ``prefs`` table."""
        conn = self._conns.get((package, name))
        if conn is None:
            conn = self._open(package, name)
            schema = _SCHEMAS.get((package, name))
            conn.executescript(
                schema or "CREATE TABLE IF NOT EXISTS prefs (key TEXT PRIMARY KEY, value TEXT);"
            )
        return conn

    def has_db(self, package: str, name: str) -> bool:
        """Whether the database is open or on disk (a reader need not create an empty one)."""
        if (package, name) in self._conns:
            return True
        return (self.root / "data" / "data" / package / "databases" / name).exists()

    def query(self, package: str, name: str, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db(package, name).execute(sql, params).fetchall()]

    def execute(self, package: str, name: str, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run one write. Not committed yet: the connection sees its own writes, and
        :meth:`commit` (after setup and after each action) makes them durable in one go."""
        cur = self.db(package, name).execute(sql, params)
        return int(cur.lastrowid or 0)

    def commit(self) -> None:
        for conn in self._conns.values():
            if conn.in_transaction:
                conn.commit()

    # --- settings ------------------------------------------------------------------------
    def setting(self, table: str, name: str, default: str = "") -> str:
        row = (
            self.db(SETTINGS, "settings.db")
            .execute(f"SELECT value FROM {table} WHERE name=?", (name,))
            .fetchone()
        )
        return str(row[0]) if row else default

    def put_setting(self, table: str, name: str, value: str) -> None:
        self.execute(SETTINGS, "settings.db", f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", (name, value))

    def all_settings(self) -> dict[str, dict[str, str]]:
        conn = self.db(SETTINGS, "settings.db")
        return {
            t: {r[0]: r[1] for r in conn.execute(f"SELECT name, value FROM {t}")} for t in DEFAULT_SETTINGS
        }

    # --- app preferences (JSON values in the app's own database) -------------------------
    def pref(self, package: str, key: str, default: Any = None) -> Any:
        row = self.db(package, "app.db").execute("SELECT value FROM prefs WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def put_pref(self, package: str, key: str, value: Any) -> None:
        self.execute(
            package, "app.db", "INSERT OR REPLACE INTO prefs VALUES (?, ?)", (key, json.dumps(value))
        )

    # --- files ---------------------------------------------------------------------------
    def sd_path(self, relative: str) -> Path:
        """A path under ``/sdcard``; refuses paths that leave it."""
        rel = relative.removeprefix("/sdcard").lstrip("/")
        path = (self.sdcard / rel).resolve()
        base = self.sdcard.resolve()
        if path != base and base not in path.parents:
            raise ValueError(f"{relative!r} is outside /sdcard")
        return path

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()
        shutil.rmtree(self.root, ignore_errors=True)
