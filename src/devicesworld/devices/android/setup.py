"""Setup ops: how a task puts data on a phone before the episode (argument models + effects).

Times are given relative to the task's clock (``minutes_ago``) or as ISO datetimes,
so a task does not depend on the day it runs. Files are described by content and
written deterministically.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from devicesworld.devices.android import providers as p
from devicesworld.devices.base import Args, DeviceError, OpSpec
from devicesworld.devices.safefs import FsError

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice

Weekday = Literal["sun", "mon", "tue", "wed", "thu", "fri", "sat"]


class ContactArgs(Args):
    name: str = Field(min_length=1)
    phone: str = ""
    email: str = ""
    company: str = ""
    notes: str = ""
    starred: bool = False


class SmsArgs(Args):
    address: str = Field(min_length=1, description="The other party's number.")
    body: str = Field(min_length=1)
    sent: bool = Field(default=False, description="True: sent by this phone; false: received.")
    read: bool = True
    minutes_ago: float = Field(default=60.0, ge=0)


class IncomingSmsArgs(Args):
    address: str = Field(min_length=1)
    body: str = Field(min_length=1)
    delay_seconds: float = Field(default=0.0, ge=0, description="0: arrives now; later arrivals need `wait`.")


class CallArgs(Args):
    number: str = Field(min_length=1)
    kind: Literal["incoming", "outgoing", "missed"] = "incoming"
    minutes_ago: float = Field(default=60.0, ge=0)
    duration: int = Field(default=60, ge=0)


class EventArgs(Args):
    title: str = Field(min_length=1)
    start: datetime
    end: datetime | None = None
    duration_minutes: int = Field(default=60, ge=0)
    location: str = ""
    description: str = ""

    @model_validator(mode="after")
    def _end_after_start(self) -> EventArgs:
        if self.end is not None and self.end < self.start:
            raise ValueError("end is before start")
        return self


class AlarmArgs(Args):
    hour: int = Field(ge=0, le=23)
    minute: int = Field(ge=0, le=59)
    enabled: bool = True
    days: list[Weekday] = Field(default_factory=list)
    label: str = ""


class SettingArgs(Args):
    table: Literal["global", "system", "secure"]
    name: str = Field(min_length=1)
    value: str


class FileArgs(Args):
    path: str = Field(
        min_length=1, description="Path under /sdcard (or under the drive with location=drive)."
    )
    text: str = ""
    location: Literal["sdcard", "drive"] = "sdcard"


class NoteArgs(Args):
    name: str = Field(min_length=1, description="File name in Markor's folder, e.g. 'groceries.md'.")
    text: str = ""


class ImageArgs(Args):
    path: str = Field(default="DCIM/Camera/IMG_0001.png", min_length=1)
    label: str = ""
    color: tuple[int, int, int] = (120, 160, 200)


class SongArgs(Args):
    title: str = Field(min_length=1)
    artist: str = ""
    album: str = ""
    seconds: int = Field(default=180, ge=1, le=3600)


class PlaylistArgs(Args):
    name: str = Field(min_length=1)
    songs: list[str] = Field(default_factory=list, description="Song titles already in the library.")


class PlaceArgs(Args):
    name: str = Field(min_length=1)
    address: str = ""
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    category: str = ""
    saved: bool = False


class PageArgs(Args):
    url: str = Field(min_length=1, description="e.g. 'http://intranet.local/menu'.")
    title: str = ""
    text: str = ""


class OpenAppArgs(Args):
    app: str = Field(min_length=1, description="Package or label.")


class SetTimeFormatArgs(Args):
    h24: bool


def rel(device: AndroidDevice, minutes_ago: float) -> datetime:
    return device.context.clock.now - timedelta(minutes=minutes_ago)


def run(device: AndroidDevice, op: str, args: Args) -> None:
    s = device.storage
    if isinstance(args, ContactArgs):
        fields = {"phone": args.phone, "email": args.email, "company": args.company, "notes": args.notes}
        p.add_contact(s, args.name, fields, args.starred)
    elif isinstance(args, SmsArgs):
        p.add_sms(s, args.address, args.body, rel(device, args.minutes_ago), sent=args.sent, read=args.read)
    elif isinstance(args, IncomingSmsArgs):
        device.schedule_sms(args.address, args.body, args.delay_seconds)
    elif isinstance(args, CallArgs):
        kind = {"incoming": p.CALL_INCOMING, "outgoing": p.CALL_OUTGOING, "missed": p.CALL_MISSED}[args.kind]
        p.add_call(s, args.number, rel(device, args.minutes_ago), kind, args.duration)
    elif isinstance(args, EventArgs):
        end = args.end or args.start + timedelta(minutes=args.duration_minutes)
        p.add_event(s, args.title, args.start, end, args.location, args.description)
    elif isinstance(args, AlarmArgs):
        p.add_alarm(s, args.hour, args.minute, enabled=args.enabled, days=list(args.days), label=args.label)
    elif isinstance(args, SettingArgs):
        s.put_setting(args.table, args.name, args.value)
        if args.name == "system_locales":
            from devicesworld.devices.android.apps.settings import set_language

            set_language(device.phone, args.value)
    elif isinstance(args, FileArgs):
        try:
            device.fs(args.location).write_bytes(
                device.relative(args.location, args.path), args.text.encode("utf-8")
            )
        except FsError as exc:
            raise DeviceError(exc.code, exc.message) from None
    elif isinstance(args, NoteArgs):
        path = device.resolve("sdcard", f"Documents/Markor/{args.name}")
        path.write_text(args.text, encoding="utf-8")
    elif isinstance(args, OpenAppArgs):
        app = device.phone.app_for(args.app)
        if app is None:
            raise DeviceError("NOT_FOUND", f"no app {args.app!r}")
        device.phone.open_app(app.package)
    else:
        extra = device.extra_setup.get(op)
        if extra is None:
            raise DeviceError("UNSUPPORTED", f"setup op {op!r} is not implemented")
        extra(device, args)


SETUP_OPS = [
    OpSpec(name="add_contact", doc="Add a contact.", args_model=ContactArgs),
    OpSpec(name="add_sms", doc="Add a past SMS (sent or received) to its thread.", args_model=SmsArgs),
    OpSpec(
        name="incoming_sms",
        doc="A text arrives now or after a delay, with a notification.",
        args_model=IncomingSmsArgs,
    ),
    OpSpec(name="add_call", doc="Add a call-log entry.", args_model=CallArgs),
    OpSpec(name="add_event", doc="Add a calendar event.", args_model=EventArgs),
    OpSpec(name="add_alarm", doc="Add an alarm.", args_model=AlarmArgs),
    OpSpec(name="set_setting", doc="Write a settings.db value.", args_model=SettingArgs),
    OpSpec(name="add_file", doc="Write a text file on /sdcard or the shared drive.", args_model=FileArgs),
    OpSpec(name="add_note", doc="Write a Markor note.", args_model=NoteArgs),
    OpSpec(name="add_image", doc="Write a generated PNG picture.", args_model=ImageArgs),
    OpSpec(
        name="add_song", doc="Put a generated audio file in Music and the media store.", args_model=SongArgs
    ),
    OpSpec(name="add_playlist", doc="Create a playlist of library songs.", args_model=PlaylistArgs),
    OpSpec(name="add_place", doc="Add a place Maps can find (optionally saved).", args_model=PlaceArgs),
    OpSpec(name="add_page", doc="Serve a local web page to the Browser.", args_model=PageArgs),
    OpSpec(name="open_app", doc="Start the episode inside an app.", args_model=OpenAppArgs),
]
