"""Windows GUI tasks of JarvisGUI's kind, built from data: Notepad, WordPad, Explorer, cmd, and cross-device.

Each family is a function of a row of :data:`ROWS` (file names, contents, values), so the
suite is a table plus a few lines per family. Reference solutions use GUI actions only:
keyboard and mouse, with elements named by *selectors* (``{"role": "ListItem", "name":
"old.txt"}``) that the device resolves against its current element list, so a replay
does not depend on indices. Cross-device tasks use the phone (its steps written as the
phone's task-file macros, ``open_contact``/``back``, which the suite builder expands and
records on a phone with the same setup) and the shared network drive (``N:`` here,
``~/Drive`` on a Linux desktop).

:func:`task_sources` gives the families to the ``full`` and ``smoke`` suites
(``devicesworld tasks build --suite full``), through the kind's traits.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from devicesworld.devices.traits import TaskDraw, TaskSource
from devicesworld.devices.windows import tasks_read
from devicesworld.devices.windows.tasks_read import in_cmd, lived_world

KIND = "windows"
DEV = "windows_0"
PROFILE = r"C:\Users\user"
DESK = PROFILE + r"\Desktop"
DOCS = PROFILE + r"\Documents"
Json = dict[str, Any]


def step(action: str, device: str = DEV, **args: Any) -> Json:
    return {"device": device, "action": action, "args": args}


def finish() -> Json:
    return {"device": None, "action": "finish", "args": {}}


def cond(cid: str, check: str, device: str = DEV, **args: Any) -> Json:
    return {"id": cid, "device": device, "check": check, "args": args, "scored": True, "required": True}


def guard(cid: str, check: str, device: str = DEV, **args: Any) -> Json:
    """A condition that already holds after setup and must still hold (not scored)."""
    return {**cond(cid, check, device, **args), "scored": False}


def task(
    tid: str,
    instruction: str,
    setup: list[Json],
    conditions: list[Json],
    solution: list[Json],
    *,
    pattern: str,
    apps: list[str],
    devices: list[Json] | None = None,
    kinds: list[str] | None = None,
    reads: list[Json] | None = None,
    world: Json | None = None,
) -> Json:
    """A task document; its difficulty is measured where it becomes a suite task
    (``devicesworld.tasks.source_difficulty``), with ``reads`` saying where a value read from a
    device sits and how many look-alikes are ahead of it."""
    return {
        "schema_version": 1,
        "id": tid,
        "instruction": instruction,
        "devices": devices or [{"id": DEV, "kind": KIND, "profile": {}}],
        "setup": setup,
        "evaluation": {"conditions": conditions},
        "limits": {"max_steps": 30, "max_seconds": 600.0},
        "metadata": {
            "pattern": pattern,
            "device_kinds": kinds or [KIND],
            "apps": apps,
            "split": "test",
            "origin": "builder",
            "tags": ["gui", "wine"],
            **({"reads": reads} if reads else {}),
        },
        "solution": [*solution, finish()],
        "world": tasks_read.windows_world(tid, world),
    }


def text_file(path: str, content: str) -> Json:
    return {"device": DEV, "op": "write_text", "args": {"path": path, "content": content}}


def rtf_file(path: str, paragraphs: list[str]) -> Json:
    return {"device": DEV, "op": "write_rtf", "args": {"path": path, "paragraphs": paragraphs}}


def save_as(path: str) -> list[Json]:
    """Ctrl+S in a new Notepad file, then the path into the Save As dialog's name box.

    The dialog takes a second or more to appear on a loaded machine, and keys typed
    before it has focus go into the document: wait for it first.
    """
    return [
        step("hotkey", keys=["ctrl", "s"]),
        step("wait", seconds=3.0),
        step("type_text", text=path + "\n"),
    ]


def lines(items: Iterable[str]) -> str:
    return "".join(f"{x}\n" for x in items)


# ----------------------------------------------------------------------------- families
def np_append(tid: str, r: Json) -> Json:
    path = rf"{r['folder']}\{r['file']}"
    return task(
        tid,
        f'Open {path} in Notepad, add a new last line that says "{r["add"]}", and save the file.',
        [text_file(path, lines(r["lines"]))],
        [cond("appended", "file_text", path=path, contains=[*r["lines"], r["add"]])],
        [
            step("launch_app", app="notepad", path=path),
            step("hotkey", keys=["ctrl", "end"]),
            step("type_text", text=r["add"] + "\n"),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="edit_text_file",
        apps=["windows:notepad"],
    )


def np_new(tid: str, r: Json) -> Json:
    path = rf"{r['folder']}\{r['file']}"
    body = lines(r["lines"])
    return task(
        tid,
        f"Use Notepad to create {path} with these lines, one per line: " + "; ".join(r["lines"]) + ".",
        [],
        [cond("created", "file_text", path=path, equals=body)],
        [
            step("launch_app", app="notepad"),
            step("type_text", text=body),
            *save_as(path),
        ],
        pattern="create_text_file",
        apps=["windows:notepad"],
    )


def np_replace(tid: str, r: Json) -> Json:
    path = rf"{r['folder']}\{r['file']}"
    old = [f"{k}: {v}" for k, v in r["items"]]
    new = [f"{k}: {r['new'] if k == r['key'] else v}" for k, v in r["items"]]
    was = dict(r["items"])[r["key"]]
    return task(
        tid,
        f"In {path}, change the {r['key']} from {was} to {r['new']} using Notepad, and save it.",
        [text_file(path, lines(old))],
        [
            cond(
                "changed",
                "file_text",
                path=path,
                contains=[f"{r['key']}: {r['new']}"],
                not_contains=[f"{r['key']}: {was}"],
            ),
            guard(
                "kept", "file_text", path=path, contains=[x for x in new if not x.startswith(r["key"] + ":")]
            ),
        ],
        [
            step("launch_app", app="notepad", path=path),
            step("hotkey", keys=["ctrl", "a"]),
            step("type_text", text=lines(new)),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="edit_text_file",
        apps=["windows:notepad"],
    )


def _flag(name: str, value: bool) -> dict[str, Any]:
    return {name: value}


STYLE_KEYS = {"bold": "b", "italic": "i", "underline": "u"}


def wp_format(tid: str, r: Json) -> Json:
    path = rf"{r['folder']}\{r['file']}"
    style = r["style"]
    first = r["paragraphs"][0]
    return task(
        tid,
        f'Open the WordPad document {path}, make its first line ("{first}") {style}, and save it.',
        [rtf_file(path, r["paragraphs"])],
        [
            cond("styled", "rtf_text", path=path, text=first, **_flag(style, True)),
            guard("rest", "rtf_text", path=path, text=r["paragraphs"][1], **_flag(style, False)),
        ],
        [
            step("launch_app", app="wordpad", path=path),
            step("hotkey", keys=["ctrl", "home"]),
            step("hotkey", keys=["shift", "end"]),
            step("hotkey", keys=["ctrl", STYLE_KEYS[style]]),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="format_document",
        apps=["windows:wordpad"],
    )


def wp_append(tid: str, r: Json) -> Json:
    path = rf"{r['folder']}\{r['file']}"
    return task(
        tid,
        f'Add a last paragraph "{r["add"]}" to the WordPad document {path} and save it.',
        [rtf_file(path, r["paragraphs"])],
        [cond("added", "rtf_paragraphs", path=path, contains=[*r["paragraphs"], r["add"]])],
        [
            step("launch_app", app="wordpad", path=path),
            step("hotkey", keys=["ctrl", "end"]),
            step("type_text", text="\n" + r["add"]),
            step("hotkey", keys=["ctrl", "s"]),
        ],
        pattern="edit_document",
        apps=["windows:wordpad"],
    )


def ex_delete(tid: str, r: Json) -> Json:
    folder = r["folder"]
    gone, kept = rf"{folder}\{r['file']}", rf"{folder}\{r['keep']}"
    return task(
        tid,
        f"In Explorer, delete the file {r['file']} from {folder}; leave {r['keep']} where it is.",
        [text_file(gone, "old draft\n"), text_file(kept, "final\n")],
        [
            cond("deleted", "file_exists", path=gone, present=False),
            guard("kept", "file_text", path=kept, equals="final"),
        ],
        [
            step("launch_app", app="explorer", path=folder),
            step("click", element={"role": "ListItem", "name": r["file"]}),
            step("hotkey", keys=["delete"]),
            step("hotkey", keys=["enter"]),
        ],
        pattern="file_management",
        apps=["windows:explorer"],
    )


def ex_rename(tid: str, r: Json) -> Json:
    folder = r["folder"]
    old, new = rf"{folder}\{r['file']}", rf"{folder}\{r['new']}"
    return task(
        tid,
        f"In Explorer, rename {old} to {r['new']}.",
        [text_file(old, r["content"] + "\n")],
        [
            cond("renamed", "file_text", path=new, equals=r["content"]),
            cond("old_gone", "file_exists", path=old, present=False),
        ],
        [
            step("launch_app", app="explorer", path=folder),
            step("click", element={"role": "ListItem", "name": r["file"]}),
            step("hotkey", keys=["F2"]),
            step("hotkey", keys=["ctrl", "a"]),
            step("type_text", text=r["new"] + "\n"),
        ],
        pattern="file_management",
        apps=["windows:explorer"],
    )


def cmd_move(tid: str, r: Json) -> Json:
    src = rf"{DESK}\{r['file']}"
    dest_dir = rf"{DOCS}\{r['into']}"
    dest = rf"{dest_dir}\{r['file']}"
    return task(
        tid,
        f"Move {r['file']} from the Desktop into a new folder {dest_dir} (use the command prompt or Explorer).",
        [text_file(src, r["content"] + "\n")],
        [
            cond("moved", "file_text", path=dest, equals=r["content"]),
            cond("source_gone", "file_exists", path=src, present=False),
        ],
        in_cmd(rf'mkdir "Documents\{r["into"]}" && move "Desktop\{r["file"]}" "Documents\{r["into"]}"'),
        pattern="file_management",
        apps=["windows:cmd"],
    )


def cmd_copy_rename(tid: str, r: Json) -> Json:
    src = rf"{DOCS}\{r['file']}"
    dest = rf"{DOCS}\{r['copy']}"
    return task(
        tid,
        f"Make a copy of {src} named {r['copy']} in the same folder, keeping the original.",
        [text_file(src, r["content"] + "\n")],
        [
            cond("copied", "file_text", path=dest, equals=r["content"]),
            guard("original", "file_text", path=src, equals=r["content"]),
        ],
        in_cmd(rf'copy "Documents\{r["file"]}" "Documents\{r["copy"]}"'),
        pattern="file_management",
        apps=["windows:cmd"],
    )


LINUX = "linux_0"
PHONE = "android_0"
LINUX_GUI: Json = {"desktop": "gui"}
"""The Linux desktop of a cross-device task is a GUI desktop like the PC (issue #34: every desktop of a
task about working in apps runs GUI-only once declared)."""


def linux_terminal(command: str) -> list[Json]:
    """``command`` typed into a terminal window on the Linux desktop, run, and the window closed."""
    return [
        step("launch_app", device=LINUX, app="terminal"),
        step("type_text", device=LINUX, text=command + "\n"),
        step("wait", device=LINUX, seconds=1.0),
        step("type_text", device=LINUX, text="exit\n"),
    ]


def drive_to_linux(tid: str, r: Json) -> Json:
    src = rf"{DOCS}\{r['file']}"
    return task(
        tid,
        f"Put a copy of {src} from the Windows PC on the network drive, then on the Linux desktop move it "
        f"from ~/Drive into ~/Documents.",
        [text_file(src, r["content"] + "\n")],
        [
            cond(
                "on_linux",
                "file_contains",
                device=LINUX,
                path=f"~/Documents/{r['file']}",
                contains=[r["content"]],
            ),
            guard("original", "file_text", path=src, equals=r["content"]),
        ],
        [
            *in_cmd(rf'copy "Documents\{r["file"]}" "N:\{r["file"]}"'),
            *linux_terminal(f"mkdir -p ~/Documents && mv ~/Drive/{r['file']} ~/Documents/"),
        ],
        pattern="cross_device_transfer",
        apps=["windows:cmd", "linux:terminal"],
        devices=[
            {"id": DEV, "kind": KIND, "profile": {}},
            {"id": LINUX, "kind": "linux", "profile": LINUX_GUI},
        ],
        kinds=[KIND, "linux"],
        world=linux_world(tid),
    )


def older(value: str) -> str:
    """A near-miss twin of ``value``: the same shape, every digit moved on by three."""
    return "".join(str((int(c) + 3) % 10) if c.isdigit() else c for c in value)


def linux_to_notepad(tid: str, r: Json) -> Json:
    path = rf"{DOCS}\{r['file']}"
    old = older(r["value"])
    content = f"{r['what']} (until last week): {old}\n{r['what']}: {r['value']}\n"
    return task(
        tid,
        f"On the Linux desktop, ~/Documents/{r['source']} holds the current {r['what']} below the old one. "
        f"Write the current one on the Windows PC into a new Notepad file {path} (just the {r['what']}).",
        [
            {
                "device": LINUX,
                "op": "write_text",
                "args": {"path": f"~/Documents/{r['source']}", "content": content},
            }
        ],
        [cond("written", "file_text", path=path, equals=r["value"])],
        [
            step("launch_app", device=LINUX, app="text_editor", path=f"~/Documents/{r['source']}"),
            step("hotkey", device=LINUX, keys=["ctrl", "w"]),
            step("launch_app", app="notepad"),
            step("type_text", text=r["value"]),
            *save_as(path),
        ],
        pattern="cross_device_transfer",
        apps=["windows:notepad", "linux:text_editor"],
        reads=[{"value": r["value"], "where": "first_screen", "ahead": 1}],
        devices=[
            {"id": DEV, "kind": KIND, "profile": {}},
            {"id": LINUX, "kind": "linux", "profile": LINUX_GUI},
        ],
        kinds=[KIND, "linux"],
        world=linux_world(tid),
    )


def phone_world(tid: str) -> Json:
    """The persona world of the task's phone (issue #13): a lived phone with the persona's contacts;
    the family's contacts are added on top of it."""
    return lived_world(tid, PHONE, "windows-phone-world")


