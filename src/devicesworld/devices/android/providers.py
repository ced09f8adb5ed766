"""Data access over the provider databases, shared by the apps, setup ops and getters.

One function per thing a phone stores (an SMS, a contact, an event, an alarm, a call,
a media file, a saved place), so the Messages app sending a text and a setup op
planting one write the very same rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from devicesworld.devices.android.storage import (
    CALENDAR,
    CONTACTS,
    DESKCLOCK,
    MEDIA,
    MIME_EMAIL,
    MIME_NOTE,
    MIME_ORG,
    MIME_PHONE,
    SMS_INBOX,
    SMS_SENT,
    TELEPHONY,
    Storage,
)

SMS_DB = (TELEPHONY, "mmssms.db")
CONTACTS_DB = (CONTACTS, "contacts2.db")
CALLS_DB = (CONTACTS, "calllog.db")
CAL_DB = (CALENDAR, "calendar.db")
ALARMS_DB = (DESKCLOCK, "alarms.db")
MEDIA_DB = (MEDIA, "external.db")

CALL_INCOMING, CALL_OUTGOING, CALL_MISSED = 1, 2, 3
WEEKDAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")


def to_ms(dt: datetime) -> int:
    return int(dt.replace(tzinfo=UTC).timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC).replace(tzinfo=None)


_NON_DIGITS = re.compile(r"\D")


def digits(number: str) -> str:
    return _NON_DIGITS.sub("", number)


def same_number(a: str, b: str) -> bool:
    """Phone numbers match when their digits match, or one ends with the other (country code)."""
    da, db = digits(a), digits(b)
    if not da or not db:
        return a.strip().casefold() == b.strip().casefold()
    if da == db:
        return True
    short, long_ = sorted((da, db), key=len)
    return len(short) >= 7 and long_.endswith(short)


# --- SMS -----------------------------------------------------------------------------------
def thread_for(s: Storage, address: str, create: bool = True) -> int | None:
    """The thread of a number (matched by :func:`same_number`), remembered per exact digits."""
    known: dict[str, int] = s.cache.setdefault("threads_by_digits", {})
    key = digits(address) or address.strip().casefold()
    if key in known:
        return known[key]
    conn = s.db(*SMS_DB)
    for row in conn.execute("SELECT _id, address FROM threads"):
        if same_number(row["address"], address):
            known[key] = int(row["_id"])
            return known[key]
    if not create:
        return None
    cur = conn.execute(
        "INSERT INTO threads (address, date, message_count, snippet) VALUES (?, 0, 0, '')", (address,)
    )
    known[key] = int(cur.lastrowid or 0)
    return known[key]


def add_sms(s: Storage, address: str, body: str, when: datetime, *, sent: bool, read: bool = True) -> int:
    conn = s.db(*SMS_DB)
    tid = thread_for(s, address)
    ms = to_ms(when)
    cur = conn.execute(
        "INSERT INTO sms (thread_id, address, date, date_sent, read, seen, type, body) VALUES (?,?,?,?,?,?,?,?)",
        (tid, address, ms, ms, int(read), int(read), SMS_SENT if sent else SMS_INBOX, body),
    )
    conn.execute(
        "UPDATE threads SET date=MAX(date, ?), message_count=message_count+1, "
        "snippet=CASE WHEN ? >= date THEN ? ELSE snippet END, read=read AND ? WHERE _id=?",
        (ms, ms, body, int(read), tid),
    )
    return int(cur.lastrowid or 0)


def threads(s: Storage) -> list[dict[str, Any]]:
    return s.query(*SMS_DB, "SELECT * FROM threads WHERE message_count > 0 ORDER BY date DESC, _id DESC")


def thread_messages(s: Storage, thread_id: int) -> list[dict[str, Any]]:
    return s.query(*SMS_DB, "SELECT * FROM sms WHERE thread_id=? ORDER BY date, _id", (thread_id,))


def mark_read(s: Storage, thread_id: int) -> None:
    s.execute(*SMS_DB, "UPDATE sms SET read=1, seen=1 WHERE thread_id=?", (thread_id,))
    s.execute(*SMS_DB, "UPDATE threads SET read=1 WHERE _id=?", (thread_id,))


def delete_thread(s: Storage, thread_id: int) -> None:
    s.cache.pop("threads_by_digits", None)
    s.execute(*SMS_DB, "DELETE FROM sms WHERE thread_id=?", (thread_id,))
    s.execute(*SMS_DB, "DELETE FROM threads WHERE _id=?", (thread_id,))


def all_sms(s: Storage) -> list[dict[str, Any]]:
    rows = s.query(
        *SMS_DB, "SELECT _id, thread_id, address, date, read, type, body FROM sms ORDER BY date, _id"
    )
    for r in rows:
        r["date"] = from_ms(r["date"]).isoformat(timespec="seconds")
        r["box"] = "sent" if r["type"] == SMS_SENT else "inbox"
    return rows


# --- contacts ------------------------------------------------------------------------------
_FIELD_MIME = {"phone": MIME_PHONE, "email": MIME_EMAIL, "company": MIME_ORG, "notes": MIME_NOTE}


def add_contact(s: Storage, name: str, fields: dict[str, str], starred: bool = False) -> int:
    conn = s.db(*CONTACTS_DB)
    cur = conn.execute("INSERT INTO raw_contacts (display_name, starred) VALUES (?, ?)", (name, int(starred)))
    cid = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO data (raw_contact_id, mimetype, data1) VALUES (?, ?, ?)",
        [(cid, _FIELD_MIME[k], val) for k, val in fields.items() if val and k in _FIELD_MIME],
    )
    return cid


def update_contact(s: Storage, cid: int, name: str, fields: dict[str, str]) -> None:
    conn = s.db(*CONTACTS_DB)
    conn.execute("UPDATE raw_contacts SET display_name=? WHERE _id=?", (name, cid))
    conn.execute("DELETE FROM data WHERE raw_contact_id=?", (cid,))
    conn.executemany(
        "INSERT INTO data (raw_contact_id, mimetype, data1) VALUES (?, ?, ?)",
        [(cid, _FIELD_MIME[k], val) for k, val in fields.items() if val and k in _FIELD_MIME],
    )


def delete_contact(s: Storage, cid: int) -> None:
    s.execute(*CONTACTS_DB, "UPDATE raw_contacts SET deleted=1 WHERE _id=?", (cid,))


def contacts(s: Storage) -> list[dict[str, Any]]:
    """Live contacts with flattened fields, sorted by name."""
    conn = s.db(*CONTACTS_DB)
    out: dict[int, dict[str, Any]] = {}
    for r in conn.execute("SELECT _id, display_name, starred FROM raw_contacts WHERE deleted=0"):
        out[r["_id"]] = {
            "id": r["_id"],
            "name": r["display_name"],
            "starred": bool(r["starred"]),
            "phone": "",
            "email": "",
            "company": "",
            "notes": "",
        }
    rev = {m: k for k, m in _FIELD_MIME.items()}
    for r in conn.execute("SELECT raw_contact_id, mimetype, data1 FROM data"):
        c = out.get(r["raw_contact_id"])
        if c is not None and r["mimetype"] in rev:
            c[rev[r["mimetype"]]] = r["data1"]
    return sorted(out.values(), key=lambda c: (str(c["name"]).casefold(), c["id"]))


def contact(s: Storage, cid: int) -> dict[str, Any] | None:
    return next((c for c in contacts(s) if c["id"] == cid), None)


def name_for(s: Storage, number: str) -> str | None:
    return namer(s)(number)


def namer(s: Storage) -> Callable[[str], str | None]:
    """A number -> contact name lookup built from one read of the contacts (for lists)."""
    rows = (
        s.db(*CONTACTS_DB)
        .execute(
            "SELECT r.display_name, d.data1 FROM raw_contacts r JOIN data d ON d.raw_contact_id = r._id "
            "WHERE r.deleted = 0 AND d.mimetype = ?",
            (MIME_PHONE,),
        )
        .fetchall()
    )
    by_digits = {digits(r[1]): str(r[0]) for r in rows if r[1]}

    def lookup(number: str) -> str | None:
        d = digits(number)
        if d in by_digits:
            return by_digits[d]
        return next((name for key, name in by_digits.items() if same_number(key, d)), None)

    return lookup


# --- calls ---------------------------------------------------------------------------------
def add_call(s: Storage, number: str, when: datetime, kind: int, duration: int = 0) -> int:
    return s.execute(
        *CALLS_DB,
        "INSERT INTO calls (number, date, duration, type, name) VALUES (?,?,?,?,?)",
        (number, to_ms(when), duration, kind, name_for(s, number) or ""),
    )


def calls(s: Storage) -> list[dict[str, Any]]:
    rows = s.query(*CALLS_DB, "SELECT * FROM calls ORDER BY date DESC, _id DESC")
    for r in rows:
        r["date"] = from_ms(r["date"]).isoformat(timespec="seconds")
        r["kind"] = {CALL_INCOMING: "incoming", CALL_OUTGOING: "outgoing", CALL_MISSED: "missed"}[r["type"]]
    return rows


# --- calendar ------------------------------------------------------------------------------
def _event_row(
    title: str, start: datetime, end: datetime, location: str, description: str
) -> tuple[str, str, str, str, str]:
    """An event's columns as the Calendar provider stores them (times to the minute)."""
    return (
        title,
        start.isoformat(timespec="minutes"),
        end.isoformat(timespec="minutes"),
        location,
        description,
    )


