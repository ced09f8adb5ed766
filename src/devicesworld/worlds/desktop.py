"""The desktop surface of a world: a home folder that looks used.

Documents per project with older versions beside the current one (``report_v1``,
``report_final``, ``report_final2``) and last year's budget beside this year's,
spreadsheets of tens to hundreds of rows, multi-page reports with headings and a
table, received mail and drafts, code projects with a changelog, pictures, a shell
history and browser bookmarks. Files are described by content; a kind's
materialiser writes them (:class:`~devicesworld.worlds.model.DesktopFile`).

Text a task can show a person (the to-do list, mail bodies, drafts, an invoice's note) is
drawn from templates that read like a person's, naming the world's own people and
projects, not Faker's word salad (issue #33); mail arrives on working hours, before the
world's start. Those templates draw from their own stream (:func:`filler_rng`), so the
world's other draws (its home, its files' values) stay as they were.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from faker import Faker

from devicesworld.worlds.model import DesktopFile, DesktopWorld, Person, Persona
from devicesworld.worlds.sizing import Sizing, between

CATEGORIES = ("Travel", "Software", "Hardware", "Catering", "Office", "Training", "Marketing", "Consulting")
REPORT_VERSIONS = ("report_v1.docx", "report_final.docx", "report_final2.docx")
"""Oldest first: the last one is the current version."""


def mail_message(f: DesktopFile) -> EmailMessage:
    """The mail an ``eml`` file describes, dated by its modification time (each kind picks the line
    endings its mail clients save)."""
    msg = EmailMessage()
    for key, value in f.headers.items():
        msg[key] = value
    msg["Date"] = format_datetime(f.mtime.replace(tzinfo=UTC))
    msg.set_content(f.text)
    return msg


TODO_ITEMS = (
    "call the dentist about the check-up",
    "pay the electricity bill",
    "return the library books",
    "book the car in for its service",
    "buy a birthday card for {friend}",
    "reply to {colleague} about {project}",
    "renew the home insurance",
    "order printer ink",
    "pick up the dry cleaning",
    "send the {project} slides to {colleague}",
    "water the plants",
    "sort the recycling",
    "ring {friend} back",
    "check the {project} budget before Friday",
    "book a table for Saturday",
    "cancel the gym trial",
)
"""A person's to-do list: errands and work, naming the world's own people and projects."""

MAIL_BODIES = {
    "update": (
        "Quick update on {project}: the first part is done and I have started on the next one. "
        "I will share a draft by {weekday}."
    ),
    "budget": (
        "Thanks for the numbers on {project}. The {category} line looks high to me; "
        "can we go through it before {weekday}?"
    ),
    "lunch": "Are you free for lunch next {weekday}? The place round the corner does a good set menu.",
    "invoice": "Please find last month's invoice attached. Payment within 30 days, as usual.",
    "review": (
        "Notes from the {project} review: scope stays as agreed, two open questions on the "
        "{category} costs, next check-in on {weekday}."
    ),
}
DRAFT_BODY = (
    "Here is how I would like to run {project} over the next few weeks: finish the current part by "
    "{weekday}, then a review with the team. Let me know what you think."
)
INVOICE_NOTES = (
    "Thank you for your business.",
    "Payment due within 30 days.",
    "Please quote the invoice number with your payment.",
    "Questions about this invoice? Reply to this e-mail.",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


def filler_rng(persona: Persona) -> random.Random:
    """The templates' own stream: a person's text varies by world without moving its other draws."""
    return random.Random(f"devicesworld-filler:{persona.person.email}:{persona.employer}")


def _mail_kind(subject: str) -> str:
    for word in ("update", "budget", "lunch", "invoice", "review"):
        if word in subject.lower():
            return word
    return "update"


def _working_hours(start: datetime, days: int, hours: int, i: int) -> datetime:
    """A mail's time ``days`` before ``start`` on a working hour (08:00-17:59), before ``start``."""
    when = (start - timedelta(days=days)).replace(
        hour=8 + hours, minute=(17 * i + 7 * hours) % 60, second=0, microsecond=0
    )
    return when if when < start else when - timedelta(days=1)


def slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")


