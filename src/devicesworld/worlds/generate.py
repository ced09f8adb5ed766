"""Build a :class:`World` from ``(persona_seed, size, start)``: seeded, deterministic, no network.

One :class:`random.Random` and one seeded Faker per world, consumed in a fixed order,
so the same arguments give the same world byte for byte (for a given Faker version).
The people come first; every surface is then drawn from them, so the phone's
contacts, the desktop's mail and the calendar's meetings name the same persons and
projects. Near-miss twins are planted on purpose (the same first name, the same
surname, a second number, the same title on another day, an older version of a
file, the same category in another room); :mod:`.picks` then indexes them.

Worlds are cached per process (a suite of many tasks on one persona builds it once)
and on disk (:mod:`devicesworld.diskcache`, namespace ``worlds``): a world's canonical
JSON is stored under the hash of its arguments, this package's source and Faker's
version, so later processes parse it (~10 ms) instead of building it (~0.1-0.3 s
plus Faker's import).
"""

from __future__ import annotations

import functools
import random
import threading
from datetime import datetime
from typing import TYPE_CHECKING

from devicesworld import diskcache
from devicesworld.worlds.model import (
    DEFAULT_START,
    MEMBERS,
    SIZES,
    DesktopWorld,
    HomeWorld,
    Member,
    Person,
    Persona,
    PhoneWorld,
    Relation,
    World,
    WorldSize,
)
from devicesworld.worlds.sizing import SIZING, Numbers, Sizing, between

if TYPE_CHECKING:
    from faker import Faker


def _email(first: str, last: str, domain: str, rng: random.Random) -> str:
    style = rng.randrange(3)
    local = {0: f"{first}.{last}", 1: f"{first[0]}{last}", 2: f"{first}{rng.randrange(10, 99)}"}[style]
    return f"{''.join(c for c in local.lower() if c.isalnum() or c == '.')}@{domain}"


