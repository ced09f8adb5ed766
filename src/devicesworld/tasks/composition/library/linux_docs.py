"""Linux atomic tasks on office documents: lookups in xlsx/docx/PDF, and writes into xlsx and docx.

Reads find a value by a label the instruction gives (a product's row, a role in a
table, a dated clause) and hide it; writes change one cell or add one paragraph to
an existing document and verify that change while the rest of the document stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.linux_base import KIND, PEOPLE, as_text, doc_path, phone, phrase

PRODUCTS = ("desk lamp", "office chair", "monitor arm", "paper ream", "stapler", "whiteboard", "headset")
ROLES = ("facilities manager", "IT support lead", "office manager", "security desk", "reception")


# ------------------------------------------------------------------------ reads
@dataclass(frozen=True)
class ReadStockFromXlsx:
    """A number found by its row label (a product) and column in a workbook."""

    name: str = "lx_read_xlsx_by_label"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("number", "number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = doc_path(ctx, "inventory", "xlsx")
        products = ctx.rng.sample(PRODUCTS, 4)
        rows: list[list[Any]] = [["product", "in stock", "reorder at"]]
        for p in products:
            rows.append([p, ctx.rng.randrange(12, 240), ctx.rng.randrange(10, 60)])
        target = ctx.rng.randrange(4)
        column = ctx.rng.choice((1, 2))
        what = rows[0][column]
        mention = phrase(
            ctx,
            (
                'the "{c}" figure for the {p} in {f}',
                'the number in the "{c}" column of the {p} row of {f}',
                'what {f} lists under "{c}" for the {p}',
            ),
            c=what,
            p=products[target],
            f=path,
        )
        return Fragment(
            instruction="",
            setup=[ctx.op("write_xlsx", path=path, sheets={"Stock": rows})],
            solution=[ctx.step("read_document", path=path)],
            outputs={"number": SlotValue("number", rows[target + 1][column], mention, True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadPhoneFromDocxTable:
    """A phone number in a docx table, found by the person's role."""

    name: str = "lx_read_docx_table"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("phone", "phone_number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = doc_path(ctx, "contacts_sheet", "docx")
        roles = ctx.rng.sample(ROLES, 3)
        people = ctx.rng.sample(PEOPLE, 3)
        table = [["Name", "Role", "Phone"], *([p, r, phone(ctx)] for p, r in zip(people, roles, strict=True))]
        target = ctx.rng.randrange(3)
        mention = phrase(
            ctx,
            (
                "the phone number of the {r} in the table of {f}",
                "the {r}'s number from the contacts table in {f}",
                "the number listed for the {r} in {f}",
            ),
            r=roles[target],
            f=path,
        )
        return Fragment(
            instruction="",
            setup=[
                ctx.op(
                    "write_docx",
                    path=path,
                    title="Building contacts",
                    paragraphs=["Who to call in the building."],
                    table=table,
                )
            ],
            solution=[ctx.step("read_document", path=path)],
            outputs={"phone": SlotValue("phone_number", table[target + 1][2], mention, True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadDateFromPdf:
    """A date (ISO, as printed) in a PDF clause."""

    name: str = "lx_read_date_pdf"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("date", "date"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = doc_path(ctx, ctx.rng.choice(("lease", "service_contract", "warranty")), "pdf")
        start = date(2026, 1, 5) + timedelta(days=ctx.rng.randrange(0, 300))
        due = start + timedelta(days=ctx.rng.randrange(20, 200))
        event = ctx.rng.choice(("renewal", "inspection", "expiry"))
        paragraphs = [
            f"Agreement signed on {start.isoformat()}.",
            f"The {event} date of this agreement is {due.isoformat()}.",
            "Notices must be given in writing.",
        ]
        mention = phrase(
            ctx,
            (
                "the {e} date in {f}",
                "the date of the {e} stated in {f}",
                "the {e} date that the agreement {f} states",
            ),
            e=event,
            f=path,
        )
        return Fragment(
            instruction="",
            setup=[ctx.op("write_pdf", path=path, title="Agreement", paragraphs=paragraphs)],
            solution=[ctx.step("read_document", path=path)],
            outputs={"date": SlotValue("date", due.isoformat(), mention, True, ctx.device_id)},
        )


# ----------------------------------------------------------------------- writes
@dataclass(frozen=True)
class WriteXlsxCell:
    """Fill one cell of a tracker workbook, found by its row label."""

    name: str = "lx_write_xlsx_cell"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = doc_path(ctx, "tracker", "xlsx")
        keys = ctx.rng.sample(("locker", "visitor", "parcel", "meeting", "supplier", "badge"), 3)
        rows: list[list[Any]] = [["key", "value", "owner"]]
        rows += [[k, "TBD", ctx.rng.choice(PEOPLE)] for k in keys]
        target = ctx.rng.randrange(3)
        value = inputs["value"].value
        written = [list(r) for r in rows]
        written[target + 1][1] = value
        instruction = phrase(
            ctx,
            (
                'in {f}, set the "value" cell of the row "{k}" to {m}',
                'fill in {m} as the value of "{k}" in the workbook {f}',
                'update {f}: the "{k}" row\'s value becomes {m}',
            ),
            f=path,
            k=keys[target],
            m=inputs["value"].mention,
        )
        return Fragment(
            instruction=instruction,
            setup=[ctx.op("write_xlsx", path=path, sheets={"Tracker": rows})],
            conditions=[
                ctx.cond(
                    "cell",
                    "table_cell_equals",
                    path=path,
                    key_column="key",
                    key=keys[target],
                    column="value",
                    equals=inputs["value"].expected(),
                )
            ],
            solution=[ctx.step("write_document", path=path, rows=written, sheet="Tracker")],
        )


@dataclass(frozen=True)
class WriteDocxParagraph:
    """Add a labelled paragraph to an existing docx, keeping what was there."""

    name: str = "lx_write_docx_paragraph"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = doc_path(ctx, ctx.rng.choice(("shift_notes", "handover_memo", "briefing")), "docx")
        label = ctx.rng.choice(("Reference", "For the record", "Key detail", "Noted value"))
        kept = ["Prepared for the morning shift.", "Keys are kept at reception."]
        text = as_text(inputs["value"].value)
        instruction = phrase(
            ctx,
            (
                'add a paragraph to {f} that reads "{l}: " followed by {m}',
                'append to the document {f} a line starting "{l}:" that gives {m}',
                'write {m} into {f} as a new paragraph labelled "{l}:"',
            ),
            f=path,
            l=label,
            m=inputs["value"].mention,
        )
        return Fragment(
            instruction=instruction,
            setup=[ctx.op("write_docx", path=path, title="Notes", paragraphs=kept)],
            conditions=[
                ctx.cond(
                    "paragraph",
                    "docx_paragraph",
                    path=path,
                    starts_with=f"{label}:",
                    contains=[inputs["value"].expected(text)],
                    keep=["Notes", *kept],
                )
            ],
            solution=[
                ctx.step("write_document", path=path, title="Notes", paragraphs=[*kept, f"{label}: {text}"])
            ],
        )


LIBRARY = (
    ReadStockFromXlsx(),
    ReadPhoneFromDocxTable(),
    ReadDateFromPdf(),
    WriteXlsxCell(),
    WriteDocxParagraph(),
)
