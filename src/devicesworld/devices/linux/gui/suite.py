"""GUI tasks for the Linux desktop: parameterized families, each solved by GUI actions alone.

Why a builder here (inside the kind's package): the tasks name this kind's apps, setup
ops and checks, and only a kind's own package may name it. Cross-device families take
the other devices' parts from data (``data/cross_device.json``) instead of naming them
in code.

Every family draws its content from a seeded generator, so the same seed gives the same
tasks byte for byte. Reference solutions use only the GUI action space — keyboard
shortcuts, typed text, and clicks on elements named by selector (resolved to indices by
the oracle) — so they replay on any run; each is proven by ``devicesworld tasks
validate`` (the solution passes, setup alone and ``finish`` alone fail).

``python -m devicesworld.devices.linux.gui.suite --out DIR`` writes ``gui-v1.jsonl``
(the families) and ``gui-smoke-v1.jsonl`` (a dozen tasks for smoke); then
``python -m devicesworld.tasks.source_difficulty DIR/gui-*.jsonl`` grades them. No family
writes a difficulty by hand: the tasks layer measures it (``tasks/source_difficulty.py``)
from the task and the ``reads`` a family declares (where a value read from a device sits,
how many look-alikes are ahead of it), and this package may not import that layer.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from devicesworld import jsonl
from devicesworld.devices.traits import TaskDraw, TaskSource
from devicesworld.spec.models import Condition, DeviceOp, DeviceSpec, Evaluation, Metadata, Step, Task
from devicesworld.worlds.drawn import TASK_PERSONAS, drawn_world

DEV = "linux_0"
KIND = "linux"
GUI = {"desktop": "gui"}
DOCS = "/home/user/Documents"

WORDS = [
    "budget",
    "invoice",
    "garden",
    "harbour",
    "lantern",
    "meadow",
    "orchard",
    "pepper",
    "quartz",
    "ribbon",
    "saddle",
    "timber",
    "velvet",
    "walnut",
    "yarrow",
    "zephyr",
    "anchor",
    "bramble",
    "cedar",
    "dahlia",
    "ember",
    "falcon",
    "glacier",
    "hazel",
    "iris",
    "juniper",
    "kestrel",
    "lilac",
    "maple",
    "nectar",
    "olive",
    "pebble",
    "quill",
    "raven",
    "sorrel",
    "thistle",
    "umber",
    "violet",
    "willow",
]
NAMES = [
    "Ana",
    "Bruno",
    "Chloé",
    "Dario",
    "Elif",
    "Farid",
    "Greta",
    "Hugo",
    "Inès",
    "Jonas",
    "Kaori",
    "Lena",
    "Mateo",
    "Noor",
    "Oskar",
    "Priya",
    "Zoë",
]
CITIES = [
    "Lisbon",
    "Zürich",
    "Kraków",
    "Malmö",
    "Porto",
    "Gdańsk",
    "Bergen",
    "Sevilla",
    "Tallinn",
    "Nantes",
    "Brno",
    "Lyon",
]
ITEMS = [
    "Rent",
    "Food",
    "Bus",
    "Phone",
    "Power",
    "Water",
    "Books",
    "Gym",
    "Coffee",
    "Cinema",
    "Gifts",
    "Repairs",
]


def _step(action: str, **args: Any) -> Step:
    return Step(device=DEV, action=action, args=args)


def _key(*keys: str) -> Step:
    return _step("hotkey", keys=list(keys))


def _type(text: str) -> Step:
    return _step("type_text", text=text)


def _cell(name: str) -> dict[str, Any]:
    return {"role": "table cell", "name": name}


def _op(op: str, **args: Any) -> DeviceOp:
    return DeviceOp(device=DEV, op=op, args=args)


def _cond(cid: str, check: str, **args: Any) -> Condition:
    return Condition(id=cid, device=DEV, check=check, args=args)


def _guard(cid: str, check: str, **args: Any) -> Condition:
    """A condition that already holds after setup and must still hold: required, not scored."""
    return Condition(id=cid, device=DEV, check=check, args=args, scored=False)


def _save_lo() -> list[Step]:
    """ctrl+s in LibreOffice, and time for it to finish writing the file."""
    return [_key("ctrl", "s"), _step("wait", seconds=2)]


def _save_as(path: str, *, key: tuple[str, ...] = ("ctrl", "s")) -> list[Step]:
    """Open the Save As dialog, wait for it, type the full path and press its Save button.

    Enter is not used: the file chooser's completion popup may take it.
    """
    return [
        _key(*key),
        _step("wait", seconds=1.5),
        _type(path),
        _step("wait", seconds=0.5),
        _step("click", element={"role": "push button", "name": "Save", "window": "Save"}),
        _step("wait", seconds=1),
    ]


def _task(
    tid: str,
    instruction: str,
    setup: list[DeviceOp],
    conditions: list[Condition],
    solution: list[Step],
    *,
    apps: Sequence[str],
    pattern: str,
    extra_devices: Sequence[DeviceSpec] = (),
    max_steps: int = 30,
    reads: Sequence[dict[str, Any]] = (),
) -> Task:
    """A task of a family; its difficulty is measured where it becomes a suite task
    (``devicesworld.tasks.source_difficulty``), from ``reads`` — where each value read from a
    device sits and how many look-alikes are ahead of it — and the rest of the task."""
    return Task.model_validate(
        {
            "id": tid,
            "instruction": instruction,
            "devices": [DeviceSpec(id=DEV, kind=KIND, profile=dict(GUI)), *extra_devices],
            "setup": setup,
            "evaluation": Evaluation(conditions=conditions),
            "solution": [*solution, Step(action="finish")],
            "limits": {"max_steps": max_steps, "max_seconds": 900.0},
            "metadata": Metadata(
                pattern=pattern,
                device_kinds=[KIND, *(d.kind for d in extra_devices)],
                apps=list(apps),
                split="test",
                origin="generated",
                tags=["gui"],
                **({"reads": list(reads)} if reads else {}),
            ),
        }
    )


def _lines(rng: random.Random, n: int) -> list[str]:
    return [f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {rng.randint(2, 99)}" for _ in range(n)]


def _fname(rng: random.Random, ext: str) -> str:
    return f"{rng.choice(WORDS)}-{rng.choice(WORDS)}{ext}"


# --- families ------------------------------------------------------------------------------
Family = Callable[[random.Random, str], Task]


def editor_append(rng: random.Random, tid: str) -> Task:
    name, lines = _fname(rng, ".txt"), _lines(rng, rng.randint(2, 5))
    new = f"{rng.choice(NAMES)} from {rng.choice(CITIES)} confirmed {rng.randint(2, 40)} seats ✓"
    path = f"~/Documents/{name}"
    body = "\n".join(lines) + "\n"
    return _task(
        tid,
        f"In the text editor, add the line “{new}” at the end of {path} and save the file.",
        [_op("write_text", path=path, content=body), _op("open_app", app="text_editor", path=path)],
        [_cond("content", "file_equals", path=path, text=body + new + "\n", exact=True)],
        [_key("ctrl", "End"), _type(new + "\n"), _key("ctrl", "s")],
        apps=["text_editor"],
        pattern="document_editing",
    )


def editor_first_line(rng: random.Random, tid: str) -> Task:
    name, lines = _fname(rng, ".txt"), _lines(rng, rng.randint(3, 5))
    title = f"{rng.choice(WORDS).capitalize()} plan for {rng.choice(CITIES)} — v{rng.randint(2, 9)}"
    path = f"~/Documents/{name}"
    body = "\n".join(lines) + "\n"
    expected = "\n".join([title, *lines[1:]]) + "\n"
    return _task(
        tid,
        f"Open {path} in the text editor, replace its first line with “{title}” (keep the other lines) and save it.",
        [_op("write_text", path=path, content=body)],
        [_cond("content", "file_equals", path=path, text=expected, exact=True)],
        [
            _step("launch_app", app="text_editor", path=path),
            _key("ctrl", "Home"),
            _key("shift", "End"),
            _type(title),
            _key("ctrl", "s"),
        ],
        apps=["text_editor"],
        pattern="document_editing",
    )


def editor_new_file(rng: random.Random, tid: str) -> Task:
    name, lines = _fname(rng, ".txt"), _lines(rng, rng.randint(2, 4))
    body = "\n".join(lines) + "\n"
    return _task(
        tid,
        f"Create a new text file {DOCS}/{name} with the text editor containing exactly these lines: "
        + "; ".join(lines)
        + ".",
        [_op("make_dir", path="~/Documents")],
        [_cond("content", "file_equals", path=f"~/Documents/{name}", text=body, exact=True)],
        [
            _step("launch_app", app="text_editor"),
            _type(body),
            *_save_as(f"{DOCS}/{name}"),
        ],
        apps=["text_editor"],
        pattern="document_creation",
    )


_FORMATS = (("bold", "b"), ("italic", "i"), ("underline", "u"))


def writer_format(rng: random.Random, tid: str) -> Task:
    name = _fname(rng, ".docx")
    path = f"~/Documents/{name}"
    paras = [f"{rng.choice(WORDS).capitalize()} review for {rng.choice(CITIES)}", *_lines(rng, 2)]
    fmt, key = rng.choice(_FORMATS)
    new = f"Approved by {rng.choice(NAMES)} on day {rng.randint(2, 28)}"
    return _task(
        tid,
        f"The document {path} is open in Writer. Add a new last paragraph “{new}” in {fmt} and save the document (keep it a Word file).",
        [_op("write_docx", path=path, paragraphs=paras), _op("open_app", app="writer", path=path)],
        [
            _cond("text", "docx_contains", path=path, contains=[new], case_sensitive=True),
            _cond("format", "docx_text_format", path=path, text=new, **{fmt: True}),
            _guard("kept", "docx_contains", path=path, contains=[paras[0]], case_sensitive=True),
        ],
        [_key("ctrl", "End"), _type("\n"), _key("ctrl", key), _type(new), *_save_lo()],
        apps=["writer"],
        pattern="document_editing",
    )


def writer_new_docx(rng: random.Random, tid: str) -> Task:
    name = _fname(rng, ".docx")
    title = f"Trip to {rng.choice(CITIES)}"
    body = [f"{n} brings the {rng.choice(WORDS)}." for n in rng.sample(NAMES, rng.randint(2, 3))]
    return _task(
        tid,
        f"With LibreOffice Writer, write a document whose first paragraph is “{title}” followed by the paragraphs "
        + " / ".join(f"“{b}”" for b in body)
        + f", and save it as a Word document at {DOCS}/{name}.",
        [_op("make_dir", path="~/Documents")],
        [
            _cond(
                "paragraphs",
                "docx_contains",
                path=f"~/Documents/{name}",
                contains=[title, *body],
                case_sensitive=True,
            ),
        ],
        [
            _step("launch_app", app="writer"),
            _type("\n".join([title, *body])),
            *_save_as(f"{DOCS}/{name}", key=("ctrl", "shift", "s")),
            _step("wait", seconds=1),
        ],
        apps=["writer"],
        pattern="document_creation",
    )


def _sheet(rng: random.Random) -> list[list[Any]]:
    items = rng.sample(ITEMS, rng.randint(3, 5))
    return [["Item", "Cost"], *([i, rng.randint(5, 900)] for i in items)]


def _kept_rows(path: str, rows: list[list[Any]], row: int) -> list[Condition]:
    """Guards that every budget row but ``row`` keeps its cost (collateral damage in the sheet)."""
    return [
        _guard(
            f"kept_{i}",
            "table_cell_equals",
            path=path,
            key_column="Item",
            key=r[0],
            column="Cost",
            equals=r[1],
        )
        for i, r in enumerate(rows[1:], 1)
        if i != row
    ]


def calc_total(rng: random.Random, tid: str) -> Task:
    name, rows = _fname(rng, ".xlsx"), _sheet(rng)
    path = f"~/Documents/{name}"
    n = len(rows)
    formula = f"=SUM(B2:B{n})"
    total = sum(r[1] for r in rows[1:])
    return _task(
        tid,
        f"The spreadsheet {path} is open in Calc. Below the last item add a row with “Total” in column A and a formula "
        "in column B that adds up all the costs, then save it (keep the xlsx format).",
        [_op("write_xlsx", path=path, sheets={"Costs": rows}), _op("open_app", app="calc", path=path)],
        [
            _cond("label", "table_cell_equals", path=path, row=n, column=0, equals="Total"),
            _cond("value", "table_cell_equals", path=path, row=n, column=1, equals=total),
            _cond("formula", "xlsx_formula", path=path, cell=f"B{n + 1}", formula=formula),
        ],
        [_key("ctrl", "Home"), *([_key("Down")] * n), _type(f"Total\t{formula}\n"), *_save_lo()],
        apps=["calc"],
        pattern="data_transformation",
    )


def calc_update(rng: random.Random, tid: str) -> Task:
    name, rows = _fname(rng, ".xlsx"), _sheet(rng)
    path = f"~/Documents/{name}"
    row = rng.randint(1, len(rows) - 1)
    item, old = rows[row]
    new = old + rng.randint(10, 99)
    return _task(
        tid,
        f"In {path} (open in Calc), change the cost of {item} to {new} and save the spreadsheet as xlsx.",
        [_op("write_xlsx", path=path, sheets={"Costs": rows}), _op("open_app", app="calc", path=path)],
        [
            _cond(
                "new", "table_cell_equals", path=path, key_column="Item", key=item, column="Cost", equals=new
            ),
            *_kept_rows(path, rows, row),
        ],
        [_key("ctrl", "Home"), *([_key("Down")] * row), _key("Right"), _type(f"{new}\n"), *_save_lo()],
        apps=["calc"],
        pattern="data_transformation",
    )


def files_rename(rng: random.Random, tid: str) -> Task:
    old, new = _fname(rng, ".txt"), _fname(rng, ".txt")
    while new == old:
        new = _fname(rng, ".txt")
    content = "\n".join(_lines(rng, 2)) + "\n"
    others = [_fname(rng, ".txt") for _ in range(2)]
    setup = [_op("write_text", path=f"~/Documents/{old}", content=content)]
    setup += [
        _op("write_text", path=f"~/Documents/{o}", content="other\n") for o in others if o not in (old, new)
    ]
    setup.append(_op("open_app", app="files", path="~/Documents"))
    return _task(
        tid,
        f"In the file manager, rename ~/Documents/{old} to {new}.",
        setup,
        [
            _cond("new", "file_equals", path=f"~/Documents/{new}", text=content, exact=True),
            _cond("old_gone", "file_exists", path=f"~/Documents/{old}", exists=False),
        ],
        [_step("click", element=_cell(old)), _key("F2"), _key("ctrl", "a"), _type(new + "\n")],
        apps=["files"],
        pattern="file_management",
    )


def files_move(rng: random.Random, tid: str) -> Task:
    name = _fname(rng, ".txt")
    folder = rng.choice(["Archive", "Done", "Old", "Keep", "Shared"])
    content = "\n".join(_lines(rng, 2)) + "\n"
    return _task(
        tid,
        f"Using the file manager, move ~/Documents/{name} into the folder ~/Documents/{folder}.",
        [
            _op("write_text", path=f"~/Documents/{name}", content=content),
            _op("make_dir", path=f"~/Documents/{folder}"),
            _op("open_app", app="files", path="~/Documents"),
        ],
        [
            _cond("moved", "file_equals", path=f"~/Documents/{folder}/{name}", text=content, exact=True),
            _cond("old_gone", "file_exists", path=f"~/Documents/{name}", exists=False),
        ],
        [
            _step("click", element=_cell(name)),
            _key("ctrl", "x"),
            _step("double_click", element=_cell(folder)),
            _key("ctrl", "v"),
        ],
        apps=["files"],
        pattern="file_management",
    )


def files_to_drive(rng: random.Random, tid: str) -> Task:
    name = _fname(rng, ".txt")
    content = f"Shared note for {rng.choice(NAMES)}\n"
    return _task(
        tid,
        f"Copy ~/Documents/{name} to the shared drive (~/Drive) with the file manager; keep the original.",
        [
            _op("write_text", path=f"~/Documents/{name}", content=content),
            _op("open_app", app="files", path="~/Documents"),
        ],
        [
            _cond("copied", "file_equals", path=f"~/Drive/{name}", text=content, exact=True),
            _guard("kept", "file_equals", path=f"~/Documents/{name}", text=content, exact=True),
        ],
        [
            _step("click", element=_cell(name)),
            _key("ctrl", "c"),
            _key("ctrl", "l"),
            _type("/home/user/Drive\n"),
            _key("ctrl", "v"),
        ],
        apps=["files"],
        pattern="direct_transfer",
    )


def terminal_typed(rng: random.Random, tid: str) -> Task:
    files = sorted({_fname(rng, ".csv") for _ in range(rng.randint(2, 4))})
    folder = rng.choice(["reports", "exports", "backup", "batch"])
    setup = [_op("write_text", path=f"~/Downloads/{f}", content="a,b\n1,2\n") for f in files]
    setup.append(_op("make_dir", path="~/Downloads"))
    return _task(
        tid,
        f"In a terminal window, make a folder ~/{folder} and move {', '.join(files[:-1])} and {files[-1]} "
        "from ~/Downloads into it; every other file in ~/Downloads stays where it is.",
        setup,
        [
            *(_cond(f"moved_{i}", "file_exists", path=f"~/{folder}/{f}") for i, f in enumerate(files)),
            *(
                _cond(f"gone_{i}", "file_exists", path=f"~/Downloads/{f}", exists=False)
                for i, f in enumerate(files)
            ),
        ],
        [
            _step("launch_app", app="terminal"),
            _type(f"mkdir -p ~/{folder} && cd ~/Downloads && mv {' '.join(files)} ~/{folder}/\n"),
            _step("wait", seconds=1),
        ],
        apps=["terminal"],
        pattern="file_management",
    )


def terminal_count(rng: random.Random, tid: str) -> Task:
    name = _fname(rng, ".log")
    n = rng.randint(4, 12)
    lines = [f"{rng.choice(['INFO', 'WARN', 'ERROR'])} {rng.choice(WORDS)} {i}" for i in range(n)]
    errors = sum(1 for line in lines if line.startswith("ERROR"))
    return _task(
        tid,
        f"Using the terminal, count the lines of ~/logs/{name} that start with ERROR and write just that number to ~/logs/errors.txt.",
        [_op("write_text", path=f"~/logs/{name}", content="\n".join(lines) + "\n")],
        [_cond("count", "file_equals", path="~/logs/errors.txt", text=str(errors))],
        [
            _step("launch_app", app="terminal"),
            _type(f"grep -c '^ERROR' ~/logs/{name} > ~/logs/errors.txt\n"),
            _step("wait", seconds=1),
        ],
        apps=["terminal"],
        pattern="information_extraction",
    )


def image_open(rng: random.Random, tid: str) -> Task:
    name = _fname(rng, ".png")
    return _task(
        tid,
        f"Open the picture ~/Pictures/{name} in the image viewer and leave it on screen.",
        [
            _op(
                "write_image",
                path=f"~/Pictures/{name}",
                width=rng.choice([320, 480, 640]),
                height=rng.choice([240, 360]),
                color=rng.choice(["#3366cc", "#cc6633", "#33aa55"]),
                text=rng.choice(CITIES),
            )
        ],
        [Condition(id="shown", device=DEV, check="window_title", args={"contains": name})],
        [_step("launch_app", app="image_viewer", path=f"~/Pictures/{name}")],
        apps=["image_viewer"],
        pattern="app_navigation",
    )


def _club(rng: random.Random) -> tuple[str, Any]:
    from devicesworld.devices.linux.sites import presets

    host = f"{rng.choice(WORDS)}-{rng.choice(['club', 'clinic', 'library', 'studio'])}.test"
    return host, presets.site(
        host, host.split(".")[0].replace("-", " ").title(), [presets.registration_page()]
    )


def _person(rng: random.Random) -> tuple[str, str, str]:
    first = rng.choice(NAMES)
    last = rng.choice(["Martins", "Novak", "Okafor", "Lindqvist", "Moreau", "Yılmaz", "Kowalska", "Silva"])  # noqa: RUF001
    email = f"{first.lower().replace('ë', 'e').replace('è', 'e').replace('é', 'e')}.{rng.randint(10, 99)}@example.org"
    return f"{first} {last}", email, f"+44 20 7946 {rng.randint(1000, 9999)}"


def _register_steps(host: str, name: str, email: str, phone: str | None) -> list[Step]:
    steps = [
        _step("click", element={"role": "entry", "name": "Full name"}),
        _type(name),
        _step("click", element={"role": "entry", "name": "Email"}),
        _type(email),
    ]
    if phone:
        steps += [_step("click", element={"role": "entry", "name": "Phone"}), _type(phone)]
    return [
        *steps,
        _step("click", element={"role": "push button", "name": "Register"}),
        _step("wait", seconds=1),
    ]


def web_register(rng: random.Random, tid: str) -> Task:
    host, site = _club(rng)
    name, email, phone = _person(rng)
    with_phone = rng.random() < 0.5
    fields = {"full_name": name, "email": email, **({"phone": phone} if with_phone else {})}
    return _task(
        tid,
        f"In the browser, register {name} ({email}"
        + (f", phone {phone}" if with_phone else "")
        + f") on http://{host}/register.",
        [
            DeviceOp(device=DEV, op="add_site", args={"site": site.model_dump()}),
            _op("open_app", app="browser", path=f"http://{host}/register"),
        ],
        [_cond("registered", "form_submitted", host=host, form="registration", fields=fields)],
        _register_steps(host, name, email, phone if with_phone else None),
        apps=["browser"],
        pattern="form_filling",
    )


def web_from_file(rng: random.Random, tid: str) -> Task:
    host, site = _club(rng)
    name, email, phone = _person(rng)
    old_email = email.replace("@", f".{rng.randint(2000, 2019)}@")
    card = f"~/Documents/{_fname(rng, '.txt')}"
    return _task(
        tid,
        f"Sign up on http://{host}/register with the name and the current email and phone written in {card}.",
        [
            _op(
                "write_text",
                path=card,
                content=f"Name: {name}\nPrevious email: {old_email}\nPrevious phone: {older(phone)}\n"
                f"Email: {email}\nPhone: {phone}\n",
            ),
            DeviceOp(device=DEV, op="add_site", args={"site": site.model_dump()}),
        ],
        [
            _cond(
                "registered",
                "form_submitted",
                host=host,
                form="registration",
                fields={"full_name": name, "email": email, "phone": phone},
                distractors=[old_email, older(phone)],
            )
        ],
        [
            _step("launch_app", app="text_editor", path=card),
            _step("launch_app", app="browser", path=f"http://{host}/register"),
            *_register_steps(host, name, email, phone),
        ],
        apps=["text_editor", "browser"],
        pattern="information_extraction",
        reads=[_read(email), _read(phone)],
    )


def _cross_templates() -> list[dict[str, Any]]:
    text = (
        resources.files("devicesworld.devices.linux.gui")
        .joinpath("data/cross_device.json")
        .read_text("utf-8")
    )
    templates: list[dict[str, Any]] = json.loads(text)
    return templates


def home_report(rng: random.Random, tid: str) -> Task:
    """A home's reading (queried on the home) written into a file with the editor."""
    tpl = rng.choice(_cross_templates())
    value = rng.choice(tpl["values"])
    fill = {"VALUE": value, "ROOM": tpl["room"]}
    other = tpl["device"]
    ops = [DeviceOp.model_validate(_subst(o, fill)) for o in tpl["setup"]]
    name = _fname(rng, ".txt")
    return _task(
        tid,
        tpl["instruction"].replace("{FILE}", f"{DOCS}/{name}"),
        [*ops, _op("make_dir", path="~/Documents")],
        [_cond("reading", "file_equals", path=f"~/Documents/{name}", text=str(value))],
        [
            *(Step.model_validate(_subst(s, fill)) for s in tpl["query"]),
            _step("launch_app", app="text_editor"),
            _type(f"{value}\n"),
            *_save_as(f"{DOCS}/{name}"),
        ],
        apps=["text_editor", *tpl["apps"]],
        pattern="information_extraction",
        extra_devices=[DeviceSpec(id=other["id"], kind=other["kind"])],
    )


