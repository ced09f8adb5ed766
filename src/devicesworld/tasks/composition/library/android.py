"""Phone atomic tasks: reads that find values in apps, writes that put values into apps.

Reference steps are written by meaning (``android_script`` targets: resource ids,
texts) and recorded into index-based steps when the composite task is built, so
they hold whatever else the phone shows. Reads hide their value; writes verify the
message, contact, event or note they create, none of which exists after setup.
This module holds the first nine tasks; ``android_apps`` (more apps and surfaces)
and ``android_multi`` (writers with two value inputs) add theirs to :data:`LIBRARY`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.authoring.android_script import On
from devicesworld.tasks.composition.atomic import AtomicTask, Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library import android_apps, android_multi
from devicesworld.tasks.composition.library.android_common import (
    KIND,
    SERVICES,
    STEMS,
    fresh,
    hhmm,
    send_sms,
    set_time,
)
from devicesworld.tasks.composition.library.android_common import number as _number
from devicesworld.tasks.composition.library.android_common import person as _person
from devicesworld.tasks.composition.library.files import located, make_file
from devicesworld.tasks.composition.library.linux import as_text
from devicesworld.tasks.composition.library.phrasing import say


# ------------------------------------------------------------------------ reads
@dataclass(frozen=True)
class ReadSmsCode:
    name: str = "an_read_sms_code"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        label = fresh(ctx, SERVICES)
        code = f"{ctx.rng.randrange(10**5, 10**6)}"
        sender = f"+1800555{ctx.rng.randrange(1000, 10000)}"
        return Fragment(
            instruction="",
            setup=[ctx.op("incoming_sms", address=sender, body=f"{label}: your verification code is {code}")],
            solution=[On(ctx.device_id).open("Messages")],
            outputs={
                "code": SlotValue(
                    "code",
                    code,
                    say(
                        ctx,
                        (
                            "the verification code {who} texted",
                            "the code in the latest text from {who}",
                            "the one-time code {who} sent by SMS",
                        ),
                        who=label,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadContactPhone:
    name: str = "an_read_contact_phone"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("phone", "phone_number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = _person(ctx)
        number = _number(ctx)
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("add_contact", name=f"{first} {last}", phone=number)],
            solution=[ph.open("Contacts"), ph.tap(text=f"{first} {last}"), ph.back()],
            outputs={
                "phone": SlotValue(
                    "phone_number",
                    number,
                    say(
                        ctx,
                        (
                            "{who}'s number from the contacts",
                            "the phone number saved for {who} in the contacts",
                            "{who}'s phone number (look it up in Contacts)",
                        ),
                        who=f"{first} {last}",
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadEventTime:
    name: str = "an_read_event_time"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = label = fresh(ctx, ("Team sync", "Physio", "Piano lesson", "Parents evening"))
        day = DEFAULT_START_TIME.replace(day=DEFAULT_START_TIME.day + ctx.rng.randrange(1, 5))
        at = day.replace(hour=ctx.rng.randrange(10, 20), minute=ctx.rng.choice([0, 30]))
        value = at.strftime("%H:%M")
        return Fragment(
            instruction="",
            setup=[ctx.op("add_event", title=title, start=at.isoformat(), duration_minutes=60)],
            solution=[On(ctx.device_id).open("Calendar")],
            outputs={
                "time": SlotValue(
                    "time_of_day",
                    value,
                    say(
                        ctx,
                        (
                            "the start time of the '{t}' event on {d} in the calendar",
                            "when the '{t}' event on {d} starts (see the calendar)",
                            "the time the calendar has for '{t}' on {d}",
                        ),
                        t=label,
                        d=at.strftime("%-d %B"),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadCodeFromFile:
    """Consumes a file in the phone's Download folder and finds the code inside."""

    name: str = "an_read_code_from_file"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("file", "text_file"),)
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        ref = inputs["file"].value
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            solution=[ph.open("Files")],
            outputs={
                "code": SlotValue(
                    "code",
                    ref["code"],
                    say(
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
    """A code-carrying file in the phone's Download folder."""

    name: str = "an_provide_file"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("file", "text_file"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        slot_type, ref = make_file(ctx.rng, STEMS)
        path = f"Download/{ref['name']}"
        return Fragment(
            instruction="",
            setup=[ctx.op("add_file", path=path, text=ref["content"])],
            outputs={
                "file": SlotValue(
                    slot_type,
                    located(ref, path=path, location="sdcard"),
                    f"the file {ref['name']} in the phone's Download folder",
                    False,
                    ctx.device_id,
                )
            },
        )


# ----------------------------------------------------------------------- writes
@dataclass(frozen=True)
class SendSms:
    name: str = "an_send_sms"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = _person(ctx)
        number = _number(ctx)
        text = as_text(inputs["value"].value)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "send {who} a text with {v}",
                    "text {v} to {who}",
                    "let {who} know {v} by SMS",
                    "message {who} on the phone with {v}",
                ),
                who=f"{first} {last}",
                v=inputs["value"].mention,
            ),
            setup=[ctx.op("add_contact", name=f"{first} {last}", phone=number)],
            conditions=[ctx.cond("sms", "sms_sent", to=number, contains=[inputs["value"].expected(text)])],
            solution=send_sms(On(ctx.device_id), first, f"{first} {last}", text),
        )


@dataclass(frozen=True)
class CreateContact:
    name: str = "an_create_contact"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("phone", "phone_number"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = _person(ctx)
        number = str(inputs["phone"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "save a new contact {who} with {v} as the phone number",
                    "add {who} to the contacts, with the number {v}",
                    "create a contact named {who} whose phone number is {v}",
                ),
                who=f"{first} {last}",
                v=inputs["phone"].mention,
            ),
            conditions=[ctx.cond("contact", "contact_exists", name=f"{first} {last}", phone=number)],
            solution=[
                ph.open("Contacts"),
                ph.tap(rid="floating_action_button"),
                ph.type(first, rid="editor_first"),
                ph.type(last, rid="editor_last"),
                ph.type(number, rid="editor_phone"),
                ph.tap(rid="menu_save"),
            ],
        )


@dataclass(frozen=True)
class CreateEvent:
    name: str = "an_create_event"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        label = fresh(ctx, ("Pickup", "Call back", "Handover", "Check-in"))
        hour, minute = hhmm(inputs["time"].value)
        start = DEFAULT_START_TIME.replace(hour=hour, minute=minute)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "add a calendar event '{t}' today starting at {v}",
                    "put '{t}' in today's calendar at {v}",
                    "create an event called '{t}' for today, beginning at {v}",
                ),
                t=label,
                v=inputs["time"].mention,
            ),
            conditions=[
                ctx.cond("event", "event_exists", title=label, start=start.strftime("%Y-%m-%dT%H:%M"))
            ],
            solution=[
                ph.open("Calendar"),
                ph.tap(rid="calendar_fab"),
                ph.type(label, rid="event_title"),
                ph.tap(rid="event_start_time"),
                *set_time(ph, hour, minute),
                ph.tap(rid="save"),
            ],
        )