class _Roster:
    """The people of one world, numbered ``p000``, ``p001``, ... in the order they are added."""

    def __init__(
        self,
        fake: Faker,
        rng: random.Random,
        numbers: Numbers,
        employer: str,
        out: list[Person] | None = None,
    ) -> None:
        self.fake, self.rng, self.numbers, self.employer = fake, rng, numbers, employer
        self.work_domain = "".join(c for c in employer.lower() if c.isalnum())[:16] + ".com"
        self.out: list[Person] = list(out or [])

    def add(self, first: str, last: str, relation: Relation, company: str = "", second: bool = False) -> None:
        rng = self.rng
        key = f"p{len(self.out):03d}"
        domain = (
            self.work_domain
            if relation == "colleague"
            else rng.choice(("gmail.com", "outlook.com", "proton.me"))
        )
        self.out.append(
            Person(
                key=key,
                first=first,
                last=last,
                relation=relation,
                phone=self.numbers.new(),
                phone2=self.numbers.new() if second else "",
                email=_email(first, last, domain, rng),
                company=company,
                address=self.fake.street_address() + ", " + self.fake.city(),
                birthday=f"{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            )
        )


def _people(
    fake: Faker,
    rng: random.Random,
    numbers: Numbers,
    sizing: Sizing,
    employer: str,
    owner_first: str,
    owner_last: str,
) -> list[Person]:
    """Household, family, colleagues, friends and services, with planted near-duplicates."""
    total = between(rng, sizing.contacts)
    roster = _Roster(fake, rng, numbers, employer)
    add = roster.add
    taken = {owner_first}
    add(_first_name_unlike(fake, taken), owner_last, "household")  # partner
    for _ in range(rng.randint(1, 2)):
        add(_first_name_unlike(fake, taken), owner_last, "household")  # children
    add(_first_name_unlike(fake, taken), owner_last, "family")  # parent: same surname as the owner
    add(_first_name_unlike(fake, taken), owner_last, "family")  # sibling
    add(_first_name_unlike(fake, taken), fake.last_name(), "family")  # in-law
    _acquaintances(roster, total)
    return roster.out


def _first_name_unlike(fake: Faker, taken: set[str]) -> str:
    """A first name for the owner's household or family that none of them (the owner included)
    has yet: "text Amber" must name one person at home. The name is drawn from the world's
    stream as ever; only on a clash is another drawn, from a side stream seeded by the clash,
    so a world without one is the world it always was."""
    name = fake.first_name()
    if name in taken:
        from faker import Faker as _Faker

        side = _Faker("en_US")
        side.seed_instance(f"namesake:{name}:{len(taken)}")
        while name in taken:
            name = side.first_name()
    taken.add(name)
    return name


def _acquaintances(roster: _Roster, total: int) -> None:
    """Colleagues, friends and services after the household and family, then the planted twins:
    the same first name with another surname, the same surname with another first name."""
    fake, rng, out, add, employer = roster.fake, roster.rng, roster.out, roster.add, roster.employer
    n_colleagues = max(3, total // 4)
    n_services = max(2, total // 8)
    n_friends = max(3, total - len(out) - n_colleagues - n_services)
    for i in range(n_colleagues):
        add(fake.first_name(), fake.last_name(), "colleague", employer, second=i % 3 == 0)
    for _ in range(n_friends):
        add(fake.first_name(), fake.last_name(), "friend")
    for _ in range(n_services):
        trade = rng.choice(("Dentist", "Plumber", "Vet", "Mechanic", "Tutor", "Landlord", "Doctor"))
        add(fake.first_name(), fake.last_name(), "service", f"{fake.last_name()} {trade}")
    twins = max(2, len(out) // 8)
    for i in range(twins):
        src = out[(i * 7 + 3) % len(out)]
        add(src.first, fake.last_name(), rng.choice(("friend", "colleague")), employer if i % 2 else "")
    for i in range(max(1, twins // 2)):
        src = out[(i * 5 + 8) % len(out)]
        add(fake.first_name(), src.last, "friend")


_LOCK = threading.Lock()


def build_world(
    persona_seed: int,
    size: WorldSize = "lived",
    start: datetime = DEFAULT_START,
    member: Member | None = None,
    mirrored: bool = False,
) -> World:
    """The world of a persona (or of a member of its household); cached, so do not mutate what it
    returns (it is frozen). ``mirrored``: a partner's or child's world holds its texts with the
    household as the other side's world has them (:mod:`.household`); ignored for the owner's
    and ``work`` worlds, which draw every conversation they hold.

    One build at a time: a pre-warming thread that resets the next task of the same
    persona waits for the world instead of building it a second time.
    """
    with _LOCK:
        return _build(persona_seed, size, start, member, mirrored and member in MIRRORED_MEMBERS)


def clear_cache() -> None:
    """Forget every built world (tests)."""
    with _LOCK:
        _build.cache_clear()


MIRRORED_MEMBERS: tuple[Member, ...] = ("partner", "child")
"""The members whose worlds a mirror changes: the people the owner (and the partner) text at home."""


@functools.lru_cache(maxsize=32)
def _build(
    persona_seed: int, size: WorldSize, start: datetime, member: Member | None = None, mirrored: bool = False
) -> World:
    if size not in SIZES:
        raise ValueError(f"unknown world size {size!r}; sizes: {', '.join(SIZES)}")
    if not isinstance(persona_seed, int) or isinstance(persona_seed, bool) or persona_seed < 0:
        raise ValueError(f"persona_seed must be an integer >= 0, not {persona_seed!r}")
    if member is not None and member not in MEMBERS:
        raise ValueError(f"unknown household member {member!r}; members: {', '.join(MEMBERS)}")
    key = disk_key(persona_seed, size, start, member, mirrored)
    stored = diskcache.read("worlds", key)
    if stored is not None:
        try:
            return World.model_validate_json(stored)
        except ValueError:
            pass  # an entry of another shape: build it again
    if member is None:
        world = generate(persona_seed, size, start)
    else:
        world = generate_member(_build(persona_seed, size, start), member)
    if mirrored:
        world = _mirror(world, persona_seed, size, start)
    diskcache.write("worlds", key, world.to_json().encode())
    return world


def disk_key(
    persona_seed: int, size: WorldSize, start: datetime, member: Member | None = None, mirrored: bool = False
) -> str:
    """The world's disk-cache key: its arguments, this package's code and Faker's version."""
    code = diskcache.code_digest(("devicesworld.worlds",), ("faker",))
    if member is None:
        return diskcache.key_of(persona_seed, size, start.isoformat(), code)
    if mirrored:
        return diskcache.key_of(persona_seed, size, start.isoformat(), member, "mirrored", code)
    return diskcache.key_of(persona_seed, size, start.isoformat(), member, code)


def _mirror(world: World, persona_seed: int, size: WorldSize, start: datetime) -> World:
    """A partner's or child's world whose texts and calls with the owner are the owner's world's, and a
    child's with the partner the (mirrored) partner's world's; its picks re-read from its texts."""
    from devicesworld.worlds.household import mirrored_calls, mirrored_messages

    sources = [_build(persona_seed, size, start)]
    if world.member == "child":
        sources.append(_build(persona_seed, size, start, "partner", True))
    phone_world = world.phone.model_copy(
        update={"messages": mirrored_messages(world, sources), "calls": mirrored_calls(world, sources)}
    )
    mirrored = _assemble(
        persona_seed,
        size,
        start,
        world.persona,
        world.people,
        phone_world,
        world.desktop,
        world.home,
        world.member,
    )
    return mirrored.model_copy(update={"mirrored": True})


def generate(persona_seed: int, size: WorldSize, start: datetime) -> World:
    """Build the world from scratch (no cache): what :func:`build_world` stores."""
    from faker import Faker

    from devicesworld.worlds import desktop, home, phone

    sizing = SIZING[size]
    rng = random.Random(f"devicesworld-world:{persona_seed}:{size}")
    fake = Faker("en_US")
    fake.seed_instance(persona_seed)
    numbers = Numbers(rng)
    first, last = fake.first_name(), fake.last_name()
    employer = fake.company().replace(",", "")
    owner = Person(
        key="self",
        first=first,
        last=last,
        relation="self",
        phone=numbers.new(),
        email=_email(first, last, "gmail.com", rng),
        company=employer,
        address=fake.street_address(),
    )
    projects = _projects(rng, sizing.projects)
    persona = Persona(
        person=owner,
        city=fake.city(),
        employer=employer,
        job=fake.job().split(",")[0],
        home_name=f"{last} home",
        projects=projects,
    )
    people = _people(fake, rng, numbers, sizing, employer, first, last)
    phone_world = phone.build(rng, fake, numbers, sizing, persona, people, start)
    desktop_world = desktop.build(rng, fake, sizing, persona, people, start)
    home_world = home.build(rng, sizing, persona, start)
    return _assemble(persona_seed, size, start, persona, people, phone_world, desktop_world, home_world)


def _assemble(
    seed: int,
    size: WorldSize,
    start: datetime,
    persona: Persona,
    people: list[Person],
    phone_world: PhoneWorld,
    desktop_world: DesktopWorld,
    home_world: HomeWorld,
    member: Member | None = None,
) -> World:
    """A world from its surfaces, with the picks indexed over them (an owner's world or a member's)."""
    from devicesworld.worlds.picks import build_picks

    picks = build_picks(persona, people, phone_world, desktop_world, home_world)
    return World(
        persona_seed=seed,
        size=size,
        start=start,
        persona=persona,
        people=people,
        phone=phone_world,
        desktop=desktop_world,
        home=home_world,
        picks=picks,
        member=member,
    )


def _projects(rng: random.Random, count: int) -> list[str]:
    projects: list[str] = []
    while len(projects) < count:
        name = rng.choice(PROJECT_NAMES)
        if name not in projects:
            projects.append(name)
    return projects


def _member_people(
    owner: World, member: Member, rng: random.Random, fake: Faker, numbers: Numbers, sizing: Sizing
) -> tuple[Persona, list[Person]]:
    """The member as the persona, and its people: the household (the owner among them) and family
    first, then its own colleagues, friends and services with their planted twins."""
    household = [p for p in owner.people if p.relation == "household"]
    family = [p for p in owner.people if p.relation == "family"]
    me = household[MEMBERS.index(member)]  # the partner, then the eldest child (every household has both)
    if member == "child":
        employer, job = f"{owner.persona.city} School", "Student"
    else:
        employer, job = fake.company().replace(",", ""), fake.job().split(",")[0]
    home_address = owner.persona.person.address
    person = me.model_copy(
        update={"key": "self", "relation": "self", "company": employer, "address": home_address}
    )
    persona = Persona(
        person=person,
        city=owner.persona.city,
        employer=employer,
        job=job,
        home_name=owner.persona.home_name,
        projects=_projects(rng, SIZING[owner.size].projects),
    )
    former = owner.persona.person.model_copy(
        update={"relation": "household", "company": owner.persona.employer}
    )
    shared = [former, *(p for p in household if p.key != me.key), *family]
    renumbered = [p.model_copy(update={"key": f"p{i:03d}"}) for i, p in enumerate(shared)]
    roster = _Roster(fake, rng, numbers, employer, renumbered)
    _acquaintances(roster, between(rng, sizing.contacts))
    return persona, roster.out


def generate_member(owner: World, member: Member) -> World:
    """The world of a member of the owner's household, from its own seeded stream (no cache).

    The member owns it: the owner's partner (``partner``) or eldest child (``child``) is its
    ``persona``, and the owner appears among its people as household. The household (partner,
    children), the family, the home city, the home address, the home itself and the household's
    shared notes (door codes, Wi-Fi) are the owner's; the member's employer (a child's: its
    school), projects, colleagues, friends, services, texts, calendar, music, files and desktop
    are drawn from ``devicesworld-world:<seed>:<size>:<member>``, sized like any world of that
    size, with the same planted near-miss twins. ``work`` is the owner's own other machine: the
    same persona and people, its own texts, calendar, music, files and desktop from that stream.
    """
    from faker import Faker

    from devicesworld.worlds import desktop, phone

    sizing = SIZING[owner.size]
    seed, size, start = owner.persona_seed, owner.size, owner.start
    rng = random.Random(f"devicesworld-world:{seed}:{size}:{member}")
    fake = Faker("en_US")
    fake.seed_instance(f"{seed}:{member}")
    numbers = Numbers(rng)
    numbers.used |= {p.phone for p in owner.people} | {p.phone2 for p in owner.people if p.phone2}
    numbers.used.add(owner.persona.person.phone)
    if member == "work":
        persona, people = owner.persona, list(owner.people)
    else:
        persona, people = _member_people(owner, member, rng, fake, numbers, sizing)
    phone_world = phone.build(rng, fake, numbers, sizing, persona, people, start)
    household_notes = {n.name: n for n in owner.phone.notes if n.name in phone.HOUSEHOLD_NOTES}
    notes = [household_notes.get(n.name, n) for n in phone_world.notes]
    phone_world = phone_world.model_copy(update={"notes": notes})
    desktop_world = desktop.build(rng, fake, sizing, persona, people, start)
    return _assemble(seed, size, start, persona, people, phone_world, desktop_world, owner.home, member)


PROJECT_NAMES = (
    "Atlas",
    "Beacon",
    "Cobalt",
    "Driftwood",
    "Ember",
    "Falcon",
    "Granite",
    "Harbor",
    "Juniper",
    "Lighthouse",
    "Meridian",
    "Nimbus",
    "Orchard",
    "Polaris",
    "Quartz",
    "Redwood",
)
