"""Phone atomic tasks: reads that find values in apps, writes that put values into apps.

Reference steps are written by meaning (``android_script`` targets: resource ids,
texts) and recorded into index-based steps when the composite task is built, so
they hold whatever else the phone shows. Reads hide their value; writes verify the
message, contact, event or note they create, none of which exists after setup.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.files import located, make_file
from devicesworld.tasks.composition.library.linux import as_text
from devicesworld.tasks.suites.android_script import On, ScriptItem

KIND = "android"
FIRST = ("Ann", "Bob", "Carla", "Dmitri", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jae")
LAST = ("Lee", "Stone", "Diaz", "Ivanov", "Yilmaz", "Okafor", "Berg", "Moreau", "Silva", "Park")
SERVICES = ("BankCo", "ParcelNow", "CloudID", "ShopSafe")
STEMS = ("ticket", "receipt", "memo", "pass", "voucher")


def _person(ctx: InstanceContext) -> tuple[str, str]:
    """A contact name unique on this phone, as (first, last)."""
    while True:
        first, last = ctx.rng.choice(FIRST), ctx.rng.choice(LAST)
        if f"{first} {last}" not in ctx.names:
            ctx.names.add(f"{first} {last}")
            return first, last


def _number(ctx: InstanceContext) -> str:
    return f"+1555{ctx.rng.randrange(200, 1000)}{ctx.rng.randrange(1000, 10000)}"


def send_sms(ph: On, query: str, pick: str, body: str) -> list[ScriptItem]:
    """Messages: new chat, pick the contact from the suggestions, type, send."""
    return [
        ph.open("Messages"),
        ph.tap(rid="conversations_fab"),
        ph.type(query, rid="new_conversation_address"),
        ph.tap(text=pick),
        ph.type(body, rid="thread_type_message"),
        ph.tap(rid="thread_send_message"),
    ]


def set_time(ph: On, hour: int, minute: int) -> list[ScriptItem]:
    """Fill an open 12-hour time picker and press OK."""
    return [
        ph.type(str(hour % 12 or 12), clear=True, rid="hour"),
        ph.type(f"{minute:02d}", clear=True, rid="minute"),
        ph.tap(rid="pm_label" if hour >= 12 else "am_label"),
        ph.tap(rid="button1"),
    ]


# ------------------------------------------------------------------------ reads
@dataclass(frozen=True)
class ReadSmsCode:
    name: str = "an_read_sms_code"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        service = ctx.unique(ctx.rng.choice(SERVICES))
        code = f"{ctx.rng.randrange(10**5, 10**6)}"
        sender = f"+1800555{ctx.rng.randrange(1000, 10000)}"
        label = service.split("_")[0]
        return Fragment(
            instruction="",
            setup=[ctx.op("incoming_sms", address=sender, body=f"{label}: your verification code is {code}")],
            solution=[On(ctx.device_id).open("Messages")],
            outputs={
                "code": SlotValue("code", code, f"the verification code {label} texted", True, ctx.device_id)
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
                    "phone_number", number, f"{first} {last}'s number from the contacts", True, ctx.device_id
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
        title = ctx.unique(ctx.rng.choice(("Team sync", "Physio", "Piano lesson", "Parents evening")))
        label = title.split("_")[0]
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
                    f"the start time of the '{label}' event on {at.strftime('%-d %B')} in the calendar",
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
                    "code", ref["code"], f"the code in the file {ref['name']}", True, ctx.device_id
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
            instruction=f"send {first} {last} a text with {inputs['value'].mention}",
            setup=[ctx.op("add_contact", name=f"{first} {last}", phone=number)],
            conditions=[ctx.cond("sms", "sms_sent", to=number, contains=[text])],
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
            instruction=f"save a new contact {first} {last} with {inputs['phone'].mention} as the phone number",
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
        title = ctx.unique(ctx.rng.choice(("Pickup", "Call back", "Handover", "Check-in")))
        label = title.replace("_", " ")
        hour, minute = (int(x) for x in str(inputs["time"].value).split(":"))
        start = DEFAULT_START_TIME.replace(hour=hour, minute=minute)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=f"add a calendar event '{label}' today starting at {inputs['time'].mention}",
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
            instruction=f"write {inputs['value'].mention} into a new Markor note {stem}.md",
            conditions=[ctx.cond("note", "file_exists", path=f"Documents/Markor/{stem}.md", contains=[text])],
            solution=[
                ph.open("Markor"),
                ph.tap(rid="fab_add_new_item"),
                ph.type(stem, rid="new_file_dialog__name"),
                ph.tap(rid="button1"),
                ph.type(text, rid="document__fragment__edit__highlighting_editor"),
                ph.tap(rid="action_save"),
            ],
        )


LIBRARY = (
    ReadSmsCode(),
    ReadContactPhone(),
    ReadEventTime(),
    ReadCodeFromFile(),
    ProvideFile(),
    SendSms(),
    CreateContact(),
    CreateEvent(),
    WriteNote(),
)
