"""Linux desktop atomic tasks: reads that find values in files, writes that put them into files.

Reads hide their value — the instruction names the file and what to look for,
never the value — and verify nothing themselves; the downstream write checks it.
Writes verify the file, draft or form submission they produce. Every write starts
from a state where its goal does not hold, so setup alone never satisfies it.
A file producer leaves a code-carrying file on the desktop for a downstream reader
(on this desktop, or on another device after a transfer task moved it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from devicesworld.devices.linux.sites.presets import site, verification_page
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.files import located, make_file
from devicesworld.tasks.suites.smoke_linux import fill

KIND = "linux"
PEOPLE = (
    "Maria Lopez",
    "Tom Becker",
    "Aisha Khan",
    "Jonas Weber",
    "Lena Novak",
    "Omar Haddad",
    "Chloe Martin",
    "Ravi Patel",
)
STEMS = ("handover", "notes", "access", "locker", "visit", "pickup", "delivery", "badge")


def as_text(value: Any) -> str:
    """How a value is written into free text: ``21.5``, ``21`` (not ``21.0``), ``+1 555 ...``."""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _phone(ctx: InstanceContext) -> str:
    return f"+1 555 {ctx.rng.randrange(200, 1000)} {ctx.rng.randrange(1000, 10000)}"


def _file(ctx: InstanceContext, stem: str, ext: str) -> str:
    return f"~/Documents/{ctx.unique(stem)}.{ext}"


# ------------------------------------------------------------------------ reads
@dataclass(frozen=True)
class ReadCodeFromText:
    name: str = "lx_read_code_text"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, ctx.rng.choice(("door_code", "wifi_guest", "parcel_pickup")), "txt")
        code = f"{ctx.rng.randrange(10**5, 10**6)}"
        return Fragment(
            instruction="",
            setup=[ctx.op("write_text", path=path, content=f"Reminder\nThe code is {code}.\n")],
            solution=[ctx.step("read_file", path=path)],
            outputs={"code": SlotValue("code", code, f"the code written in {path}", True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadPhoneFromCsv:
    name: str = "lx_read_phone_csv"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("phone", "phone_number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "suppliers", "csv")
        people = ctx.rng.sample(PEOPLE, 3)
        rows = [[p, ctx.rng.choice(("Acme", "Globex", "Initech")), _phone(ctx)] for p in people]
        target = ctx.rng.randrange(3)
        return Fragment(
            instruction="",
            setup=[ctx.op("write_csv", path=path, rows=[["name", "company", "phone"], *rows])],
            solution=[ctx.step("read_file", path=path)],
            outputs={
                "phone": SlotValue(
                    "phone_number",
                    rows[target][2],
                    f"{people[target]}'s phone number from {path}",
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadAmountFromXlsx:
    name: str = "lx_read_amount_xlsx"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("amount", "amount"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "invoices", "xlsx")
        ids = [f"INV-{ctx.rng.randrange(1000, 10000)}" for _ in range(3)]
        amounts = [ctx.rng.randrange(100, 5000) + ctx.rng.choice((0.25, 0.45, 0.75, 0.95)) for _ in ids]
        target = ctx.rng.randrange(3)
        rows: list[list[Any]] = [["invoice", "amount"], *([i, a] for i, a in zip(ids, amounts, strict=True))]
        return Fragment(
            instruction="",
            setup=[ctx.op("write_xlsx", path=path, sheets={"Invoices": rows})],
            solution=[ctx.step("read_document", path=path)],
            outputs={
                "amount": SlotValue(
                    "amount",
                    amounts[target],
                    f"the amount of invoice {ids[target]} in {path}",
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadTimeFromJson:
    name: str = "lx_read_time_json"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "trip", "json")
        at = f"{ctx.rng.randrange(11, 21):02d}:{ctx.rng.choice([0, 15, 30, 45]):02d}"
        data = {"trip": {"pickup": {"place": "Central Station", "time": at}, "seats": 2}}
        return Fragment(
            instruction="",
            setup=[ctx.op("write_json", path=path, data=data)],
            solution=[ctx.step("read_file", path=path)],
            outputs={"time": SlotValue("time_of_day", at, f"the pickup time in {path}", True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadHumidityFromDocx:
    name: str = "lx_read_humidity_docx"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("humidity", "percentage"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "care_guide", "docx")
        value = ctx.rng.choice(range(35, 70, 5))
        paragraphs = [
            "Indoor plant care guide.",
            f"Keep the air around the ferns at {value}% relative humidity.",
            "Water once a week.",
        ]
        return Fragment(
            instruction="",
            setup=[ctx.op("write_docx", path=path, title="Plant care", paragraphs=paragraphs)],
            solution=[ctx.step("read_document", path=path)],
            outputs={
                "humidity": SlotValue(
                    "percentage",
                    value,
                    f"the humidity (in %) recommended for ferns in {path}",
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadTemperatureFromPdf:
    name: str = "lx_read_temperature_pdf"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("temperature", "temperature"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "facilities_policy", "pdf")
        value = ctx.rng.choice([x / 2 for x in range(36, 54)])
        paragraphs = [
            "Facilities policy.",
            f"Meeting rooms are cooled to {value:g} degrees Celsius in summer.",
            "Lights go off at 20:00.",
        ]
        return Fragment(
            instruction="",
            setup=[ctx.op("write_pdf", path=path, title="Facilities", paragraphs=paragraphs)],
            solution=[ctx.step("read_document", path=path)],
            outputs={
                "temperature": SlotValue(
                    "temperature",
                    value,
                    f"the summer cooling temperature for meeting rooms in {path}",
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadCodeFromFile:
    """Consumes a file (produced here or moved here by a transfer) and finds the code inside."""

    name: str = "lx_read_code_from_file"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("file", "text_file"),)
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        ref = inputs["file"].value
        return Fragment(
            instruction="",
            solution=[ctx.step("read_file", path=ref["path"])],
            outputs={
                "code": SlotValue(
                    "code", ref["code"], f"the code in the file {ref['name']}", True, ctx.device_id
                )
            },
        )


@dataclass(frozen=True)
class ProvideFile:
    """A code-carrying text file already on the desktop: a source for readers and transfers."""

    name: str = "lx_provide_file"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("file", "text_file"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        slot_type, ref = make_file(ctx.rng, STEMS)
        path = f"~/Documents/{ref['name']}"
        return Fragment(
            instruction="",
            setup=[ctx.op("write_text", path=path, content=ref["content"])],
            outputs={
                "file": SlotValue(
                    slot_type,
                    located(ref, path=path, location="home"),
                    f"the file {path}",
                    False,
                    ctx.device_id,
                )
            },
        )


# ----------------------------------------------------------------------- writes
@dataclass(frozen=True)
class WriteJsonField:
    name: str = "lx_write_json_field"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "handover", "json")
        field = ctx.rng.choice(("value", "answer", "result"))
        value = inputs["value"].value
        return Fragment(
            instruction=f'create {path} holding a JSON object whose "{field}" field is {inputs["value"].mention}',
            conditions=[ctx.cond("json", "json_field_equals", path=path, field=field, equals=value)],
            solution=[ctx.step("write_document", path=path, data={field: value})],
        )


@dataclass(frozen=True)
class AppendCsvRow:
    name: str = "lx_append_csv_row"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = _file(ctx, "log", "csv")
        item = ctx.rng.choice(("reading", "checkpoint", "entry", "record"))
        text = as_text(inputs["value"].value)
        rows = [["item", "value"], ["baseline", "0"], ["previous", "n/a"]]
        return Fragment(
            instruction=f'add a row to {path} with item "{item}" and value {inputs["value"].mention}',
            setup=[ctx.op("write_csv", path=path, rows=rows)],
            conditions=[ctx.cond("row", "table_has_row", path=path, row={"item": item, "value": text})],
            solution=[ctx.step("write_file", path=path, content=f"{item},{text}\n", append=True)],
        )


@dataclass(frozen=True)
class EmailDraft:
    name: str = "lx_email_draft"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        person = ctx.rng.choice(PEOPLE)
        address = person.lower().replace(" ", ".") + "@example.org"
        subject = ctx.unique(ctx.rng.choice(("Update", "Details", "Follow-up")))
        text = as_text(inputs["value"].value)
        return Fragment(
            instruction=f'draft an email to {address} with the subject "{subject}" that gives '
            f"{inputs['value'].mention}",
            conditions=[
                ctx.cond("draft", "email_draft", to=address, subject=subject, body_contains=[text]),
            ],
            solution=[
                ctx.step("write_email_draft", to=[address], subject=subject, body=f"Hello,\n\n{text}\n\nBest")
            ],
        )


@dataclass(frozen=True)
class VerifyWebCode:
    name: str = "lx_verify_web_code"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("code", "code"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        host = ctx.unique(ctx.rng.choice(("portal", "members", "accounts"))).replace("_", "") + ".test"
        email = ctx.rng.choice(PEOPLE).split()[0].lower() + "@example.org"
        code = str(inputs["code"].value)
        web = site(host, "Account portal", [verification_page(code)])
        return Fragment(
            instruction=f"verify the account {email} on http://{host}/verify with {inputs['code'].mention}",
            setup=[ctx.op("add_site", site=web.model_dump(mode="json"))],
            conditions=[
                ctx.cond(
                    "verified",
                    "form_submitted",
                    host=host,
                    form="verification",
                    fields={"email": email, "code": code},
                )
            ],
            solution=list(
                fill(web, "/verify", [("Email", email), ("Verification code", code)], device=ctx.device_id)
            ),
        )


LIBRARY = (
    ReadCodeFromText(),
    ReadPhoneFromCsv(),
    ReadAmountFromXlsx(),
    ReadTimeFromJson(),
    ReadHumidityFromDocx(),
    ReadTemperatureFromPdf(),
    ReadCodeFromFile(),
    ProvideFile(),
    WriteJsonField(),
    AppendCsvRow(),
    EmailDraft(),
    VerifyWebCode(),
)