def _subst(obj: Any, fill: dict[str, Any]) -> Any:
    if isinstance(obj, str):
        if obj.startswith("{") and obj.endswith("}") and obj[1:-1] in fill:
            return fill[obj[1:-1]]
        for k, v in fill.items():
            obj = obj.replace("{" + k + "}", str(v))
        return obj
    if isinstance(obj, list):
        return [_subst(x, fill) for x in obj]
    if isinstance(obj, dict):
        return {k: _subst(v, fill) for k, v in obj.items()}
    return obj


# --- with the phone ------------------------------------------------------------------------
# The phone's part (its device, setup ops, check and UI steps by meaning, as the phone's
# task-file macros) is data, ``data/phone.json``: this package names no other kind. A
# task document from these families holds macro items ``{"device", "macro", "args"}``
# in its solution, which the suite builder expands and records on the phone
# (``devicesworld.tasks.kind_sources``); the desktop side is GUI actions only.
def _phone() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files("devicesworld.devices.linux.gui").joinpath("data/phone.json").read_text("utf-8")
    )
    return data


_SURNAMES = ["Martins", "Novak", "Okafor", "Lindqvist", "Moreau", "Kowalska", "Silva", "Brandt", "Costa"]
_SENDERS = ["Lumen Bank", "Parcel Point", "City Clinic", "Harbour Gym", "Nordic Rail", "Civic Library"]