def add_event(
    s: Storage, title: str, start: datetime, end: datetime, location: str = "", description: str = ""
) -> int:
    return s.execute(
        *CAL_DB,
        "INSERT INTO events (title, dtstart, dtend, eventLocation, description) VALUES (?,?,?,?,?)",
        _event_row(title, start, end, location, description),
    )


def update_event(
    s: Storage, eid: int, title: str, start: datetime, end: datetime, location: str, description: str
) -> None:
    s.execute(
        *CAL_DB,
        "UPDATE events SET title=?, dtstart=?, dtend=?, eventLocation=?, description=? WHERE _id=?",
        (*_event_row(title, start, end, location, description), eid),
    )


def delete_event(s: Storage, eid: int) -> None:
    s.execute(*CAL_DB, "UPDATE events SET deleted=1 WHERE _id=?", (eid,))


def events(s: Storage, day: str | None = None) -> list[dict[str, Any]]:
    """Live events (optionally of one ``YYYY-MM-DD`` day), by start time."""
    if day is None:
        return s.query(*CAL_DB, "SELECT * FROM events WHERE deleted=0 ORDER BY dtstart, _id")
    return s.query(
        *CAL_DB,
        "SELECT * FROM events WHERE deleted=0 AND substr(dtstart, 1, 10)=? ORDER BY dtstart, _id",
        (day,),
    )


