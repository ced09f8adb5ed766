"""Phone atomic tasks over more apps and surfaces: Clock, Settings, Contacts, Calendar, Files,
Messages, Phone, Markor, Maps, Browser, Music, Camera.

Reads place one value in an app (an alarm's time, a contact's email, a place's address,
an amount on a web page, ...) and hide it behind a mention; writes change one piece
of app state and verify it with the phone's checks (``alarm_exists``, ``setting_is``,
``contact_exists``, ``event_exists``, ``file_exists``/``file_absent``, ``app_pref``,
``playlist_contains``, ``files_in_folder``, ``timer_running``). Every write starts
from a state that differs from its goal: its setup never satisfies it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from devicesworld.devices.android.apps.calculator import show
from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.compose import CompositionError
from devicesworld.tasks.composition.library.android_common import (
    FIRST,
    KIND,
    LAST,
    day_label,
    fresh,
    hhmm,
    later_day,
    number,
    person,
    set_time,
    twelve_hour,
)
from devicesworld.tasks.composition.library.files import located
from devicesworld.tasks.composition.library.linux import as_text
from devicesworld.tasks.composition.library.phrasing import say
from devicesworld.tasks.composition.reasoning import Derivation
from devicesworld.tasks.suites.android_script import On

ALARM_LABELS = ("Gym", "Meds", "School run", "Standup", "Flight", "Bins out", "Yoga")
COMPANIES = ("Northwind", "Contoso", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay")
DOMAINS = ("mail.com", "example.org", "post.net", "inbox.io")
STREETS = ("Harbour Road", "Elm Street", "Mill Lane", "Station Road", "King's Parade", "Bridge Street")
PLACES = ("Corner Cafe", "Central Library", "Riverside Clinic", "Town Pool", "Old Market", "City Museum")
SONGS = ("Blue Train", "So What", "Take Five", "Naima", "Footprints", "Moanin'", "Cantaloupe Island")
NOTE_STEMS = ("locker", "gate", "storage", "bike", "safe")
EVENT_TITLES = ("Lunch with Sam", "Viewing", "Haircut", "Team dinner", "Tyre change", "Parents meeting")
BRIGHTNESS_KEY = {"table": "system", "name": "screen_brightness"}


def _street(ctx: InstanceContext) -> str:
    return f"{ctx.rng.randrange(2, 120)} {ctx.rng.choice(STREETS)}"


def _claim(ctx: InstanceContext, what: str) -> None:
    """Reserve a piece of phone state only one task may own (the brightness, the one timer)."""
    if what in ctx.names:
        raise CompositionError(f"two subtasks on {ctx.device_id} would both use the {what}")
    ctx.names.add(what)


def _level(percent: float) -> int:
    """The settings.db brightness (0-255) that the Display slider shows as ``percent``."""
    return round(percent * 2.55)


# ======================================================================== reads
@dataclass(frozen=True)
class ReadAlarmTime:
    name: str = "an_read_alarm_time"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        tag = fresh(ctx, ALARM_LABELS)
        hour, minute = ctx.rng.randrange(5, 9), ctx.rng.choice([0, 10, 20, 30, 40, 50])
        return Fragment(
            instruction="",
            setup=[ctx.op("add_alarm", hour=hour, minute=minute, label=tag)],
            solution=[On(ctx.device_id).open("Clock")],
            outputs={
                "time": SlotValue(
                    "time_of_day",
                    f"{hour:02d}:{minute:02d}",
                    say(
                        ctx,
                        (
                            "the time of the '{t}' alarm on the phone's clock",
                            "the time your '{t}' alarm is set for",
                            "when the alarm labelled '{t}' goes off",
                        ),
                        t=tag,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadContactEmail:
    name: str = "an_read_contact_email"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("email", "email_address"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = person(ctx)
        email = f"{first.lower()}.{last.lower()}{ctx.rng.randrange(2, 99)}@{ctx.rng.choice(DOMAINS)}"
        who = f"{first} {last}"
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("add_contact", name=who, phone=number(ctx), email=email)],
            solution=[ph.open("Contacts"), ph.tap(text=who), ph.back()],
            outputs={
                "email": SlotValue(
                    "email_address",
                    email,
                    say(
                        ctx,
                        (
                            "{w}'s email address from the contacts",
                            "the email address saved for {w}",
                            "{w}'s email (it is on the contact card)",
                        ),
                        w=who,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadContactByCompany:
    name: str = "an_read_contact_by_company"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("name", "person_name"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        company = fresh(ctx, COMPANIES)
        first, last = person(ctx)
        other_first, other_last = person(ctx)
        other_company = fresh(ctx, COMPANIES)
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_contact", name=f"{first} {last}", phone=number(ctx), company=company),
                ctx.op(
                    "add_contact",
                    name=f"{other_first} {other_last}",
                    phone=number(ctx),
                    company=other_company,
                ),
            ],
            solution=[ph.open("Contacts"), ph.type(company, rid="search_view")],
            outputs={
                "name": SlotValue(
                    "person_name",
                    f"{first} {last}",
                    say(
                        ctx,
                        (
                            "the name of your contact who works at {c}",
                            "the full name of the {c} person in your contacts",
                            "who you have saved in the contacts with the company {c}",
                        ),
                        c=company,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadEventLocation:
    name: str = "an_read_event_location"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("place", "address"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = fresh(ctx, EVENT_TITLES)
        at = later_day(ctx)
        where = _street(ctx)
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_event", title=title, start=at.isoformat(), duration_minutes=60, location=where)
            ],
            solution=[ph.open("Calendar"), ph.tap(desc=f"{day_label(at)} •"), ph.tap(text=title)],
            outputs={
                "place": SlotValue(
                    "address",
                    where,
                    say(
                        ctx,
                        (
                            "the location of the '{t}' event on {d} in the calendar",
                            "where the '{t}' event on {d} takes place (see the calendar)",
                            "the address the calendar gives for '{t}' on {d}",
                        ),
                        t=title,
                        d=at.strftime("%-d %B"),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadEventDate:
    name: str = "an_read_event_date"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("date", "date"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = fresh(ctx, ("Dentist", "Boiler service", "Vet", "Bank meeting", "Eye test"))
        at = later_day(ctx, hours=(8, 18))
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("add_event", title=title, start=at.isoformat(), duration_minutes=30)],
            solution=[ph.open("Calendar"), ph.tap(desc=f"{day_label(at)} •"), ph.tap(text=title)],
            outputs={
                "date": SlotValue(
                    "date",
                    f"{at.day} {at.strftime('%B')}",
                    say(
                        ctx,
                        (
                            "the date (day and month) of the '{t}' appointment in the calendar",
                            "the day and month the calendar has '{t}' on",
                            "when '{t}' is booked in the calendar (day and month)",
                        ),
                        t=title,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadSmsPhone:
    """A number someone gave in the body of a text (not the sender's number)."""

    name: str = "an_read_sms_phone"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("phone", "phone_number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = person(ctx)
        sender, given = number(ctx), number(ctx)
        body = ctx.rng.choice(
            (
                "New number! You can reach me on {n} from now on.",
                "My work phone is {n}, call me there after 10.",
                "Lost my old SIM, this is my new number: {n}",
            )
        ).format(n=given)
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_contact", name=f"{first} {last}", phone=sender),
                ctx.op("add_sms", address=sender, body=body, minutes_ago=ctx.rng.randrange(5, 240)),
            ],
            solution=[ph.open("Messages"), ph.tap(text=f"{first} {last}")],
            outputs={
                "phone": SlotValue(
                    "phone_number",
                    given,
                    say(
                        ctx,
                        (
                            "the phone number {w} gave in their text message",
                            "the new number {w} sent you by SMS",
                            "the number written in {w}'s latest text",
                        ),
                        w=f"{first} {last}",
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadMissedCall:
    name: str = "an_read_missed_call"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("phone", "phone_number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        caller = number(ctx)
        ago = ctx.rng.randrange(10, 120)
        when = twelve_hour(*divmod(DEFAULT_START_TIME.hour * 60 + DEFAULT_START_TIME.minute - ago, 60))
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[
                ctx.op("add_call", number=caller, kind="missed", minutes_ago=ago),
                ctx.op(
                    "add_call", number=number(ctx), kind="outgoing", minutes_ago=ctx.rng.randrange(300, 900)
                ),
            ],
            solution=[ph.open("Phone"), ph.tap(rid="tab_recents")],
            outputs={
                "phone": SlotValue(
                    "phone_number",
                    caller,
                    say(
                        ctx,
                        (
                            "the number of the call you missed at {t} today",
                            "the number you missed a call from at {t} (see the phone's call log)",
                            "the number of the {t} missed call in the Phone app's recents",
                        ),
                        t=when,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadNoteCode:
    name: str = "an_read_note_code"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        stem = ctx.unique(ctx.rng.choice(NOTE_STEMS)).replace("_", "")
        code = f"{ctx.rng.randrange(1000, 10**4)}"
        thing = {"locker": "Locker", "gate": "Gate", "storage": "Storage unit", "bike": "Bike lock"}.get(
            stem.rstrip("0123456789"), "Safe"
        )
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("add_note", name=f"{stem}.md", text=f"# {thing}\n\n{thing} code: {code}\n")],
            solution=[ph.open("Markor"), ph.tap(text=f"{stem}.md")],
            outputs={
                "code": SlotValue(
                    "code",
                    code,
                    say(
                        ctx,
                        (
                            "the code written in the Markor note {n}.md",
                            "the {t} code you noted in {n}.md (Markor)",
                            "the code kept in your note {n}.md",
                        ),
                        n=stem,
                        t=thing.lower(),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadDownloadCode:
    """A code inside a text file already in Download/ (a read with no file input)."""

    name: str = "an_read_download_code"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        stem = ctx.unique(ctx.rng.choice(("boarding", "booking", "order", "coupon")))
        name = f"{stem}_{ctx.rng.randrange(100, 1000)}.txt"
        code = f"{ctx.rng.choice('ABCDEFGHJKLMNPQRSTUVWXYZ')}{ctx.rng.randrange(10**4, 10**5)}"
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("add_file", path=f"Download/{name}", text=f"Reference: {code}\nKeep this file.\n")],
            solution=[
                ph.open("Files"),
                ph.tap(rid="root_sdcard"),
                ph.tap(text="Download"),
                ph.tap(text=name),
            ],
            outputs={
                "code": SlotValue(
                    "code",
                    code,
                    say(
                        ctx,
                        (
                            "the reference written in Download/{n} on the phone",
                            "the reference code in the file {n} in the phone's Download folder",
                            "the reference that the downloaded file {n} gives",
                        ),
                        n=name,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadBrightness:
    name: str = "an_read_brightness"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("level", "percentage"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        if "brightness write" in ctx.names:  # a write before this read would change what it finds
            raise CompositionError(f"the screen brightness on {ctx.device_id} is set before it is read")
        _claim(ctx, "screen brightness")
        percent = ctx.rng.choice(range(30, 85, 5))
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("set_setting", value=str(_level(percent)), **BRIGHTNESS_KEY)],
            solution=[ph.open("Settings"), ph.tap(rid="display")],
            outputs={
                "level": SlotValue(
                    "percentage",
                    percent,
                    say(
                        ctx,
                        (
                            "the phone's screen brightness (in %)",
                            "the brightness percentage set in the phone's display settings",
                            "how bright the phone's screen is set, in percent",
                        ),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadPlaceAddress:
    name: str = "an_read_place_address"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("place", "address"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        place = fresh(ctx, PLACES)
        where = _street(ctx)
        ph = On(ctx.device_id)
        lat, lon = 40 + ctx.rng.random(), -73 - ctx.rng.random()
        return Fragment(
            instruction="",
            setup=[ctx.op("add_place", name=place, address=where, lat=round(lat, 5), lon=round(lon, 5))],
            solution=[
                ph.open("Maps"),
                ph.type(place.split()[0], rid="searchEditText"),
                ph.act("keyboard_enter"),
                ph.tap(text=place),
            ],
            outputs={
                "place": SlotValue(
                    "address",
                    where,
                    say(
                        ctx,
                        (
                            "the street address of the {p} (look it up in Maps)",
                            "the {p}'s address as Maps shows it",
                            "where the {p} is, by its address in the Maps app",
                        ),
                        p=place,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadWebAmount:
    name: str = "an_read_web_amount"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("amount", "amount"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        host = ctx.unique(ctx.rng.choice(("billing", "club", "school", "garage"))).replace("_", "")
        url = f"http://{host}.local/balance"
        amount = ctx.rng.randrange(1200, 30000) / 100
        what = {"billing": "Electricity bill", "club": "Membership fee", "school": "Trip payment"}.get(
            host.rstrip("0123456789"), "Service invoice"
        )
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[
                ctx.op(
                    "add_page",
                    url=url,
                    title=what,
                    text=f"{what}\nAmount due: {amount:.2f} EUR\nPay by the end of the month.",
                )
            ],
            solution=[ph.open("Browser"), ph.type(url, rid="url_bar"), ph.act("keyboard_enter")],
            outputs={
                "amount": SlotValue(
                    "amount",
                    amount,
                    say(
                        ctx,
                        (
                            "the amount due on {u} (open it in the phone's browser)",
                            "the amount the page {u} says is due",
                            "what the {w} page at {u} asks you to pay",
                        ),
                        u=url,
                        w=what.lower(),
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class ReadSongArtist:
    name: str = "an_read_song_artist"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("artist", "person_name"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = fresh(ctx, SONGS)
        artist = f"{ctx.rng.choice(FIRST)} {ctx.rng.choice(LAST)}"
        ph = On(ctx.device_id)
        return Fragment(
            instruction="",
            setup=[ctx.op("add_song", title=title, artist=artist)],
            solution=[ph.open("Music"), ph.tap(text=title)],
            outputs={
                "artist": SlotValue(
                    "person_name",
                    artist,
                    say(
                        ctx,
                        (
                            "the artist of the song '{s}' in the music app",
                            "who performs '{s}' (see the phone's music library)",
                            "the name of the musician behind '{s}' in your music",
                        ),
                        s=title,
                    ),
                    True,
                    ctx.device_id,
                )
            },
        )


# ======================================================================= writes
@dataclass(frozen=True)
class SetAlarm:
    name: str = "an_set_alarm"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("time", "time_of_day"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        hour, minute = hhmm(inputs["time"].value)
        tag = fresh(ctx, ("Reminder", "Leave now", "Call back", "Check oven", "Pickup"))
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "set an alarm for {v} labelled '{t}'",
                    "add a '{t}' alarm at {v} on the phone's clock",
                    "make the phone ring at {v} with an alarm named '{t}'",
                ),
                v=inputs["time"].mention,
                t=tag,
            ),
            conditions=[ctx.cond("alarm", "alarm_exists", hour=hour, minute=minute, label=tag, enabled=True)],
            solution=[
                ph.open("Clock"),
                ph.tap(rid="fab"),
                *set_time(ph, hour, minute),
                ph.tap(text=twelve_hour(hour, minute), nth=-1),  # the newest alarm at that time
                ph.tap(rid="edit_label"),
                ph.type(tag, rid="label_input"),
                ph.tap(rid="button1"),
            ],
        )


@dataclass(frozen=True)
class StartTimer:
    name: str = "an_start_timer"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("minutes", "duration"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        _claim(ctx, "countdown timer")  # the Clock app runs one timer at a time
        minutes = float(inputs["minutes"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "start a countdown timer whose length in minutes is {v}",
                    "set the phone's timer to {v} (in minutes) and start it",
                    "run a timer in the Clock app for as many minutes as {v}",
                )
                if inputs["minutes"].hidden
                else (
                    "start a countdown timer of {v} minutes",
                    "set the phone's timer to {v} minutes and start it",
                    "run a {v}-minute timer in the Clock app",
                ),
                v=inputs["minutes"].mention,
            ),
            conditions=[ctx.cond("timer", "timer_running", seconds=round(minutes * 60))],
            solution=[
                ph.open("Clock"),
                ph.tap(rid="tab_timer"),
                ph.type(as_text(minutes), rid="timer_setup_digits"),
                ph.tap(rid="fab"),
            ],
        )


@dataclass(frozen=True)
class AddContactEmail:
    name: str = "an_add_contact_email"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("email", "email_address"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = person(ctx)
        who = f"{first} {last}"
        email = str(inputs["email"].value)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "add {v} as the email address of the contact {w}",
                    "save {v} as {w}'s email in the contacts",
                    "edit {w}'s contact and put {v} in the email field",
                ),
                v=inputs["email"].mention,
                w=who,
            ),
            setup=[ctx.op("add_contact", name=who, phone=number(ctx))],
            conditions=[ctx.cond("email", "contact_exists", name=who, email=email)],
            solution=[
                ph.open("Contacts"),
                ph.tap(text=who),
                ph.tap(rid="menu_edit"),
                ph.type(email, rid="editor_email"),
                ph.tap(rid="menu_save"),
            ],
        )


@dataclass(frozen=True)
class ReplySms:
    name: str = "an_reply_sms"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("value", "value"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        first, last = person(ctx)
        who, phone = f"{first} {last}", number(ctx)
        text = as_text(inputs["value"].value)
        question = ctx.rng.choice(
            ("Can you send me the details?", "What was it again?", "Quick question, got a sec?")
        )
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "reply to {w}'s text with {v}",
                    "answer {w}'s last message, sending {v}",
                    "in your conversation with {w}, reply {v}",
                ),
                w=who,
                v=inputs["value"].mention,
            ),
            setup=[
                ctx.op("add_contact", name=who, phone=phone),
                ctx.op("add_sms", address=phone, body=question, minutes_ago=ctx.rng.randrange(2, 60)),
            ],
            conditions=[ctx.cond("reply", "sms_sent", to=phone, contains=[inputs["value"].expected(text)])],
            solution=[
                ph.open("Messages"),
                ph.tap(text=who),
                ph.type(text, rid="thread_type_message"),
                ph.tap(rid="thread_send_message"),
            ],
        )


@dataclass(frozen=True)
class SetBrightness:
    name: str = "an_set_brightness"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("level", "percentage"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        read_here = "screen brightness" in ctx.names  # the value this write consumes may be read here
        if read_here and "brightness write" in ctx.names:
            raise CompositionError(f"two subtasks on {ctx.device_id} would both set the screen brightness")
        ctx.names.add("brightness write")
        percent = float(inputs["level"].value)
        start = 10 if percent >= 50 else 95
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "set the phone's screen brightness to {v}",
                    "change the display brightness of the phone to {v}",
                    "move the phone's brightness slider to {v}",
                ),
                v=inputs["level"].mention,
            ),
            # after a read of the brightness on this phone, its setup already differs (or QC rejects)
            setup=[] if read_here else [ctx.op("set_setting", value=str(_level(start)), **BRIGHTNESS_KEY)],
            conditions=[
                ctx.cond(
                    "brightness",
                    "setting_is",
                    min=_level(percent - 3),
                    max=_level(percent + 3),
                    **BRIGHTNESS_KEY,
                )
            ],
            solution=[
                ph.open("Settings"),
                ph.tap(rid="display"),
                ph.tap_at(percent / 100, rid="brightness_slider"),
            ],
        )


SWITCHES = {
    "dark": (
        (
            "turn on the phone's dark theme",
            "switch the phone to dark mode",
            "enable the dark theme on the phone",
        ),
        {"table": "secure", "name": "ui_night_mode", "value": "2"},
        ("display", "dark_ui_mode"),
    ),
    "bluetooth": (
        (
            "turn on Bluetooth on the phone",
            "switch the phone's Bluetooth on",
            "enable Bluetooth in the settings",
        ),
        {"table": "global", "name": "bluetooth_on", "value": "1"},
        ("connected", "switch_bluetooth_on"),
    ),
    "wifi": (
        (
            "turn off the phone's Wi-Fi",
            "switch Wi-Fi off on the phone",
            "disable Wi-Fi in the phone's settings",
        ),
        {"table": "global", "name": "wifi_on", "value": "0"},
        ("network", "switch_wifi_on"),
    ),
}


@dataclass(frozen=True)
class FlipSetting:
    """A settings switch (dark theme on, Bluetooth on, Wi-Fi off): a standalone state change."""

    name: str = "an_flip_setting"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        free = [k for k in SWITCHES if f"switch {k}" not in ctx.names]
        key = ctx.rng.choice(free or list(SWITCHES))
        _claim(ctx, f"switch {key}")
        phrasings, setting, (screen, switch) = SWITCHES[key]
        start = {"0": "1", "1": "0", "2": "1"}[setting["value"]]
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(ctx, phrasings),
            setup=[ctx.op("set_setting", table=setting["table"], name=setting["name"], value=start)],
            conditions=[ctx.cond(key, "setting_is", **setting)],
            solution=[ph.open("Settings"), ph.tap(rid=screen), ph.tap(rid=switch)],
        )


@dataclass(frozen=True)
class CreateEventAt:
    """An event on a later day with a location from the input (time and title chosen here)."""

    name: str = "an_create_event_at_place"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("place", "address"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        title = fresh(ctx, ("Meet-up", "Drop-off", "Site visit", "Coffee"))
        hour = ctx.rng.randrange(13, 19)
        place = as_text(inputs["place"].value)
        start = DEFAULT_START_TIME.replace(hour=hour, minute=0)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "add an event '{t}' today at {h} with {v} as its location",
                    "put '{t}' in today's calendar at {h}, located at {v}",
                    "create a calendar event '{t}' for {h} today and set its location to {v}",
                ),
                t=title,
                h=twelve_hour(hour, 0),
                v=inputs["place"].mention,
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
                *set_time(ph, hour, 0),
                ph.type(place, rid="event_location"),
                ph.tap(rid="save"),
            ],
        )


@dataclass(frozen=True)
class CopyFileToFolder:
    """Copies a file (in Download/ after a transfer) into another folder; the copy flows on.

    A copy, not a move: the original stays where a transfer's check or another reader
    of the same file expects it.
    """

    name: str = "an_copy_file_to_folder"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("file", "text_file"),)
    outputs: tuple[Slot, ...] = (Slot("file", "text_file"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        source = inputs["file"]
        ref = source.value
        name = ref["name"]
        folder = str(ref["path"]).rsplit("/", 1)[0]
        target = ctx.rng.choice([f for f in ("Documents", "Pictures") if f != folder])
        _claim(ctx, f"copy of {name}")
        new_path = f"{target}/{name}"
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "copy {v} into the {t} folder as well",
                    "put a copy of {v} in the phone's {t} folder",
                    "use the Files app to copy {v} to {t}",
                ),
                v=source.mention,
                t=target,
            ),
            conditions=[ctx.cond("copied", "file_exists", path=new_path, contains=[ref["code"]])],
            solution=[
                ph.open("Files"),
                ph.tap(rid="root_sdcard"),
                ph.tap(text=folder),
                ph.hold(text=name),
                ph.tap(rid="action_copy"),
                ph.back(),
                ph.tap(text=target),
                ph.tap(rid="clip_paste"),
            ],
            outputs={
                "file": SlotValue(
                    source.type,
                    located(ref, path=new_path, location="sdcard"),
                    f"the file {name} in the phone's {target} folder",
                    False,
                    ctx.device_id,
                )
            },
        )


@dataclass(frozen=True)
class TidyDownload:
    """Rename or move a file of the phone's own Download folder (standalone: nobody else reads it)."""

    name: str = "an_tidy_download"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        stem = ctx.unique(ctx.rng.choice(("scan", "IMG", "doc", "export"))).replace("_", "")
        old = f"{stem}_{ctx.rng.randrange(1000, 10000)}.txt"
        text = f"{ctx.rng.choice(('Total', 'Balance', 'Deposit'))}: {ctx.rng.randrange(10, 500)}.00"
        ph = On(ctx.device_id)
        open_download = [
            ph.open("Files"),
            ph.tap(rid="root_sdcard"),
            ph.tap(text="Download"),
            ph.hold(text=old),
        ]
        if ctx.rng.random() < 0.5:
            new = f"{ctx.rng.choice(('receipt', 'statement', 'invoice'))}_{ctx.rng.randrange(10, 100)}.txt"
            goal, path = ("rename", f"Download/{new}")
            phrasing = say(
                ctx,
                (
                    "in the phone's Download folder, rename {o} to {n}",
                    "give the downloaded file {o} the name {n}",
                    "rename Download/{o} on the phone to {n}",
                ),
                o=old,
                n=new,
            )
            steps = [
                ph.tap(rid="action_rename"),
                ph.type(new, clear=True, rid="rename_input"),
                ph.tap(rid="button1"),
            ]
        else:
            goal, path = ("move", f"Documents/{old}")
            phrasing = say(
                ctx,
                (
                    "move {o} from the phone's Download folder to Documents",
                    "tidy the phone's downloads: move {o} into Documents",
                    "put the downloaded file {o} into the Documents folder (move it, don't copy)",
                ),
                o=old,
            )
            steps = [ph.tap(rid="action_move"), ph.back(), ph.tap(text="Documents"), ph.tap(rid="clip_paste")]
        return Fragment(
            instruction=phrasing,
            setup=[ctx.op("add_file", path=f"Download/{old}", text=text)],
            conditions=[
                ctx.cond(goal, "file_exists", path=path, equals=text),
                ctx.cond("old_gone", "file_absent", path=f"Download/{old}"),
            ],
            solution=[*open_download, *steps],
        )


@dataclass(frozen=True)
class SavePlace:
    name: str = "an_save_place"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        place = fresh(ctx, PLACES)
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "find the {p} in Maps and save it",
                    "save the {p} to your saved places in Maps",
                    "look up the {p} in the Maps app and add it to your favourites",
                ),
                p=place,
            ),
            setup=[ctx.op("add_place", name=place, address=_street(ctx), lat=40.5, lon=-73.5)],
            conditions=[
                ctx.cond("saved", "app_pref", package="net.osmand", key="saved_places", contains=place)
            ],
            solution=[
                ph.open("Maps"),
                ph.type(place.split()[0], rid="searchEditText"),
                ph.act("keyboard_enter"),
                ph.tap(text=place),
                ph.tap(rid="save_button"),
            ],
        )


@dataclass(frozen=True)
class AddToPlaylist:
    name: str = "an_add_to_playlist"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        playlist = fresh(ctx, ("Road trip", "Focus", "Sunday", "Workout"))
        first, song = ctx.rng.sample([s for s in SONGS if s not in ctx.names], 2)
        ctx.names.update((first, song))
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "add '{s}' to your {p} playlist",
                    "put the song '{s}' into the playlist {p}",
                    "in the music app, add '{s}' to {p}",
                ),
                s=song,
                p=playlist,
            ),
            setup=[
                ctx.op("add_song", title=first, artist=f"{ctx.rng.choice(FIRST)} {ctx.rng.choice(LAST)}"),
                ctx.op("add_song", title=song, artist=f"{ctx.rng.choice(FIRST)} {ctx.rng.choice(LAST)}"),
                ctx.op("add_playlist", name=playlist, songs=[first]),
            ],
            conditions=[ctx.cond("added", "playlist_contains", name=playlist, songs=[first, song])],
            solution=[ph.open("Music"), ph.hold(text=song), ph.tap(text=playlist)],
        )


@dataclass(frozen=True)
class TakePhoto:
    name: str = "an_take_photo"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        tag = ctx.unique("photo")
        count = 1 if tag == "photo" else int(tag.rsplit("_", 1)[1])
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "take a photo with the phone's camera",
                    "snap a picture with the Camera app",
                    "use the phone to take a photo",
                ),
            ),
            conditions=[
                ctx.cond("photo", "files_in_folder", folder="DCIM/Camera", suffix=".jpg", at_least=count)
            ],
            solution=[ph.open("Camera"), ph.tap(rid="shutter_button")],
        )


@dataclass(frozen=True)
class RecordMemo:
    name: str = "an_record_memo"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        tag = ctx.unique("memo recording")
        count = 1 if tag == "memo recording" else int(tag.rsplit("_", 1)[1])
        seconds = ctx.rng.choice((5, 10, 15))
        ph = On(ctx.device_id)
        return Fragment(
            instruction=say(
                ctx,
                (
                    "record a voice memo of at least {s} seconds on the phone",
                    "use the Audio Recorder to record {s} seconds or more",
                    "make an audio recording of {s}+ seconds with the phone",
                ),
                s=seconds,
            ),
            conditions=[
                ctx.cond("memo", "files_in_folder", folder="Recordings", suffix=".wav", at_least=count)
            ],
            solution=[
                ph.open("Audio Recorder"),
                ph.tap(rid="btn_record_start"),
                ph.act("wait", seconds=seconds + 1),
                ph.tap(rid="btn_stop"),
            ],
        )


CALC_KEYS = {".": "dec_point", "+": "op_add"}


@dataclass(frozen=True)
class CalculateSum:
    """Two inputs: add them up on the Calculator (its ``=`` stores the result it shows)."""

    name: str = "an_calculate_sum"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("first", "amount"), Slot("second", "amount"))
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        _claim(ctx, "calculator result")
        a, b = float(inputs["first"].value), float(inputs["second"].value)
        if a < 0 or b < 0:
            raise CompositionError("the calculator script types no negative numbers")
        ph = On(ctx.device_id)
        keys = [*as_text(a), "+", *as_text(b)]
        return Fragment(
            instruction=say(
                ctx,
                (
                    "use the phone's calculator to add {x} and {y}",
                    "on the Calculator, work out {x} plus {y}",
                    "add up {x} and {y} with the calculator app",
                ),
                x=inputs["first"].mention,
                y=inputs["second"].mention,
            ),
            conditions=[
                ctx.cond(
                    "result",
                    "app_pref",
                    package="com.google.android.calculator",
                    key="last_result",
                    equals=show(a + b),
                )
            ],
            derivations=[
                Derivation("total", (inputs["first"].value, inputs["second"].value), {}, show(a + b))
            ],
            solution=[
                ph.open("Calculator"),
                *(ph.tap(rid=CALC_KEYS.get(k, f"digit_{k}")) for k in keys),
                ph.tap(rid="eq"),
            ],
        )


LIBRARY = (
    ReadAlarmTime(),
    ReadContactEmail(),
    ReadContactByCompany(),
    ReadEventLocation(),
    ReadEventDate(),
    ReadSmsPhone(),
    ReadMissedCall(),
    ReadNoteCode(),
    ReadDownloadCode(),
    ReadBrightness(),
    ReadPlaceAddress(),
    ReadWebAmount(),
    ReadSongArtist(),
    SetAlarm(),
    StartTimer(),
    AddContactEmail(),
    ReplySms(),
    SetBrightness(),
    FlipSetting(),
    CreateEventAt(),
    CopyFileToFolder(),
    TidyDownload(),
    SavePlace(),
    AddToPlaylist(),
    TakePhoto(),
    RecordMemo(),
    CalculateSum(),
)