def _contact(rng: random.Random) -> dict[str, str]:
    first = rng.choice([n for n in NAMES if n.isascii()])
    last = rng.choice(_SURNAMES)
    return _card(first, last, rng)


def _card(first: str, last: str, rng: random.Random) -> dict[str, str]:
    return {
        "NAME": f"{first} {last}",
        "FIRST": first,
        "PHONE": f"+1555{rng.randint(1000000, 9999999)}",
        "EMAIL": f"{first.lower()}.{last.lower()}{rng.randint(10, 99)}@example.org",
    }


def _contact_and_twin(rng: random.Random) -> tuple[dict[str, str], dict[str, str]]:
    """A contact and a near-miss twin: the same first name, a surname sorted ahead of theirs, a
    number and an address of the same shape (a reader who takes the first match takes the twin's)."""
    first = rng.choice([n for n in NAMES if n.isascii()])
    ahead, last = sorted(rng.sample(_SURNAMES, 2))
    return _card(first, last, rng), _card(first, ahead, rng)


def older(value: str) -> str:
    """A near-miss twin of ``value``: the same shape, every digit moved on by three."""
    return "".join(str((int(c) + 3) % 10) if c.isdigit() else c for c in value)


def _read(value: str, *, ahead: int = 1, where: str = "first_screen") -> dict[str, Any]:
    return {"value": value, "where": where, "ahead": ahead}