def linux_world(tid: str) -> Json:
    """The persona world of the task's Linux desktop (issue #13): a home holding the persona's own
    files, the family's files set up on top of them."""
    return lived_world(tid, LINUX, "windows-linux-world")


def phone_to_notepad(tid: str, r: Json) -> Json:
    path = rf"{DOCS}\{r['file']}"
    name = r["name"]
    twin = f"{name.split()[0]} Abara"  # the same first name, sorted ahead of the one asked for
    return task(
        tid,
        f"Look up {name}'s phone number in the phone's contacts and save it on the Windows PC in a new "
        f'Notepad file {path} as one line "{name}: <number>".',
        [
            {"device": PHONE, "op": "add_contact", "args": {"name": twin, "phone": older(r["phone"])}},
            {"device": PHONE, "op": "add_contact", "args": {"name": name, "phone": r["phone"]}},
        ],
        [
            cond(
                "written",
                "file_text",
                path=path,
                equals=f"{name}: {r['phone']}",
                distractors=[older(r["phone"])],
            )
        ],
        [
            # the lived phone's list is longer than a screen: find the contact by its full name
            {"device": PHONE, "macro": "open", "args": "Contacts"},
            {"device": PHONE, "macro": "type", "args": {"into": "contact_search", "text": name}},
            {"device": PHONE, "macro": "tap", "args": {"text": name, "nth": -1}},
            {"device": PHONE, "macro": "back", "args": None},
            step("launch_app", app="notepad"),
            step("type_text", text=f"{name}: {r['phone']}"),
            *save_as(path),
        ],
        pattern="cross_device_transfer",
        apps=["windows:notepad", "android:contacts"],
        reads=[{"value": r["phone"], "where": "first_screen", "ahead": 1}],
        devices=[{"id": DEV, "kind": KIND, "profile": {}}, {"id": PHONE, "kind": "android", "profile": {}}],
        kinds=[KIND, "android"],
        world=phone_world(tid),
    )


