"""Index a world's readable values: each target with the near-miss twins the world already holds.

The generator plants the twins; this module finds them, so a pick can only name
values that are really in the world (a test checks every twin against the data).
Keys are stable (``verification_code/72166``, ``contact_phone/p012``,
``event_time/dentist_appointment/2026-03-14``) and so are the orders of picks.
"""

from __future__ import annotations

import re
from collections import defaultdict

from devicesworld.worlds.desktop import REPORT_VERSIONS, slug
from devicesworld.worlds.model import (
    DesktopWorld,
    HomeWorld,
    Person,
    Persona,
    PhoneWorld,
    Pick,
    Surface,
    WorldValue,
)
from devicesworld.worlds.phone import CODE_SENDERS

_CODE = re.compile(r"(?<!\d)(\d{6})(?!\d)")
_NOTE_FIELD = re.compile(r"^(Garage gate|Password): (\S+)$", re.MULTILINE)
_BUDGET = re.compile(r"Approved budget: (\$[\d,]+)\.")
_RENT = re.compile(r"rent (\$[\d,]+)/month")


def _codes(phone: PhoneWorld) -> list[Pick]:
    by_sender: dict[str, list[WorldValue]] = defaultdict(list)
    services = {number: service for service, number, _ in CODE_SENDERS}
    for m in phone.messages:
        if m.address not in services or m.sent:
            continue
        found = _CODE.search(m.body)
        if found is None:
            continue
        by_sender[m.address].append(
            WorldValue(
                key=f"verification_code/{m.address}/{m.at:%Y-%m-%dT%H:%M}",
                kind="verification_code",
                surface="phone",
                value=found.group(1),
                value_type="text",
                label=f"{services[m.address]} code sent {m.at:%Y-%m-%d %H:%M}",
                fields={"sender": m.address, "service": services[m.address], "at": m.at.isoformat()},
            )
        )
    senders = [n for _, n, _ in CODE_SENDERS if by_sender.get(n)]
    out = []
    for i, number in enumerate(senders):
        codes = sorted(by_sender[number], key=lambda v: v.fields["at"], reverse=True)
        latest = codes[0].model_copy(update={"key": f"verification_code/{number}"})
        other = max(by_sender[senders[(i + 1) % len(senders)]], key=lambda v: v.fields["at"])
        out.append(Pick(target=latest, twins=[*codes[1:], other]))
    return out


def _person_value(p: Person, kind: str, value: str, value_type: str, what: str) -> WorldValue:
    return WorldValue(
        key=f"{kind}/{p.key}",
        kind=kind,
        surface="phone",
        value=value,
        value_type=value_type,
        label=f"{what} of {p.name} ({p.relation})",
        fields={"name": p.name, "first": p.first, "last": p.last, "person": p.key},
    )


def _contacts(people: list[Person]) -> list[Pick]:
    firsts: dict[str, list[Person]] = defaultdict(list)
    lasts: dict[str, list[Person]] = defaultdict(list)
    for p in people:
        firsts[p.first].append(p)
        lasts[p.last].append(p)
    phones, emails, addresses = [], [], []
    for p in people:
        same_first = [q for q in firsts[p.first] if q.key != p.key and q.last != p.last]
        same_last = [q for q in lasts[p.last] if q.key != p.key and q.address != p.address]
        twins = [_person_value(q, "contact_phone", q.phone, "phone", "mobile") for q in same_first]
        if p.phone2:
            work = _person_value(p, "contact_phone", p.phone2, "phone", "work number")
            twins.append(work.model_copy(update={"key": f"contact_phone/{p.key}/work"}))
        if twins:
            phones.append(
                Pick(target=_person_value(p, "contact_phone", p.phone, "phone", "mobile"), twins=twins)
            )
        if same_first and p.email:
            emails.append(
                Pick(
                    target=_person_value(p, "contact_email", p.email, "email", "e-mail"),
                    twins=[_person_value(q, "contact_email", q.email, "email", "e-mail") for q in same_first],
                )
            )
        if same_last and p.address:
            addresses.append(
                Pick(
                    target=_person_value(p, "contact_address", p.address, "text", "address"),
                    twins=[
                        _person_value(q, "contact_address", q.address, "text", "address") for q in same_last
                    ],
                )
            )
    return phones + emails + addresses


def _event_value(kind: str, title: str, date: str, time: str) -> WorldValue:
    value, value_type = (time, "time") if kind == "event_time" else (date, "date")
    return WorldValue(
        key=f"{kind}/{slug(title)}/{date}",
        kind=kind,
        surface="phone",
        value=value,
        value_type=value_type,
        label=f"'{title}' on {date} at {time}",
        fields={"title": title, "date": date, "time": time},
    )


def _events(phone: PhoneWorld) -> list[Pick]:
    """Titles that occur on several days at several times (recurring series repeat one time: no twin)."""
    by_title: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for e in phone.events:
        if not e.series:
            by_title[e.title].append((e.start.strftime("%Y-%m-%d"), e.start.strftime("%H:%M")))
    times, dates = [], []
    for title, occ in by_title.items():
        if len({t for _, t in occ}) < 2 or len({d for d, _ in occ}) < 2:
            continue
        for date, time in occ:
            others = [(d, t) for d, t in occ if d != date]
            other_times = [(d, t) for d, t in others if t != time] or others[:1]
            times.append(
                Pick(
                    target=_event_value("event_time", title, date, time),
                    twins=[_event_value("event_time", title, d, t) for d, t in other_times],
                )
            )
            dates.append(
                Pick(
                    target=_event_value("event_date", title, date, time),
                    twins=[_event_value("event_date", title, d, t) for d, t in others],
                )
            )
    return times + dates