PERSONAS = TASK_PERSONAS
"""The phone's persona world is one of this many (``WorldSpec.persona_seed`` 0..39)."""


def _with_phone(
    task: Task,
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    *,
    phone_apps: Sequence[str],
    rng: random.Random,
) -> dict[str, Any]:
    """``task`` as a document with the phone's steps before and after the desktop's (ahead of
    ``finish``), the phone's apps in the metadata, and a lived persona world on the phone
    (issue #13: its own contacts, threads and notes; the family's data is set up after it, and
    the phone's steps find a contact by search, not by its place in the list)."""
    phone = _phone()
    doc = task.model_dump(mode="json")
    doc["world"] = {
        "persona_seed": rng.randrange(PERSONAS),
        "size": "lived",
        "devices": [phone["device"]["id"]],
    }
    *desktop, finish = doc["solution"]
    doc["solution"] = [*before, *desktop, *after, finish]
    md = doc["metadata"]
    md["apps"] = [*md["apps"], *(phone["apps"][a] for a in phone_apps)]
    md["tags"] = [*md["tags"], "cross-device"]
    return doc


def _phone_ops(*names_fills: tuple[str, dict[str, Any]]) -> list[DeviceOp]:
    phone = _phone()
    return [DeviceOp.model_validate(_subst(phone[name], fill)) for name, fill in names_fills]