FAMILIES: dict[str, Callable[[str, Json], Json]] = {
    "np-append": np_append,
    "np-new": np_new,
    "np-replace": np_replace,
    "wp-format": wp_format,
    "wp-append": wp_append,
    "ex-delete": ex_delete,
    "ex-rename": ex_rename,
    "cmd-move": cmd_move,
    "cmd-copy": cmd_copy_rename,
    "drive-linux": drive_to_linux,
    "linux-notepad": linux_to_notepad,
    "phone-notepad": phone_to_notepad,
}

# ----------------------------------------------------------------------------- data
_GROCERIES = [
    ["eggs", "milk"],
    ["rice", "beans", "onions"],
    ["apples", "tea"],
    ["pasta", "tomatoes", "basil"],
]
_ADDS = ["bread", "butter", "coffee", "lemons", "honey", "yoghurt", "cheese", "flour"]
_NOTES = [
    ("todo.txt", ["call the bank", "book dentist"], "renew passport"),
    ("packing.txt", ["charger", "socks"], "umbrella"),
    ("ideas.txt", ["garden bench", "paint the fence"], "compost bin"),
    ("reading.txt", ["Dune", "Emma"], "Middlemarch"),
]


def _np_append_rows() -> list[Json]:
    rows: list[Json] = []
    for i, items in enumerate(_GROCERIES):
        for j, folder in enumerate((DESK, DOCS)):
            rows.append(
                {
                    "folder": folder,
                    "file": "shopping.txt",
                    "lines": items,
                    "add": _ADDS[(2 * i + j) % len(_ADDS)],
                }
            )
    for i, (file, items, add) in enumerate(_NOTES):
        rows.append({"folder": (DOCS, DESK)[i % 2], "file": file, "lines": items, "add": add})
    return rows


