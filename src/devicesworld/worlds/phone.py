"""The phone surface of a world: contacts, texts, calls, calendar, music, notes, files, maps, browser.

Everything is drawn from the world's people and projects, dated relative to the
world's start, and full of planted near-misses: verification codes from several
senders with older (expired) ones, the same meeting title on different days, the
same song title by two artists, an older version of a note.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from faker import Faker

from devicesworld.worlds.model import (
    Alarm,
    Call,
    Event,
    Note,
    Page,
    Person,
    Persona,
    PhoneFile,
    PhoneWorld,
    Place,
    Playlist,
    Sms,
    Song,
)
from devicesworld.worlds.sizing import Numbers, Sizing, between

CODE_SENDERS = (
    ("Chase", "72166", "Chase: {code} is your one-time passcode. It expires in 10 minutes. Never share it."),
    ("Google", "22000", "G-{code} is your Google verification code."),
    ("Amazon", "262966", "{code} is your Amazon OTP. Do not share it with anyone."),
    ("PayPal", "729725", "PayPal: Your security code is {code}. It expires in 10 minutes."),
    ("Uber", "827222", "Your Uber code: {code}. Never share this code."),
    ("Microsoft", "444999", "Use {code} as Microsoft account security code."),
)
"""(service, short code, message): who sends verification codes."""

CHAT = (
    "Are we still on for {day}?",
    "Running 10 minutes late, sorry!",
    "Can you send me the {project} slides before {time}?",
    "Thanks for yesterday, it was great.",
    "Don't forget {name}'s birthday on {day}.",
    "I'm at {place}, where are you?",
    "Sounds good, see you at {time}.",
    "Did you get my email about {project}?",
    "Can you pick up milk on the way home?",
    "Call me when you get a chance.",
    "The meeting moved to {time} on {day}.",
    "Happy Friday! Any plans for the weekend?",
    "Got it, thanks.",
    "What time works for you on {day}?",
    "Just landed, heading home.",
    "Lunch at {place} at {time}?",
)
SERVICE_TEXTS = (
    "Your package from {shop} is out for delivery today.",
    "Reminder: your appointment is on {day} at {time}. Reply C to confirm.",
    "{shop}: your order has shipped and arrives {day}.",
)
SHOPS = ("Target", "Best Buy", "IKEA", "Etsy", "Walgreens", "Home Depot")
PLACE_KINDS = (
    ("Blue Bottle Coffee", "cafe"),
    ("Walgreens", "pharmacy"),
    ("Whole Foods Market", "grocery"),
    ("Planet Fitness", "gym"),
    ("Shell", "fuel"),
    ("Chipotle", "restaurant"),
    ("Public Library", "library"),
    ("City Hospital", "hospital"),
    ("Trader Joe's", "grocery"),
    ("Sushi Zen", "restaurant"),
    ("Central Park", "park"),
    ("Post Office", "post"),
)
WORDS_A = ("Blue", "Silver", "Midnight", "Golden", "Electric", "Quiet", "Wild", "Paper", "Neon", "Velvet")
WORDS_B = ("River", "Fire", "Garden", "Highway", "Echo", "Harbor", "Signal", "Mirror", "Summer", "Lights")
BANDS = ("The {b}s", "{a} {b}", "{a} Youth", "{first} {last}", "{first} & the {b}s")


def _at(start: datetime, rng: random.Random, days_back: int, min_minutes: int = 30) -> datetime:
    """A past moment in the last ``days_back`` days, on a waking hour, to the minute."""
    day = start - timedelta(days=rng.randint(0, days_back))
    t = day.replace(hour=rng.randint(7, 22), minute=rng.randrange(60), second=0, microsecond=0)
    if t > start - timedelta(minutes=min_minutes):
        t = start - timedelta(minutes=min_minutes + rng.randrange(600))
    return t


def _fill(
    template: str, rng: random.Random, persona: Persona, people: list[Person], places: list[str]
) -> str:
    return template.format(
        day=rng.choice(("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")),
        time=f"{rng.randint(8, 19)}:{rng.choice(('00', '15', '30', '45'))}",
        project=rng.choice(persona.projects),
        name=rng.choice(people).first,
        place=rng.choice(places),
        shop=rng.choice(SHOPS),
    )


def _codes(rng: random.Random, sizing: Sizing, start: datetime) -> list[Sms]:
    """Several codes per sender: the latest minutes ago (unread), older ones days ago (expired);
    one older code is the latest with two digits swapped (codes that look alike)."""
    out: list[Sms] = []
    per_sender = 3 if sizing.code_senders > 3 else 2
    for i, (_service, number, template) in enumerate(CODE_SENDERS[: sizing.code_senders]):
        latest = f"{rng.randrange(10**5, 10**6)}"
        codes = [latest]
        alike = latest[:3] + latest[4] + latest[3] + latest[5]
        codes.append(alike if alike != latest else f"{(int(latest) + 7) % 10**6:06d}")
        while len(codes) < per_sender:
            codes.append(f"{rng.randrange(10**5, 10**6)}")
        for age, code in enumerate(codes):
            if age == 0:
                at = start - timedelta(minutes=2 + 3 * i)
            else:
                at = start - timedelta(days=age * rng.randint(2, 6), minutes=rng.randrange(600))
            out.append(Sms(address=number, body=template.format(code=code), at=at, read=age > 0))
    return out


def _messages(
    rng: random.Random,
    sizing: Sizing,
    persona: Persona,
    people: list[Person],
    start: datetime,
    places: list[str],
) -> list[Sms]:
    out = _codes(rng, sizing, start)
    chatty = [p for p in people if p.relation in ("household", "family", "friend", "colleague")]
    n_threads = between(rng, sizing.threads) - sizing.code_senders - 1
    partners = rng.sample(chatty, min(len(chatty), max(1, n_threads)))
    for person in partners:
        for _ in range(between(rng, sizing.messages_per_thread)):
            body = _fill(rng.choice(CHAT), rng, persona, people, places)
            out.append(
                Sms(
                    address=person.phone,
                    body=body,
                    at=_at(start, rng, sizing.days_back),
                    sent=rng.random() < 0.45,
                )
            )
    shop_number = "32665"
    for _ in range(3):
        body = _fill(rng.choice(SERVICE_TEXTS), rng, persona, people, places)
        out.append(Sms(address=shop_number, body=body, at=_at(start, rng, sizing.days_back)))
    return sorted(out, key=lambda m: (m.at, m.address, m.body))


def _calls(rng: random.Random, sizing: Sizing, people: list[Person], start: datetime) -> list[Call]:
    out = []
    for _ in range(between(rng, sizing.calls)):
        p = rng.choice(people)
        kind = rng.choice(("incoming", "outgoing", "outgoing", "missed"))
        number = p.phone2 if p.phone2 and rng.random() < 0.3 else p.phone
        out.append(
            Call(
                number=number,
                at=_at(start, rng, sizing.days_back),
                kind=kind,
                duration=0 if kind == "missed" else rng.randint(20, 1800),
            )
        )
    return sorted(out, key=lambda c: (c.at, c.number))


def _slot(day: datetime, hour: int, minute: int) -> datetime:
    return day.replace(hour=hour, minute=minute, second=0, microsecond=0)


def _events(
    rng: random.Random, sizing: Sizing, persona: Persona, people: list[Person], start: datetime
) -> list[Event]:
    span = sizing.events_span_days
    first_day = (start - timedelta(days=span)).replace(hour=0, minute=0, second=0, microsecond=0)
    days = [first_day + timedelta(days=i) for i in range(2 * span + 1)]
    colleagues = [p for p in people if p.relation == "colleague"] or people
    household = [p for p in people if p.relation == "household"] or people
    friends = [p for p in people if p.relation == "friend"] or people
    manager = colleagues[0]
    kid = household[-1]
    project = persona.projects[0]
    office = f"{persona.employer}, room {rng.randint(2, 9)}{rng.randint(0, 4)}{rng.randint(1, 9)}"
    # (title, weekdays (Mon=0), every n weeks, hour, minute, minutes, location)
    series = [
        ("Team standup", (0, 2, 4), 1, 9, 30, 15, office),
        ("Yoga", (3,), 1, 18, 30, 60, "Riverside Studio"),
        (f"1:1 with {manager.first}", (1,), 2, 14, 0, 30, office),
        (f"{kid.first}'s piano lesson", (5,), 1, 10, 0, 45, "Music school"),
        (f"{project} sync", (1,), 1, 11, 0, 45, office),
    ][: sizing.series]
    out: list[Event] = []
    for title, weekdays, every, hour, minute, minutes, location in series:
        for day in days:
            week = (day - first_day).days // 7
            if day.weekday() in weekdays and week % every == 0:
                s = _slot(day, hour, minute)
                out.append(
                    Event(
                        title=title,
                        start=s,
                        end=s + timedelta(minutes=minutes),
                        location=location,
                        series=title,
                    )
                )
    # the same title on different days, at different times (twins by construction)
    doubles = [
        ("Dentist appointment", f"{people[-1].last} Dental"),
        (f"{project} review", office),
        (f"Dinner with {friends[0].first}", "Sushi Zen"),
    ]
    for title, location in doubles:
        picked = rng.sample(days, 2)
        hours = rng.sample(range(8, 20), 2)
        for day, hour in zip(picked, hours, strict=True):
            s = _slot(day, hour, rng.choice((0, 15, 30, 45)))
            out.append(Event(title=title, start=s, end=s + timedelta(minutes=60), location=location))
    one_offs = (
        "Haircut",
        "Car service",
        "Parent-teacher conference",
        "Quarterly planning",
        "Coffee with {f}",
        "Call {f}",
        "Gym with {f}",
        "{p} demo",
        "Budget review",
        "Flight to Denver",
        "Vet visit",
        "Book club",
        "Team lunch",
        "Interview: candidate {f}",
        "{f}'s birthday party",
    )
    for _ in range(between(rng, sizing.one_off_events)):
        title = rng.choice(one_offs).format(f=rng.choice(people).first, p=rng.choice(persona.projects))
        s = _slot(rng.choice(days), rng.randint(8, 20), rng.choice((0, 15, 30, 45)))
        out.append(
            Event(
                title=title,
                start=s,
                end=s + timedelta(minutes=rng.choice((30, 60, 90))),
                location=rng.choice(("", office)),
            )
        )
    return sorted(out, key=lambda e: (e.start, e.title))


def _songs(rng: random.Random, fake: Faker, sizing: Sizing) -> tuple[list[Song], list[Playlist]]:
    artists: list[str] = []
    want = between(rng, sizing.artists)
    while len(artists) < want:
        name = rng.choice(BANDS).format(
            a=rng.choice(WORDS_A), b=rng.choice(WORDS_B), first=fake.first_name(), last=fake.last_name()
        )
        if name not in artists:
            artists.append(name)
    songs: list[Song] = []
    titles: set[tuple[str, str]] = set()
    for artist in artists:
        album = f"{rng.choice(WORDS_A)} {rng.choice(WORDS_B)}"
        for _ in range(between(rng, sizing.songs_per_artist)):
            title = (
                f"{rng.choice(WORDS_A)} {rng.choice(WORDS_B)}" if rng.random() < 0.5 else rng.choice(WORDS_B)
            )
            if (title, artist) in titles:
                continue
            titles.add((title, artist))
            songs.append(Song(title=title, artist=artist, album=album, seconds=rng.randint(140, 330)))
    # the same title by two artists, planted
    for i in range(2):
        a, b = artists[i], artists[-1 - i]
        title = f"{WORDS_A[i]} {WORDS_B[-1 - i]}"
        for artist in (a, b):
            if (title, artist) not in titles:
                titles.add((title, artist))
                songs.append(
                    Song(title=title, artist=artist, album=f"{title} (single)", seconds=rng.randint(150, 300))
                )
    songs.sort(key=lambda s: (s.title, s.artist))
    playlists = []
    for name in ("Running", "Focus", "Road trip")[: 1 + len(songs) // 20]:
        chosen = rng.sample(songs, min(len(songs), rng.randint(4, 10)))
        playlists.append(Playlist(name=name, songs=[(s.title, s.artist) for s in chosen]))
    return songs, playlists


def _notes(
    rng: random.Random, fake: Faker, sizing: Sizing, persona: Persona, people: list[Person]
) -> list[Note]:
    gate_old, gate_new = f"{rng.randrange(1000, 10000)}#", f"{rng.randrange(1000, 10000)}#"
    wifi_old = f"{rng.choice(WORDS_A)}{rng.choice(WORDS_B)}{rng.randrange(10, 99)}"
    wifi_new = f"{rng.choice(WORDS_A)}{rng.choice(WORDS_B)}{rng.randrange(100, 999)}"
    notes = [
        Note(
            name="door_codes.md",
            text=f"# Door codes\n\nGarage gate: {gate_new}\nUpdated in {persona.city}.\n",
        ),
        Note(
            name="door_codes_old.md",
            text=f"# Door codes (old)\n\nGarage gate: {gate_old}\nReplaced last month.\n",
        ),
        Note(
            name="wifi.md",
            text=f"# Home Wi-Fi\n\nNetwork: {persona.person.last}-home\nPassword: {wifi_new}\n",
        ),
        Note(
            name="wifi_2025.md",
            text=f"# Home Wi-Fi (2025)\n\nNetwork: {persona.person.last}-home\nPassword: {wifi_old}\n",
        ),
    ]
    extra = [
        ("groceries.md", "# Groceries\n\n- " + "\n- ".join(rng.sample(GROCERIES, 6)) + "\n"),
        (
            "todo.md",
            "# To do\n\n- [ ] " + "\n- [ ] ".join(fake.sentence(nb_words=5) for _ in range(5)) + "\n",
        ),
        (
            "gift_ideas.md",
            "# Gift ideas\n\n" + "\n".join(f"- {p.first}: {fake.word()}" for p in people[:5]) + "\n",
        ),
        ("packing_list.md", "# Packing list\n\n- passport\n- charger\n- sunscreen\n"),
        ("book_list.md", "# Books\n\n" + "\n".join(f"- {fake.catch_phrase()}" for _ in range(5)) + "\n"),
    ]
    for project in persona.projects:
        extra.append(
            (
                f"{project.lower()}_meeting_notes.md",
                f"# {project} meeting notes\n\n{fake.paragraph(nb_sentences=4)}\n",
            )
        )
    want = between(rng, sizing.notes)
    n = 0
    while len(notes) + len(extra) < want:
        n += 1
        extra.append((f"journal_{n:02d}.md", f"# Journal {n}\n\n{fake.paragraph(nb_sentences=3)}\n"))
    notes += [Note(name=name, text=text) for name, text in extra][: max(0, want - len(notes))]
    return notes


HOUSEHOLD_NOTES = ("door_codes.md", "door_codes_old.md", "wifi.md", "wifi_2025.md")
"""Notes about the home itself: a household member's world carries the owner's (the same codes)."""

GROCERIES = (
    "milk",
    "eggs",
    "bread",
    "apples",
    "coffee",
    "rice",
    "spinach",
    "yogurt",
    "cheese",
    "tomatoes",
    "pasta",
)


def _files(
    rng: random.Random, fake: Faker, sizing: Sizing, persona: Persona, start: datetime
) -> list[PhoneFile]:
    year = start.year
    out = [
        PhoneFile(
            path=f"Download/lease_{year - 1}.txt",
            text=f"Lease {year - 1}: rent $1,{rng.randint(500, 899)}/month",
        ),
        PhoneFile(
            path=f"Download/lease_{year}.txt", text=f"Lease {year}: rent $1,{rng.randint(900, 999)}/month"
        ),
        PhoneFile(
            path=f"Documents/{persona.projects[0].lower()}_agenda.txt", text=fake.paragraph(nb_sentences=3)
        ),
    ]
    want = between(rng, sizing.phone_files)
    k = 0
    while len(out) < want:
        k += 1
        kind = k % 4
        if kind == 0:
            out.append(
                PhoneFile(
                    path=f"Download/invoice_{1000 + k}.txt",
                    text=f"Invoice {1000 + k}: ${rng.randint(20, 900)}.{rng.randrange(100):02d}",
                )
            )
        elif kind == 1:
            out.append(
                PhoneFile(path=f"Pictures/IMG_{start:%Y%m}{k:02d}.png", text=fake.word(), media="picture")
            )
        elif kind == 2:
            out.append(PhoneFile(path=f"Recordings/memo_{k:02d}.wav", media="recording"))
        else:
            out.append(
                PhoneFile(path=f"Documents/{fake.word()}_{k}.txt", text=fake.paragraph(nb_sentences=2))
            )
    return out


def _alarms(rng: random.Random) -> list[Alarm]:
    return [
        Alarm(
            hour=6,
            minute=rng.choice((15, 30, 45)),
            enabled=True,
            days=["mon", "tue", "wed", "thu", "fri"],
            label="Wake up",
        ),
        Alarm(hour=8, minute=0, enabled=False, days=["sat", "sun"], label="Weekend"),
        Alarm(hour=rng.randint(13, 16), minute=0, enabled=False, days=[], label="Pick up kids"),
        Alarm(hour=22, minute=30, enabled=True, days=[], label="Take medicine"),
    ]


def _places(rng: random.Random, fake: Faker, sizing: Sizing, persona: Persona) -> list[Place]:
    lat0, lon0 = rng.uniform(30, 47), rng.uniform(-122, -75)
    out = [
        Place(
            name="Home",
            address=persona.person.address,
            lat=round(lat0, 5),
            lon=round(lon0, 5),
            category="home",
            saved=True,
        ),
        Place(
            name=persona.employer,
            address=fake.street_address(),
            lat=round(lat0 + 0.03, 5),
            lon=round(lon0 - 0.02, 5),
            category="work",
            saved=True,
        ),
    ]
    # two branches of one chain: the same name, another address
    chain = rng.choice(PLACE_KINDS[:3])
    names = [chain, chain, *rng.sample(PLACE_KINDS, len(PLACE_KINDS))]
    for name, category in names[: between(rng, sizing.places)]:
        out.append(
            Place(
                name=name,
                address=fake.street_address(),
                lat=round(lat0 + rng.uniform(-0.05, 0.05), 5),
                lon=round(lon0 + rng.uniform(-0.05, 0.05), 5),
                category=category,
                saved=rng.random() < 0.4,
            )
        )
    return out


def _pages(rng: random.Random, fake: Faker, sizing: Sizing, persona: Persona) -> list[Page]:
    slug = "".join(c for c in persona.employer.lower() if c.isalnum())[:12]
    out = [
        Page(
            url=f"http://intranet.{slug}.test/",
            title=f"{persona.employer} intranet",
            text=fake.paragraph(),
            bookmarked=True,
        ),
        Page(url="http://school.test/news", title="School news", text=fake.paragraph(), bookmarked=True),
    ]
    want = between(rng, sizing.pages)
    k = 0
    while len(out) < want:
        k += 1
        topic = fake.word()
        out.append(
            Page(
                url=f"http://{topic}.test/article/{k}",
                title=fake.catch_phrase(),
                text=fake.paragraph(),
                bookmarked=rng.random() < 0.25,
            )
        )
    return out


def build(
    rng: random.Random,
    fake: Faker,
    numbers: Numbers,
    sizing: Sizing,
    persona: Persona,
    people: list[Person],
    start: datetime,
) -> PhoneWorld:
    del numbers  # every number is already a person's
    places = _places(rng, fake, sizing, persona)
    songs, playlists = _songs(rng, fake, sizing)
    return PhoneWorld(
        contacts=list(people),
        messages=_messages(rng, sizing, persona, people, start, [p.name for p in places]),
        calls=_calls(rng, sizing, people, start),
        events=_events(rng, sizing, persona, people, start),
        songs=songs,
        playlists=playlists,
        notes=_notes(rng, fake, sizing, persona, people),
        files=_files(rng, fake, sizing, persona, start),
        alarms=_alarms(rng),
        places=places,
        pages=_pages(rng, fake, sizing, persona),
    )
