"""Windows families whose value is read from a document on the C: drive, a near-miss twin ahead of it.

Issue #15: every older Windows family states each value it writes in its instruction, so an
agent that copies the first same-shaped token it sees (the first-match baseline) solves them.
Here the value the task needs is *not* in the instruction: it sits in a note, letter or memo
on a lived-in C: drive (several files besides the task's own, look-alike names), after a
near-miss twin of the same shape (last year's code, the refunded invoice, the draft's date).
The checks forbid the twin (``distractors``) and ``metadata.reads`` says where the value sits
(``document``: a file the agent has to open) and how many look-alikes are ahead of it, as
they are laid out here; the grade is measured from that (``tasks/source_difficulty.py``).

The rows are drawn once from a seeded generator per family and row, so a row is the same task
on every build. Reference solutions use GUI actions only (the value's document opened in
Notepad first), as in :mod:`devicesworld.devices.windows.tasks`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from devicesworld.worlds.drawn import TASK_PERSONAS, drawn_world

Json = dict[str, Any]
DEV = "windows_0"
KIND = "windows"
PROFILE = r"C:\Users\user"
DESK = PROFILE + r"\Desktop"
DOCS = PROFILE + r"\Documents"
ROWS_PER_FAMILY = 9
"""Eight rows for ``full`` and one for ``smoke`` (row 0)."""
PERSONAS = TASK_PERSONAS
"""A Windows task's PC takes one of the first 40 persona worlds (docs/worlds.md)."""


def lived_world(tid: str, device: str, salt: str) -> Json:
    """A lived persona world on ``device`` alone (:func:`devicesworld.worlds.drawn.drawn_world`)."""
    return drawn_world(tid, [device], salt)


def windows_world(tid: str, world: Json | None = None) -> Json:
    """The persona world of the task's Windows PC (issue #13): a lived profile with the persona's
    documents, downloads, pictures and mail; the family's files are written on top of it (the
    task's file wins at a path the world fills). A task that already names a world (its phone's)
    gives the PC that persona's world too."""
    if world is None:
        return lived_world(tid, DEV, "windows-world")
    devices = list(world.get("devices") or [])
    return {**world, "devices": [DEV, *(d for d in devices if d != DEV)]}


def step(action: str, **args: Any) -> Json:
    return {"device": DEV, "action": action, "args": args}


CMD_WAIT_S = 2.0
"""Time for a command typed into the console to run before ``exit`` is typed (cmd reads ``exit`` only
once the command is done, so a slow one still finishes first)."""


def in_cmd(command: str) -> list[Json]:
    """``command`` typed into a new command prompt window (it opens in the user's profile folder), run,
    and the window closed: the console is an app of the GUI action space, so a reference solution
    that uses it needs no ``run_command`` and the PC is declared GUI-only (issue #34)."""
    return [
        step("launch_app", app="cmd"),
        step("type_text", text=command + "\n"),
        step("wait", seconds=CMD_WAIT_S),
        step("type_text", text="exit\n"),
    ]


def cond(cid: str, check: str, *, scored: bool = True, **args: Any) -> Json:
    return {"id": cid, "device": DEV, "check": check, "args": args, "scored": scored, "required": True}


def text_file(path: str, content: str) -> Json:
    return {"device": DEV, "op": "write_text", "args": {"path": path, "content": content}}


def rtf_file(path: str, paragraphs: list[str]) -> Json:
    return {"device": DEV, "op": "write_rtf", "args": {"path": path, "paragraphs": paragraphs}}


def read(value: str, ahead: int) -> Json:
    """A value read from a document the agent opens, ``ahead`` look-alikes before it there."""
    return {"value": value, "where": "document", "ahead": ahead}


def older(value: str) -> str:
    """A near-miss twin of ``value``: the same shape, every digit moved on by three."""
    return "".join(str((int(c) + 3) % 10) if c.isdigit() else c for c in value)


def lines(items: list[str]) -> str:
    return "".join(f"{x}\n" for x in items)