_NEW = [
    ("meeting.txt", ["Meeting at 10", "Room 4B"]),
    ("phone.txt", ["Plumber 555-0142"]),
    ("wifi.txt", ["Network: HomeNet", "Password: blue-kite-42"]),
    ("recipe.txt", ["2 eggs", "200 g flour", "1 cup milk"]),
    ("goals.txt", ["Run 5 km", "Read 12 books"]),
    ("gifts.txt", ["Mum: scarf", "Leo: puzzle"]),
    ("plants.txt", ["Water the fern on Friday"]),
    ("car.txt", ["MOT due in May", "Tyres at 32 psi"]),
    ("party.txt", ["Saturday 7 pm", "Bring salad"]),
    ("books.txt", ["The Hobbit", "Beloved"]),
]

_REPLACE = [
    ("prices.txt", [("apples", "2.10"), ("pears", "1.80"), ("plums", "3.20")], "pears", "1.95"),
    ("order.txt", [("chairs", "4"), ("tables", "1"), ("lamps", "2")], "chairs", "6"),
    ("trip.txt", [("date", "12 May"), ("train", "08:15"), ("seat", "42A")], "train", "09:40"),
    ("budget.txt", [("rent", "950"), ("food", "320"), ("power", "85")], "food", "340"),
    ("contact.txt", [("name", "Ada Moss"), ("phone", "555-0199"), ("city", "Leeds")], "city", "York"),
    ("config.txt", [("mode", "quiet"), ("volume", "3"), ("theme", "light")], "theme", "dark"),
    ("scores.txt", [("Kim", "12"), ("Raj", "9"), ("Eve", "15")], "Raj", "11"),
    ("hours.txt", [("Monday", "9-17"), ("Friday", "9-15"), ("Sunday", "closed")], "Friday", "9-16"),
]

