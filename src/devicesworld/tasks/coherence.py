"""The coherence gate: the instruction, every device's world and the checks tell one story (issue #33).

The other gates prove a task can be solved; this one reads the task as a careful person
would and asks whether it makes sense before anyone acts. It runs on the task document
and the persona world it names (no device starts), so it is cheap enough for every task
of ``full``: ``devicesworld tasks validate --gate coherence``.

Rules (each problem names the task, the device and the item; `seeded_times` and `email_identity`
are described at their functions and in docs/scenarios.md):

- ``perspective``: in one message thread, a day or name someone is to "do"/"take" is given
  to one side only. A message seeded as *sent by the user* is read from the user's side
  ("I'll do Tuesday" means the user does Tuesday); if the contact's message gives that
  same day to the contact, the thread contradicts itself (the shift-swap bug).
- ``cited_source``: a person the instruction says messaged, texted, e-mailed or asked the
  user ("Jamie just messaged", "asked me this morning") left a trace the user can read: a
  message *received* from their number on the user's phone, before the start time, or an
  e-mail or note naming them. "this morning" also requires the message to be from today.
- ``identity``: a contact has one number and one name on every device of the task (same
  name, same number; same number, same name), and a contact's e-mail address is their own
  (its local part holds their first or last name).
- ``ambiguous_referent``: a person the instruction names by first name only is one contact
  on the user's phone (the persona world's contacts and the task's own); two messages from
  one sender at the same minute are told apart only by their order. Families whose point
  is the ambiguity (:data:`AMBIGUITY_IS_THE_POINT`) and infeasible variants are exempt.
- ``underspecified_output``: a check wants a title or label the instruction never names
  and no seeded item holds; or an exact time where the instruction says "about".
- ``clock``: a time of day the instruction states ("I'm off to bed", "out for the
  afternoon", "good morning") fits the task's start time.

- ``ambiguous_file``: a file the instruction names by description ("the tax return PDF",
  "the roster spreadsheet") is one seeded file of that type whose name holds the
  description's words, unless the instruction gives its path.
- ``cross_device``: a message seeded between two of the task's devices (addressed to the
  other's own number, :attr:`KindTraits.own_address`) exists on both sides: sent on one,
  received on the other, same text, same minute.

- ``owner_name``: a contact names a person (no "Me", "Contact 1", "Mom?"), and a contact on another
  device for one of the user's own phones carries the user's (the persona's) name.
- ``household_name``: a child the instruction names carries the household's surname.
- ``file_dates``: a file named for a year or month agrees with its dates and the task's start.
- ``mail_dates``: a mail the task seeds that calls itself old (its subject or file name says "last month",
  "last year", "last term" or "last winter", or the file is named for an earlier year) is dated that old.
- ``device_owner``: a phone that takes a person's world (the user's, a partner's, a child's) is known
  on every other phone of the task under that person's one name and one number: the contacts and
  threads that stand for them (at the phone's number, at the person's world number, or under their
  full name) agree; and no two phones take the user's own world (one life on two phones).
- ``mirrored_threads``: a conversation the world of one task phone holds with the owner of another task
  phone (the user and their partner texting) is on both phones: sent on one, received on the other,
  same text, same minute (the worlds' own threads; ``cross_device`` reads the task's seeded ones).
- ``mirrored_calls``: the same for the call log: a call between them is placed on one phone and
  received (or missed, when it went unanswered) on the other, same minute, same length.
- ``household_namesakes``: the user, the household and the family of the task's world have one first
  name each ("text Amber" names one person at home; the world generator keeps to it).

Not yet checked (see docs/scenarios.md): values a check requires that can only be derived
by reasoning, and files of the persona world (only the task's own files are read).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task

if TYPE_CHECKING:
    from devicesworld.worlds.model import Member, Person

RULES = (
    "perspective",
    "cited_source",
    "identity",
    "ambiguous_referent",
    "ambiguous_file",
    "cross_device",
    "underspecified_output",
    "clock",
    "world_dates",
    "seeded_times",
    "email_identity",
    "owner_name",
    "household_name",
    "file_dates",
    "mail_dates",
    "device_owner",
    "mirrored_threads",
    "mirrored_calls",
    "household_namesakes",
)

AMBIGUITY_IS_THE_POINT = frozenset({"text_ambiguous_alex", "which_sam_plumber"})
"""Families that ask the agent to notice an ambiguous name (and ask or refuse)."""

_MESSAGE_OPS = frozenset({"add_contact", "add_sms", "incoming_sms"})


class CoherenceProblem(BaseModel):
    rule: str
    task_id: str
    device: str | None = None
    item: str = ""
    message: str

    def line(self) -> str:
        where = f" on {self.device}" if self.device else ""
        what = f" [{self.item}]" if self.item else ""
        return f"{self.rule}{where}{what}: {self.message}"


class CoherenceReport(BaseModel):
    total: int = 0
    coherent: int = 0
    tasks_per_rule: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(RULES, 0))
    problems: list[CoherenceProblem] = Field(default_factory=list)


@dataclass
class _Contact:
    device: str
    name: str
    phone: str = ""
    email: str = ""

    @property
    def first(self) -> str:
        return self.name.split()[0] if self.name.split() else ""


@dataclass
class _Sms:
    device: str
    address: str
    body: str
    sent: bool
    at: datetime
    seeded: bool = False
    """Set by the task's own setup (not the persona world)."""


@dataclass
class _Facts:
    """What the task's devices hold that the rules read."""

    user_phone: str | None
    start: datetime
    contacts: list[_Contact] = field(default_factory=list)
    messages: list[_Sms] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """Every other seeded text the user can read (files, mails, notes, events), lower-cased."""


def _digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def _user_phone(task: Task) -> str | None:
    """The user's own phone: the device the task seeds contacts or messages on, preferring one that
    takes the persona's own world (not a household member's). Read off the setup ops, not the kind."""
    holders = [
        d.id for d in task.devices if any(s.device == d.id and s.op in _MESSAGE_OPS for s in task.setup)
    ]
    if not holders:
        return None
    world = task.world
    if world is not None:
        takers = world.devices if world.devices is not None else holders
        own = [h for h in holders if h in takers and h not in world.members]
        if own:
            return own[0]
    return holders[0]


def _facts(task: Task, with_world: bool) -> _Facts:
    start = task.start_time
    facts = _Facts(_user_phone(task), start)
    if with_world and task.world is not None and facts.user_phone is not None:
        from devicesworld.worlds.generate import build_world

        world = build_world(task.world.persona_seed, task.world.size, start)
        for p in world.phone.contacts:
            facts.contacts.append(_Contact(facts.user_phone, f"{p.first} {p.last}", p.phone, p.email))
        for s in world.phone.messages:
            facts.messages.append(_Sms(facts.user_phone, s.address, s.body, s.sent, s.at))
    for step in task.setup:
        args = dict(step.args or {})
        if step.op == "add_contact":
            facts.contacts.append(
                _Contact(
                    step.device,
                    str(args.get("name", "")),
                    str(args.get("phone", "")),
                    str(args.get("email", "")),
                )
            )
        elif step.op in ("add_sms", "incoming_sms"):
            at = start - timedelta(minutes=float(args.get("minutes_ago", 0) or 0))
            at += timedelta(seconds=float(args.get("delay_seconds", 0) or 0))
            if isinstance(args.get("at"), str):
                with contextlib.suppress(ValueError):
                    at = datetime.fromisoformat(args["at"])
            facts.messages.append(
                _Sms(
                    step.device,
                    str(args.get("address", "")),
                    str(args.get("body", "")),
                    bool(args.get("sent")),
                    at,
                    seeded=step.op == "add_sms",
                )
            )
        else:
            facts.texts.append(json.dumps(args, ensure_ascii=False).lower())
    return facts