def doc(
    tid: str,
    instruction: str,
    setup: list[Json],
    conditions: list[Json],
    solution: list[Json],
    *,
    pattern: str,
    apps: list[str],
    reads: list[Json],
) -> Json:
    return {
        "schema_version": 1,
        "id": tid,
        "instruction": instruction,
        "devices": [{"id": DEV, "kind": KIND, "profile": {}}],
        "setup": setup,
        "evaluation": {"conditions": conditions},
        "limits": {"max_steps": 30, "max_seconds": 600.0},
        "metadata": {
            "pattern": pattern,
            "device_kinds": [KIND],
            "apps": apps,
            "split": "test",
            "origin": "builder",
            "tags": ["gui", "wine", "read-from-document"],
            "reads": reads,
        },
        "solution": [*solution, {"device": None, "action": "finish", "args": {}}],
        "world": windows_world(tid),
    }


def save_as(path: str) -> list[Json]:
    """Ctrl+S in a new file, then the path into the Save As dialog once it has focus."""
    return [
        step("hotkey", keys=["ctrl", "s"]),
        step("wait", seconds=3.0),
        step("type_text", text=path + "\n"),
    ]


# ----------------------------------------------------------------------------- the lived-in drive
_CLUTTER: list[tuple[str, str, str]] = [
    (DESK, "shopping.txt", "milk\nbread\ncoffee\n"),
    (DESK, "todo.txt", "call the garage\nreturn library books\n"),
    (DESK, "Copy of todo.txt", "call the garage\n"),
    (DESK, "notes.txt", "ask about the parking\nwater the plants\n"),
    (DESK, "notes-old.txt", "old notes, keep for now\n"),
    (DESK, "birthdays.txt", "Mum in June\nLeo in October\n"),
    (DOCS, "recipes.txt", "lentil soup\nlemon cake\n"),
    (DOCS, "car-insurance.txt", "renewal in autumn\n"),
    (DOCS, "holiday-ideas.txt", "the coast\nthe lakes\n"),
    (DOCS, "letter-draft.txt", "Dear neighbours,\n"),
    (DOCS, "reading-list.txt", "Middlemarch\nThe Leopard\n"),
    (DOCS, "garden.txt", "prune the roses\nsow the beans\n"),
]


def lived(rng: random.Random, taken: set[str], n: int = 6) -> list[Json]:
    """``n`` everyday files on the Desktop and in Documents, none with a name the task uses."""
    free = [c for c in _CLUTTER if c[1].casefold() not in taken]
    return [text_file(rf"{folder}\{name}", body) for folder, name, body in rng.sample(free, n)]


def _code(rng: random.Random, digits: int, avoid: set[str]) -> str:
    while True:
        value = str(rng.randint(10 ** (digits - 1), 10**digits - 1))
        if value not in avoid and older(value) not in avoid and value != older(value):
            return value


# ----------------------------------------------------------------------------- families
_FIX = [
    ("party.txt", "Roof party", "gate code", "building", "notice"),
    ("visit.txt", "Visit to the office", "door code", "office", "memo"),
    ("flat.txt", "Holiday flat", "key-safe code", "landlord", "letter"),
    ("babysitter.txt", "For the babysitter", "alarm code", "security company", "notice"),
    ("club.txt", "Swim club", "locker code", "club", "newsletter"),
]