@dataclass(frozen=True)
class WriteNote:
    name: str = "an_write_note"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        stem = ctx.unique(ctx.rng.choice(("todo", "memo", "keep", "jot"))).replace("_", "")
        text = as_text(inputs["value"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "write {v} into a new Markor note {n}.md",
                    "note down {v} in a new Markor file called {n}.md",
                    "create a Markor note {n}.md containing {v}",
                ),
                n=stem,
                v=inputs["value"].mention,
            ),
            conditions=[
                ctx.cond(
                    "note",
                    "file_exists",
                    path=f"Documents/Markor/{stem}.md",
                    contains=[inputs["value"].expected(text)],
                )
            ],
            solution=[
                ph.open("Markor"),
                ph.tap(rid="fab_add_new_item"),
                ph.type(stem, rid="new_file_dialog__name"),
                ph.tap(rid="button1"),
                ph.type(text, rid="document__fragment__edit__highlighting_editor"),
                ph.tap(rid="action_save"),
            ],
        )


LIBRARY: tuple[AtomicTask, ...] = (
    ReadSmsCode(),
    ReadContactPhone(),
    ReadEventTime(),
    ReadCodeFromFile(),
    ProvideFile(),
    SendSms(),
    CreateContact(),
    CreateEvent(),
    WriteNote(),
    *android_apps.LIBRARY,
    *android_multi.LIBRARY,
)