# ------------------------------------------------------------------ perspective
_SELF_DOES = re.compile(
    r"\bI(?:'ll| will)?\s+(?:do|take|cover|work)\s+(?:your\s+|my\s+|the\s+)?([A-Z][a-z]+)"
)
_OTHER_DOES = re.compile(
    r"\byou\s+(?:do|take|cover|work)\s+(?:my\s+|your\s+|the\s+)?([A-Z][a-z]+)", re.IGNORECASE
)


def _perspective(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    threads: dict[tuple[str, str], list[_Sms]] = defaultdict(list)
    for s in facts.messages:
        threads[(s.device, _digits(s.address) or s.address)].append(s)
    for (device, address), messages in threads.items():
        who: dict[str, set[str]] = defaultdict(set)
        for s in messages:
            speaker, other = ("user", "contact") if s.sent else ("contact", "user")
            for m in _SELF_DOES.finditer(s.body):
                who[m.group(1)].add(speaker)
            for m in _OTHER_DOES.finditer(s.body):
                if m.group(1)[0].isupper():
                    who[m.group(1)].add(other)
        for item, parties in sorted(who.items()):
            if len(parties) > 1:
                yield CoherenceProblem(
                    rule="perspective",
                    task_id=task.id,
                    device=device,
                    item=f"thread {address}",
                    message=f"the thread gives {item} to both the user and the contact: "
                    "a message sent by the user must be written from the user's side",
                )


# ------------------------------------------------------------------ cited sources
_NOT_NAMES = frozenset(
    [
        "I",
        "He",
        "She",
        "They",
        "We",
        "It",
        "You",
        "Someone",
        "Somebody",
        "Mum",
        "Mom",
        "Dad",
        "The",
        "My",
        "Our",
        "Your",
        "This",
        "That",
        "Who",
        "Nobody",
        "Everyone",
    ]
)
_CITED = re.compile(
    r"\b([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s+(?:just\s+|has\s+just\s+|already\s+|has\s+)?"
    r"(messaged|texted|wrote|sent me|asked me|e-?mailed|emailed)\b(.{0,40})"
)


def _contacts_named(facts: _Facts, name: str, device: str | None) -> list[_Contact]:
    parts = name.split()
    found = []
    for c in facts.contacts:
        if device is not None and c.device != device:
            continue
        cparts = c.name.split()
        if (len(parts) > 1 and cparts == parts) or (len(parts) == 1 and cparts[:1] == parts):
            found.append(c)
    return found


def _cited_sources(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    today = facts.start.replace(hour=0, minute=0, second=0, microsecond=0)
    for m in _CITED.finditer(task.instruction):
        name, verb, tail = m.group(1), m.group(2), m.group(3)
        if name.split()[0] in _NOT_NAMES:
            continue
        lowered = [n.lower() for n in name.split()]
        wrote = verb.replace("-", "") == "emailed" or verb == "wrote"
        if wrote and any(all(n in t for n in lowered) for t in facts.texts):
            continue
        numbers = {_digits(c.phone) for c in _contacts_named(facts, name, facts.user_phone) if c.phone}
        received = [
            s
            for s in facts.messages
            if s.device == facts.user_phone
            and not s.sent
            and s.at <= facts.start
            and _digits(s.address) in numbers
        ]
        if "this morning" in tail.lower():
            received = [s for s in received if s.at >= today]
        if received:
            continue
        if verb == "asked me" and any(all(n in t for n in lowered) for t in facts.texts):
            continue
        sent_only = any(
            not s.sent and _digits(s.address) in numbers
            for s in facts.messages
            if s.device != facts.user_phone
        ) or any(s.sent and _digits(s.address) in numbers for s in facts.messages)
        why = (
            "only other sides of the conversation hold it"
            if sent_only
            else "no such message is on the user's devices"
        )
        yield CoherenceProblem(
            rule="cited_source",
            task_id=task.id,
            device=facts.user_phone,
            item=name,
            message=f"the instruction says {name} {verb}{' this morning' if 'this morning' in tail.lower() else ''}, "
            f"but {why} (a received message before the start time)",
        )


# ------------------------------------------------------------------ identities
def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def _identity(task: Task, facts: _Facts, own: list[_Contact]) -> Iterable[CoherenceProblem]:
    by_name: dict[str, set[str]] = defaultdict(set)
    by_number: dict[str, set[str]] = defaultdict(set)
    for c in own:
        if c.phone and c.name:
            by_name[c.name].add(_digits(c.phone))
            by_number[_digits(c.phone)].add(c.name)
        if c.email and c.name and "@" in c.email:
            local = _letters(c.email.split("@")[0])
            names = [_letters(p) for p in c.name.split() if len(_letters(p)) > 1]
            if names and not any(n in local for n in names):
                yield CoherenceProblem(
                    rule="identity",
                    task_id=task.id,
                    device=c.device,
                    item=c.name,
                    message=f"{c.name}'s e-mail {c.email} carries another person's name",
                )
    for name, numbers in sorted(by_name.items()):
        if len(numbers) > 1:
            yield CoherenceProblem(
                rule="identity",
                task_id=task.id,
                item=name,
                message=f"{name} has {len(numbers)} different numbers across the task's devices",
            )
    for number, carried in sorted(by_number.items()):
        if len(carried) > 1:
            yield CoherenceProblem(
                rule="identity",
                task_id=task.id,
                item=number,
                message=f"one number carries several names across devices: {', '.join(sorted(carried))}",
            )


# ------------------------------------------------------------------ ambiguous referents
def _family(task: Task) -> str:
    return next((t.split(":", 1)[1] for t in task.metadata.tags if t.startswith("family:")), "")


def _infeasible(task: Task) -> bool:
    composition = task.metadata.composition
    if composition is None:
        return False
    return composition.variant is not None or (
        composition.features is not None and composition.features.infeasible
    )


def _ambiguous(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    if _family(task) in AMBIGUITY_IS_THE_POINT or _infeasible(task):
        return
    phone = facts.user_phone
    mine = [c for c in facts.contacts if c.device == phone]
    firsts = {c.first for c in mine}
    words = re.findall(r"\b[A-Z][a-z]+\b", task.instruction)
    named_full = set(re.findall(r"(?=\b([A-Z][a-z]+ [A-Z][a-z]+)\b)", task.instruction))
    for first in sorted({w for w in words if w in firsts and w not in _NOT_NAMES}):
        if any(n.startswith(first + " ") and n.split()[1] not in _NOT_NAMES for n in named_full):
            continue
        people = {(c.name, _digits(c.phone)) for c in mine if c.first == first}
        if len({n for n, _ in people}) > 1:
            yield CoherenceProblem(
                rule="ambiguous_referent",
                task_id=task.id,
                device=phone,
                item=first,
                message=f"the instruction names {first}, and the phone holds {len(people)} contacts of that "
                f"first name ({', '.join(sorted(n for n, _ in people)[:4])})",
            )
    seen: Counter[tuple[str, str, datetime]] = Counter()
    bodies: dict[tuple[str, str, datetime], set[str]] = defaultdict(set)
    for s in facts.messages:
        if not s.sent:
            key = (s.device, s.address, s.at.replace(second=0, microsecond=0))
            seen[key] += 1
            bodies[key].add(s.body)
    for (device, address, at), n in sorted(seen.items()):
        if n > 1 and len(bodies[(device, address, at)]) > 1:
            yield CoherenceProblem(
                rule="ambiguous_referent",
                task_id=task.id,
                device=device,
                item=f"messages from {address}",
                message=f"{n} different messages from {address} at {at:%H:%M} are told apart only by their order",
            )


# ------------------------------------------------------------------ files
_FILE_NOUNS: dict[str, tuple[str, ...]] = {
    "pdf": (".pdf",),
    "spreadsheet": (".xlsx", ".ods", ".csv"),
    "sheet": (".xlsx", ".ods", ".csv"),
    "document": (".docx", ".odt", ".pdf", ".txt", ".md"),
    "photo": (".png", ".jpg", ".jpeg"),
    "picture": (".png", ".jpg", ".jpeg"),
    "mail": (".eml",),
    "e-mail": (".eml",),
    "email": (".eml",),
}
_FILE_PHRASE = re.compile(
    r"\bthe\s+((?:[A-Za-z][\w-]*\s+){1,3}?)(PDF|spreadsheet|sheet|document|photo|picture|e-?mail|mail)\b",
    re.IGNORECASE,
)
_VAGUE = frozenset(
    [
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "the",
        "a",
        "an",
        "this",
        "that",
        "latest",
        "last",
        "new",
        "old",
        "newest",
        "first",
        "second",
        "other",
        "same",
        "whole",
        "full",
        "airline's",
    ]
)


def _seeded_files(task: Task) -> list[tuple[str, str]]:
    """(device, path) of every file the task's setup writes."""
    out = []
    for step in task.setup:
        path = (step.args or {}).get("path")
        if isinstance(path, str) and "." in path.rsplit("/", 1)[-1]:
            out.append((step.device, path))
    return out


_SUPERSEDED = re.compile(r"old|cancel|expired|draft|backup|copy|previous|superseded", re.IGNORECASE)


def _told_apart(instruction: str, paths: list[str]) -> bool:
    """Whether the instruction picks one of several files that fit its description: it gives the path,
    or a word of one name only ("the 2025 tax return PDF"), or all but one are marked superseded
    in their names ("booking-old.pdf")."""
    if any(path in instruction for path in paths):
        return True
    names = [set(re.findall(r"[a-z0-9]+", p.rsplit("/", 1)[-1].lower().rsplit(".", 1)[0])) for p in paths]
    said = set(re.findall(r"[a-z0-9]+", instruction.lower()))
    own = [n - set.intersection(*names) for n in names]
    if sum(bool(o & said) for o in own) == 1:
        return True
    return sum(not _SUPERSEDED.search(p.rsplit("/", 1)[-1]) for p in paths) == 1


def _ambiguous_files(task: Task) -> Iterable[CoherenceProblem]:
    files = _seeded_files(task)
    for m in _FILE_PHRASE.finditer(task.instruction):
        words = [w.lower().strip("'s") for w in m.group(1).split() if w.lower() not in _VAGUE]
        words = [w for w in words if len(w) >= 3]
        if not words:
            continue
        exts = _FILE_NOUNS[m.group(2).lower()]
        matching = {
            (device, path)
            for device, path in files
            if path.lower().endswith(exts)
            and all(w[:5] in re.sub(r"[^a-z0-9]", " ", path.rsplit("/", 1)[-1].lower()) for w in words)
        }
        if len(matching) > 1 and not _told_apart(task.instruction, sorted(p for _, p in matching)):
            yield CoherenceProblem(
                rule="ambiguous_file",
                task_id=task.id,
                device=sorted(matching)[0][0],
                item=m.group(0),
                message=f"the instruction names {m.group(0)!r}, and {len(matching)} seeded files fit it "
                f"({', '.join(sorted(p for _, p in matching)[:3])})",
            )


# ------------------------------------------------------------------ messages between the task's devices
def _own_addresses(task: Task) -> dict[str, str]:
    from devicesworld.devices.base import traits_of

    out: dict[str, str] = {}
    for d in task.devices:
        try:
            own = traits_of(d.kind).own_address
        except (KeyError, ValueError):
            continue
        address = own(d.id, dict(d.profile or {})) if own is not None else None
        if address:
            out[d.id] = _digits(address)
    return out


def _cross_device(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    addresses = _own_addresses(task)
    owner = {number: device for device, number in addresses.items()}
    seeded = [s for s in facts.messages if s.seeded]
    for s in seeded:
        other = owner.get(_digits(s.address))
        if other is None or other == s.device or s.device not in addresses:
            continue
        twin = [
            t
            for t in seeded
            if t.device == other
            and _digits(t.address) == addresses[s.device]
            and t.sent != s.sent
            and t.body == s.body
            and abs((t.at - s.at).total_seconds()) < 60
        ]
        if not twin:
            side = "sent" if s.sent else "received"
            yield CoherenceProblem(
                rule="cross_device",
                task_id=task.id,
                device=s.device,
                item=f"message to {s.address}" if s.sent else f"message from {s.address}",
                message=f"{s.body[:50]!r} is {side} on {s.device} at {s.at:%H:%M}, but {other} does not hold "
                f"it as {'received' if s.sent else 'sent'} at the same time",
            )


# ------------------------------------------------------------------ underspecified outputs
_ABOUT = re.compile(
    r"\b(?:about|around|roughly|approximately)\s+(?=\d|an?\s+(?:hour|half|quarter)|half\b)|\bor so\b",
    re.IGNORECASE,
)
"""An approximate amount: "about 90 minutes", "around 7", "an hour or so" (not "texted about tonight")."""
_NAMED_ARGS = {"event_exists": "title", "alarm_exists": "label"}


def _underspecified(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    instruction = task.instruction.lower()
    seeded = " ".join(facts.texts) + " " + " ".join(s.body.lower() for s in facts.messages)
    about = _ABOUT.search(task.instruction)
    for cond in task.evaluation.conditions:
        key = _NAMED_ARGS.get(cond.check)
        value = (cond.args or {}).get(key) if key else None
        if isinstance(value, str) and value.strip():
            wanted = value.strip().lower()
            if wanted not in instruction and wanted not in seeded:
                yield CoherenceProblem(
                    rule="underspecified_output",
                    task_id=task.id,
                    device=cond.device,
                    item=cond.id,
                    message=f"the check wants the {key} {value!r}, which the instruction never names",
                )
        start = (cond.args or {}).get("start")
        if about and cond.check == "event_exists" and isinstance(start, str) and "T" in start:
            yield CoherenceProblem(
                rule="underspecified_output",
                task_id=task.id,
                device=cond.device,
                item=cond.id,
                message=f"the instruction says {about.group(0).strip()!r} but the check wants exactly {start}",
            )


# ------------------------------------------------------------------ clocks
_TIMES_OF_DAY: tuple[tuple[re.Pattern[str], int, int, str], ...] = (
    (
        re.compile(r"\b(off to bed|going to bed|heading to bed|about to go to sleep|I'm in bed)\b", re.I),
        20,
        27,
        "bedtime",
    ),
    (
        re.compile(r"\b(call it a day|evening routine|bedtime routine|before I go to sleep)\b", re.I),
        17,
        27,
        "the evening",
    ),
    (re.compile(r"\bout for the afternoon\b", re.I), 11, 17, "the afternoon"),
    (re.compile(r"\bgood morning\b", re.I), 4, 12, "the morning"),
    (re.compile(r"\bgood evening\b", re.I), 17, 24, "the evening"),
    (re.compile(r"\bjust (got|getting) home from work\b", re.I), 14, 24, "after work"),
    (re.compile(r"\b(having|at) lunch\b", re.I), 11, 15, "lunchtime"),
)


def _clock(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    hour = facts.start.hour + facts.start.minute / 60
    for pattern, first, last, meaning in _TIMES_OF_DAY:
        m = pattern.search(task.instruction)
        if m is None:
            continue
        if not (first <= hour < last or first <= hour + 24 < last):
            yield CoherenceProblem(
                rule="clock",
                task_id=task.id,
                item=m.group(0),
                message=f"{m.group(0)!r} speaks of {meaning}, but the task starts at {facts.start:%H:%M}",
            )


# ------------------------------------------------------------------ world dates
SMALL_HOURS = 7
"""A person's world's mail arrives from 07:00 (issue #33: filler at 02:00 read as a bot's). Its texts
keep their drawn times (the shipped tasks' list positions of them depend on them), so only "not after
the start" is asked of them."""


def _world_dates(task: Task) -> Iterable[CoherenceProblem]:
    """The persona world's dated filler is in the task's past and its mail on waking hours: no file,
    mail or text dated after the start, no mail in the small hours (the world is built at the
    task's start, so this holds for every task of a world generator that keeps to it)."""
    if task.world is None:
        return
    from devicesworld.worlds.generate import build_world

    start = task.start_time
    world = build_world(task.world.persona_seed, task.world.size, start)
    for f in world.desktop.files:
        if f.mtime > start:
            yield CoherenceProblem(
                rule="world_dates",
                task_id=task.id,
                item=f.path,
                message=f"the world's ~/{f.path} is dated {f.mtime:%Y-%m-%d %H:%M}, after the task starts",
            )
        elif f.format == "eml" and f.mtime.hour < SMALL_HOURS and "Drafts/" not in f.path:
            yield CoherenceProblem(
                rule="world_dates",
                task_id=task.id,
                item=f.path,
                message=f"the world's mail ~/{f.path} arrived at {f.mtime:%H:%M}, in the small hours",
            )
    for m in world.phone.messages:
        if m.at > start:
            yield CoherenceProblem(
                rule="world_dates",
                task_id=task.id,
                item=m.address,
                message=f"a text from {m.address} is dated {m.at:%Y-%m-%d %H:%M}, after the task starts",
            )


def _household_namesakes(task: Task) -> Iterable[CoherenceProblem]:
    """Two of the user's household and family (the user included) who share a first name: an
    instruction that names one of them ("ask Amber") would name both."""
    if task.world is None:
        return
    from devicesworld.worlds.generate import build_world

    world = build_world(task.world.persona_seed, task.world.size, task.start_time)
    close = [world.persona.person, *(p for p in world.people if p.relation in ("household", "family"))]
    seen: dict[str, str] = {}
    for person in close:
        full = f"{person.first} {person.last}"
        if person.first in seen:
            yield CoherenceProblem(
                rule="household_namesakes",
                task_id=task.id,
                item=person.first,
                message=f"{full} ({person.relation}) shares a first name with {seen[person.first]}",
            )
        else:
            seen[person.first] = f"{full} ({person.relation})"


# ------------------------------------------------------------------ seeded times
NIGHT_HOURS = (0, 6)
"""[first, last) hours in which nobody texts, calls or shops (issue #33: "just now" at 03:00, a
friend's text 240 minutes before a 09:00 start); a family's own seeded item never lands there."""
RECENT_MINUTES = 60
""""just now" / "just landed" in a message, or "X just messaged" in the instruction: at most this old."""

_SAYS_TODAY = re.compile(r"\b(today|tonight|this (?:morning|afternoon|evening))\b", re.IGNORECASE)
_SAYS_JUST = re.compile(
    r"\b(just now|right now|just (?:landed|arrived|got in|got here|left))\b", re.IGNORECASE
)
_SAYS_HOURS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    (re.compile(r"\bgood morning\b", re.IGNORECASE), 5, 12),
    (re.compile(r"\bgood (?:evening|night)\b", re.IGNORECASE), 17, 24),
)


@dataclass(frozen=True)
class _Timed:
    device: str
    what: str
    """"a text from X", "a call with X": how the problem names the item."""
    body: str
    at: datetime
    minutes_ago: float


def _timed_items(task: Task) -> list[_Timed]:
    """The task's own seeded past messages and calls, at the time the devices give them (the start
    time minus ``minutes_ago``); texts that arrive during the task are not in the past."""
    out = []
    for step in task.setup:
        args = dict(step.args or {})
        if step.op not in ("add_sms", "add_call") or "minutes_ago" not in args:
            continue
        with contextlib.suppress(TypeError, ValueError):
            ago = float(args["minutes_ago"])
            if step.op == "add_sms":
                side = "to" if args.get("sent") else "from"
                what, body = f"a text {side} {args.get('address', '')}", str(args.get("body", ""))
            else:
                what, body = f"a call with {args.get('number', '')}", ""
            out.append(_Timed(step.device, what, body, task.start_time - timedelta(minutes=ago), ago))
    return out


def _seeded_times(task: Task) -> Iterable[CoherenceProblem]:
    """A seeded message or call lands at a time a person would live it: not in the night, on the day
    its words name ("today", "tonight"), recent when it says "just now", and in the part of the day
    its greeting names."""
    start = task.start_time
    for item in _timed_items(task):
        when = f"{item.at:%a %d %b %H:%M}"

        def problem(message: str, item: _Timed = item) -> CoherenceProblem:
            said = f"{item.body[:50]!r} " if item.body else ""
            return CoherenceProblem(
                rule="seeded_times",
                task_id=task.id,
                device=item.device,
                item=item.what,
                message=said + message,
            )

        if NIGHT_HOURS[0] <= item.at.hour < NIGHT_HOURS[1]:
            yield problem(
                f"lands at {when}, in the night ({item.minutes_ago:g} minutes before a {start:%H:%M} start)"
            )
            continue
        today = _SAYS_TODAY.search(item.body)
        if today and item.at.date() != start.date():
            yield problem(
                f"says {today.group(0)!r} but is dated {when}, not the task's day ({start:%a %d %b})"
            )
        just = _SAYS_JUST.search(item.body)
        if just and item.minutes_ago > RECENT_MINUTES:
            yield problem(
                f"says {just.group(0)!r} but was sent {item.minutes_ago:g} minutes before the start"
            )
        for pattern, first, last in _SAYS_HOURS:
            m = pattern.search(item.body)
            if m and not first <= item.at.hour < last:
                yield problem(f"says {m.group(0)!r} but is dated {when}")


_CITED_RECENT = re.compile(
    r"\b([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s+(?:has\s+)?just\s+(messaged|texted|wrote|sent me|asked me)\b"
)


def _cited_recently(task: Task, facts: _Facts) -> Iterable[CoherenceProblem]:
    """ "Jamie just messaged": Jamie's newest received message is at most :data:`RECENT_MINUTES` old."""
    for m in _CITED_RECENT.finditer(task.instruction):
        name = m.group(1)
        if name.split()[0] in _NOT_NAMES:
            continue
        numbers = {_digits(c.phone) for c in _contacts_named(facts, name, facts.user_phone) if c.phone}
        received = [
            s.at
            for s in facts.messages
            if s.device == facts.user_phone and not s.sent and _digits(s.address) in numbers and s.seeded
        ]
        if not received:
            continue  # cited_source names a missing message
        age = (facts.start - max(received)).total_seconds() / 60
        if age > RECENT_MINUTES:
            yield CoherenceProblem(
                rule="seeded_times",
                task_id=task.id,
                device=facts.user_phone,
                item=name,
                message=f"the instruction says {name} just {m.group(2)}, but their newest message is "
                f"{age:g} minutes old",
            )


# ------------------------------------------------------------------ e-mail identities
PLACEHOLDER_LOCALS = frozenset(
    {
        "user",
        "me",
        "myself",
        "partner",
        "manager",
        "boss",
        "friend",
        "colleague",
        "someone",
        "person",
        "test",
        "mum",
        "mom",
        "dad",
        "wife",
        "husband",
        "john.doe",
        "jane.doe",
        "name",
        "owner",
    }
)
"""Local parts that stand for a person without naming one (``user@example.com``, ``partner@…``)."""
PLACEHOLDER_DOMAINS = frozenset({"example.com"})
"""A domain no person of a task uses: people have ``first.last@example.org`` (scenario families) or
their world's address; services have their own (``noreply@airline.example``)."""

_ADDRESS = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def _addresses(obj: Any) -> Iterable[str]:
    if isinstance(obj, str):
        yield from _ADDRESS.findall(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _addresses(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _addresses(v)


def _email_identity(task: Task, own: list[_Contact]) -> Iterable[CoherenceProblem]:
    """Every address the task seeds or checks belongs to someone: not a placeholder (``user@``,
    ``me@example.com``), and one person has one address on every device (same name, same address)."""
    seen: dict[str, str | None] = {}
    for step in task.setup:
        for address in _addresses(step.args or {}):
            seen.setdefault(address, step.device)
    for cond in task.evaluation.conditions:
        for address in _addresses(cond.args or {}):
            seen.setdefault(address, cond.device)
    for address, device in sorted(seen.items()):
        local, _, domain = address.lower().partition("@")
        if local in PLACEHOLDER_LOCALS or domain in PLACEHOLDER_DOMAINS:
            why = (
                "stands for a person but names none"
                if local in PLACEHOLDER_LOCALS
                else "is a placeholder domain"
            )
            yield CoherenceProblem(
                rule="email_identity",
                task_id=task.id,
                device=device,
                item=address,
                message=f"the address {address} {why}: a person's address carries their name "
                "(the user's is their world's own)",
            )
    by_name: dict[str, set[str]] = defaultdict(set)
    for c in own:
        if c.email and c.name:
            by_name[c.name].add(c.email.lower())
    for name, emails in sorted(by_name.items()):
        if len(emails) > 1:
            yield CoherenceProblem(
                rule="email_identity",
                task_id=task.id,
                item=name,
                message=f"{name} has {len(emails)} different e-mail addresses across the task's devices "
                f"({', '.join(sorted(emails))})",
            )


# ------------------------------------------------------------------ the names of the task's people
PLACEHOLDER_NAMES = frozenset(
    {
        "me",
        "myself",
        "i",
        "you",
        "mine",
        "my number",
        "my phone",
        "user",
        "owner",
        "unknown",
        "someone",
        "somebody",
        "test",
        "contact",
        "new contact",
        "no name",
    }
)
"""Contact names that stand for a person without naming one (issue #33: the partner's phone stores the
user as "Me"). Kinship and trade names people do store ("Mum", "Plumber") are not among them."""
_NUMBERED_PLACEHOLDER = re.compile(
    r"^(?:contact|number|person|phone|user|unknown|name)\s*#?\d+$", re.IGNORECASE
)


def placeholder_name(name: str) -> bool:
    """Whether a contact's name names nobody: "Me", "Contact 1", "Mom?" (a guess), digits or nothing."""
    text = name.strip()
    return (
        not re.search(r"[A-Za-z]", text)
        or text.lower() in PLACEHOLDER_NAMES
        or bool(_NUMBERED_PLACEHOLDER.match(text))
        or "?" in text
    )


def _persona(task: Task) -> Person | None:
    """The user (the world's persona), or None for a task without a world."""
    if task.world is None:
        return None
    from devicesworld.worlds.generate import build_world

    return build_world(task.world.persona_seed, task.world.size, task.start_time).persona.person


def _persona_devices(task: Task) -> set[str]:
    """The user's own devices: those taking the persona's world (by default the first of each kind) and
    the persona's `work` machines; a member's device (partner, child) is another person's."""
    return {d for d, member in _worlds_taken(task).items() if member in (None, "work")}


def _names_person(name: str, person: Person) -> bool:
    """A contact name that is this person's: their first name or full name (a label in brackets aside)."""
    words = [w.lower() for w in re.sub(r"\([^)]*\)", " ", name).split()]
    return words in ([person.first.lower()], [person.first.lower(), person.last.lower()])


def _owner_names(task: Task, persona: Person | None) -> Iterable[CoherenceProblem]:
    """Every contact the task seeds names a person (no "Me", "Contact 1", "Mom?"), and a contact on
    another device for one of the user's own phones carries the user's name (the persona's)."""
    owner = {number: device for device, number in _own_addresses(task).items()}
    mine = _persona_devices(task)
    for step in task.setup:
        if step.op != "add_contact":
            continue
        args = step.args or {}
        name, phone = str(args.get("name", "")), str(args.get("phone", ""))
        device = owner.get(_digits(phone))
        user = f" (the user: {persona.name})" if persona is not None and device in mine else ""
        if placeholder_name(name):
            yield CoherenceProblem(
                rule="owner_name",
                task_id=task.id,
                device=step.device,
                item=name or "(no name)",
                message=f"the contact {name!r} ({phone}) stands for a person without naming them: "
                f"a contact carries the name of the person it stands for{user}",
            )
        elif (
            persona is not None
            and device in mine
            and device != step.device
            and not _names_person(name, persona)
        ):
            yield CoherenceProblem(
                rule="owner_name",
                task_id=task.id,
                device=step.device,
                item=name,
                message=f"the contact {name!r} is the number of {device}, the user's own phone, but the user "
                f"is {persona.name}",
            )


_CHILD_NAMED = re.compile(
    r"\b(?:[Mm]y|[Oo]ur)\s+(daughter|son|kid|child|stepdaughter|stepson),?\s+([A-Z][a-z]+)\b"
)


def _household_names(task: Task, facts: _Facts, persona: Person | None) -> Iterable[CoherenceProblem]:
    """A child the instruction names ("my daughter Maya") carries the household's surname in the user's
    contacts (the persona's), unless the contact gives no surname (issue #33: "Maya Brooks" in the
    Wu household with nothing saying why)."""
    if persona is None or facts.user_phone is None:
        return
    seeded = {str((s.args or {}).get("name", "")) for s in task.setup if s.op == "add_contact"}
    for m in _CHILD_NAMED.finditer(task.instruction):
        relation, first = m.group(1), m.group(2)
        for c in facts.contacts:
            parts = c.name.split()
            if c.device != facts.user_phone or c.name not in seeded or len(parts) < 2 or parts[0] != first:
                continue
            if parts[-1].lower() != persona.last.lower():
                yield CoherenceProblem(
                    rule="household_name",
                    task_id=task.id,
                    device=c.device,
                    item=c.name,
                    message=f"the instruction calls {first} the user's {relation}, but the "
                    f"contact's surname is not the household's ({persona.last})",
                )


# ------------------------------------------------------------------ dates in file names
_NAME_YEAR = re.compile(r"(?<!\d)(20\d\d)(?:[-_]?(0[1-9]|1[0-2]))?(?!\d)")
YEAR_SPAN = 5
"""A number in a file name is read as a year within this many years of the start (``invoice_2040.pdf``
is an invoice number)."""
_PLAN = re.compile(r"budget|plan|forecast|schedule|timetable", re.IGNORECASE)
"""Files about a year ahead: a budget may be made before its year and list what is still to come."""
_ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_PERIOD = re.compile(r"\b(\d{1,2})\s*[-\u2013]\s*(\d{1,2})\s+(" + "|".join(_MONTHS) + r")\b")


def _name_dates(path: str, start: datetime) -> list[tuple[int, int | None]]:
    """(year, month or None) a file's name carries ("expenses_2026.csv", "invoice-2026-03.pdf")."""
    name = path.rsplit("/", 1)[-1]
    out = []
    for m in _NAME_YEAR.finditer(name):
        year = int(m.group(1))
        if abs(year - start.year) <= YEAR_SPAN:
            out.append((year, int(m.group(2)) if m.group(2) else None))
    return out


def _file_date_problem(task: Task, device: str | None, path: str, message: str) -> CoherenceProblem:
    return CoherenceProblem(rule="file_dates", task_id=task.id, device=device, item=path, message=message)


def _world_file_dates(task: Task) -> Iterable[CoherenceProblem]:
    """The persona world's files agree with the years and months their names carry (issue #33:
    ``expenses_2026.csv`` dated 2025): not saved before that year or month began (a plan aside), its
    dated rows in that year, and a sheet's records not after the file was saved (a report may list
    milestones ahead, a budget what is still to come)."""
    if task.world is None:
        return
    from devicesworld.worlds.generate import build_world

    start = task.start_time
    world = build_world(task.world.persona_seed, task.world.size, start)
    for f in world.desktop.files:
        plan = bool(_PLAN.search(f.path.rsplit("/", 1)[-1]))
        named = _name_dates(f.path, start)
        for year, month in named:
            if not plan and (f.mtime.year, f.mtime.month if month else 0) < (year, month or 0):
                yield _file_date_problem(
                    task,
                    None,
                    f.path,
                    f"~/{f.path} is named for {year}{f'-{month:02d}' if month else ''} "
                    f"but dated {f.mtime:%Y-%m-%d}",
                )
        days = [
            datetime.fromisoformat(cell)
            for row in f.rows[1:]
            for cell in row
            if isinstance(cell, str) and _ISO_DAY.fullmatch(cell)
        ]
        years = {year for year, _ in named}
        other = [d for d in days if years and d.year not in years]
        later = [d for d in days if not plan and f.format in ("csv", "xlsx") and d > f.mtime]
        if other:
            yield _file_date_problem(
                task,
                None,
                f.path,
                f"~/{f.path} is named for {min(years)} but {len(other)} of its rows are "
                f"dated in another year (e.g. {other[0]:%Y-%m-%d})",
            )
        if later:
            yield _file_date_problem(
                task,
                None,
                f.path,
                f"~/{f.path} was saved {f.mtime:%Y-%m-%d} but records {len(later)} rows "
                f"dated after it (e.g. {max(later):%Y-%m-%d})",
            )


def _file_texts(args: dict[str, Any]) -> str:
    keys = ("title", "paragraphs", "body", "content", "subject", "text", "rows", "sections")
    return " ".join(json.dumps(args[k], ensure_ascii=False) for k in keys if k in args)


def _task_file_dates(task: Task) -> Iterable[CoherenceProblem]:
    """A file the task seeds (written at the start) is not named for a year or month after the start,
    says "last year" / "this year" of the year its name carries, and speaks of no period ("used 1-31
    March") that has not ended by the start."""
    start = task.start_time
    for step in task.setup:
        args = dict(step.args or {})
        path = args.get("path")
        if not isinstance(path, str):
            continue
        text = _file_texts(args)
        for year, month in _name_dates(path, start):
            if (year, month or 0) > (start.year, start.month if month else 0):
                yield _file_date_problem(
                    task,
                    step.device,
                    path,
                    f"{path} is named for a time after the task starts ({start:%Y-%m-%d})",
                )
            for said, meant in (("last year", start.year - 1), ("this year", start.year)):
                if said in text.lower() and year != meant:
                    yield _file_date_problem(
                        task,
                        step.device,
                        path,
                        f"{path} is named for {year} but says {said!r} (the task starts in {start.year})",
                    )
        for m in _PERIOD.finditer(text):
            with contextlib.suppress(ValueError):
                end = datetime(start.year, _MONTHS.index(m.group(3)) + 1, int(m.group(2)), 23, 59)
                if start < end <= start + timedelta(days=62):
                    yield _file_date_problem(
                        task,
                        step.device,
                        path,
                        f"{path} speaks of {m.group(0)!r}, a period that has not "
                        f"ended when the task starts ({start:%Y-%m-%d})",
                    )


# ------------------------------------------------------------------ how old a seeded mail is
SEEDED_MAIL_MINUTES = 60.0
"""How long before the start a ``write_eml`` without ``minutes_ago`` is dated (the linux kind's default)."""
OLD_SEASON_DAYS = 28
"""A mail from "last term" or "last winter" is at least this old."""
_SAYS_OLD = re.compile(r"\blast[\s_-]+(month|year|term|winter)\b", re.IGNORECASE)


def _mail_dates(task: Task) -> Iterable[CoherenceProblem]:
    """A mail that calls itself old is dated that old (issue #33: "last month's booking" and last
    term's gift mail listed as today's in the mail client). Read off the mail's subject and file
    name (a body may speak of last year in a mail sent today): "last month" is dated before the
    start's month, "last year" and a file named for an earlier year in an earlier year, "last term"
    and "last winter" at least :data:`OLD_SEASON_DAYS` before the start."""
    start = task.start_time
    for step in task.setup:
        if step.op != "write_eml":
            continue
        args = dict(step.args or {})
        path = str(args.get("path") or "")
        name = path.rsplit("/", 1)[-1]
        try:
            at = start - timedelta(minutes=float(args.get("minutes_ago", SEEDED_MAIL_MINUTES)))
        except (TypeError, ValueError):
            continue
        month = start.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        season = start - timedelta(days=OLD_SEASON_DAYS)
        said = [
            (m.group(0), m.group(1).lower()) for m in _SAYS_OLD.finditer(f"{args.get('subject', '')} {name}")
        ]
        said += [(str(y), str(y)) for y, _ in _name_dates(name, start) if y < start.year]
        for words, kind in said:
            too_new = {
                "month": at >= month,
                "year": at.year >= start.year,
                "term": at > season,
                "winter": at > season,
            }.get(kind, kind.isdigit() and at.year > int(kind))
            if too_new:
                yield CoherenceProblem(
                    rule="mail_dates",
                    task_id=task.id,
                    device=step.device,
                    item=path or str(args.get("subject", "")),
                    message=f"the mail says {words!r} but is dated {at:%Y-%m-%d %H:%M}, "
                    f"{(start - at) / timedelta(days=1):.3g} day(s) before the start: give its op a "
                    "minutes_ago that old",
                )


# ------------------------------------------------------------------ the owners of the task's phones
def _worlds_taken(task: Task) -> dict[str, Member | None]:
    """Device id -> the world it takes: None for the persona's own, the member for a member's phone or
    machine; a device taking no world is absent (``world.without``, a further device of no member)."""
    world = task.world
    if world is None:
        return {}
    ids = [d.id for d in task.devices]
    own = set(world.devices) if world.devices is not None else {i for i in ids if i.rsplit("_", 1)[-1] == "0"}
    taken: dict[str, Member | None] = {d: None for d in ids if d in own and d not in world.members}
    taken.update(world.members)
    return taken


@dataclass
class _Held:
    """What one phone holds that names people: its contacts (name, digits, whether the task seeded it)
    and the numbers of its threads."""

    contacts: list[tuple[str, str, bool]] = field(default_factory=list)
    threads: set[str] = field(default_factory=set)


def _phones_held(task: Task, phones: Iterable[str], taken: dict[str, Member | None]) -> dict[str, _Held]:
    """Each phone's contacts and threads: the world it takes (if any), then the task's own setup."""
    from devicesworld.worlds.generate import build_world

    assert task.world is not None
    held: dict[str, _Held] = {}
    for phone in phones:
        h = held[phone] = _Held()
        if phone in taken:
            member = taken[phone]
            model = build_world(
                task.world.persona_seed, task.world.size, task.start_time, member, task.world.mirrored
            )
            h.contacts += [(p.name, _digits(p.phone), False) for p in model.phone.contacts]
            h.threads |= {_digits(m.address) for m in model.phone.messages}
    for step in task.setup:
        args = step.args or {}
        if step.device not in held:
            continue
        if step.op == "add_contact":
            name, number = str(args.get("name", "")), _digits(str(args.get("phone", "")))
            held[step.device].contacts.append((name, number, True))
        elif step.op in ("add_sms", "incoming_sms"):
            held[step.device].threads.add(_digits(str(args.get("address", ""))))
    return held


def _device_owners(task: Task) -> Iterable[CoherenceProblem]:
    """A phone that takes a person's world is that person's (the persona's own phones and `work` ones
    the user's; a member's phone the partner's or child's). On every other phone of the task, the
    contacts and threads standing for that person - at one of their phones' numbers, at their
    number in the world, or seeded by the task under their full name (a world's namesake, a parent
    called like the persona, is another person) - give one name that is theirs (first or full,
    a bracketed label aside) and one number that is their phone's (issue #33: the partner "Kevin Wu"
    at the world's number and "Jordan" at +15551001 on the same phone)."""
    world = task.world
    if world is None:
        return
    from devicesworld.worlds.generate import build_world

    addresses = _own_addresses(task)
    taken = _worlds_taken(task)
    twins = sorted(phone for phone in addresses if phone in taken and taken[phone] is None)
    for phone in twins[1:]:
        yield CoherenceProblem(
            rule="device_owner",
            task_id=task.id,
            device=phone,
            item="world",
            message=f"{phone} takes the user's own world as {twins[0]} does: two phones with one life "
            "(the same texts and contacts); another person's phone takes their own world "
            "(`world.members`), the user's second phone its `work` one",
        )
    owners: dict[str, Person] = {}
    for phone in addresses:
        if phone in taken:
            member = taken[phone]
            member = member if member in ("partner", "child") else None
            owners[phone] = build_world(
                world.persona_seed, world.size, task.start_time, member
            ).persona.person
    if not owners:
        return
    held = _phones_held(task, addresses, taken)
    people = {p.name: p for p in owners.values()}
    for name, person in sorted(people.items()):
        theirs = {phone for phone, p in owners.items() if p.name == name}
        numbers = {addresses[phone] for phone in theirs}
        known = numbers | {_digits(person.phone)}
        for other in sorted(set(addresses) - theirs):
            h = held[other]
            named = [
                (n, num)
                for n, num, seeded in h.contacts
                if num in known or (seeded and n.strip().lower() == name.lower())
            ]
            seen = {num for _, num in named if num} | (h.threads & known)
            stray = sorted(seen - numbers)
            if stray and seen & numbers:
                yield CoherenceProblem(
                    rule="device_owner",
                    task_id=task.id,
                    device=other,
                    item=name,
                    message=f"{name} owns {', '.join(sorted(theirs))} (+{', +'.join(sorted(numbers))}) but "
                    f"{other} also knows them at +{', +'.join(stray)}: one person, one number",
                )
            names = sorted({n for n, _ in named})
            wrong = [n for n in names if not _names_person(n, person)]
            if wrong or len(names) > 1:
                yield CoherenceProblem(
                    rule="device_owner",
                    task_id=task.id,
                    device=other,
                    item=name,
                    message=f"{name} owns {', '.join(sorted(theirs))}, but {other} stores them as "
                    f"{', '.join(repr(n) for n in names)}: one person, one name, theirs",
                )


@dataclass
class _Household:
    """The phones of a task that take a household member's world, with their worlds and owners."""

    phones: list[str]
    worlds: dict[str, Any]
    owner: dict[str, str]
    reach: dict[str, set[str]]
    """A person's numbers: their phone's and their world's."""


def _household(task: Task) -> _Household | None:
    """The task's phones that take a person's world, when two or more do (else ``None``)."""
    world = task.world
    if world is None:
        return None
    from devicesworld.worlds.generate import build_world

    addresses = _own_addresses(task)
    taken = _worlds_taken(task)
    phones = sorted(p for p in addresses if p in taken)
    if len(phones) < 2:
        return None
    worlds = {
        p: build_world(world.persona_seed, world.size, task.start_time, taken[p], world.mirrored)
        for p in phones
    }
    owner = {p: worlds[p].persona.person.name for p in phones}
    reach: dict[str, set[str]] = defaultdict(set)
    for p in phones:
        reach[owner[p]] |= {addresses[p], _digits(worlds[p].persona.person.phone)}
    return _Household(phones, worlds, owner, reach)


Side = tuple[str, tuple[object, ...], datetime]
"""A text or call as one phone holds it: the other person's number (digits), what it is, when."""


def _one_sided(
    house: _Household,
    reach: dict[str, set[str]],
    held: dict[str, list[Side]],
    expected: dict[str, list[tuple[Side, Any]]],
) -> Iterator[tuple[str, str, list[str], Any]]:
    """``(phone, other person, their phones, item)`` for each item a phone's world holds with the owner of
    another task phone that none of that owner's phones holds as its other side (``expected``: per phone,
    the other side each item should have, with the item; ``held``: what each phone holds) at that minute."""
    owner = house.owner
    for p in house.phones:
        for q_name in sorted({owner[q] for q in house.phones} - {owner[p]}):
            theirs = [q for q in house.phones if owner[q] == q_name]
            for (number, what, when), item in expected[p]:
                if number not in reach[q_name]:
                    continue
                if not any(
                    back in reach[owner[p]] and kind == what and abs(at - when) < timedelta(minutes=1)
                    for q in theirs
                    for back, kind, at in held[q]
                ):
                    yield p, q_name, theirs, item


def _seeded_sides(task: Task, op: str, held: dict[str, list[Side]], side: Any) -> None:
    """Add what the task's setup seeds with ``op`` on each phone to ``held`` (``side(args, at)``)."""
    for step in task.setup:
        args = step.args or {}
        if step.op == op and step.device in held:
            at = task.start_time - timedelta(minutes=float(args.get("minutes_ago", 60) or 0))
            held[step.device].append(side(args, at))


def _mirrored_threads(task: Task) -> Iterable[CoherenceProblem]:
    """Each phone taking a person's world (the user's, a partner's, a child's) holds that world's texts;
    a text between two people who both own a phone of the task is on both phones, sent on one and
    received on the other at the same minute, with the same words (issue #33 rule 2: the user's world
    and the partner's world each drew their own half of one household's conversation). A person is
    reached at their phone's number or their number in the world; the other side may hold the text
    in its world or in the task's seeded texts."""
    house = _household(task)
    if house is None:
        return
    messages = {p: house.worlds[p].phone.messages for p in house.phones}
    held: dict[str, list[Side]] = {
        p: [(_digits(m.address), (m.body, m.sent), m.at) for m in messages[p]] for p in house.phones
    }
    _seeded_sides(
        task,
        "add_sms",
        held,
        lambda args, at: (
            _digits(str(args.get("address", ""))),
            (str(args.get("body", "")), bool(args.get("sent"))),
            at,
        ),
    )
    expected: dict[str, list[tuple[Side, Any]]] = {
        p: [((_digits(m.address), (m.body, not m.sent), m.at), m) for m in messages[p]] for p in messages
    }
    for p, q_name, theirs, m in _one_sided(house, house.reach, held, expected):
        yield CoherenceProblem(
            rule="mirrored_threads",
            task_id=task.id,
            device=p,
            item=f"{house.owner[p]} - {q_name}",
            message=f"{m.body[:50]!r} is {'sent to' if m.sent else 'received from'} {q_name} on {p} "
            f"at {m.at:%Y-%m-%d %H:%M} (its world), but {', '.join(theirs)} does not hold it "
            f"{'received' if m.sent else 'sent'} at that minute: one conversation, both phones",
        )


def _mirrored_calls(task: Task) -> Iterable[CoherenceProblem]:
    """A call between two people who both own a phone of the task is in both call logs at the same
    minute: placed on one, received (or missed) on the other, for as long (``mirrored_threads`` for the
    call log; worlds/household.py). The other side may hold it in its world or in the task's seeded
    calls (``add_call``)."""
    from devicesworld.worlds.household import mirrored_call

    house = _household(task)
    if house is None:
        return
    reach = {name: set(numbers) for name, numbers in house.reach.items()}
    for p in house.phones:  # a call may be to a person's second (work) number
        if house.worlds[p].persona.person.phone2:
            reach[house.owner[p]].add(_digits(house.worlds[p].persona.person.phone2))
    calls = {p: house.worlds[p].phone.calls for p in house.phones}
    held: dict[str, list[Side]] = {
        p: [(_digits(c.number), (c.kind, c.duration), c.at) for c in calls[p]] for p in house.phones
    }
    _seeded_sides(
        task,
        "add_call",
        held,
        lambda args, at: (
            _digits(str(args.get("number", ""))),
            (str(args.get("kind", "incoming")), int(args.get("duration", 60) or 0)),
            at,
        ),
    )
    expected: dict[str, list[tuple[Side, Any]]] = {p: [] for p in calls}
    for p in calls:
        for c in calls[p]:
            other = mirrored_call(c, c.number)
            expected[p].append(((_digits(c.number), (other.kind, other.duration), c.at), c))
    for p, q_name, theirs, c in _one_sided(house, reach, held, expected):
        other = mirrored_call(c, c.number)
        yield CoherenceProblem(
            rule="mirrored_calls",
            task_id=task.id,
            device=p,
            item=f"{house.owner[p]} - {q_name}",
            message=f"{'an' if c.kind[0] in 'aeiou' else 'a'} {c.kind} call with {q_name} ({c.duration} s) "
            f"is on {p} at {c.at:%Y-%m-%d %H:%M} (its world), but {', '.join(theirs)} does not log it "
            f"{other.kind} at that minute: one call, both phones",
        )


# ------------------------------------------------------------------ the gate
def coherence_problems(task: Task, *, with_world: bool = True) -> list[CoherenceProblem]:
    """Every problem of one task (empty when it is coherent)."""
    facts = _facts(task, with_world)
    own = (
        [c for c in facts.contacts if c not in _world_contacts(task, facts)] if with_world else facts.contacts
    )
    found: list[CoherenceProblem] = []
    found += _perspective(task, facts)
    found += _cited_sources(task, facts)
    found += _identity(task, facts, own)
    found += _ambiguous(task, facts)
    found += _ambiguous_files(task)
    found += _cross_device(task, facts)
    found += _underspecified(task, facts)
    found += _clock(task, facts)
    found += _seeded_times(task)
    found += _cited_recently(task, facts)
    found += _email_identity(task, own)
    found += _task_file_dates(task)
    found += _mail_dates(task)
    if with_world:
        found += _world_dates(task)
        found += _world_file_dates(task)
    persona = _persona(task) if with_world else None
    found += _owner_names(task, persona)
    found += _household_names(task, facts, persona)
    if with_world:
        found += _device_owners(task)
        found += _mirrored_threads(task)
        found += _mirrored_calls(task)
        found += _household_namesakes(task)
    return found


def _world_contacts(task: Task, facts: _Facts) -> list[_Contact]:
    """The persona world's own contacts (consistent by construction; the task's are checked)."""
    seeded = {(s.device, str((s.args or {}).get("name", ""))) for s in task.setup if s.op == "add_contact"}
    return [c for c in facts.contacts if (c.device, c.name) not in seeded]


def check_coherence(tasks: Sequence[Task], *, with_world: bool = True) -> CoherenceReport:
    """Run the gate on every task: counts per rule (tasks with at least one problem of it)."""
    report = CoherenceReport(total=len(tasks))
    for task in tasks:
        try:
            problems = coherence_problems(task, with_world=with_world)
        except (ValueError, KeyError, TypeError) as exc:
            problems = [
                CoherenceProblem(
                    rule="unreadable", task_id=task.id, message=f"could not read the task: {exc}"
                )
            ]
        if not problems:
            report.coherent += 1
        for rule in {p.rule for p in problems}:
            report.tasks_per_rule[rule] = report.tasks_per_rule.get(rule, 0) + 1
        report.problems += problems
    return report