def phone_code_to_editor(rng: random.Random, tid: str) -> dict[str, Any]:
    """A code texted to the phone, typed into a new text file on the desktop."""
    phone = _phone()
    sender = rng.choice(_SENDERS)
    code = f"{rng.choice('ABCDEFGHJKLMNPQRSTUVWXYZ')}{rng.randint(100000, 999999)}"
    stale = f"{rng.choice('ABCDEFGHJKLMNPQRSTUVWXYZ')}{older(code[1:])}"
    fill = {
        "NAME": sender,
        "PHONE": f"+1800555{rng.randint(1000, 9999)}",
        "EMAIL": "",
        "BODY": f"{sender}: your code is {code}",
    }
    fill["SENDER_PHONE"], fill["SENDER"] = fill["PHONE"], sender
    earlier = {**fill, "BODY": f"{sender}: your code is {stale}"}
    name = _fname(rng, ".txt")
    path = f"~/Documents/{name}"
    task = _task(
        tid,
        f"{sender} has just texted a new code to the phone. Save just that code in a new text file "
        f"{DOCS}/{name} on the desktop, using the text editor.",
        [
            # the stale code came earlier, not in the same minute (told apart by more than order:
            # the coherence gate's ambiguous_referent rule, issue #33)
            *_phone_ops(("add_contact", fill)),
            DeviceOp.model_validate(
                {
                    "device": "android_0",
                    "op": "add_sms",
                    "args": {
                        "address": fill["PHONE"],
                        "body": earlier["BODY"],
                        "minutes_ago": 40,
                        "read": True,
                    },
                }
            ),
            *_phone_ops(("incoming_sms", fill)),
            _op("make_dir", path="~/Documents"),
        ],
        [
            _cond("code", "file_equals", path=path, text=code),
            Condition(
                id="not_the_old_code",
                device=DEV,
                check="file_contains",
                args={"path": path, "contains": [code], "distractors": [stale]},
                subtask="code",
            ),
        ],
        [_step("launch_app", app="text_editor"), _type(code + "\n"), *_save_as(f"{DOCS}/{name}")],
        apps=["text_editor"],
        pattern="information_extraction",
        extra_devices=[DeviceSpec.model_validate(phone["device"])],
        reads=[_read(code)],
    )
    return _with_phone(task, _subst(phone["read_sms"], fill), [], phone_apps=["messages"], rng=rng)


def phone_contact_to_editor(rng: random.Random, tid: str) -> dict[str, Any]:
    """A contact's email address from the phone, added as a line to a guest list on the desktop."""
    phone = _phone()
    person, twin = _contact_and_twin(rng)
    name = _fname(rng, ".txt")
    path = f"~/Documents/{name}"
    guests = [f"{n} <{n.lower()}@example.net>" for n in rng.sample([n for n in NAMES if n.isascii()], 2)]
    body = "\n".join(guests) + "\n"
    line = f"{person['NAME']} <{person['EMAIL']}>"
    task = _task(
        tid,
        f"The guest list {path} is open in the text editor. Add {person['NAME']} to the end in the same "
        "form as the others (name, then the email address in angle brackets), taking the email address "
        "from the phone's contacts, and save the file.",
        [
            *_phone_ops(("add_contact", twin), ("add_contact", person)),
            _op("write_text", path=path, content=body),
            _op("open_app", app="text_editor", path=path),
        ],
        [
            _cond("content", "file_equals", path=path, text=body + line + "\n", exact=True),
            Condition(
                id="not_the_twin",
                device=DEV,
                check="file_contains",
                args={"path": path, "contains": [person["EMAIL"]], "distractors": [twin["EMAIL"]]},
                subtask="content",
            ),
        ],
        [_key("ctrl", "End"), _type(line + "\n"), _key("ctrl", "s")],
        apps=["text_editor"],
        pattern="direct_transfer",
        extra_devices=[DeviceSpec.model_validate(phone["device"])],
        reads=[_read(person["EMAIL"])],
    )
    return _with_phone(task, _subst(phone["read_contact"], person), [], phone_apps=["contacts"], rng=rng)


def phone_contact_to_writer(rng: random.Random, tid: str) -> dict[str, Any]:
    """A contact's phone number from the phone, written into a new Writer document saved as .docx."""
    phone = _phone()
    person, twin = _contact_and_twin(rng)
    name = _fname(rng, ".docx")
    title = f"Contact sheet for {rng.choice(CITIES)}"
    line = f"{person['NAME']}: {person['PHONE']}"
    task = _task(
        tid,
        f"Write a Writer document with the title line “{title}” and below it one line “<name>: <number>” "
        f"for {person['NAME']}, with the number from the phone's contacts; save it as a Word document at "
        f"{DOCS}/{name}.",
        [*_phone_ops(("add_contact", twin), ("add_contact", person)), _op("make_dir", path="~/Documents")],
        [
            _cond(
                "lines",
                "docx_contains",
                path=f"~/Documents/{name}",
                contains=[title, line],
                case_sensitive=True,
                distractors=[twin["PHONE"]],
            )
        ],
        [
            _step("launch_app", app="writer"),
            _type(f"{title}\n{line}"),
            *_save_as(f"{DOCS}/{name}", key=("ctrl", "shift", "s")),
            _step("wait", seconds=1),
        ],
        apps=["writer"],
        pattern="direct_transfer",
        extra_devices=[DeviceSpec.model_validate(phone["device"])],
        reads=[_read(person["PHONE"])],
    )
    return _with_phone(task, _subst(phone["read_contact"], person), [], phone_apps=["contacts"], rng=rng)


def phone_contact_to_form(rng: random.Random, tid: str) -> dict[str, Any]:
    """A contact's details from the phone, typed into a registration form in the desktop's browser."""
    phone = _phone()
    person, twin = _contact_and_twin(rng)
    host, site = _club(rng)
    task = _task(
        tid,
        f"Register {person['NAME']} on http://{host}/register (open in the desktop's browser) with the "
        "email address and phone number saved for them in the phone's contacts.",
        [
            *_phone_ops(("add_contact", twin), ("add_contact", person)),
            DeviceOp(device=DEV, op="add_site", args={"site": site.model_dump()}),
            _op("open_app", app="browser", path=f"http://{host}/register"),
        ],
        [
            _cond(
                "registered",
                "form_submitted",
                host=host,
                form="registration",
                fields={"full_name": person["NAME"], "email": person["EMAIL"], "phone": person["PHONE"]},
                distractors=[twin["EMAIL"], twin["PHONE"]],
            )
        ],
        _register_steps(host, person["NAME"], person["EMAIL"], person["PHONE"]),
        apps=["browser"],
        pattern="form_filling",
        extra_devices=[DeviceSpec.model_validate(phone["device"])],
        reads=[_read(person["EMAIL"]), _read(person["PHONE"])],
    )
    return _with_phone(task, _subst(phone["read_contact"], person), [], phone_apps=["contacts"], rng=rng)