_DOCS = [
    ("letter.rtf", ["Dear Sam", "Thanks for the books.", "Best, Alex"]),
    ("minutes.rtf", ["Team minutes", "We agreed the new rota.", "Next meeting on Monday."]),
    ("invite.rtf", ["Garden party", "Sunday at 3 pm.", "Please bring a chair."]),
    ("report.rtf", ["Quarterly report", "Sales rose by four percent.", "Costs were flat."]),
    ("notice.rtf", ["Water off on Tuesday", "From 9 to 12.", "Sorry for the trouble."]),
]
_STYLES = ("bold", "italic", "underline")
_WP_ADDS = [
    "See you soon.",
    "Minutes taken by Jo.",
    "RSVP by Friday.",
    "Figures are provisional.",
    "Call 555-0100 with questions.",
]

_DELETE = [
    (DESK, "draft-old.txt", "draft-final.txt"),
    (DOCS, "copy of notes.txt", "notes.txt"),
    (DESK, "temp.txt", "list.txt"),
    (DOCS, "unused.txt", "budget.txt"),
    (DOCS, "backup-2019.txt", "backup-2024.txt"),
    (DESK, "scratch.txt", "plan.txt"),
]
_RENAME = [
    (DOCS, "New Text Document.txt", "groceries.txt", "milk"),
    (DESK, "scan1.txt", "passport-scan.txt", "passport"),
    (DOCS, "untitled.txt", "poem.txt", "roses are red"),
    (DESK, "notes (1).txt", "class-notes.txt", "chapter 3"),
    (DOCS, "doc.txt", "lease.txt", "12 months"),
    (DESK, "a.txt", "alarm-code.txt", "4471"),
]
_MOVE = [
    ("invoice-march.txt", "Invoices", "Invoice 3: 120 EUR"),
    ("tax-2025.txt", "Taxes", "Tax ref 88-12"),
    ("photo-list.txt", "Holiday", "Beach, harbour, castle"),
    ("cv.txt", "Jobs", "Curriculum vitae"),
    ("warranty.txt", "Receipts", "Kettle, 2 years"),
    ("lease.txt", "Home", "Flat 2, 12 months"),
    ("school.txt", "Kids", "Term starts 4 Sept"),
    ("vet.txt", "Pets", "Rex: booster in June"),
]
_COPY = [
    ("cv.txt", "cv-backup.txt", "Curriculum vitae v2"),
    ("address.txt", "address-old.txt", "12 Elm Road"),
    ("story.txt", "story-draft2.txt", "Once upon a time"),
    ("list.txt", "list-copy.txt", "pens, paper"),
    ("plan.txt", "plan-v1.txt", "Phase one"),
]
_DRIVE = [
    ("agenda.txt", "Agenda: budget, rota, AOB"),
    ("slides-notes.txt", "Slide 3 needs a chart"),
    ("keys.txt", "Spare key with Ana"),
    ("menu.txt", "Soup, risotto, tart"),
]
_LINUX_VALUES = [
    ("code.txt", "booking.txt", "booking code", "QX7-4412"),
    ("room.txt", "room.txt", "room number", "B-214"),
    ("serial.txt", "serial.txt", "serial number", "SN-55190-K"),
    ("pin.txt", "locker.txt", "locker PIN", "8842"),
]
_PHONE = [
    ("ana.txt", "Ana Lima", "+15550101234"),
    ("bo.txt", "Bo Chen", "+15550105678"),
    ("cara.txt", "Cara Diaz", "+15550109012"),
    ("dev.txt", "Dev Patel", "+15550103456"),
]