def event_days(s: Storage, month: str) -> set[str]:
    rows = s.db(*CAL_DB).execute(
        "SELECT DISTINCT substr(dtstart, 1, 10) FROM events WHERE deleted=0 AND substr(dtstart, 1, 7)=?",
        (month,),
    )
    return {r[0] for r in rows}


# --- alarms and timers ---------------------------------------------------------------------
def days_mask(days: list[str]) -> int:
    return sum(1 << WEEKDAYS.index(d) for d in days)


def mask_days(mask: int) -> list[str]:
    return [d for i, d in enumerate(WEEKDAYS) if mask & (1 << i)]


def add_alarm(
    s: Storage,
    hour: int,
    minute: int,
    *,
    enabled: bool = True,
    days: list[str] | None = None,
    label: str = "",
    on: date | None = None,
) -> int:
    """An alarm; ``on`` makes it a one-time alarm on that date (no repeat days then)."""
    return s.execute(
        *ALARMS_DB,
        "INSERT INTO alarm_templates (hour, minutes, enabled, daysofweek, label, date) VALUES (?,?,?,?,?,?)",
        (hour, minute, int(enabled), 0 if on else days_mask(days or []), label, on.isoformat() if on else ""),
    )


def reschedule_alarm(s: Storage, aid: int, days: list[str], on: date | None) -> None:
    """Give an alarm repeat days or a date (one excludes the other, as in the Clock)."""
    s.execute(
        *ALARMS_DB,
        "UPDATE alarm_templates SET daysofweek=?, date=? WHERE _id=?",
        (0 if on else days_mask(days), on.isoformat() if on else "", aid),
    )


def alarms(s: Storage) -> list[dict[str, Any]]:
    rows = s.query(*ALARMS_DB, "SELECT * FROM alarm_templates ORDER BY hour, minutes, _id")
    return [
        {
            "id": r["_id"],
            "hour": r["hour"],
            "minute": r["minutes"],
            "enabled": bool(r["enabled"]),
            "days": mask_days(r["daysofweek"]),
            "label": r["label"],
            "date": r["date"] or None,
        }
        for r in rows
    ]


def timers(s: Storage) -> list[dict[str, Any]]:
    return s.query(*ALARMS_DB, "SELECT * FROM timers ORDER BY _id")


# --- media ---------------------------------------------------------------------------------
def add_media(
    s: Storage,
    path: str,
    mime: str,
    when: datetime,
    title: str = "",
    artist: str = "",
    album: str = "",
    duration: int = 0,
) -> int:
    name = path.rsplit("/", 1)[-1]
    return s.execute(
        *MEDIA_DB,
        "INSERT OR REPLACE INTO files (_data, _display_name, mime_type, date_added, title, "
        "artist, album, duration) VALUES (?,?,?,?,?,?,?,?)",
        (path, name, mime, when.isoformat(timespec="seconds"), title or name, artist, album, duration),
    )


def media(s: Storage, mime_prefix: str = "") -> list[dict[str, Any]]:
    return s.query(
        *MEDIA_DB, "SELECT * FROM files WHERE mime_type LIKE ? ORDER BY title, _id", (mime_prefix + "%",)
    )