def desktop_file_to_sms(rng: random.Random, tid: str) -> dict[str, Any]:
    """A value in a desktop document, read in the text editor and texted from the phone."""
    phone = _phone()
    person = _contact(rng)
    what, value = rng.choice(
        [
            ("door code", str(rng.randint(1000, 9999))),
            ("wifi password", f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{rng.randint(10, 99)}"),
            ("booking reference", f"BK{rng.randint(10000, 99999)}"),
            ("locker number", f"L-{rng.randint(100, 999)}"),
        ]
    )
    name = _fname(rng, ".txt")
    path = f"~/Documents/{name}"
    stale = older(value)
    lines = [
        *_lines(rng, 2),
        f"{what.capitalize()} (until last month): {stale}",
        f"{what.capitalize()}: {value}",
        *_lines(rng, 1),
    ]
    fill = {**person, "VALUE": value, "OLD": stale, "BODY": f"The {what} is {value}"}
    task = _task(
        tid,
        f"Open {path} in the desktop's text editor, find the current {what} in it, and text it from the "
        f"phone to {person['NAME']}.",
        [*_phone_ops(("add_contact", person)), _op("write_text", path=path, content="\n".join(lines) + "\n")],
        [Condition.model_validate(_subst(phone["sms_sent"], fill))],
        [_step("launch_app", app="text_editor", path=path)],
        apps=["text_editor"],
        pattern="direct_transfer",
        extra_devices=[DeviceSpec.model_validate(phone["device"])],
        reads=[_read(value)],
    )
    return _with_phone(task, [], _subst(phone["send_sms"], fill), phone_apps=["messages"], rng=rng)


# --- values read from documents among twins ----------------------------------------------
# Issue #15: every family above states the values it writes, so a careless reader (the
# first-match baseline) solves them. These families ask the way people do — the value is
# in a letter, a notice, a list or a checklist on the desktop, and a near-miss twin (last
# year's figure, the old code, a parcel already delivered, the superseded plan) sits
# ahead of it; the checks forbid the twin. The home folders hold other files with
# look-alike names too, as a lived-in desktop does.
_HOME_FILES = [
    "shopping-list.txt",
    "recipes.txt",
    "packing-list.txt",
    "gift-ideas.txt",
    "car-service.txt",
    "reading-list.txt",
    "notes.txt",
    "birthdays.txt",
    "plant-care.txt",
    "todo.txt",
]
_MONTHS = ["January", "February", "March", "April", "May", "June", "September", "October", "November"]
_LANDLORDS = ["Harbour Lettings", "Cedar Homes", "Maple Estates", "Civic Housing", "Lantern Property"]


def _lived(rng: random.Random, n: int, folder: str = "~/Documents") -> list[DeviceOp]:
    """Other files of a lived-in home folder (never the task's own names)."""
    return [
        _op("write_text", path=f"{folder}/{f}", content="\n".join(_lines(rng, rng.randint(2, 4))) + "\n")
        for f in rng.sample(_HOME_FILES, n)
    ]


def _stem(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"


def calc_rent_from_letter(rng: random.Random, tid: str) -> Task:
    """The new rent, read from this year's letter (which first repeats the old rent; last
    year's letter is beside it), written into the Rent row of the household budget."""
    name = f"budget-{_stem(rng)}.xlsx"
    path = f"~/Documents/{name}"
    year = rng.randint(2025, 2029)
    last = rng.randint(520, 860)
    old = last + rng.randint(12, 60)
    new = old + rng.randint(12, 70)
    others = [
        [i, rng.randint(5, 400)] for i in rng.sample([i for i in ITEMS if i != "Rent"], rng.randint(2, 4))
    ]
    body = [["Rent", old], *others]
    rng.shuffle(body)
    rows: list[list[Any]] = [["Item", "Cost"], *body]
    row = next(i for i, r in enumerate(rows) if r[0] == "Rent")
    landlord, who = rng.choice(_LANDLORDS), rng.choice(NAMES)
    month = rng.choice(_MONTHS)

    def letter(y: int, was: int, will: int) -> str:
        return (
            f"{landlord}\n{rng.choice(CITIES)}, {rng.randint(2, 27)} {rng.choice(_MONTHS)} {y - 1}\n\n"
            f"Dear tenant,\n\nyour monthly rent has been {was} EUR since 1 {month} {y - 1}.\n"
            f"From 1 {month} {y} the monthly rent will be {will} EUR.\n\nKind regards,\n{who}\n"
        )

    letters = "~/Documents/Letters"
    now = f"{letters}/rent-letter-{year}.txt"
    return _task(
        tid,
        f"Our landlord sent this year's rent letter ({now}; last year's letter is next to it). Put the "
        f"new monthly rent from it in the Rent row of {path} with Calc and save the spreadsheet as xlsx.",
        [
            _op("write_xlsx", path=path, sheets={"Costs": rows}),
            _op(
                "write_xlsx", path=f"~/Documents/budget-{rng.choice(WORDS)}-old.xlsx", sheets={"Costs": rows}
            ),
            _op(
                "write_text",
                path=f"{letters}/rent-letter-{year - 1}.txt",
                content=letter(year - 1, last, old),
            ),
            _op("write_text", path=now, content=letter(year, old, new)),
            *_lived(rng, 3),
        ],
        [
            _cond(
                "rent",
                "table_cell_equals",
                path=path,
                key_column="Item",
                key="Rent",
                column="Cost",
                equals=new,
                distractors=[old, last],
            ),
            *_kept_rows(path, rows, row),
        ],
        [
            _step("launch_app", app="text_editor", path=now),
            _step("launch_app", app="calc", path=path),
            _key("ctrl", "Home"),
            *([_key("Down")] * row),
            _key("Right"),
            _type(f"{new}\n"),
            *_save_lo(),
        ],
        apps=["calc", "text_editor"],
        pattern="data_transformation",
        reads=[_read(str(new), where="document", ahead=1)],
    )


_CODES = ["door code", "gate code", "alarm code", "bike shed code", "garage code"]


def editor_code_from_notice(rng: random.Random, tid: str) -> Task:
    """A new code from the caretaker's notice (a Word document, read in Writer, which names the
    old code first), put into the code's line of the house notes in place of the old one."""
    what = rng.choice(_CODES)
    old, new = rng.sample(range(1000, 10000), 2)
    notice = f"~/Documents/caretaker-notice-{rng.choice(WORDS)}.docx"
    notes = "~/Documents/house-notes.txt"
    head = [
        f"Bins go out on {rng.choice(['Monday', 'Tuesday', 'Thursday'])} evening",
        f"Spare key: {rng.choice(NAMES)} next door",
    ]
    tail = [f"Gas meter is {rng.choice(['under the stairs', 'in the hall cupboard', 'by the back door'])}"]
    before = [*head, f"{what.capitalize()}: {old}", *tail]
    after = [*head, f"{what.capitalize()}: {new}", *tail]
    paragraphs = [
        "Notice to all residents",
        f"The {what} {old} stops working on {rng.choice(['Friday', 'Saturday', 'Sunday'])}.",
        f"The new {what} is {new}.",
        f"Thank you, {rng.choice(NAMES)} (caretaker)",
    ]
    return _task(
        tid,
        f"The caretaker's notice {notice} gives a new {what}. Change the {what} line of {notes} to it "
        "(keep everything else as it is) with the text editor and save the file.",
        [
            _op("write_text", path=notes, content="\n".join(before) + "\n"),
            _op("write_docx", path=notice, paragraphs=paragraphs),
            *_lived(rng, 3),
        ],
        [
            _cond("content", "file_equals", path=notes, text="\n".join(after) + "\n", exact=True),
            Condition(
                id="not_the_old_code",
                device=DEV,
                check="file_contains",
                args={"path": notes, "contains": [str(new)], "distractors": [str(old)]},
                subtask="content",
            ),
        ],
        [
            _step("launch_app", app="writer", path=notice),
            _step("launch_app", app="text_editor", path=notes),
            _key("ctrl", "Home"),
            *([_key("Down")] * len(head)),
            _key("End"),
            _key("shift", "Home"),
            _type(f"{what.capitalize()}: {new}"),
            _key("ctrl", "s"),
        ],
        apps=["text_editor", "writer"],
        pattern="document_editing",
        reads=[_read(str(new), where="document", ahead=1)],
    )


_SHOPS = ["Nordic Outdoor", "Lumen Books", "Pepper & Co", "Quartz Electronics", "Velvet Home", "Timber Toys"]


def editor_tracking_from_orders(rng: random.Random, tid: str) -> Task:
    """The tracking number of the one parcel still on its way (delivered parcels, with numbers
    of the same shape, are listed ahead of it), saved in a new text file."""
    shops = rng.sample(_SHOPS, rng.randint(3, 4))
    numbers = [f"PP{n}" for n in rng.sample(range(100000000, 1000000000), len(shops))]
    lines = [
        f"{shop}: order of {rng.randint(2, 27)} {rng.choice(_MONTHS)}, tracking {num}, delivered"
        for shop, num in zip(shops[:-1], numbers[:-1], strict=True)
    ]
    lines.append(
        f"{shops[-1]}: order of {rng.randint(2, 27)} {rng.choice(_MONTHS)}, tracking {numbers[-1]}, on its way"
    )
    orders = f"~/Documents/orders-{rng.choice(WORDS)}.txt"
    name = f"parcel-{rng.choice(WORDS)}.txt"
    want = numbers[-1]
    return _task(
        tid,
        f"One parcel in {orders} has not arrived yet. With the text editor, make a new text file "
        f"{DOCS}/{name} holding just its tracking number.",
        [
            _op("write_text", path=orders, content="\n".join(lines) + "\n"),
            _op(
                "write_text",
                path=orders.replace(".txt", "-archive.txt"),
                content=f"{rng.choice(_SHOPS)}: tracking PP{rng.randint(100000000, 999999999)}, delivered\n",
            ),
            *_lived(rng, 3),
        ],
        [
            _cond("number", "file_equals", path=f"~/Documents/{name}", text=want),
            Condition(
                id="not_a_delivered_one",
                device=DEV,
                check="file_contains",
                args={"path": f"~/Documents/{name}", "contains": [want], "distractors": numbers[:-1]},
                subtask="number",
            ),
        ],
        [
            _step("launch_app", app="text_editor", path=orders),
            _key("ctrl", "n"),
            _type(want + "\n"),
            *_save_as(f"{DOCS}/{name}"),
        ],
        apps=["text_editor"],
        pattern="document_creation",
        reads=[_read(want[2:], where="document", ahead=min(2, len(lines) - 1))],
    )


def _photo(rng: random.Random, path: str, text: str) -> DeviceOp:
    return _op(
        "write_image",
        path=path,
        width=rng.choice([320, 480, 640]),
        height=rng.choice([240, 360]),
        color=rng.choice(["#3366cc", "#cc6633", "#33aa55", "#aa3377", "#777777"]),
        text=text,
    )


def files_rename_receipt(rng: random.Random, tid: str) -> Task:
    """The photo of a receipt, renamed in the file manager to the claim number the expense
    note gives for it (last year's claim for the same trip is listed ahead of it)."""
    trip = rng.choice(
        ["taxi to the airport", "hotel in " + rng.choice(CITIES), "train to " + rng.choice(CITIES)]
    )
    imgs = [f"IMG_{n:04d}.png" for n in sorted(rng.sample(range(100, 9999), 4))]
    photo = rng.choice(imgs)
    filed, twin, claim = rng.sample(range(1000, 10000), 3)
    note = f"~/Documents/expenses-{rng.choice(WORDS)}.txt"
    year = rng.randint(2025, 2029)
    lines = [
        f"Claim {twin} ({year - 1}): {trip}, refused",
        f"Claim {filed}: dinner with the {rng.choice(CITIES)} team, photo filed",
        f"Claim {claim}: {trip}, photo {photo}, to rename",
    ]
    setup = [
        *(_photo(rng, f"~/Pictures/{i}", rng.choice(CITIES)) for i in imgs),
        _photo(rng, f"~/Pictures/claim-{filed}.png", "receipt"),
        _op("write_text", path=note, content="\n".join(lines) + "\n"),
        *_lived(rng, 2),
    ]
    return _task(
        tid,
        f"The expense note {note} says which photo in ~/Pictures is the receipt for the {trip}. In the "
        "file manager, rename that photo to claim-<its claim number>.png, like the receipt already filed.",
        setup,
        [
            _cond("renamed", "file_exists", path=f"~/Pictures/claim-{claim}.png"),
            _cond("photo_gone", "file_exists", path=f"~/Pictures/{photo}", exists=False),
            _guard("not_last_years", "file_exists", path=f"~/Pictures/claim-{twin}.png", exists=False),
            *(
                _guard(f"kept_{n}", "file_exists", path=f"~/Pictures/{i}")
                for n, i in enumerate(imgs)
                if i != photo
            ),
        ],
        [
            _step("launch_app", app="text_editor", path=note),
            _step("launch_app", app="files", path="~/Pictures"),
            _step("click", element=_cell(photo)),
            _key("F2"),
            _key("ctrl", "a"),
            _type(f"claim-{claim}.png\n"),
        ],
        apps=["files", "text_editor"],
        pattern="file_management",
        reads=[_read(str(claim), where="document", ahead=1)],
    )


def image_plan_from_checklist(rng: random.Random, tid: str) -> Task:
    """The floor plan the moving checklist names for the movers, opened in the image viewer
    (the superseded plan, with a name of the same shape, is listed ahead of it)."""
    stem = rng.choice(["flat-plan", "floor-plan", "house-plan"])
    old, new = (
        f"{m:02d}{d:02d}"
        for m, d in ((rng.randint(1, 6), rng.randint(10, 28)), (rng.randint(7, 12), rng.randint(10, 28)))
    )
    checklist = f"~/Documents/move-checklist-{_stem(rng)}.txt"
    lines = [
        f"- Book the van for {rng.randint(2, 27)} {rng.choice(_MONTHS)}",
        f"- Old plan, before the {rng.choice(['kitchen', 'hall', 'bedroom'])} wall came down: {stem}-{old}.png (do not use)",
        f"- Plan for the movers: {stem}-{new}.png",
        f"- Ask {rng.choice(NAMES)} to help with the {rng.choice(['boxes', 'piano', 'bookshelves'])}",
    ]
    pictures = [f"{stem}-{old}.png", f"{stem}-{new}.png", *(f"{_stem(rng)}.png" for _ in range(2))]
    return _task(
        tid,
        f"Open the floor plan that {checklist} says is for the movers in the image viewer and leave it on screen.",
        [
            *(_photo(rng, f"~/Pictures/{p}", rng.choice(CITIES)) for p in pictures),
            _op("write_text", path=checklist, content="\n".join(lines) + "\n"),
            *_lived(rng, 2),
        ],
        [
            Condition(id="shown", device=DEV, check="window_title", args={"contains": f"{stem}-{new}.png"}),
            _guard("not_the_old_plan", "window_title", contains=f"{stem}-{old}.png", present=False),
        ],
        [
            _step("launch_app", app="text_editor", path=checklist),
            _step("launch_app", app="image_viewer", path=f"~/Pictures/{stem}-{new}.png"),
        ],
        apps=["image_viewer", "text_editor"],
        pattern="app_navigation",
        reads=[_read(new, where="document", ahead=1)],
    )


READ_FAMILIES: list[tuple[str, Family, int]] = [
    ("calc-rent-letter", calc_rent_from_letter, 10),
    ("editor-code-notice", editor_code_from_notice, 10),
    ("editor-tracking", editor_tracking_from_orders, 10),
    ("files-rename-receipt", files_rename_receipt, 10),
    ("image-plan", image_plan_from_checklist, 10),
]
"""Families whose values are read from a document among twins (50 tasks in ``full``). They are
task sources after the others (their own shards), not part of the frozen ``gui`` suite (FAMILIES)."""


PHONE_FAMILIES: list[tuple[str, Callable[[random.Random, str], dict[str, Any]], int]] = [
    ("phone-code-editor", phone_code_to_editor, 8),
    ("phone-contact-editor", phone_contact_to_editor, 8),
    ("phone-contact-writer", phone_contact_to_writer, 6),
    ("phone-contact-form", phone_contact_to_form, 6),
    ("desktop-file-sms", desktop_file_to_sms, 8),
]
"""Cross-device families with the phone (36 tasks in ``full``): their documents carry phone macros."""


FAMILIES: list[tuple[str, Family, int]] = [
    ("editor-append", editor_append, 16),
    ("editor-first-line", editor_first_line, 16),
    ("editor-new", editor_new_file, 16),
    ("writer-format", writer_format, 18),
    ("writer-new", writer_new_docx, 10),
    ("calc-total", calc_total, 14),
    ("calc-update", calc_update, 14),
    ("files-rename", files_rename, 14),
    ("files-move", files_move, 12),
    ("files-drive", files_to_drive, 8),
    ("terminal-move", terminal_typed, 8),
    ("terminal-count", terminal_count, 8),
    ("image-open", image_open, 6),
    ("home-report", home_report, 10),
    ("web-register", web_register, 10),
    ("web-from-file", web_from_file, 8),
]
"""``(family, builder, how many)``: 188 tasks in all."""


def build_gui_tasks(seed: int = 16) -> list[Task]:
    tasks: list[Task] = []
    seen: set[str] = set()
    for family, build, count in FAMILIES:
        rng = random.Random(f"{seed}:{family}")
        for i in range(count):
            tid = f"gui-lx-{family}-{i + 1:03d}"
            t = build(rng, tid)
            again = 0
            while t.instruction in seen:  # a repeat is drawn again from its own stream
                again += 1
                if again > 50:
                    raise ValueError(f"{family} cannot make {count} distinct tasks")
                t = build(random.Random(f"{seed}:{family}:{i}:{again}"), tid)
            seen.add(t.instruction)
            tasks.append(t)
    return tasks


def build_gui_smoke(seed: int = 1016) -> list[Task]:
    """One task of each family, from another seed: 16 tasks."""
    return [
        build(random.Random(f"{seed}:{family}"), f"smoke-gui-lx-{n:03d}")
        for n, (family, build, _) in enumerate(FAMILIES, 1)
    ]


SMOKE_SEED = 1016


def lived_desktop(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with the persona world on its desktop too (issue #13): the home holds the persona's
    own Documents, Downloads, Pictures, mail and projects, and the family's files are set up on top
    of it, so a file manager, a terminal glob or a file dialog shows a lived home with look-alikes
    rather than the task's files alone. A task whose phone already takes a world shares it (one
    person's phone and computer); otherwise the persona is drawn from the task's id, apart from the
    family's own draws. The smoke draws keep the bare home (docs/worlds.md, sizes)."""
    world = doc.get("world")
    if world is None:
        return {**doc, "world": drawn_world(doc["id"], [DEV], "linux-gui-world")}
    return {**doc, "world": {**world, "devices": [DEV, *world["devices"]]}}


def _source(
    family: str, build: Callable[[random.Random, str], Task | dict[str, Any]], count: int
) -> TaskSource:
    def draw(d: TaskDraw) -> dict[str, Any]:
        rng = random.Random(f"{SMOKE_SEED}:{family}" if d.smoke else d.seed)
        made = build(rng, d.task_id)
        doc = made.model_dump(mode="json") if isinstance(made, Task) else made
        return doc if d.smoke else lived_desktop(doc)

    return TaskSource(name=f"gui-lx-{family}", build=draw, full=count, smoke=1)


def task_sources() -> list[TaskSource]:
    """Every family as a task source of the kind (``KindTraits.task_sources``): the full suite
    takes each family's count, the smoke suite one task of each (the ``gui-smoke`` draws)."""
    return [
        *(_source(f, b, n) for f, b, n in FAMILIES),
        *(_source(f, b, n) for f, b, n in PHONE_FAMILIES),
        *(_source(f, b, n) for f, b, n in READ_FAMILIES),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for fname, tasks in (("gui-v1.jsonl", build_gui_tasks()), ("gui-smoke-v1.jsonl", build_gui_smoke())):
        (args.out / fname).write_text("".join(jsonl.model_line(t) for t in tasks), "utf-8")
        print(f"{args.out / fname}: {len(tasks)} tasks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