def _ledger(
    rng: random.Random, vendors: list[str], rows: int, year: int, until: datetime | None = None
) -> list[list[str | int | float]]:
    """Dated rows of a year; a record of spending (``until`` its save time) holds nothing after it
    (issue #33: this year's expenses listed December). The day drawn over the whole year is scaled
    into the part already past, so every world draws the same numbers as before."""
    out: list[list[str | int | float]] = [["Date", "Category", "Vendor", "Amount"]]
    first = datetime(year, 1, 1)
    for _ in range(rows):
        day = datetime(year, rng.randint(1, 12), rng.randint(1, 28))
        if until is not None and day > until:
            past = max(0, (until - first).days)
            day = first + timedelta(days=(day - first).days * past // 365)
        out.append(
            [
                day.strftime("%Y-%m-%d"),
                rng.choice(CATEGORIES),
                rng.choice(vendors),
                round(rng.uniform(12, 4800), 2),
            ]
        )
    out[1:] = sorted(out[1:], key=lambda r: str(r[0]))
    return out


def report_total(rng: random.Random) -> str:
    return f"${rng.randint(40, 990)},{rng.randrange(1000):03d}"


def _report(
    rng: random.Random, fake: Faker, project: str, version: int, total: str, when: datetime, folder: str
) -> DesktopFile:
    sections: list[tuple[str, list[str]]] = [
        (
            "Summary",
            [
                f"{project} status report, version {version + 1}.",
                f"Approved budget: {total}.",
                fake.paragraph(nb_sentences=5),
            ],
        ),
    ]
    for heading in ("Background", "Progress", "Risks", "Next steps")[: 2 + version]:
        sections.append((heading, [fake.paragraph(nb_sentences=6) for _ in range(3)]))
    rows: list[list[str | int | float]] = [["Milestone", "Owner", "Due"]]
    for i in range(4 + version):
        rows.append(
            [
                f"M{i + 1} {fake.bs().capitalize()}",
                fake.first_name(),
                (when + timedelta(days=14 * (i + 1))).strftime("%Y-%m-%d"),
            ]
        )
    return DesktopFile(
        path=f"{folder}/{REPORT_VERSIONS[version]}",
        format="docx",
        title=f"{project} report",
        sections=sections,
        rows=rows,
        mtime=when,
    )


def _project_code(rng: random.Random, fake: Faker, project: str, start: datetime) -> list[DesktopFile]:
    pkg = slug(project)
    base = f"Projects/{pkg}"
    factor = rng.randint(2, 9)
    when = start - timedelta(days=rng.randint(3, 20))
    log = "\n".join(
        f"## 0.{i}.0 - {(start - timedelta(days=30 * (5 - i))).strftime('%Y-%m-%d')}\n- {fake.sentence(nb_words=6)}\n"
        for i in range(1, 5)
    )
    return [
        DesktopFile(
            path=f"{base}/README.md",
            format="text",
            text=f"# {project}\n\n{fake.paragraph()}\n\nRun `pytest`.\n",
            mtime=when,
        ),
        DesktopFile(path=f"{base}/CHANGELOG.md", format="text", text=f"# Changelog\n\n{log}", mtime=when),
        DesktopFile(path=f"{base}/{pkg}/__init__.py", format="text", text=f'"""{project}."""\n', mtime=when),
        DesktopFile(
            path=f"{base}/{pkg}/core.py",
            format="text",
            text=f"FACTOR = {factor}\n\n\ndef scale(x: int) -> int:\n    return x * FACTOR\n",
            mtime=when,
        ),
        DesktopFile(
            path=f"{base}/tests/test_core.py",
            format="text",
            text=f"from {pkg}.core import scale\n\n\ndef test_scale() -> None:\n    assert scale(2) == {2 * factor}\n",
            mtime=when,
        ),
        DesktopFile(
            path=f"{base}/{pkg}/core.py.orig",
            format="text",
            text="FACTOR = 1\n",
            mtime=when - timedelta(days=40),
        ),
    ]


def _mail(
    rng: random.Random, fake: Faker, sizing: Sizing, persona: Persona, people: list[Person], start: datetime
) -> list[DesktopFile]:
    colleagues = [p for p in people if p.relation == "colleague"] or people
    filler = filler_rng(persona)
    out: list[DesktopFile] = []
    n = between(rng, sizing.mails)
    for i in range(n):
        sender = rng.choice(colleagues if i % 2 == 0 else people)
        project = rng.choice(persona.projects)
        subject = rng.choice(
            (
                f"{project} update",
                f"Re: {project} budget",
                "Lunch next week?",
                "Invoice attached",
                f"{project} review notes",
            )
        )
        when = _working_hours(start, rng.randint(0, sizing.days_back), rng.randint(0, 9), i)
        body = MAIL_BODIES[_mail_kind(subject)].format(
            project=project, category=filler.choice(CATEGORIES).lower(), weekday=filler.choice(WEEKDAYS)
        )
        out.append(
            DesktopFile(
                path=f"Mail/Inbox/{when:%Y%m%d}_{i:02d}_{slug(subject)[:30]}.eml",
                format="eml",
                headers={
                    "From": f"{sender.name} <{sender.email}>",
                    "To": persona.person.email,
                    "Subject": subject,
                },
                text=f"Hi {persona.person.first},\n\n{body}\n\n{sender.first}\n",
                mtime=when,
            )
        )
    for i in range(max(1, n // 4)):
        to = rng.choice(colleagues)
        project = rng.choice(persona.projects)
        subject = f"Draft: {project} plan"
        body = DRAFT_BODY.format(project=project, weekday=filler.choice(WEEKDAYS))
        out.append(
            DesktopFile(
                path=f"Mail/Drafts/{slug(subject)}_{i}.eml",
                format="eml",
                headers={"From": persona.person.email, "To": to.email, "Subject": subject, "X-Unsent": "1"},
                text=f"Hi {to.first},\n\n{body}\n\n{persona.person.first}\n",
                mtime=start - timedelta(days=i + 1),
            )
        )
    return out


def _todo(persona: Persona, people: list[Person]) -> str:
    """Six items of a person's to-do list, naming a friend, a colleague and a project of theirs."""
    filler = random.Random(f"devicesworld-todo:{persona.person.email}")
    friends = [p.first for p in people if p.relation in ("friend", "family")] or [p.first for p in people]
    colleagues = [p.first for p in people if p.relation == "colleague"] or [p.first for p in people]
    items = filler.sample(TODO_ITEMS, 6)
    return "".join(
        "- "
        + item.format(
            friend=filler.choice(friends),
            colleague=filler.choice(colleagues),
            project=filler.choice(persona.projects),
        )
        + "\n"
        for item in items
    )


def build(
    rng: random.Random, fake: Faker, sizing: Sizing, persona: Persona, people: list[Person], start: datetime
) -> DesktopWorld:
    year = start.year
    vendors = [fake.company().replace(",", "") for _ in range(24)]
    files: list[DesktopFile] = []
    for project in persona.projects:
        folder = f"Documents/{project}"
        for version in range(len(REPORT_VERSIONS)):
            when = start - timedelta(days=30 - 10 * version)
            files.append(_report(rng, fake, project, version, report_total(rng), when, folder))
        for y in (year - 1, year):
            rows = _ledger(rng, vendors, between(rng, sizing.sheet_rows), y)
            files.append(
                DesktopFile(
                    path=f"{folder}/budget_{y}.xlsx",
                    format="xlsx",
                    rows=rows,
                    sheet="Budget",
                    mtime=datetime(y, 12, 1) if y < year else start - timedelta(days=2),
                )
            )
        files += _project_code(rng, fake, project, start)
    for y in (year - 1, year):
        # this year's file is saved this year (issue #33: expenses_2026.csv dated 2025 on 1 January)
        saved = (
            datetime(y, 12, 31)
            if y < year
            else max(start - timedelta(days=1), min(start, datetime(y, 1, 1, 9)))
        )
        files.append(
            DesktopFile(
                path=f"Documents/expenses_{y}.csv",
                format="csv",
                rows=_ledger(rng, vendors, between(rng, sizing.sheet_rows), y, until=saved),
                mtime=saved,
            )
        )
    files.append(
        DesktopFile(
            path=f"Documents/taxes_{year - 1}.pdf",
            format="pdf",
            title=f"Tax summary {year - 1}",
            sections=[("", [fake.paragraph(nb_sentences=4) for _ in range(3)])],
            mtime=min(datetime(year, 2, 10), start - timedelta(days=1)),  # never after the start
        )
    )
    files.append(
        DesktopFile(
            path="Desktop/todo.txt",
            format="text",
            text=_todo(persona, people),
            mtime=start - timedelta(hours=20),
        )
    )
    files.append(
        DesktopFile(
            path="Documents/contacts.json",
            format="json",
            text="",
            rows=[[p.name, p.email, p.phone] for p in people[:20]],
            mtime=start - timedelta(days=9),
        )
    )
    for i in range(between(rng, sizing.pictures)):
        taken = start - timedelta(days=3 * i + 1)
        files.append(
            DesktopFile(
                path=f"Pictures/IMG_{taken.year}{i + 1:04d}.jpg",  # the year it was taken
                format="image",
                title=fake.word(),
                mtime=taken,
            )
        )
    files.append(
        DesktopFile(
            path="Music/favourites.m3u", format="text", text="#EXTM3U\n", mtime=start - timedelta(days=60)
        )
    )
    for i in range(max(2, between(rng, sizing.mails) // 3)):
        files.append(
            DesktopFile(
                path=f"Downloads/invoice_{2040 + i}.pdf",
                format="pdf",
                title=f"Invoice {2040 + i}",
                sections=[
                    ("", [f"Amount due: ${rng.randint(30, 2000)}.00", INVOICE_NOTES[i % len(INVOICE_NOTES)]])
                ],
                mtime=start - timedelta(days=5 * i + 2),
            )
        )
    files.append(
        DesktopFile(
            path="Downloads/export.csv",
            format="csv",
            rows=_ledger(rng, vendors, 20, (start - timedelta(days=4)).year, until=start - timedelta(days=4)),
            mtime=start - timedelta(days=4),
        )
    )
    files += _mail(rng, fake, sizing, persona, people, start)
    history = [
        "ls",
        f"cd ~/Projects/{slug(persona.projects[0])}",
        "python -m pytest -q",
        "git status",
        f"cp ~/Documents/{persona.projects[0]}/report_final.docx ~/Desktop/",
        "du -sh ~/Downloads",
        "grep -ri invoice ~/Mail/Inbox | head",
    ]
    bookmarks = [
        (f"{persona.employer} intranet", f"http://intranet.{slug(persona.employer)[:12]}.test/"),
        ("School news", "http://school.test/news"),
    ]
    return DesktopWorld(files=sorted(files, key=lambda f: f.path), shell_history=history, bookmarks=bookmarks)