ROWS: dict[str, list[Json]] = {
    "np-append": _np_append_rows(),
    "np-new": [{"folder": (DOCS, DESK)[i % 2], "file": f, "lines": ls} for i, (f, ls) in enumerate(_NEW)],
    "np-replace": [
        {"folder": (DOCS, DESK)[i % 2], "file": f, "items": items, "key": k, "new": v}
        for i, (f, items, k, v) in enumerate(_REPLACE)
    ],
    "wp-format": [
        {"folder": (DOCS, DESK)[(i + j) % 2], "file": f, "paragraphs": ps, "style": s}
        for i, (f, ps) in enumerate(_DOCS)
        for j, s in enumerate(_STYLES[:2] if i % 2 else _STYLES)
    ][:10],
    "wp-append": [
        {"folder": DOCS, "file": f, "paragraphs": ps, "add": _WP_ADDS[i]} for i, (f, ps) in enumerate(_DOCS)
    ],
    "ex-delete": [{"folder": d, "file": f, "keep": k} for d, f, k in _DELETE],
    "ex-rename": [{"folder": d, "file": f, "new": n, "content": c} for d, f, n, c in _RENAME],
    "cmd-move": [{"file": f, "into": d, "content": c} for f, d, c in _MOVE],
    "cmd-copy": [{"file": f, "copy": c, "content": t} for f, c, t in _COPY],
    "drive-linux": [{"file": f, "content": c} for f, c in _DRIVE],
    "linux-notepad": [{"file": f, "source": s, "what": w, "value": v} for f, s, w, v in _LINUX_VALUES],
    "phone-notepad": [{"file": f, "name": n, "phone": p} for f, n, p in _PHONE],
}

