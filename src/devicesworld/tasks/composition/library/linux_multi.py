"""Linux writes with two value inputs (multi-source integration) and writes that act on files.

Two-input writers put both values into one record — a JSON object, a CSV row, an
email draft, a local web form — and verify both; fields are named after the values'
types (``phone``, ``time``, ``code_2``), so the instruction can say which goes where
without spelling either. File writers move a downloaded file into a folder
(optionally renaming it; the moved file is passed on) or pack a file another task
produced (on this desktop, or brought here by a transfer) into an archive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from devicesworld.devices.linux.sites.model import Form, FormField, Page
from devicesworld.devices.linux.sites.presets import site
from devicesworld.tasks.authoring.forms import fill
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.files import located, make_file
from devicesworld.tasks.composition.library.linux_base import (
    KIND,
    PEOPLE,
    STEMS,
    as_text,
    csv_line,
    doc_path,
    field_names,
    phrase,
)

TWO = (Slot("first", "value"), Slot("second", "value"))


def _pair(inputs: Mapping[str, SlotValue]) -> tuple[SlotValue, SlotValue, str, str]:
    a, b = inputs["first"], inputs["second"]
    fa, fb = field_names([a, b])
    return a, b, fa, fb


@dataclass(frozen=True)
class WriteJsonRecord:
    name: str = "lx_write_json_record"
    platform: str = KIND
    inputs: tuple[Slot, ...] = TWO
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b, fa, fb = _pair(inputs)
        path = doc_path(ctx, ctx.rng.choice(("record", "entry", "summary")), "json")
        instruction = phrase(
            ctx,
            (
                'create {p} holding a JSON object with "{fa}" set to {ma} and "{fb}" set to {mb}',
                'save a JSON record in {p} whose "{fa}" field is {ma} and whose "{fb}" field is {mb}',
                'write {ma} and {mb} into a new JSON file {p}, as the fields "{fa}" and "{fb}"',
            ),
            p=path,
            fa=fa,
            fb=fb,
            ma=a.mention,
            mb=b.mention,
        )
        return Fragment(
            instruction=instruction,
            conditions=[
                ctx.cond("first", "json_field_equals", path=path, field=fa, equals=a.value),
                ctx.cond("second", "json_field_equals", path=path, field=fb, equals=b.value),
            ],
            solution=[ctx.step("write_document", path=path, data={fa: a.value, fb: b.value})],
        )


@dataclass(frozen=True)
class AppendCsvRowPair:
    name: str = "lx_append_csv_row_pair"
    platform: str = KIND
    inputs: tuple[Slot, ...] = TWO
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b, fa, fb = _pair(inputs)
        path = doc_path(ctx, ctx.rng.choice(("register", "visits", "journal")), "csv")
        entry = ctx.rng.choice(("today", "follow-up", "handover", "check-in"))
        rows = [["entry", fa, fb], ["sample", "n/a", "n/a"]]
        ta, tb = as_text(a.value), as_text(b.value)
        instruction = phrase(
            ctx,
            (
                'add a row "{e}" to {p} with {ma} in the "{fa}" column and {mb} in the "{fb}" column',
                'append to {p} an entry "{e}" whose {fa} is {ma} and whose {fb} is {mb}',
                'log {ma} ({fa}) and {mb} ({fb}) as a new "{e}" row of {p}',
            ),
            e=entry,
            p=path,
            fa=fa,
            fb=fb,
            ma=a.mention,
            mb=b.mention,
        )
        return Fragment(
            instruction=instruction,
            setup=[ctx.op("write_csv", path=path, rows=rows)],
            conditions=[
                ctx.cond(
                    "row",
                    "table_has_row",
                    path=path,
                    row={"entry": entry, fa: a.expected(ta), fb: b.expected(tb)},
                )
            ],
            solution=[ctx.step("write_file", path=path, content=csv_line([entry, ta, tb]), append=True)],
        )


@dataclass(frozen=True)
class EmailDraftPair:
    name: str = "lx_email_draft_pair"
    platform: str = KIND
    inputs: tuple[Slot, ...] = TWO
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b = inputs["first"], inputs["second"]
        person = ctx.rng.choice(PEOPLE)
        address = person.lower().replace(" ", ".") + "@example.org"
        subject = ctx.unique(ctx.rng.choice(("Both details", "Summary", "What you asked for")))
        ta, tb = as_text(a.value), as_text(b.value)
        instruction = phrase(
            ctx,
            (
                'draft an email to {to} with the subject "{s}" that gives {ma} and {mb}',
                'write a draft to {to} (subject "{s}") containing both {ma} and {mb}',
                'prepare an email draft titled "{s}" for {to} with {ma} as well as {mb} in the body',
            ),
            to=address,
            s=subject,
            ma=a.mention,
            mb=b.mention,
        )
        return Fragment(
            instruction=instruction,
            conditions=[
                ctx.cond(
                    "draft",
                    "email_draft",
                    to=address,
                    subject=subject,
                    body_contains=[a.expected(ta), b.expected(tb)],
                )
            ],
            solution=[
                ctx.step(
                    "write_email_draft",
                    to=[address],
                    subject=subject,
                    body=f"Hello {person.split()[0]},\n\n{ta}\n{tb}\n\nBest",
                )
            ],
        )


@dataclass(frozen=True)
class WebFormPair:
    """A local site's form with two fields, labelled after the values' types."""

    name: str = "lx_web_form_pair"
    platform: str = KIND
    inputs: tuple[Slot, ...] = TWO
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        a, b, fa, fb = _pair(inputs)
        host = ctx.unique(ctx.rng.choice(("requests", "helpdesk", "intake"))).replace("_", "") + ".test"
        label_a, label_b = fa.replace("_", " ").capitalize(), fb.replace("_", " ").capitalize()
        page = Page(
            path="/submit",
            title="Submit details",
            paragraphs=["Send us the two details below."],
            form=Form(
                id="details",
                fields=[FormField(name=fa, label=label_a), FormField(name=fb, label=label_b)],
                submit_label="Send",
                success_message="Thank you, we received your details.",
            ),
        )
        web = site(host, "Request desk", [page])
        ta, tb = as_text(a.value), as_text(b.value)
        instruction = phrase(
            ctx,
            (
                'submit the form on http://{h}/submit with {ma} as "{la}" and {mb} as "{lb}"',
                'on http://{h}/submit, enter {ma} in the "{la}" field and {mb} in the "{lb}" field, then send it',
                'fill in the details form at http://{h}/submit ("{la}": {ma}; "{lb}": {mb}) and submit it',
            ),
            h=host,
            la=label_a,
            lb=label_b,
            ma=a.mention,
            mb=b.mention,
        )
        return Fragment(
            instruction=instruction,
            setup=[ctx.op("add_site", site=web.model_dump(mode="json"))],
            conditions=[
                ctx.cond(
                    "sent",
                    "form_submitted",
                    host=host,
                    form="details",
                    fields={fa: a.expected(ta), fb: b.expected(tb)},
                )
            ],
            solution=list(fill(web, "/submit", [(label_a, ta), (label_b, tb)], device=ctx.device_id)),
        )


# ------------------------------------------------------------------ file writes
def _where(ref: Mapping[str, Any]) -> str:
    return str(PurePosixPath(ref["path"]).parent)


@dataclass(frozen=True)
class MoveFileIntoFolder:
    """Move (and maybe rename) a downloaded file into a folder; the content must survive, the original must go.

    The file is its own (written to ``~/Downloads`` by setup), not an input: a file
    produced by another task may be checked where it is (a transfer checks that it
    arrived in ``~/Downloads``) or read there, and moving it would break those. Its
    output is the file at its new place, so readers, archivers and transfers can
    follow it.
    """

    name: str = "lx_move_file_into_folder"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("file", "text_file"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        slot_type, ref = make_file(ctx.rng, STEMS)
        path = f"~/Downloads/{ref['name']}"
        folder = f"~/Archive/{ctx.unique(ctx.rng.choice(('2026', 'projects', 'done', 'filed')))}"
        old = PurePosixPath(ref["name"])
        rename = ctx.rng.random() < 0.5
        new_name = (
            f"{ctx.rng.choice(('kept', 'final', 'copy'))}_{old.stem}{old.suffix}" if rename else old.name
        )
        target = f"{folder}/{new_name}"
        if rename:
            instruction = phrase(
                ctx,
                (
                    "move {p} into the folder {d} and rename it {n}",
                    "file the download {p} away as {t}",
                    "rename {p} to {n} and put it in {d}",
                ),
                p=path,
                d=folder,
                n=new_name,
                t=target,
            )
        else:
            instruction = phrase(
                ctx,
                (
                    "move {p} into the folder {d}",
                    "file the download {p} away in {d}",
                    "put {p} into {d} (move it, do not copy)",
                ),
                p=path,
                d=folder,
            )
        return Fragment(
            instruction=instruction,
            setup=[ctx.op("write_text", path=path, content=ref["content"])],
            conditions=[
                ctx.cond("moved", "file_contains", path=target, contains=[ref["code"]]),
                ctx.cond("gone", "file_exists", path=path, exists=False),
            ],
            solution=[ctx.step("run_command", command=f"mkdir -p {folder} && mv {path} {target}")],
            outputs={
                "file": SlotValue(
                    slot_type,
                    located({**ref, "name": new_name}, path=target, location="home"),
                    phrase(
                        ctx, ("the file {t}", "the filed copy {t}", "{t}, the file you just filed"), t=target
                    ),
                    False,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class CreateArchive:
    """Pack a file into a new zip or tar.gz archive."""

    name: str = "lx_create_archive"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("file", "text_file"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        ref = inputs["file"].value
        ext = ctx.rng.choice(("zip", "tar.gz"))
        archive = f"~/Outbox/{ctx.unique(ctx.rng.choice(('bundle', 'to_send', 'package')))}.{ext}"
        pack = (
            f"zip -q -j {archive} {ref['path']}"
            if ext == "zip"
            else f"tar -czf {archive} -C {_where(ref)} {ref['name']}"
        )
        instruction = phrase(
            ctx,
            (
                "pack {m} into a new {k} archive {a}",
                "create the archive {a} containing {m}",
                "compress {m} into {a}",
            ),
            m=inputs["file"].mention,
            k="zip" if ext == "zip" else "tar.gz",
            a=archive,
        )
        return Fragment(
            instruction=instruction,
            conditions=[ctx.cond("archived", "archive_contains", path=archive, contains=[ref["name"]])],
            solution=[ctx.step("run_command", command=f"mkdir -p ~/Outbox && {pack}")],
        )


LIBRARY = (
    WriteJsonRecord(),
    AppendCsvRowPair(),
    EmailDraftPair(),
    WebFormPair(),
    MoveFileIntoFolder(),
    CreateArchive(),
)
