"""The desktop surface of a world: a home folder that looks used.

Documents per project with older versions beside the current one (``report_v1``,
``report_final``, ``report_final2``) and last year's budget beside this year's,
spreadsheets of tens to hundreds of rows, multi-page reports with headings and a
table, received mail and drafts, code projects with a changelog, pictures, a shell
history and browser bookmarks. Files are described by content; a kind's
materialiser writes them (:class:`~devicesworld.worlds.model.DesktopFile`).
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


def slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")


def _ledger(rng: random.Random, vendors: list[str], rows: int, year: int) -> list[list[str | int | float]]:
    out: list[list[str | int | float]] = [["Date", "Category", "Vendor", "Amount"]]
    for _ in range(rows):
        day = datetime(year, rng.randint(1, 12), rng.randint(1, 28))
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
        when = start - timedelta(days=rng.randint(0, sizing.days_back), hours=rng.randint(0, 9))
        out.append(
            DesktopFile(
                path=f"Mail/Inbox/{when:%Y%m%d}_{i:02d}_{slug(subject)[:30]}.eml",
                format="eml",
                headers={
                    "From": f"{sender.name} <{sender.email}>",
                    "To": persona.person.email,
                    "Subject": subject,
                },
                text=f"Hi {persona.person.first},\n\n{fake.paragraph(nb_sentences=3)}\n\n{sender.first}\n",
                mtime=when,
            )
        )
    for i in range(max(1, n // 4)):
        to = rng.choice(colleagues)
        subject = f"Draft: {rng.choice(persona.projects)} plan"
        out.append(
            DesktopFile(
                path=f"Mail/Drafts/{slug(subject)}_{i}.eml",
                format="eml",
                headers={"From": persona.person.email, "To": to.email, "Subject": subject, "X-Unsent": "1"},
                text=f"Hi {to.first},\n\n{fake.paragraph(nb_sentences=2)}\n",
                mtime=start - timedelta(days=i + 1),
            )
        )
    return out


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
        files.append(
            DesktopFile(
                path=f"Documents/expenses_{y}.csv",
                format="csv",
                rows=_ledger(rng, vendors, between(rng, sizing.sheet_rows), y),
                mtime=datetime(y, 12, 31) if y < year else start - timedelta(days=1),
            )
        )
    files.append(
        DesktopFile(
            path=f"Documents/taxes_{year - 1}.pdf",
            format="pdf",
            title=f"Tax summary {year - 1}",
            sections=[("", [fake.paragraph(nb_sentences=4) for _ in range(3)])],
            mtime=datetime(year, 2, 10),
        )
    )
    files.append(
        DesktopFile(
            path="Desktop/todo.txt",
            format="text",
            text="\n".join(f"- {fake.sentence(nb_words=5)}" for _ in range(6)) + "\n",
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
        files.append(
            DesktopFile(
                path=f"Pictures/IMG_{year}{i + 1:04d}.jpg",
                format="image",
                title=fake.word(),
                mtime=start - timedelta(days=3 * i + 1),
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
                sections=[("", [f"Amount due: ${rng.randint(30, 2000)}.00", fake.sentence()])],
                mtime=start - timedelta(days=5 * i + 2),
            )
        )
    files.append(
        DesktopFile(
            path="Downloads/export.csv",
            format="csv",
            rows=_ledger(rng, vendors, 20, year),
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