SMOKE = [
    ("np-append", 1),
    ("np-new", 0),
    ("np-replace", 2),
    ("wp-format", 0),
    ("wp-append", 1),
    ("ex-delete", 0),
    ("ex-rename", 1),
    ("cmd-move", 0),
    ("cmd-copy", 0),
    ("drive-linux", 0),
    ("linux-notepad", 0),
    ("phone-notepad", 0),
]
"""(family, row) of the smoke set: one task of every family."""


# ----------------------------------------------------------------------------- building
def _full_rows(family: str) -> list[int]:
    smoke = {i for f, i in SMOKE if f == family}
    return [i for i in range(len(ROWS[family])) if i not in smoke]


def _source(family: str) -> TaskSource:
    smoke_rows = [i for f, i in SMOKE if f == family]
    full_rows = _full_rows(family)

    def draw(d: TaskDraw) -> Json:
        if d.fresh and family in FRESH_VALUES:
            table = ROWS[family]
            return FAMILIES[family](d.task_id, fresh_row(family, table[d.index % len(table)], d.seed))
        rows = smoke_rows if d.smoke else full_rows
        if not 0 <= d.index < len(rows):
            raise ValueError(f"windows family {family} has {len(rows)} rows, not a row {d.index}")
        return FAMILIES[family](d.task_id, ROWS[family][rows[d.index]])

    return TaskSource(
        name=f"gui-win-{family}",
        build=draw,
        full=len(full_rows),
        smoke=len(smoke_rows),
        redraw=False,
        fresh_draws=family in FRESH_VALUES,
    )


FRESH_VALUES: dict[str, str] = {"linux-notepad": "value", "phone-notepad": "phone", "drive-linux": "file"}
"""The field a private draw makes anew in each fixed-row family (the rest of the row is its template)."""


def fresh_row(family: str, row: Json, seed: int) -> Json:
    """A private draw's row (``tasks draw``): the template row with its value drawn from ``seed`` —
    the digits of a code (a phone number's last four) redrawn in the same shape, a file name given a
    numbered suffix."""
    rng = random.Random(f"windows-fresh:{family}:{seed}")
    key = FRESH_VALUES[family]
    value = str(row[key])
    if key == "file":
        stem, dot, ext = value.rpartition(".")
        return {**row, key: f"{stem}-{rng.randint(10, 99)}{dot}{ext}"}
    keep = value[:-4] if key == "phone" else ""  # a phone number keeps its country and area code
    while True:
        drawn = keep + "".join(str(rng.randint(0, 9)) if c.isdigit() else c for c in value[len(keep) :])
        if drawn not in (value, older(value)) and older(drawn) != value:
            return {**row, key: drawn}


def _read_source(family: str) -> TaskSource:
    """A family of :mod:`tasks_read` (the value read from a document): row 0 is its smoke task."""

    def draw(d: TaskDraw) -> Json:
        if d.fresh:  # a private draw: the row's template, its values from the draw's seed
            return tasks_read.build(family, d.index % tasks_read.ROWS_PER_FAMILY, d.task_id, d.seed)
        rows = 1 if d.smoke else tasks_read.ROWS_PER_FAMILY - 1
        if not 0 <= d.index < rows:
            raise ValueError(f"windows family {family} has {rows} rows, not a row {d.index}")
        return tasks_read.build(family, d.index if d.smoke else d.index + 1, d.task_id)

    return TaskSource(
        name=f"gui-win-{family}",
        build=draw,
        full=tasks_read.ROWS_PER_FAMILY - 1,
        smoke=1,
        redraw=False,
        fresh_draws=True,
    )


def task_sources() -> list[TaskSource]:
    """Every family as a task source of the kind (``KindTraits.task_sources``): the ``full`` suite
    takes every row but the smoke rows, the ``smoke`` suite the smoke rows (one per family); the
    families that read their value from a document (:mod:`tasks_read`) come after the others.

    The documents are plain data: a cross-device task's phone steps are the phone's task-file
    macros (``{"device", "macro", "args"}``), expanded and recorded by the suite builder."""
    return [_source(f) for f in FAMILIES] + [_read_source(f) for f in tasks_read.READ_FAMILIES]