def np_fix_code(tid: str, row: int, rng: random.Random) -> Json:
    """Notepad: correct a code in a file to the one in the latest of two yearly notices."""
    file, title, what, org, kind = _FIX[row % len(_FIX)]
    stale = _code(rng, 4, {"2025", "2026"})
    new = _code(rng, 4, {"2025", "2026", stale, older(stale)})
    other = _code(rng, 4, {"2025", "2026", stale, new, older(new)})
    label = what[0].upper() + what[1:]
    path = rf"{(DESK, DOCS)[row // len(_FIX)]}\{file}"
    latest, last = rf"{DOCS}\{kind}-2026.txt", rf"{DOCS}\{kind}-2025.txt"
    before = [title, "Bring something to drink", f"{label}: {stale}"]
    after = [title, "Bring something to drink", f"{label}: {new}"]
    notice = [
        f"From the {org}",
        f"From 1 March the old {what} {stale} no longer works.",
        f"The bike store keeps its code {other}.",
        f"New {what}: {new}",
    ]
    setup = [
        text_file(path, lines(before)),
        text_file(last, lines([f"From the {org}", f"{label} for this year: {stale}"])),
        text_file(latest, lines(notice)),
        *lived(rng, {file, f"{kind}-2025.txt", f"{kind}-2026.txt"}),
    ]
    return doc(
        tid,
        f"In Notepad, correct the {what} in {path} to the one in the {org}'s latest {kind} "
        f"({latest}; the 2025 one is beside it), and save the file.",
        setup,
        [
            cond(
                "corrected",
                "file_text",
                path=path,
                contains=[f"{label}: {new}"],
                not_contains=[f"{label}: {stale}"],
                distractors=[stale, other],
            ),
            cond("kept", "file_text", scored=False, path=path, contains=after[:2]),
        ],
        [
            step("launch_app", app="notepad", path=latest),
            step("launch_app", app="notepad", path=path),
            step("hotkey", keys=["ctrl", "a"]),
            step("type_text", text=lines(after)),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="edit_text_file",
        apps=["windows:notepad"],
        reads=[read(new, 2)],
    )


_NEW = [
    ("guest wifi password", "router.txt", "wifi.txt", "word"),
    ("booking reference", "hotel.txt", "booking.txt", "BK"),
    ("parking permit number", "permit.txt", "parking.txt", "P-"),
    ("library card number", "library.txt", "library-card.txt", "LC"),
    ("locker PIN", "gym.txt", "locker.txt", ""),
]
_WORDS = ["blue", "kite", "maple", "river", "stone", "cedar", "amber", "otter", "plum", "fern"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "September", "October"]


def _value(rng: random.Random, style: str, avoid: set[str]) -> str:
    while True:
        if style == "word":
            a, b = rng.sample(_WORDS, 2)
            value = f"{a}-{b}-{rng.randint(10, 99)}"
        elif style:
            value = f"{style}{rng.randint(10000, 99999)}"
        else:
            value = _code(rng, 4, avoid)
        if value not in avoid and value != older(value):
            return value


def np_new_from_doc(tid: str, row: int, rng: random.Random) -> Json:
    """Notepad: a new file holding just the current value from a note that lists an old one first."""
    what, src, out, style = _NEW[row % len(_NEW)]
    value = _value(rng, style, set())
    stale = older(value)
    month = rng.choice(_MONTHS)
    label = what[0].upper() + what[1:]
    src_path, out_path = rf"{DOCS}\{src}", rf"{(DESK, DOCS)[row // len(_NEW)]}\{out}"
    note = [f"{label} until {month}: {stale}", f"{label} from {month}: {value}", "Keep this note."]
    return doc(
        tid,
        f"Make a new Notepad file {out_path} holding just the current {what} from my note {src_path}.",
        [text_file(src_path, lines(note)), *lived(rng, {src, out})],
        [cond("written", "file_text", path=out_path, equals=value, distractors=[stale])],
        [
            step("launch_app", app="notepad", path=src_path),
            step("launch_app", app="notepad"),
            step("type_text", text=value),
            *save_as(out_path),
        ],
        pattern="create_text_file",
        apps=["windows:notepad"],
        reads=[read(value, 1)],
    )


_MINUTES = [
    ("minutes-garden.rtf", "Garden club minutes", "the new greenhouse"),
    ("minutes-board.rtf", "Residents' board minutes", "the roof repair"),
    ("minutes-school.rtf", "Parents' council minutes", "the summer fair"),
    ("minutes-choir.rtf", "Choir committee minutes", "the concert venue"),
]
_ITEMS = [
    "agreed the rota",
    "reviewed the budget",
    "voted on the proposal",
    "heard the treasurer",
    "chose the supplier",
    "set the fees",
]


def wp_bold_dated(tid: str, row: int, rng: random.Random) -> Json:
    """WordPad: make bold the line of the minutes with the date a memo gives (the draft's date first)."""
    file, title, topic = _MINUTES[row % len(_MINUTES)]
    month = _MONTHS[row % len(_MONTHS)]
    days = sorted(rng.sample(range(10, 29), 4))
    items = rng.sample(_ITEMS, 4)
    entries = [f"{d} {month}: {it}" for d, it in zip(days, items, strict=True)]
    pick, twin = rng.sample(range(4), 2)
    date, twin_date = f"{days[pick]} {month}", f"{days[twin]} {month}"
    path, memo = rf"{DOCS}\{file.replace('.rtf', '-' + month.lower() + '.rtf')}", rf"{DESK}\memo.txt"
    memo_text = [
        "Memo from the chair",
        f"The draft said {twin_date}, but the decision on {topic} was taken on {date}.",
    ]
    return doc(
        tid,
        f"In WordPad, make bold the line of the minutes {path} with the date the chair's memo ({memo}) "
        f"gives for the decision on {topic}, and save it.",
        [
            rtf_file(path, [title, *entries]),
            text_file(memo, lines(memo_text)),
            *lived(rng, {file, "memo.txt"}),
        ],
        [
            cond("bold", "rtf_text", path=path, text=entries[pick], bold=True, distractors=[entries[twin]]),
            *(
                cond(f"plain_{i}", "rtf_text", scored=False, path=path, text=e, bold=False)
                for i, e in enumerate(entries)
                if i not in (pick, twin)
            ),
        ],
        [
            step("launch_app", app="notepad", path=memo),
            step("launch_app", app="wordpad", path=path),
            step("hotkey", keys=["ctrl", "f"]),
            step("wait", seconds=2.0),
            step("type_text", text=date + "\n"),
            step("hotkey", keys=["escape"]),
            step("hotkey", keys=["home"]),
            step("hotkey", keys=["shift", "end"]),
            step("hotkey", keys=["ctrl", "b"]),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="format_document",
        apps=["windows:notepad", "windows:wordpad"],
        reads=[read(date, 1)],
    )


_LETTERS = [
    ("letter-energy.rtf", "Dear energy supplier", "customer number", "bills.txt", "CN"),
    ("letter-school.rtf", "Dear school office", "pupil number", "school.txt", "PN"),
    ("letter-bank.rtf", "Dear bank", "account number", "bank.txt", ""),
    ("letter-council.rtf", "Dear council", "reference number", "council.txt", "REF"),
    ("letter-water.rtf", "Dear water company", "meter number", "water.txt", "WM"),
]


def wp_add_from_doc(tid: str, row: int, rng: random.Random) -> Json:
    """WordPad: add a closing line to a letter with the new number from a note that gives the old one first."""
    file, greeting, what, note, prefix = _LETTERS[row % len(_LETTERS)]
    number = f"{prefix}{rng.randint(10000000, 99999999)}"
    stale = older(number)
    path, note_path = rf"{DOCS}\{file}", rf"{(DOCS, DESK)[row // len(_LETTERS)]}\{note}"
    sentence = f"Our {what} is now {number}."
    body = [greeting, "I am writing about our household's details.", "Kind regards"]
    note_lines = [f"Old {what} (closed): {stale}", f"New {what}: {number}"]
    return doc(
        tid,
        f'Add a last paragraph "Our {what} is now <number>." to the WordPad letter {path}, with our new '
        f"{what} from {note_path}, and save it.",
        [rtf_file(path, body), text_file(note_path, lines(note_lines)), *lived(rng, {file, note})],
        [
            cond(
                "added",
                "rtf_paragraphs",
                path=path,
                contains=[*body, sentence],
                distractors=[stale],
            )
        ],
        [
            step("launch_app", app="notepad", path=note_path),
            step("launch_app", app="wordpad", path=path),
            step("hotkey", keys=["ctrl", "end"]),
            step("type_text", text="\n" + sentence),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="edit_document",
        apps=["windows:notepad", "windows:wordpad"],
        reads=[read(number, 1)],
    )


_SCANS = [
    ("scan.txt", "insurer", "claim"),
    ("scanned-letter.txt", "insurer", "claim"),
    ("scan-from-printer.txt", "tax office", "case"),
    ("document.txt", "hospital", "appointment"),
    ("IMG_scan.txt", "dentist", "patient"),
]


def ex_rename_ref(tid: str, row: int, rng: random.Random) -> Json:
    """Explorer: rename a scan after the reference number in the latest letter (the old one first)."""
    scan, sender, ref = _SCANS[row % len(_SCANS)]
    where = (DESK, DOCS)[row // len(_SCANS)]
    number = str(rng.randint(10000, 99999))
    stale = older(number)
    letter = rf"{DOCS}\{sender.replace(' ', '-')}-letter.txt"
    old, new, twin = rf"{where}\{scan}", rf"{where}\{ref}-{number}.txt", rf"{where}\{ref}-{stale}.txt"
    content = f"Scanned page from the {sender}"
    letter_lines = [
        f"Your earlier {ref} {stale} is closed.",
        f"Your new {ref} number is {number}; please quote it on every document.",
    ]
    return doc(
        tid,
        f"In Explorer, rename {old} to {ref}-<number>.txt, with the {ref} number from the {sender}'s latest "
        f"letter ({letter}).",
        [
            text_file(old, content + "\n"),
            text_file(letter, lines(letter_lines)),
            *lived(rng, {scan, letter.rsplit("\\", 1)[1].casefold()}),
        ],
        [
            cond("renamed", "file_text", path=new, equals=content),
            cond("not_the_twin", "file_exists", path=new, distractors=[twin]),
            cond("old_gone", "file_exists", path=old, present=False),
        ],
        [
            step("launch_app", app="notepad", path=letter),
            step("launch_app", app="explorer", path=where),
            step("click", element={"role": "ListItem", "name": scan}),
            step("hotkey", keys=["F2"]),
            step("hotkey", keys=["ctrl", "a"]),
            step("type_text", text=f"{ref}-{number}.txt\n"),
        ],
        pattern="file_management",
        apps=["windows:notepad", "windows:explorer"],
        reads=[read(number, 1)],
    )


_ASKERS = [
    ("accountant.txt", "accountant", "Tax", "tax return"),
    ("note-from-dad.txt", "dad", "Warranty", "warranty claim"),
    ("landlord-note.txt", "landlord", "Deposit", "deposit refund"),
    ("manager-note.txt", "manager", "Expenses", "expenses claim"),
    ("partner-note.txt", "partner", "Insurance", "insurance claim"),
]


def cmd_move_named(tid: str, row: int, rng: random.Random) -> Json:
    """cmd: move the invoice a note names (after one it rules out) into a new folder."""
    note, who, folder, purpose = _ASKERS[row % len(_ASKERS)]
    numbers: list[str] = []
    while len(numbers) < 2:
        n = _code(rng, 4, set(numbers) | {older(x) for x in numbers})
        numbers.append(n)
    value = numbers[0]
    stale = older(value)
    others = [stale, numbers[1]]
    note_path, dest = rf"{(DESK, DOCS)[row // len(_ASKERS)]}\{note}", rf"{DOCS}\{folder}"
    files = {n: rf"{DOCS}\invoice-{n}.txt" for n in [value, *others]}
    setup = [text_file(p, f"Invoice {n}: {rng.randint(20, 900)} EUR\n") for n, p in sorted(files.items())]
    note_lines = [
        f"Hi, for the {purpose}:",
        f"Invoice {stale} was refunded, so leave it out.",
        f"Please put invoice {value} in a folder {folder} in Documents.",
    ]
    moved = rf"{dest}\invoice-{value}.txt"
    return doc(
        tid,
        f"Move the invoice that my {who}'s note ({note_path}) asks for into a new folder {dest} "
        "(use the command prompt or Explorer).",
        [*setup, text_file(note_path, lines(note_lines)), *lived(rng, {note})],
        [
            cond("moved", "file_exists", path=moved, distractors=[rf"{dest}\invoice-{stale}.txt"]),
            cond("source_gone", "file_exists", path=files[value], present=False),
            cond("twin_stays", "file_exists", scored=False, path=files[stale]),
        ],
        [
            step("launch_app", app="notepad", path=note_path),
            *in_cmd(
                rf'mkdir "Documents\{folder}" && move "Documents\invoice-{value}.txt" "Documents\{folder}"'
            ),
        ],
        pattern="file_management",
        apps=["windows:notepad", "windows:cmd"],
        reads=[read(value, 1)],
    )


READ_FAMILIES: dict[str, Callable[[str, int, random.Random], Json]] = {
    "np-fix-code": np_fix_code,
    "np-new-from-doc": np_new_from_doc,
    "wp-bold-dated": wp_bold_dated,
    "wp-add-from-doc": wp_add_from_doc,
    "ex-rename-ref": ex_rename_ref,
    "cmd-move-named": cmd_move_named,
}
"""Family name -> builder of one task from the row's own generator."""


def build(family: str, row: int, tid: str, fresh_seed: int | None = None) -> Json:
    """Row ``row`` of ``family`` as a task document (the same row, the same task); with
    ``fresh_seed`` (a private draw) the row's template with values drawn from that seed."""
    if not 0 <= row < ROWS_PER_FAMILY:
        raise ValueError(f"windows family {family} has {ROWS_PER_FAMILY} rows, not a row {row}")
    salt = (
        f"windows-read:{family}:{row}" if fresh_seed is None else f"windows-read-fresh:{family}:{fresh_seed}"
    )
    return READ_FAMILIES[family](tid, row, random.Random(salt))
