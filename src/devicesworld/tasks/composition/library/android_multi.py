"""Phone writers with two value inputs, for multi-source integration.

Each puts both values into one artefact — an SMS, a contact, a calendar event, a
Markor note — and its condition checks both, so a solution that finds only one of
the two sources fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.authoring.android_script import On
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.android_common import (
    KIND,
    fresh,
    hhmm,
    number,
    person,
    send_sms,
    set_time,
)
from devicesworld.tasks.composition.library.linux import as_text
from devicesworld.tasks.composition.library.phrasing import say


@dataclass(frozen=True)
class SendSmsTwo:
    name: str = "an_send_sms_two"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("first", "value"), Slot("second", "value"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = person(ctx)
        who, phone = f"{first} {last}", number(ctx)
        a, b = as_text(inputs["first"].value), as_text(inputs["second"].value)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "send {w} one text with both {x} and {y}",
                    "text {w} {x} together with {y} in a single message",
                    "let {w} know, in one SMS, {x} and {y}",
                ),
                w=who,
                x=inputs["first"].mention,
                y=inputs["second"].mention,
            ),
            setup=[ctx.op("add_contact", name=who, phone=phone)],
            conditions=[
                ctx.cond(
                    "sms",
                    "sms_sent",
                    to=phone,
                    contains=[inputs["first"].expected(a), inputs["second"].expected(b)],
                )
            ],
            solution=send_sms(On(ctx.device_id), first, who, f"{a} {b}"),
        )


@dataclass(frozen=True)
class CreateNamedContact:
    name: str = "an_create_named_contact"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("name", "person_name"), Slot("phone", "phone_number"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        who, phone = str(inputs["name"].value), str(inputs["phone"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "save a new contact named {n} with the phone number {p}",
                    "add a contact to the phone: the name is {n}, the number {p}",
                    "create a contact whose name is {n} and whose number is {p}",
                ),
                n=inputs["name"].mention,
                p=inputs["phone"].mention,
            ),
            conditions=[ctx.cond("contact", "contact_exists", name=who, phone=phone)],
            solution=[
                ph.open("Contacts"),
                ph.tap(rid="floating_action_button"),
                ph.type(who, rid="editor_first"),
                ph.type(phone, rid="editor_phone"),
                ph.tap(rid="menu_save"),
            ],
        )


@dataclass(frozen=True)
class CreateTitledEvent:
    name: str = "an_create_titled_event"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("title", "text"), Slot("time", "time_of_day"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = as_text(inputs["title"].value)
        hour, minute = hhmm(inputs["time"].value)
        start = DEFAULT_START_TIME.replace(hour=hour, minute=minute)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "add a calendar event today at {t} titled with {n}",
                    "create an event for today starting at {t}, using {n} as its title",
                    "put an event in today's calendar at {t} whose title is {n}",
                ),
                t=inputs["time"].mention,
                n=inputs["title"].mention,
            ),
            conditions=[
                ctx.cond("event", "event_exists", title=title, start=start.strftime("%Y-%m-%dT%H:%M"))
            ],
            solution=[
                ph.open("Calendar"),
                ph.tap(rid="calendar_fab"),
                ph.type(title, rid="event_title"),
                ph.tap(rid="event_start_time"),
                *set_time(ph, hour, minute),
                ph.tap(rid="save"),
            ],
        )


@dataclass(frozen=True)
class CreateEventTimePlace:
    name: str = "an_create_event_time_place"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"), Slot("place", "address"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = fresh(ctx, ("Meeting point", "Handover", "Pick-up", "Tour"))
        hour, minute = hhmm(inputs["time"].value)
        place = as_text(inputs["place"].value)
        start = DEFAULT_START_TIME.replace(hour=hour, minute=minute)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "add a calendar event '{e}' today at {t}, located at {p}",
                    "create '{e}' in today's calendar starting at {t} with {p} as the location",
                    "book '{e}' for today at {t} in the calendar, at the place {p}",
                ),
                e=title,
                t=inputs["time"].mention,
                p=inputs["place"].mention,
            ),
            conditions=[
                ctx.cond(
                    "event",
                    "event_exists",
                    title=title,
                    start=start.strftime("%Y-%m-%dT%H:%M"),
                    location=place,
                )
            ],
            solution=[
                ph.open("Calendar"),
                ph.tap(rid="calendar_fab"),
                ph.type(title, rid="event_title"),
                ph.tap(rid="event_start_time"),
                *set_time(ph, hour, minute),
                ph.type(place, rid="event_location"),
                ph.tap(rid="save"),
            ],
        )


@dataclass(frozen=True)
class WriteNoteTwo:
    name: str = "an_write_note_two"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("first", "value"), Slot("second", "value"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        stem = ctx.unique(ctx.rng.choice(("handover", "details", "summary", "recap"))).replace("_", "")
        a, b = as_text(inputs["first"].value), as_text(inputs["second"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "write {x} and {y} into a new Markor note {n}.md",
                    "create a Markor note {n}.md that contains {x} as well as {y}",
                    "note down both {x} and {y} in a new Markor file {n}.md",
                ),
                n=stem,
                x=inputs["first"].mention,
                y=inputs["second"].mention,
            ),
            conditions=[ctx.cond("note", "file_exists", path=f"Documents/Markor/{stem}.md", contains=[a, b])],
            solution=[
                ph.open("Markor"),
                ph.tap(rid="fab_add_new_item"),
                ph.type(stem, rid="new_file_dialog__name"),
                ph.tap(rid="button1"),
                ph.type(f"{a}, {b}", rid="document__fragment__edit__highlighting_editor"),
                ph.tap(rid="action_save"),
            ],
        )


@dataclass(frozen=True)
class CreateContactWithEmail:
    name: str = "an_create_contact_with_email"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("name", "person_name"), Slot("email", "email_address"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        who, email = str(inputs["name"].value), str(inputs["email"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "save a new contact named {n} with the email address {e}",
                    "add {n} to the contacts, with {e} as the email",
                    "create a contact for {n} whose email is {e}",
                ),
                n=inputs["name"].mention,
                e=inputs["email"].mention,
            ),
            conditions=[ctx.cond("contact", "contact_exists", name=who, email=email)],
            solution=[
                ph.open("Contacts"),
                ph.tap(rid="floating_action_button"),
                ph.type(who, rid="editor_first"),
                ph.type(email, rid="editor_email"),
                ph.tap(rid="menu_save"),
            ],
        )


LIBRARY = (
    SendSmsTwo(),
    CreateNamedContact(),
    CreateTitledEvent(),
    CreateEventTimePlace(),
    WriteNoteTwo(),
    CreateContactWithEmail(),
)
