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
from devicesworld.tasks.composition.library import linux_docs, linux_media, linux_multi
from devicesworld.tasks.composition.library.files import located, make_file
from devicesworld.tasks.composition.library.linux_base import (
    KIND,
    PEOPLE,
    STEMS,
    as_text,
    csv_line,
    phrase,
)
from devicesworld.tasks.composition.library.linux_base import doc_path as _file
from devicesworld.tasks.composition.library.linux_base import phone as _phone
from devicesworld.tasks.suites.smoke_linux import fill

__all__ = ["KIND", "LIBRARY", "PEOPLE", "STEMS", "as_text"]


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
            outputs={
                "code": SlotValue(
                    "code",
                    code,
                    phrase(
                        ctx,
                        ("the code written in {p}", "the code noted in {p}", "the code you will find in {p}"),
                        p=path,
                    ),
                    True,
                    ctx.device_id,
                )
            },
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
                    phrase(
                        ctx,
                        (
                            "{who}'s phone number from {p}",
                            "the phone number listed for {who} in {p}",
                            "the number of {who} in the supplier list {p}",
                        ),
                        who=people[target],
                        p=path,
                    ),
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
                    phrase(
                        ctx,
                        (
                            "the amount of invoice {i} in {p}",
                            "how much invoice {i} is for, according to {p}",
                            "the amount due on invoice {i} (see {p})",
                        ),
                        i=ids[target],
                        p=path,
                    ),
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
            outputs={
                "time": SlotValue(
                    "time_of_day",
                    at,
                    phrase(
                        ctx,
                        (
                            "the pickup time in {p}",
                            "the time of the pickup planned in {p}",
                            "when the pickup is, per {p}",
                        ),
                        p=path,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadHumidityFromDocx:
    name: str = "lx_read_humidity_docx"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("humidity", "humidity"),)

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
                    "humidity",
                    value,
                    phrase(
                        ctx,
                        (
                            "the humidity (in %) recommended for ferns in {p}",
                            "the relative humidity the care guide {p} asks for around the ferns",
                            "the fern humidity level (%) given in {p}",
                        ),
                        p=path,
                    ),
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
                    phrase(
                        ctx,
                        (
                            "the summer cooling temperature for meeting rooms in {p}",
                            "the temperature meeting rooms are cooled to in summer, according to {p}",
                            "the meeting-room summer temperature (°C) set by the policy {p}",
                        ),
                        p=path,
                    ),
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
                    "code",
                    ref["code"],
                    phrase(
                        ctx,
                        (
                            "the code in the file {n}",
                            "the code written inside {n}",
                            "the code that {n} contains",
                        ),
                        n=ref["name"],
                    ),
                    True,
                    ctx.device_id,
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
                    phrase(ctx, ("the file {p}", "the document {p}", "the file saved as {p}"), p=path),
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
            instruction=phrase(
                ctx,
                (
                    'create {p} holding a JSON object whose "{f}" field is {m}',
                    'save {m} as the "{f}" field of a JSON object in a new file {p}',
                    'write a JSON file {p} with one field, "{f}", set to {m}',
                ),
                p=path,
                f=field,
                m=inputs["value"].mention,
            ),
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
            instruction=phrase(
                ctx,
                (
                    'add a row to {p} with item "{i}" and value {m}',
                    'append a "{i}" row to {p} whose value is {m}',
                    'record {m} in {p} as a new row with item "{i}"',
                ),
                p=path,
                i=item,
                m=inputs["value"].mention,
            ),
            setup=[ctx.op("write_csv", path=path, rows=rows)],
            conditions=[
                ctx.cond(
                    "row",
                    "table_has_row",
                    path=path,
                    row={"item": item, "value": inputs["value"].expected(text)},
                )
            ],
            solution=[ctx.step("write_file", path=path, content=csv_line([item, text]), append=True)],
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
            instruction=phrase(
                ctx,
                (
                    'draft an email to {a} with the subject "{s}" that gives {m}',
                    'write a draft email to {a}, subject "{s}", telling them {m}',
                    'prepare an email draft for {a} titled "{s}" with {m} in the body',
                ),
                a=address,
                s=subject,
                m=inputs["value"].mention,
            ),
            conditions=[
                ctx.cond(
                    "draft",
                    "email_draft",
                    to=address,
                    subject=subject,
                    body_contains=[inputs["value"].expected(text)],
                ),
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
            instruction=phrase(
                ctx,
                (
                    "verify the account {e} on http://{h}/verify with {m}",
                    "use {m} to verify {e} at http://{h}/verify",
                    "enter {m} on http://{h}/verify to confirm the account {e}",
                ),
                e=email,
                h=host,
                m=inputs["code"].mention,
            ),
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
    *linux_docs.LIBRARY,
    *linux_media.LIBRARY,
    *linux_multi.LIBRARY,
)