def _song_value(title: str, artist: str, album: str) -> WorldValue:
    return WorldValue(
        key=f"song/{slug(title)}/{slug(artist)}",
        kind="song",
        surface="phone",
        value=artist,
        value_type="name",
        label=f"'{title}' by {artist}",
        fields={"title": title, "artist": artist, "album": album},
    )


def _songs(phone: PhoneWorld) -> list[Pick]:
    """Titles recorded by two artists: the value is the artist (the title is the same)."""
    by_title: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s in phone.songs:
        by_title[s.title].append((s.artist, s.album))
    out = []
    for title, versions in by_title.items():
        if len({a for a, _ in versions}) < 2:
            continue
        for artist, album in versions:
            twins = [_song_value(title, a, b) for a, b in versions if a != artist]
            out.append(Pick(target=_song_value(title, artist, album), twins=twins))
    return out


def _notes(phone: PhoneWorld) -> list[Pick]:
    found: dict[str, list[WorldValue]] = defaultdict(list)
    for note in phone.notes:
        for field, value in _NOTE_FIELD.findall(note.text):
            found[field].append(
                WorldValue(
                    key=f"note/{slug(note.name)}",
                    kind="note",
                    surface="phone",
                    value=value,
                    value_type="text",
                    label=f"{field} in note {note.name}",
                    fields={"name": note.name, "field": field},
                )
            )
    out = []
    for values in found.values():
        current = [v for v in values if not re.search(r"_(old|\d{4})\.md$", v.fields["name"])]
        older = [v for v in values if v not in current]
        if current and older:
            out.append(Pick(target=current[0], twins=older))
    return out


def _file_value(path: str, surface: Surface, label: str, fields: dict[str, str]) -> WorldValue:
    """A file as a value: its path (``fields`` name it too, in the order a report shows them)."""
    return WorldValue(
        key=f"file/{slug(path)}",
        kind="file",
        surface=surface,
        value=path,
        value_type="text",
        label=label,
        fields=fields,
    )


def _newest_of(versions: list[WorldValue]) -> list[Pick]:
    """The last of two or more versions of a file is the target, the earlier ones its twins."""
    return [Pick(target=versions[-1], twins=versions[:-1])] if len(versions) >= 2 else []


def _files(phone: PhoneWorld, desktop: DesktopWorld, persona: Persona) -> list[Pick]:
    out = []
    for project in persona.projects:
        versions = []
        for name in REPORT_VERSIONS:
            path = f"Documents/{project}/{name}"
            doc = next((f for f in desktop.files if f.path == path), None)
            if doc is None:
                continue
            text = " ".join(p for _, paras in doc.sections for p in paras)
            budget = m.group(1) if (m := _BUDGET.search(text)) else ""
            fields = {"project": project, "path": path, "budget": budget, "modified": doc.mtime.isoformat()}
            versions.append(_file_value(path, "desktop", f"{project} report, {name}", fields))
        out += _newest_of(versions)
        ledgers = sorted(
            (f for f in desktop.files if f.path.startswith(f"Documents/{project}/budget_")),
            key=lambda f: f.path,
        )
        out += _newest_of(
            [
                _file_value(
                    f.path,
                    "desktop",
                    f"{project} budget sheet {f.path[-9:-5]}",
                    {"project": project, "path": f.path, "rows": str(len(f.rows) - 1)},
                )
                for f in ledgers
            ]
        )
    leases = sorted((f for f in phone.files if f.path.startswith("Download/lease_")), key=lambda f: f.path)
    out += _newest_of(
        [
            _file_value(
                f.path,
                "phone",
                f"lease {f.path[-8:-4]}",
                {"path": f.path, "rent": m.group(1) if (m := _RENT.search(f.text)) else ""},
            )
            for f in leases
        ]
    )
    return out


def _home(home: HomeWorld) -> list[Pick]:
    out = []
    by_category: dict[str, list[WorldValue]] = defaultdict(list)
    for d in home.devices:
        by_category[d.category].append(
            WorldValue(
                key=f"home_device/{d.device_id}",
                kind="home_device",
                surface="home",
                value=d.device_id,
                value_type="text",
                label=f"{d.name} ({d.room})",
                fields={"category": d.category, "room": d.room, "name": d.name},
            )
        )
    for values in by_category.values():
        for v in values:
            twins = [w for w in values if w.fields["room"] != v.fields["room"]]
            if twins:
                out.append(Pick(target=v, twins=twins))
    readings = [
        WorldValue(
            key=f"room_reading/{r.name}/temperature",
            kind="room_reading",
            surface="home",
            value=r.temperature,
            value_type="number",
            label=f"{r.name} temperature °C",
            fields={"room": r.name, "variable": "temperature", "unit": "°C"},
        )
        for r in home.rooms
    ]
    for v in readings:
        out.append(Pick(target=v, twins=[w for w in readings if w.key != v.key]))
    return out


def build_picks(
    persona: Persona, people: list[Person], phone: PhoneWorld, desktop: DesktopWorld, home: HomeWorld
) -> list[Pick]:
    return [
        *_codes(phone),
        *_contacts(people),
        *_events(phone),
        *_songs(phone),
        *_notes(phone),
        *_files(phone, desktop, persona),
        *_home(home),
    ]
