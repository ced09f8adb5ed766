"""The persona world as data: one person's digital life that every device of a task shares.

A :class:`World` is pure data (pydantic, JSON-able, frozen), built by
:func:`devicesworld.worlds.build_world` from ``(persona_seed, size, start)``. It is
split by *surface* — ``phone``, ``desktop``, ``home`` — not by device kind: each kind's
own package decides which surface it materialises and how (``devices/<kind>/world.py``).
Nothing here knows any kind.

Every value a task may read has near-miss twins in the same world (see
:class:`Pick`): they are built into the data, not added per task.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

DEFAULT_START = datetime(2026, 3, 2, 9, 0, 0)
"""A world's default 'now' (the task format's default ``start_time``)."""
WorldSize = Literal["small", "lived"]
SIZES: tuple[WorldSize, ...] = ("small", "lived")
Surface = Literal["phone", "desktop", "home"]
Relation = Literal["self", "household", "family", "colleague", "friend", "service"]
ValueKind = Literal[
    "verification_code",
    "contact_phone",
    "contact_email",
    "contact_address",
    "event_time",
    "event_date",
    "song",
    "note",
    "file",
    "home_device",
    "room_reading",
]
VALUE_KINDS: tuple[ValueKind, ...] = ValueKind.__args__  # type: ignore[attr-defined]
Member = Literal["partner", "child", "work"]


def omit(data: dict[str, Any], **drop: bool) -> dict[str, Any]:
    """``data`` (a model's dump) without the keys whose flag is true.

    Fields added after files were shipped are left out while unset, so that worlds and
    tasks written before them serialise byte for byte (the model serializers use it).
    """
    for key, gone in drop.items():
        if gone:
            data.pop(key, None)
    return data


MEMBERS: tuple[Member, ...] = ("partner", "child", "work")
"""Whose other worlds a task's further devices can take (docs/worlds.md): the persona's partner, their
eldest child (each the owner of a world of their own in the same household), or ``work``: the persona's
own other machine (the same person and people, its own files, texts and calendar)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- people ----------------------------------------------------------------------------------
class Person(_Frozen):
    key: str = Field(description="Stable id inside the world, e.g. `p07`.")
    first: str
    last: str
    relation: Relation
    phone: str = Field(description="Mobile number, `+1 555 ...` style.")
    phone2: str = Field(default="", description="A second (work) number: two numbers for one person.")
    email: str = ""
    company: str = ""
    address: str = ""
    birthday: str = Field(default="", description="`MM-DD`.")

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


class Persona(_Frozen):
    """The device owner."""

    person: Person
    city: str
    employer: str
    job: str
    home_name: str
    projects: list[str] = Field(description="Work projects, also the names of code/document folders.")


# --- phone -----------------------------------------------------------------------------------
class Sms(_Frozen):
    address: str
    body: str
    at: datetime
    sent: bool = False
    read: bool = True


class Call(_Frozen):
    number: str
    at: datetime
    kind: Literal["incoming", "outgoing", "missed"]
    duration: int = 0


class Event(_Frozen):
    title: str
    start: datetime
    end: datetime
    location: str = ""
    description: str = ""
    series: str = Field(default="", description="Set on every occurrence of a recurring appointment.")


class Song(_Frozen):
    title: str
    artist: str
    album: str
    seconds: int


class Playlist(_Frozen):
    name: str
    songs: list[tuple[str, str]] = Field(description="(title, artist) pairs, in order.")


class Note(_Frozen):
    name: str = Field(description="File name in Markor's folder, e.g. `groceries.md`.")
    text: str


class PhoneFile(_Frozen):
    path: str = Field(description="Relative to /sdcard, e.g. `Download/lease_2025.pdf`.")
    text: str = Field(default="", description="Text content (ignored for pictures and recordings).")
    media: Literal["text", "picture", "recording"] = "text"


class Alarm(_Frozen):
    hour: int
    minute: int
    enabled: bool
    days: list[str]
    label: str


class Place(_Frozen):
    name: str
    address: str
    lat: float
    lon: float
    category: str
    saved: bool


class Page(_Frozen):
    url: str
    title: str
    text: str
    bookmarked: bool = False
    visited: bool = True


class PhoneWorld(_Frozen):
    contacts: list[Person] = Field(description="The contact list (people other than the owner).")
    messages: list[Sms]
    calls: list[Call]
    events: list[Event]
    songs: list[Song]
    playlists: list[Playlist]
    notes: list[Note]
    files: list[PhoneFile]
    alarms: list[Alarm]
    places: list[Place]
    pages: list[Page]


# --- desktop ---------------------------------------------------------------------------------
class DesktopFile(_Frozen):
    """One file of the home folder, described by content; ``format`` picks the writer.

    ``text``/``markdown``/``code``: ``text``; ``csv``/``xlsx``: ``rows`` (xlsx: first sheet
    ``sheet``); ``docx``: ``title`` + ``sections`` (heading, paragraphs) + ``rows`` as a
    table; ``pdf``: ``title`` + paragraphs from ``sections``; ``eml``: ``headers`` + ``text``;
    ``image``: a picture labelled ``title``.
    """

    path: str = Field(description="Relative to the home, e.g. `Documents/report_final.docx`.")
    format: Literal["text", "csv", "xlsx", "docx", "pdf", "eml", "image", "json"]
    text: str = ""
    title: str = ""
    rows: list[list[str | int | float]] = Field(default_factory=list)
    sheet: str = "Sheet1"
    sections: list[tuple[str, list[str]]] = Field(default_factory=list)
    headers: dict[str, str] = Field(default_factory=dict)
    mtime: datetime


class DesktopWorld(_Frozen):
    files: list[DesktopFile]
    shell_history: list[str]
    bookmarks: list[tuple[str, str]] = Field(description="(title, url) pairs.")


# --- home ------------------------------------------------------------------------------------
class Room(_Frozen):
    name: str = Field(description="`snake_case`, e.g. `living_room`.")
    temperature: float
    humidity: float
    pm25: float
    has_window: bool = True


class HomeDevice(_Frozen):
    device_id: str
    category: str = Field(description="One of the 11 smart-home categories.")
    room: str
    name: str
    state: dict[str, Any] = Field(default_factory=dict)


class HomeSchedule(_Frozen):
    device_id: str
    command: str
    params: dict[str, Any] = Field(default_factory=dict)
    at: str = Field(description="`HH:MM` (next occurrence).")


class HomeWorld(_Frozen):
    name: str
    season: Literal["winter", "spring", "summer", "autumn"]
    outdoor_temperature: float
    outdoor_humidity: float
    outdoor_pm25: float
    rooms: list[Room]
    devices: list[HomeDevice]
    schedules: list[HomeSchedule]


# --- values and their twins ------------------------------------------------------------------
class WorldValue(_Frozen):
    """One value of the world an agent can read, with the verifier type to compare it by."""

    key: str = Field(description="Stable id, e.g. `verification_code/2`, `contact_phone/p07`.")
    kind: ValueKind
    surface: Surface
    value: str | int | float = Field(description="The value as the agent reads it.")
    value_type: str = Field(description="Verifier value type: text, phone, email, date, time, number, name.")
    label: str = Field(description="Where it is, for people: `code from Chase, 2 min ago`.")
    fields: dict[str, str] = Field(default_factory=dict, description="The record it comes from.")

    def expected(self) -> dict[str, Any]:
        """The value as a typed expected value (what checks' ``equals``/``distractors`` take)."""
        return {"value": self.value, "type": self.value_type}


class Pick(_Frozen):
    """A target value and its near-miss twins (at least one), all present in the world."""

    target: WorldValue
    twins: list[WorldValue] = Field(min_length=1)

    def distractors(self) -> list[dict[str, Any]]:
        """The twins as a check's ``distractors`` argument."""
        seen: list[dict[str, Any]] = []
        for twin in self.twins:
            e = twin.expected()
            if twin.value != self.target.value and e not in seen:
                seen.append(e)
        return seen


class World(_Frozen):
    """A persona's world: the owner, their people, and what each surface holds."""

    persona_seed: int
    size: WorldSize
    start: datetime = Field(description="The world's 'now': the task's start time.")
    persona: Persona
    people: list[Person] = Field(description="Everyone the owner knows (contacts are drawn from them).")
    phone: PhoneWorld
    desktop: DesktopWorld
    home: HomeWorld
    picks: list[Pick] = Field(description="Targets with their twins, for every value kind.")
    member: Member | None = Field(
        default=None,
        description="The household member whose world this is (None: the persona's own world). "
        "Omitted from the JSON when None, so an owner's world serialises as before members existed.",
    )
    mirrored: bool = Field(
        default=False,
        description="A member's world whose texts with the owner (a child's: also with the partner) are "
        "the other side's, mirrored (worlds/household.py). Omitted from the JSON when false.",
    )

    @model_serializer(mode="wrap")
    def _omit_owner(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return omit(handler(self), member=self.member is None, mirrored=not self.mirrored)

    @property
    def identity(self) -> tuple[int, str, datetime, str, bool]:
        """What tells two worlds apart (the key of the kinds' per-world caches): seed, size, start, member,
        mirrored."""
        return (self.persona_seed, self.size, self.start, self.member or "", self.mirrored)

    def values(self, kind: ValueKind) -> list[Pick]:
        """Every target of one value kind, each with its twins (the first is the canonical one)."""
        return [p for p in self.picks if p.target.kind == kind]

    def pick(self, kind: ValueKind, n: int = 0) -> Pick:
        """The ``n``-th target of a kind (wrapping around), with its twins."""
        found = self.values(kind)
        if not found:
            raise KeyError(f"this world has no {kind} values")
        return found[n % len(found)]

    def value(self, key: str) -> Pick:
        """The pick whose target has this key."""
        for p in self.picks:
            if p.target.key == key:
                return p
        raise KeyError(f"no world value {key!r}")

    def to_json(self) -> str:
        """Canonical JSON (same seed, size and start: the same bytes)."""
        return self.model_dump_json()
