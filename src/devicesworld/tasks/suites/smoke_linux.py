"""The Linux part of the ``smoke`` suite: desktops alone, two desktops, and a desktop with a SmartHome.

Every task puts its sources on a device (a file, a document, a web page, the home),
states the goal without giving away the values to find, and is verified by Linux
and SmartHome checks on the final state. The reference solutions use only the
agent's actions (shell commands, file and document actions, the browser by element
number, SmartHome commands); element numbers are read off the page with the
built-in engine at build time, and both browser backends number pages alike.
Invariants, enforced by tests and ``devicesworld tasks validate``: the reference
solution passes, and neither setup alone nor an agent that only says ``finish``
succeeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from devicesworld.devices.linux.sites import presets
from devicesworld.devices.linux.sites.model import Site
from devicesworld.spec.models import Condition, DeviceOp, DeviceSpec, Evaluation, Metadata, Step, Task
from devicesworld.tasks.authoring.forms import fill, idx
from devicesworld.tasks.guards import unscore_setup_satisfied

L0, L1, SH = "linux_0", "linux_1", "smarthome_0"
FINISH = Step(action="finish")


# --- building blocks ---------------------------------------------------------------------


def op(device: str, op_name: str, /, **args: Any) -> DeviceOp:
    return DeviceOp(device=device, op=op_name, args=args)


def cond(cid: str, device: str, check: str, /, *, scored: bool = True, **args: Any) -> Condition:
    return Condition(id=cid, device=device, check=check, args=args, scored=scored)


def step(device: str, action: str, /, **args: Any) -> Step:
    return Step(device=device, action=action, args=args)


def sh(command: str, device: str = L0) -> Step:
    return step(device, "run_command", command=command)


def report(reason: str) -> Step:
    return Step(action="report_infeasible", args={"reason": reason})


def site_op(site: Site, device: str = L0) -> DeviceOp:
    return op(device, "add_site", site=site.model_dump())


def task(
    n: int,
    instruction: str,
    devices: Sequence[str],
    setup: list[DeviceOp],
    conditions: list[Condition],
    solution: list[Step],
    pattern: str,
    apps: Sequence[str],
    difficulty: str = "easy",
    tags: Sequence[str] = (),
    writes: dict[str, list[str]] | None = None,
) -> Task:
    t = Task(
        id=f"smoke-lx-{n:03d}",
        instruction=instruction,
        devices=[DeviceSpec(id=d, kind=d.rsplit("_", 1)[0]) for d in devices],
        setup=setup,
        evaluation=Evaluation(conditions=conditions, writes=writes or {}),
        solution=[*solution, FINISH] if solution[-1].action != "report_infeasible" else solution,
        metadata=Metadata(
            pattern=pattern,
            difficulty=difficulty,
            apps=list(apps),
            split="test",
            origin="handwritten",
            tags=list(tags),
        ),
    )
    return unscore_setup_satisfied(t)


def infeasible(*keywords: str) -> Condition:
    return Condition(
        id="reported", device="env", check="infeasible_reported", args={"keywords": list(keywords)}
    )


# --- shared content ----------------------------------------------------------------------

APP_LOG = (
    "\n".join(
        [
            "2026-03-01 08:00:01 INFO service started",
            "2026-03-01 08:00:07 ERROR cannot open cache file",
            "2026-03-01 08:01:12 INFO request /orders 200",
            "2026-03-01 08:02:40 WARN slow response 1.9s",
            "2026-03-01 08:03:02 ERROR database timeout",
            "2026-03-01 08:03:05 INFO retry ok",
            "2026-03-01 08:05:44 ERROR payment gateway 502",
            "2026-03-01 08:06:00 INFO request /orders 200",
            "2026-03-01 08:07:13 ERROR disk quota exceeded",
        ]
    )
    + "\n"
)

SALES = [
    ["region", "product", "units"],
    ["north", "kettle", 14],
    ["south", "kettle", 9],
    ["north", "toaster", 6],
    ["east", "toaster", 11],
    ["north", "blender", 3],
]

CONFIG = {"name": "inventory", "debug": True, "port": 8080, "db": {"host": "localhost", "pool": 5}}

CONTACTS = [
    ["name", "email", "phone"],
    ["Ann Lee", "ann.lee@example.com", "+44 20 7946 0011"],
    ["Ravi Patel", "ravi@example.com", "+44 20 7946 0022"],
    ["Mia Novak", "mia.novak@example.com", "+44 20 7946 0033"],
]

TEMP_TESTS = (
    "import unittest\n"
    "from temperature.convert import c_to_f, f_to_c\n\n\n"
    "class ConvertTest(unittest.TestCase):\n"
    "    def test_freezing(self):\n"
    "        self.assertEqual(c_to_f(0), 32)\n\n"
    "    def test_boiling(self):\n"
    "        self.assertEqual(c_to_f(100), 212)\n\n"
    "    def test_back(self):\n"
    "        self.assertAlmostEqual(f_to_c(212), 100)\n"
)
TEMP_BUGGY = "def c_to_f(c):\n    return c * 9 / 5 - 32\n\n\ndef f_to_c(f):\n    return (f - 32) * 5 / 9\n"
TEMP_FIXED = "def c_to_f(c):\n    return c * 9 / 5 + 32\n\n\ndef f_to_c(f):\n    return (f - 32) * 5 / 9\n"

WORDS_TESTS = (
    "import unittest\n"
    "from textkit.words import count_words\n\n\n"
    "class CountWordsTest(unittest.TestCase):\n"
    "    def test_simple(self):\n"
    "        self.assertEqual(count_words('the cat sat'), 3)\n\n"
    "    def test_spaces(self):\n"
    "        self.assertEqual(count_words('  many   spaces here '), 3)\n\n"
    "    def test_empty(self):\n"
    "        self.assertEqual(count_words(''), 0)\n"
)


def _accounts() -> Site:
    return presets.site(
        "accounts.test",
        "Northwind Accounts",
        [presets.registration_page(), presets.verification_page("582914")],
    )


def _accounts_code(code: str) -> Site:
    return presets.site("accounts.test", "Northwind Accounts", [presets.verification_page(code)])


def _clinic() -> Site:
    return presets.site(
        "clinic.test",
        "Riverside Clinic",
        [
            presets.booking_page(
                ["09:00", "10:30", "14:00", "15:30"], ["General check-up", "Dental check-up", "Vaccination"]
            )
        ],
    )


PRODUCTS = [
    ["Product", "Price (EUR)", "In stock"],
    ["Kettle", "24.90", "yes"],
    ["Toaster", "31.00", "yes"],
    ["Travel mug", "8.50", "yes"],
    ["Blender", "45.00", "no"],
]


def _shop() -> Site:
    return presets.site(
        "shop.test",
        "Corner Shop",
        [
            presets.product_list_page(PRODUCTS),
            presets.order_page(["Kettle", "Toaster", "Travel mug", "Blender"]),
            presets.feedback_page(),
            presets.policy_page(
                "Returns policy",
                [
                    "You can return any unused item within 30 days of delivery for a full refund.",
                    "Sale items can be exchanged within 14 days.",
                    "Refunds are paid to the original payment method within 5 working days.",
                ],
            ),
        ],
    )


def _rail() -> Site:
    rows = [
        ["Train", "From", "To", "Departs", "Arrives"],
        ["R101", "Leeds", "York", "08:45", "09:15"],
        ["R205", "Leeds", "Hull", "09:05", "10:05"],
        ["R107", "Leeds", "York", "09:40", "10:10"],
        ["R109", "Leeds", "York", "10:40", "11:10"],
    ]
    return presets.site("rail.test", "Northern Rail", [presets.timetable_page(rows, "Departures from Leeds")])


def _home() -> list[DeviceOp]:
    return [
        op(
            SH,
            "configure_home",
            name="Elm Flat",
            outdoor_temperature=18.0,
            outdoor_humidity=65.0,
            outdoor_pm25=20.0,
        ),
        op(SH, "add_room", name="living_room", temperature=23.0, humidity=48.0, pm25=14.0),
        op(SH, "add_room", name="bedroom", temperature=26.0, humidity=66.0, pm25=12.0),
        op(SH, "add_room", name="utility", temperature=19.0, humidity=55.0, pm25=10.0),
        op(
            SH,
            "add_device",
            device_id="ac_bedroom",
            category="air_conditioner",
            room="bedroom",
            name="Bedroom AC",
            state={"mode": "heat", "target_temperature": 27.0},
        ),
        op(
            SH,
            "add_device",
            device_id="dehumidifier_bedroom",
            category="dehumidifier",
            room="bedroom",
            name="Bedroom dehumidifier",
            state={},
        ),
        op(
            SH,
            "add_device",
            device_id="living_lamp",
            category="dimmable_light",
            room="living_room",
            name="Living room lamp",
            state={"power": True, "brightness": 70},
        ),
        op(
            SH,
            "add_device",
            device_id="heater_living",
            category="heater",
            room="living_room",
            name="Living room heater",
            state={},
        ),
        op(
            SH,
            "add_device",
            device_id="washer",
            category="washing_machine",
            room="utility",
            name="Washing machine",
            state={"power": True},
        ),
    ]


def _ctl(device_id: str, command: str, **params: Any) -> Step:
    return step(SH, "control_device", device_id=device_id, command=command, params=params)


# --- tasks: one desktop, files and documents ----------------------------------------------


def _file_tasks() -> list[Task]:
    files, docs = ["files", "shell"], ["files", "office"]
    return [
        task(
            1,
            "Create a text file ~/notes/shopping.txt that lists milk, eggs and bread, one per line.",
            [L0],
            [op(L0, "make_dir", path="~/notes")],
            [
                cond(
                    "list",
                    L0,
                    "file_contains",
                    path="~/notes/shopping.txt",
                    contains=["milk", "eggs", "bread"],
                )
            ],
            [step(L0, "write_file", path="~/notes/shopping.txt", content="milk\neggs\nbread\n")],
            "direct_transfer",
            files,
        ),
        task(
            2,
            "Count the lines in ~/logs/app.log that contain ERROR and write just that number to ~/error_count.txt.",
            [L0],
            [op(L0, "write_text", path="~/logs/app.log", content=APP_LOG)],
            [cond("count", L0, "file_equals", path="~/error_count.txt", text="4")],
            [sh("grep -c ERROR logs/app.log > error_count.txt")],
            "information_extraction",
            files,
        ),
        task(
            3,
            "Using ~/data/sales.csv, write the total number of units sold in the north region to ~/north_total.txt.",
            [L0],
            [op(L0, "write_csv", path="~/data/sales.csv", rows=SALES)],
            [cond("total", L0, "file_equals", path="~/north_total.txt", text="23")],
            [sh("awk -F, '$1==\"north\" {s+=$3} END {print s}' data/sales.csv > north_total.txt")],
            "information_extraction",
            files,
        ),
        task(
            4,
            "In ~/app/config.json, turn debug off and set the database pool size to 10; leave everything else unchanged.",
            [L0],
            [op(L0, "write_json", path="~/app/config.json", data=CONFIG)],
            [
                cond("debug", L0, "json_field_equals", path="~/app/config.json", field="debug", equals=False),
                cond("pool", L0, "json_field_equals", path="~/app/config.json", field="db.pool", equals=10),
                cond("port", L0, "json_field_equals", path="~/app/config.json", field="port", equals=8080),
            ],
            [
                sh(
                    "python3 -c \"import json; p='app/config.json'; d=json.load(open(p)); d['debug']=False; "
                    "d['db']['pool']=10; json.dump(d, open(p, 'w'), indent=2)\""
                )
            ],
            "extraction_and_transformation",
            files,
        ),
        task(
            5,
            "Convert ~/contacts.csv into ~/contacts.json: a JSON list of objects with the keys name, email and phone, in the same order.",
            [L0],
            [op(L0, "write_csv", path="~/contacts.csv", rows=CONTACTS)],
            [
                cond(
                    "first",
                    L0,
                    "json_field_equals",
                    path="~/contacts.json",
                    field="0.email",
                    equals="ann.lee@example.com",
                ),
                cond(
                    "last",
                    L0,
                    "json_field_equals",
                    path="~/contacts.json",
                    field="2.name",
                    equals="Mia Novak",
                ),
                cond(
                    "phone",
                    L0,
                    "json_field_equals",
                    path="~/contacts.json",
                    field="1.phone",
                    equals="+44 20 7946 0022",
                ),
            ],
            [
                sh(
                    "python3 -c \"import csv, json; json.dump(list(csv.DictReader(open('contacts.csv'))), "
                    "open('contacts.json', 'w'), indent=2)\""
                )
            ],
            "extraction_and_transformation",
            files,
        ),
        task(
            6,
            "Move every JPEG photo from ~/Downloads into ~/Pictures (create the folder if needed); leave other files where they are.",
            [L0],
            [
                op(L0, "write_image", path="~/Downloads/beach.jpg", width=640, height=480, color="#2a9df4"),
                op(L0, "write_image", path="~/Downloads/cat.jpg", width=400, height=400, color="#aa7744"),
                op(L0, "write_pdf", path="~/Downloads/invoice.pdf", paragraphs=["Invoice INV-7"]),
            ],
            [
                cond("beach", L0, "file_exists", path="~/Pictures/beach.jpg"),
                cond("cat", L0, "file_exists", path="~/Pictures/cat.jpg"),
                cond("moved", L0, "file_exists", path="~/Downloads/beach.jpg", exists=False),
                cond("pdf_stays", L0, "file_exists", path="~/Downloads/invoice.pdf"),
            ],
            [sh("mkdir -p Pictures && mv Downloads/*.jpg Pictures/")],
            "direct_transfer",
            files,
            writes={L0: ["files/Downloads/*.jpg"]},  # every JPEG leaves; the check samples one
        ),
        task(
            7,
            "Free some space: delete the folder ~/build_cache with everything in it, but keep ~/build_output.",
            [L0],
            [
                op(L0, "write_text", path="~/build_cache/obj/main.o", content="x" * 2000),
                op(L0, "write_text", path="~/build_cache/index.db", content="cache"),
                op(L0, "write_text", path="~/build_output/app.bin", content="binary"),
            ],
            [
                cond("gone", L0, "file_exists", path="~/build_cache", exists=False),
                cond("kept", L0, "file_exists", path="~/build_output/app.bin"),
            ],
            [step(L0, "delete_file", path="~/build_cache", recursive=True)],
            "device_state_control",
            files,
        ),
        task(
            8,
            "What is the total of the cost column in ~/finance/budget.xlsx? Write the number to ~/finance/total.txt.",
            [L0],
            [
                op(
                    L0,
                    "write_xlsx",
                    path="~/finance/budget.xlsx",
                    sheets={
                        "March": [
                            ["item", "cost"],
                            ["rent", 1200],
                            ["groceries", 345.5],
                            ["transport", 89.9],
                            ["utilities", 150],
                        ]
                    },
                )
            ],
            [cond("total", L0, "file_contains", path="~/finance/total.txt", contains=["1785.4"])],
            [
                step(L0, "read_document", path="~/finance/budget.xlsx"),
                step(L0, "write_file", path="~/finance/total.txt", content="1785.4\n"),
            ],
            "information_extraction",
            docs,
        ),
        task(
            9,
            "Save the table in ~/reports/q1.csv as an Excel workbook ~/reports/q1.xlsx with the same rows.",
            [L0],
            [
                op(
                    L0,
                    "write_csv",
                    path="~/reports/q1.csv",
                    rows=[["month", "revenue"], ["January", 12400], ["February", 13150], ["March", 15200]],
                )
            ],
            [
                cond(
                    "header",
                    L0,
                    "table_cell_equals",
                    path="~/reports/q1.xlsx",
                    row=0,
                    column=0,
                    equals="month",
                ),
                cond(
                    "march",
                    L0,
                    "table_has_row",
                    path="~/reports/q1.xlsx",
                    row={"month": "March", "revenue": 15200},
                ),
                cond("rows", L0, "table_row_count", path="~/reports/q1.xlsx", rows=3),
            ],
            [
                step(L0, "read_document", path="~/reports/q1.csv"),
                step(
                    L0,
                    "write_document",
                    path="~/reports/q1.xlsx",
                    rows=[["month", "revenue"], ["January", 12400], ["February", 13150], ["March", 15200]],
                ),
            ],
            "extraction_and_transformation",
            docs,
        ),
        task(
            10,
            "Read ~/Documents/memo.docx and draft an email to dana@example.com with the subject 'Review room' telling her the room and time of the quarterly review.",
            [L0],
            [
                op(
                    L0,
                    "write_docx",
                    path="~/Documents/memo.docx",
                    title="Team memo",
                    paragraphs=[
                        "Please note two changes this week.",
                        "The quarterly review moves to room B-214 on Thursday at 14:00.",
                        "The kitchen will be closed on Friday morning.",
                    ],
                )
            ],
            [
                cond(
                    "draft",
                    L0,
                    "email_draft",
                    to="dana@example.com",
                    subject="Review room",
                    body_contains=["B-214", "14:00"],
                )
            ],
            [
                step(L0, "read_document", path="~/Documents/memo.docx"),
                step(
                    L0,
                    "write_email_draft",
                    to=["dana@example.com"],
                    subject="Review room",
                    body="Hi Dana, the quarterly review is in room B-214 on Thursday at 14:00.",
                ),
            ],
            "direct_transfer",
            ["office", "email"],
        ),
        task(
            11,
            "Add the invoice in ~/invoices/inv-0042.pdf to ~/invoices/ledger.csv as a new row with its invoice number and total amount.",
            [L0],
            [
                op(
                    L0,
                    "write_pdf",
                    path="~/invoices/inv-0042.pdf",
                    title="Invoice INV-0042",
                    paragraphs=[
                        "Bill to: Elm Studio Ltd.",
                        "Design work, February.",
                        "Total due: 318.75 EUR",
                    ],
                ),
                op(
                    L0,
                    "write_csv",
                    path="~/invoices/ledger.csv",
                    rows=[["invoice", "amount"], ["INV-0041", "120.00"]],
                ),
            ],
            [
                cond(
                    "row",
                    L0,
                    "table_has_row",
                    path="~/invoices/ledger.csv",
                    row={"invoice": "INV-0042", "amount": 318.75},
                ),
                cond("count", L0, "table_row_count", path="~/invoices/ledger.csv", rows=2),
            ],
            [
                step(L0, "read_document", path="~/invoices/inv-0042.pdf"),
                sh("echo 'INV-0042,318.75' >> invoices/ledger.csv"),
            ],
            "extraction_and_transformation",
            docs,
        ),
        task(
            12,
            "Find the pixel size of ~/Pictures/banner.png and write it as WIDTHxHEIGHT (for example 800x600) to ~/banner_size.txt.",
            [L0],
            [op(L0, "write_image", path="~/Pictures/banner.png", width=1280, height=320, text="SPRING SALE")],
            [cond("size", L0, "file_equals", path="~/banner_size.txt", text="1280x320")],
            [
                step(L0, "read_document", path="~/Pictures/banner.png"),
                step(L0, "write_file", path="~/banner_size.txt", content="1280x320"),
            ],
            "information_extraction",
            ["files", "multimedia"],
        ),
        task(
            13,
            "How long is the recording ~/Recordings/memo.wav, in seconds? Write the number to ~/duration.txt.",
            [L0],
            [op(L0, "write_wav", path="~/Recordings/memo.wav", seconds=2.5, sample_rate=8000)],
            [cond("seconds", L0, "file_equals", path="~/duration.txt", text="2.5")],
            [
                step(L0, "read_document", path="~/Recordings/memo.wav"),
                step(L0, "write_file", path="~/duration.txt", content="2.5"),
            ],
            "information_extraction",
            ["files", "multimedia"],
        ),
        task(
            14,
            "Create ~/backup.zip containing report.txt and data.csv from your home folder.",
            [L0],
            [
                op(L0, "write_text", path="~/report.txt", content="Quarterly report\n"),
                op(L0, "write_csv", path="~/data.csv", rows=[["k", "v"], ["a", 1]]),
                op(L0, "write_text", path="~/private.txt", content="not for backup\n"),
            ],
            [
                cond(
                    "zip",
                    L0,
                    "archive_contains",
                    path="~/backup.zip",
                    contains=["report.txt", "data.csv"],
                    exact=True,
                )
            ],
            [sh("python3 -m zipfile -c backup.zip report.txt data.csv")],
            "extraction_and_transformation",
            ["files", "archives"],
        ),
        task(
            15,
            "Extract ~/downloads/site.tar.gz into a new folder ~/site, then write the release code from its readme to ~/release.txt.",
            [L0],
            [
                op(
                    L0,
                    "write_archive",
                    path="~/downloads/site.tar.gz",
                    files={
                        "docs/readme.txt": "Site bundle\nRelease code: ORCHID-7\n",
                        "index.html": "<h1>Hi</h1>\n",
                    },
                )
            ],
            [
                cond("extracted", L0, "file_exists", path="~/site/docs/readme.txt"),
                cond("code", L0, "file_contains", path="~/release.txt", contains=["ORCHID-7"]),
            ],
            [
                sh(
                    "mkdir -p site && tar xzf downloads/site.tar.gz -C site && grep -o 'ORCHID-7' site/docs/readme.txt > release.txt"
                )
            ],
            "information_extraction",
            ["files", "archives"],
            writes={L0: ["files/site/*"]},  # the whole archive lands there; the check samples one file
        ),
        task(
            16,
            "The tests of the project in ~/projects/temperature fail. Fix the bug in the code (not in the tests) so that they pass.",
            [L0],
            [
                op(
                    L0,
                    "write_project",
                    path="~/projects/temperature",
                    files={
                        "temperature/__init__.py": "",
                        "temperature/convert.py": TEMP_BUGGY,
                        "tests/__init__.py": "",
                        "tests/test_convert.py": TEMP_TESTS,
                    },
                )
            ],
            [
                cond("tests", L0, "project_tests_pass", path="~/projects/temperature"),
                cond(
                    "tests_kept",
                    L0,
                    "file_unchanged",
                    path="~/projects/temperature/tests/test_convert.py",
                    content=TEMP_TESTS,
                ),
            ],
            [
                sh("cd ~/projects/temperature && python3 -m unittest discover -s tests -t . 2>&1 | tail -3"),
                step(
                    L0, "write_file", path="~/projects/temperature/temperature/convert.py", content=TEMP_FIXED
                ),
            ],
            "device_state_control",
            ["code", "shell"],
            "medium",
        ),
        task(
            17,
            "Implement count_words(text) in ~/projects/textkit/textkit/words.py so that the project's tests pass.",
            [L0],
            [
                op(
                    L0,
                    "write_project",
                    path="~/projects/textkit",
                    files={
                        "textkit/__init__.py": "",
                        "textkit/words.py": "def count_words(text):\n    raise NotImplementedError\n",
                        "tests/__init__.py": "",
                        "tests/test_words.py": WORDS_TESTS,
                    },
                )
            ],
            [cond("tests", L0, "project_tests_pass", path="~/projects/textkit")],
            [
                step(
                    L0,
                    "write_file",
                    path="~/projects/textkit/textkit/words.py",
                    content="def count_words(text):\n    return len(text.split())\n",
                )
            ],
            "device_state_control",
            ["code"],
            "medium",
        ),
        task(
            18,
            "Draft an email to hr@example.com with the subject 'Leave request' asking for leave on the dates noted in ~/leave.txt.",
            [L0],
            [
                op(
                    L0,
                    "write_text",
                    path="~/leave.txt",
                    content="Planned leave: 2026-04-06 to 2026-04-10 (family trip)\n",
                )
            ],
            [
                cond(
                    "draft",
                    L0,
                    "email_draft",
                    to="hr@example.com",
                    subject="Leave request",
                    body_contains=["2026-04-06", "2026-04-10"],
                )
            ],
            [
                step(L0, "read_file", path="~/leave.txt"),
                step(
                    L0,
                    "write_email_draft",
                    to=["hr@example.com"],
                    subject="Leave request",
                    body="Hello, I would like to request leave from 2026-04-06 to 2026-04-10. Thank you.",
                ),
            ],
            "direct_transfer",
            ["email"],
        ),
        task(
            19,
            "Turn ~/notes/meeting.txt into a Word document ~/notes/meeting.docx titled 'Meeting summary', with each decision as its own paragraph.",
            [L0],
            [
                op(
                    L0,
                    "write_text",
                    path="~/notes/meeting.txt",
                    content="Decisions:\n- Launch moves to 14 May.\n- Budget capped at 12,000 EUR.\n- Mia owns the press release.\n",
                )
            ],
            [
                cond(
                    "doc",
                    L0,
                    "docx_contains",
                    path="~/notes/meeting.docx",
                    contains=[
                        "Meeting summary",
                        "Launch moves to 14 May",
                        "12,000 EUR",
                        "Mia owns the press release",
                    ],
                )
            ],
            [
                step(L0, "read_file", path="~/notes/meeting.txt"),
                step(
                    L0,
                    "write_document",
                    path="~/notes/meeting.docx",
                    title="Meeting summary",
                    paragraphs=[
                        "Launch moves to 14 May.",
                        "Budget capped at 12,000 EUR.",
                        "Mia owns the press release.",
                    ],
                ),
            ],
            "extraction_and_transformation",
            docs,
        ),
        task(
            20,
            "Export the recipe in ~/notes/recipe.txt as a PDF file ~/notes/recipe.pdf.",
            [L0],
            [
                op(
                    L0,
                    "write_text",
                    path="~/notes/recipe.txt",
                    content="Lemon cake\n200 g flour\n150 g sugar\nBake 35 minutes at 180 C.\n",
                )
            ],
            [
                cond(
                    "pdf",
                    L0,
                    "pdf_contains",
                    path="~/notes/recipe.pdf",
                    contains=["Lemon cake", "200 g flour", "Bake 35 minutes"],
                )
            ],
            [
                step(L0, "read_file", path="~/notes/recipe.txt"),
                step(
                    L0,
                    "write_document",
                    path="~/notes/recipe.pdf",
                    paragraphs=["Lemon cake", "200 g flour", "150 g sugar", "Bake 35 minutes at 180 C."],
                ),
            ],
            "extraction_and_transformation",
            docs,
        ),
        task(
            21,
            "Sort ~/scores.csv by score from highest to lowest, keeping the header first, and save the result as ~/scores_sorted.csv.",
            [L0],
            [
                op(
                    L0,
                    "write_csv",
                    path="~/scores.csv",
                    rows=[["name", "score"], ["Ann", 71], ["Bo", 93], ["Cy", 58], ["Di", 88]],
                )
            ],
            [
                cond(
                    "top",
                    L0,
                    "table_cell_equals",
                    path="~/scores_sorted.csv",
                    row=1,
                    column="name",
                    equals="Bo",
                ),
                cond(
                    "second",
                    L0,
                    "table_cell_equals",
                    path="~/scores_sorted.csv",
                    row=2,
                    column="name",
                    equals="Di",
                ),
                cond(
                    "last",
                    L0,
                    "table_cell_equals",
                    path="~/scores_sorted.csv",
                    row=4,
                    column="score",
                    equals=58,
                ),
            ],
            [sh("(head -1 scores.csv; tail -n +2 scores.csv | sort -t, -k2 -nr) > scores_sorted.csv")],
            "extraction_and_transformation",
            files,
        ),
        task(
            22,
            "Open the spreadsheet ~/finance/taxes_2025.xlsx and write its total to ~/finance/taxes_total.txt.",
            [L0],
            [
                op(
                    L0,
                    "write_xlsx",
                    path="~/finance/budget.xlsx",
                    sheets={"March": [["item", "cost"], ["rent", 1200]]},
                )
            ],
            [
                infeasible("not exist", "no such", "missing", "not found", "doesn't exist", "does not"),
                cond("no_output", L0, "file_exists", path="~/finance/taxes_total.txt", exists=False),
            ],
            [
                step(L0, "list_dir", path="~/finance"),
                report("~/finance/taxes_2025.xlsx does not exist; only budget.xlsx is there"),
            ],
            "infeasible_request_reporting",
            docs,
        ),
        task(
            23,
            "Upload ~/Pictures/holiday.png to my account at https://photos.example.com.",
            [L0],
            [op(L0, "write_image", path="~/Pictures/holiday.png", width=300, height=200)],
            [infeasible("network", "internet", "reach", "offline", "unavailable", "no access")],
            [
                report(
                    "This desktop has no network access: photos.example.com cannot be reached, so the photo cannot be uploaded"
                )
            ],
            "infeasible_request_reporting",
            ["browser"],
        ),
    ]


# --- tasks: one desktop, local web sites --------------------------------------------------


def _web_tasks() -> list[Task]:
    acc, clinic, shop, rail = _accounts(), _clinic(), _shop(), _rail()
    web = ["browser"]
    return [
        task(
            24,
            "Register an account on http://accounts.test/register using my details in ~/me.txt.",
            [L0],
            [
                site_op(acc),
                op(
                    L0,
                    "write_text",
                    path="~/me.txt",
                    content="Name: Ann Lee\nEmail: ann.lee@example.com\nPhone: +44 20 7946 0011\n",
                ),
            ],
            [
                cond(
                    "registered",
                    L0,
                    "form_submitted",
                    host="accounts.test",
                    form="registration",
                    fields={
                        "full_name": "Ann Lee",
                        "email": "ann.lee@example.com",
                        "phone": "+44 20 7946 0011",
                    },
                )
            ],
            [
                step(L0, "read_file", path="~/me.txt"),
                *fill(
                    acc,
                    "/register",
                    [
                        ("Full name", "Ann Lee"),
                        ("Email", "ann.lee@example.com"),
                        ("Phone", "+44 20 7946 0011"),
                    ],
                ),
            ],
            "direct_transfer",
            web,
        ),
        task(
            25,
            "Verify my account ann.lee@example.com on http://accounts.test/verify with the code from the email in ~/Mail/Inbox.",
            [L0],
            [
                site_op(acc),
                op(
                    L0,
                    "write_eml",
                    path="~/Mail/Inbox/verification.eml",
                    to=["ann.lee@example.com"],
                    sender="no-reply@accounts.test",
                    subject="Your verification code",
                    body="Hello Ann,\n\nYour verification code is 582914. It expires in 30 minutes.\n",
                ),
            ],
            [
                cond(
                    "verified",
                    L0,
                    "form_submitted",
                    host="accounts.test",
                    form="verification",
                    fields={"code": "582914", "email": "ann.lee@example.com"},
                )
            ],
            [
                step(L0, "read_document", path="~/Mail/Inbox/verification.eml"),
                *fill(acc, "/verify", [("Email", "ann.lee@example.com"), ("Verification code", "582914")]),
            ],
            "direct_transfer",
            ["browser", "email"],
        ),
        task(
            26,
            "Book the appointment described in ~/appointment.txt on http://clinic.test/book under the name Ann Lee.",
            [L0],
            [
                site_op(clinic),
                op(
                    L0,
                    "write_text",
                    path="~/appointment.txt",
                    content="Dentist: Dental check-up\nDate: 2026-03-12\nTime: 10:30\n",
                ),
            ],
            [
                cond(
                    "booked",
                    L0,
                    "form_submitted",
                    host="clinic.test",
                    form="booking",
                    fields={
                        "name": "Ann Lee",
                        "service": "Dental check-up",
                        "date": "2026-03-12",
                        "slot": "10:30",
                    },
                )
            ],
            [
                step(L0, "read_file", path="~/appointment.txt"),
                *fill(
                    clinic,
                    "/book",
                    [
                        ("Your name", "Ann Lee"),
                        ("Service", "Dental check-up"),
                        ("Date", "2026-03-12"),
                        ("Time slot", "10:30"),
                    ],
                ),
            ],
            "direct_transfer",
            web,
        ),
        task(
            27,
            "On http://shop.test, order 3 units of the cheapest product that is in stock, with standard delivery, for Ann Lee at 12 Elm Street.",
            [L0],
            [site_op(shop)],
            [
                cond(
                    "ordered",
                    L0,
                    "form_submitted",
                    host="shop.test",
                    form="order",
                    fields={
                        "product": "Travel mug",
                        "quantity": "3",
                        "delivery": "standard",
                        "name": "Ann Lee",
                        "address": "12 Elm Street",
                    },
                )
            ],
            [
                step(L0, "browser_open", url="http://shop.test/products"),
                *fill(
                    shop,
                    "/order",
                    [
                        ("Product", "Travel mug"),
                        ("Quantity", "3"),
                        ("Name", "Ann Lee"),
                        ("Delivery address", "12 Elm Street"),
                        ("Delivery", "standard"),
                    ],
                ),
            ],
            "conditional_decision",
            web,
            "medium",
        ),
        task(
            28,
            "Send the feedback written in ~/feedback.txt through http://shop.test/feedback.",
            [L0],
            [
                site_op(shop),
                op(
                    L0,
                    "write_text",
                    path="~/feedback.txt",
                    content="Topic: service\nRating: 4\nMessage: Friendly staff but a long wait at the till.\n",
                ),
            ],
            [
                cond(
                    "sent",
                    L0,
                    "form_submitted",
                    host="shop.test",
                    form="feedback",
                    fields={
                        "topic": "service",
                        "rating": "4",
                        "message": "Friendly staff but a long wait at the till.",
                    },
                )
            ],
            [
                step(L0, "read_file", path="~/feedback.txt"),
                *fill(
                    shop,
                    "/feedback",
                    [
                        ("Topic", "service"),
                        ("Rating (1-5)", "4"),
                        ("Message", "Friendly staff but a long wait at the till."),
                    ],
                ),
            ],
            "direct_transfer",
            web,
        ),
        task(
            29,
            "Using the timetable on http://rail.test/timetable, write the departure time of the first train from Leeds to York leaving after 09:00 to ~/train.txt.",
            [L0],
            [site_op(rail)],
            [
                cond("time", L0, "file_equals", path="~/train.txt", text="09:40"),
                cond("looked", L0, "page_visited", host="rail.test", path="/timetable"),
            ],
            [
                step(L0, "browser_open", url="http://rail.test/timetable"),
                step(L0, "write_file", path="~/train.txt", content="09:40\n"),
            ],
            "information_extraction",
            ["browser", "files"],
        ),
        task(
            30,
            'Read the returns policy on http://shop.test/policy and save the return window for unused items to ~/returns.json as {"return_days": N}.',
            [L0],
            [site_op(shop)],
            [cond("days", L0, "json_field_equals", path="~/returns.json", field="return_days", equals=30)],
            [
                step(L0, "browser_open", url="http://shop.test/"),
                step(L0, "browser_click", index=idx(shop, "/", "Returns policy", "link")),
                step(L0, "write_file", path="~/returns.json", content='{"return_days": 30}\n'),
            ],
            "information_extraction",
            ["browser", "files"],
        ),
        task(
            31,
            "Save the product list of http://shop.test/products as ~/products.csv with the columns Product and Price, one row per product.",
            [L0],
            [site_op(shop)],
            [
                cond(
                    "mug",
                    L0,
                    "table_has_row",
                    path="~/products.csv",
                    row={"Product": "Travel mug", "Price": 8.5},
                ),
                cond(
                    "blender",
                    L0,
                    "table_has_row",
                    path="~/products.csv",
                    row={"Product": "Blender", "Price": 45},
                ),
                cond("count", L0, "table_row_count", path="~/products.csv", rows=4),
            ],
            [
                step(L0, "browser_open", url="http://shop.test/products"),
                step(
                    L0,
                    "write_document",
                    path="~/products.csv",
                    rows=[
                        ["Product", "Price"],
                        ["Kettle", "24.90"],
                        ["Toaster", "31.00"],
                        ["Travel mug", "8.50"],
                        ["Blender", "45.00"],
                    ],
                ),
            ],
            "extraction_and_transformation",
            ["browser", "files"],
        ),
    ]


# --- tasks: two desktops --------------------------------------------------------------------


def _two_desktop_tasks() -> list[Task]:
    both = [L0, L1]
    return [
        task(
            32,
            "Copy ~/reports/summary.csv from linux_0 to ~/inbox/summary.csv on linux_1, using the shared drive (~/Drive).",
            both,
            [
                op(
                    L0,
                    "write_csv",
                    path="~/reports/summary.csv",
                    rows=[["week", "orders"], ["9", "412"], ["10", "388"]],
                )
            ],
            [
                cond(
                    "arrived",
                    L1,
                    "table_has_row",
                    path="~/inbox/summary.csv",
                    row={"week": "10", "orders": "388"},
                ),
                cond("complete", L1, "table_row_count", path="~/inbox/summary.csv", rows=2),
            ],
            [sh("cp reports/summary.csv Drive/"), sh("mkdir -p inbox && cp Drive/summary.csv inbox/", L1)],
            "direct_transfer",
            ["files", "drive"],
        ),
        task(
            33,
            "The verification code for ann.lee@example.com is in ~/code.txt on linux_0. Enter it on http://accounts.test/verify using the browser of linux_1.",
            both,
            [
                site_op(_accounts_code("771203"), L1),
                op(L0, "write_text", path="~/code.txt", content="Verification code: 771203\n"),
            ],
            [
                cond(
                    "verified",
                    L1,
                    "form_submitted",
                    host="accounts.test",
                    form="verification",
                    fields={"code": "771203", "email": "ann.lee@example.com"},
                )
            ],
            [
                step(L0, "read_file", path="~/code.txt"),
                *fill(
                    _accounts_code("771203"),
                    "/verify",
                    [("Email", "ann.lee@example.com"), ("Verification code", "771203")],
                    L1,
                ),
            ],
            "direct_transfer",
            ["files", "browser"],
        ),
        task(
            34,
            "Make linux_1's ~/app/config.json use the same port as linux_0's ~/app/config.json; change nothing else.",
            both,
            [
                op(L0, "write_json", path="~/app/config.json", data={**CONFIG, "port": 9090}),
                op(L1, "write_json", path="~/app/config.json", data=CONFIG),
            ],
            [
                cond("port", L1, "json_field_equals", path="~/app/config.json", field="port", equals=9090),
                cond(
                    "debug_kept",
                    L1,
                    "json_field_equals",
                    path="~/app/config.json",
                    field="debug",
                    equals=True,
                ),
                cond(
                    "source_kept",
                    L0,
                    "json_field_equals",
                    path="~/app/config.json",
                    field="port",
                    equals=9090,
                ),
            ],
            [
                step(L0, "read_file", path="~/app/config.json"),
                sh(
                    "python3 -c \"import json; p='app/config.json'; d=json.load(open(p)); d['port']=9090; json.dump(d, open(p, 'w'), indent=2)\"",
                    L1,
                ),
            ],
            "state_synchronization",
            ["files"],
        ),
        task(
            35,
            "Put the PNG photos from ~/Pictures on linux_0 into a zip archive ~/photos.zip on linux_1.",
            both,
            [
                op(L0, "write_image", path="~/Pictures/a.png", width=100, height=80),
                op(L0, "write_image", path="~/Pictures/b.png", width=120, height=90, color="#33aa55"),
                op(L0, "write_image", path="~/Pictures/c.png", width=90, height=90, color="#aa3355"),
                op(L0, "write_text", path="~/Pictures/notes.txt", content="not a photo\n"),
            ],
            [
                cond(
                    "zip",
                    L1,
                    "archive_contains",
                    path="~/photos.zip",
                    contains=["a.png", "b.png", "c.png"],
                    exact=True,
                )
            ],
            [
                sh("mkdir -p Drive/photos && cp Pictures/*.png Drive/photos/"),
                sh("cd Drive/photos && python3 -m zipfile -c ~/photos.zip a.png b.png c.png", L1),
            ],
            "multi_source_integration",
            ["files", "drive", "archives"],
            "medium",
        ),
        task(
            36,
            "Write the line 'Release 2.4 approved' into ~/status.txt on both desktops.",
            both,
            [
                op(L0, "write_text", path="~/status.txt", content="Release 2.4 pending\n"),
                op(L1, "write_text", path="~/status.txt", content="Release 2.3 shipped\n"),
            ],
            [
                cond(
                    "first",
                    L0,
                    "file_contains",
                    path="~/status.txt",
                    contains=["Release 2.4 approved"],
                    absent=["pending"],
                ),
                cond("second", L1, "file_contains", path="~/status.txt", contains=["Release 2.4 approved"]),
            ],
            [
                step(L0, "write_file", path="~/status.txt", content="Release 2.4 approved\n"),
                step(L1, "write_file", path="~/status.txt", content="Release 2.4 approved\n"),
            ],
            "multi_endpoint_consistency",
            ["files"],
        ),
        task(
            37,
            "Count the open tasks assigned to Ravi in ~/team/tasks.xlsx on linux_0. Then, on linux_1, draft an email to ravi@example.com with the subject 'Open tasks' that says 'You have N open tasks.'",
            both,
            [
                op(
                    L0,
                    "write_xlsx",
                    path="~/team/tasks.xlsx",
                    sheets={
                        "Tasks": [
                            ["task", "owner", "status"],
                            ["Update pricing page", "Ravi", "open"],
                            ["Fix login bug", "Mia", "open"],
                            ["Write release notes", "Ravi", "done"],
                            ["Review contracts", "Ravi", "open"],
                            ["Plan offsite", "Ann", "open"],
                            ["Renew certificates", "Ravi", "open"],
                        ]
                    },
                )
            ],
            [
                cond(
                    "draft",
                    L1,
                    "email_draft",
                    to="ravi@example.com",
                    subject="Open tasks",
                    body_contains=["You have 3 open tasks"],
                )
            ],
            [
                step(L0, "read_document", path="~/team/tasks.xlsx"),
                step(
                    L1,
                    "write_email_draft",
                    to=["ravi@example.com"],
                    subject="Open tasks",
                    body="Hi Ravi, You have 3 open tasks.",
                ),
            ],
            "extraction_and_transformation",
            ["office", "email"],
            "medium",
        ),
    ]


# --- tasks: a desktop and a SmartHome --------------------------------------------------------


def _home_tasks() -> list[Task]:
    both = [L0, SH]
    return [
        task(
            38,
            "Set the bedroom air conditioner according to the house rules in ~/house_rules.txt on the desktop.",
            both,
            [
                *_home(),
                op(
                    L0,
                    "write_text",
                    path="~/house_rules.txt",
                    content="House rules\n- Bedroom AC: cooling mode, 24 C.\n- Lights off by 23:00.\n",
                ),
            ],
            [
                cond("on", SH, "device_power", device_id="ac_bedroom", on=True),
                cond("mode", SH, "device_attribute", device_id="ac_bedroom", attribute="mode", equals="cool"),
                cond(
                    "target",
                    SH,
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="target_temperature",
                    equals=24,
                ),
            ],
            [
                step(L0, "read_file", path="~/house_rules.txt"),
                _ctl("ac_bedroom", "turn_on"),
                _ctl("ac_bedroom", "set_mode", mode="cool"),
                _ctl("ac_bedroom", "set_target_temperature", temperature=24),
            ],
            "device_state_control",
            ["files", "smarthome"],
        ),
        task(
            39,
            "Schedule the living room lamp to turn off at the time given in ~/evening.json on the desktop.",
            both,
            [
                *_home(),
                op(
                    L0,
                    "write_json",
                    path="~/evening.json",
                    data={"device": "living room lamp", "off_at": "22:45"},
                ),
            ],
            [
                cond(
                    "sched",
                    SH,
                    "schedule_exists",
                    device_id="living_lamp",
                    command="turn_off",
                    due_at="2026-03-02T22:45:00",
                ),
                cond("still_on", SH, "device_power", device_id="living_lamp", on=True),
            ],
            [
                step(L0, "read_file", path="~/evening.json"),
                step(SH, "create_schedule", device_id="living_lamp", command="turn_off", at="22:45"),
            ],
            "state_synchronization",
            ["files", "smarthome"],
        ),
        task(
            40,
            "Follow the humidity rule in ~/rules.txt on the desktop for the bedroom.",
            both,
            [
                *_home(),
                op(
                    L0,
                    "write_text",
                    path="~/rules.txt",
                    content="Humidity rule: if the bedroom humidity is above 60 %, turn the bedroom dehumidifier on with a target of 50 %. Otherwise leave it off.\n",
                ),
            ],
            [
                cond("on", SH, "device_power", device_id="dehumidifier_bedroom", on=True),
                cond(
                    "target",
                    SH,
                    "device_attribute",
                    device_id="dehumidifier_bedroom",
                    attribute="target_humidity",
                    equals=50,
                ),
            ],
            [
                step(L0, "read_file", path="~/rules.txt"),
                step(SH, "get_room_status", room="bedroom"),
                _ctl("dehumidifier_bedroom", "turn_on"),
                _ctl("dehumidifier_bedroom", "set_target_humidity", humidity=50),
            ],
            "conditional_decision",
            ["files", "smarthome"],
            "medium",
        ),
        task(
            41,
            "Write the current living room temperature reported by the smart home (in °C) to ~/temperature.txt on the desktop.",
            both,
            _home(),
            [cond("temp", L0, "file_contains", path="~/temperature.txt", contains=["23"])],
            [
                step(SH, "get_room_status", room="living_room"),
                step(L0, "write_file", path="~/temperature.txt", content="23.0\n"),
            ],
            "direct_transfer",
            ["files", "smarthome"],
        ),
        task(
            42,
            "Start the washing machine with the programme that ~/Documents/laundry.pdf recommends for wool.",
            both,
            [
                *_home(),
                op(
                    L0,
                    "write_pdf",
                    path="~/Documents/laundry.pdf",
                    title="Laundry guide",
                    paragraphs=[
                        "Cotton shirts: cotton programme.",
                        "Wool sweaters: use the wool programme, never tumble dry.",
                        "Sportswear: synthetics programme.",
                    ],
                ),
            ],
            [
                cond(
                    "program", SH, "device_attribute", device_id="washer", attribute="program", equals="wool"
                ),
                cond("running", SH, "appliance_phase", device_id="washer", operational_state="running"),
            ],
            [
                step(L0, "read_document", path="~/Documents/laundry.pdf"),
                _ctl("washer", "set_program", program="wool"),
                _ctl("washer", "start"),
            ],
            "device_state_control",
            ["office", "smarthome"],
        ),
        task(
            43,
            "Set the living room heater to the temperature written in ~/heating_note.txt on the desktop.",
            both,
            [
                *_home(),
                op(
                    L0,
                    "write_text",
                    path="~/heating_note.txt",
                    content="Heater: set to 40 C for a quick warm-up.\n",
                ),
            ],
            [
                infeasible("range", "maximum", "max", "30", "too high", "not supported"),
                Condition(id="untouched", device=SH, check="no_agent_commands", args={}, scored=False),
            ],
            [
                step(L0, "read_file", path="~/heating_note.txt"),
                step(SH, "get_capabilities", device_id="heater_living"),
                report("40 C is out of range: the heater's maximum target temperature is 30 C"),
            ],
            "infeasible_request_reporting",
            ["files", "smarthome"],
        ),
    ]


def build_linux_smoke() -> list[Task]:
    """The Linux smoke tasks, in id order."""
    return [*_file_tasks(), *_web_tasks(), *_two_desktop_tasks(), *_home_tasks()]
