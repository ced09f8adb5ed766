"""Setup ops: how a task puts data on a phone before the episode (argument models + effects).

Times are given relative to the task's clock (``minutes_ago``) or as ISO datetimes,
so a task does not depend on the day it runs. Files are described by content and
written deterministically.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date as Date
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.browser import setup_page
from devicesworld.devices.android.apps.camera import setup_image
from devicesworld.devices.android.apps.maps import setup_place
from devicesworld.devices.android.apps.music import setup_playlist, setup_song
from devicesworld.devices.base import Args, DeviceError
from devicesworld.devices.declare import OpTable
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
    date: Date | None = Field(default=None, description="A one-time alarm on this date (no repeat days).")

    @model_validator(mode="after")
    def _date_or_days(self) -> AlarmArgs:
        if self.date is not None and self.days:
            raise ValueError("an alarm has either a date or repeat days, not both")
        return self


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


class PermissionArgs(Args):
    app: str = Field(min_length=1, description="Package or label of an app that asks for a permission.")
    state: Literal["ask", "granted", "denied"] = Field(
        default="ask", description="`ask`: the app's next open shows the first-use permission prompt."
    )


class SetTimeFormatArgs(Args):
    h24: bool


def rel(device: AndroidDevice, minutes_ago: float) -> datetime:
    return device.context.clock.now - timedelta(minutes=minutes_ago)


SETUP_OPS: OpTable[AndroidDevice] = OpTable("android")


@SETUP_OPS.register("add_contact", doc="Add a contact.", args=ContactArgs)
def add_contact(device: AndroidDevice, args: ContactArgs) -> None:
    fields = {"phone": args.phone, "email": args.email, "company": args.company, "notes": args.notes}
    p.add_contact(device.storage, args.name, fields, args.starred)


@SETUP_OPS.register("add_sms", doc="Add a past SMS (sent or received) to its thread.", args=SmsArgs)
def add_sms(device: AndroidDevice, args: SmsArgs) -> None:
    when = rel(device, args.minutes_ago)
    p.add_sms(device.storage, args.address, args.body, when, sent=args.sent, read=args.read)


@SETUP_OPS.register(
    "incoming_sms", doc="A text arrives now or after a delay, with a notification.", args=IncomingSmsArgs
)
def incoming_sms(device: AndroidDevice, args: IncomingSmsArgs) -> None:
    device.schedule_sms(args.address, args.body, args.delay_seconds)


@SETUP_OPS.register("add_call", doc="Add a call-log entry.", args=CallArgs)
def add_call(device: AndroidDevice, args: CallArgs) -> None:
    kind = {"incoming": p.CALL_INCOMING, "outgoing": p.CALL_OUTGOING, "missed": p.CALL_MISSED}[args.kind]
    p.add_call(device.storage, args.number, rel(device, args.minutes_ago), kind, args.duration)


@SETUP_OPS.register("add_event", doc="Add a calendar event.", args=EventArgs)
def add_event(device: AndroidDevice, args: EventArgs) -> None:
    end = args.end or args.start + timedelta(minutes=args.duration_minutes)
    p.add_event(device.storage, args.title, args.start, end, args.location, args.description)


@SETUP_OPS.register("add_alarm", doc="Add an alarm.", args=AlarmArgs)
def add_alarm(device: AndroidDevice, args: AlarmArgs) -> None:
    days: list[str] = list(args.days)
    p.add_alarm(
        device.storage,
        args.hour,
        args.minute,
        enabled=args.enabled,
        days=days,
        label=args.label,
        on=args.date,
    )


@SETUP_OPS.register("set_setting", doc="Write a settings.db value.", args=SettingArgs)
def set_setting(device: AndroidDevice, args: SettingArgs) -> None:
    device.storage.put_setting(args.table, args.name, args.value)
    if args.name == "system_locales":
        from devicesworld.devices.android.apps.settings import set_language

        set_language(device.phone, args.value)


@SETUP_OPS.register("add_file", doc="Write a text file on /sdcard or the shared drive.", args=FileArgs)
def add_file(device: AndroidDevice, args: FileArgs) -> None:
    try:
        device.fs(args.location).write_bytes(
            device.relative(args.location, args.path), args.text.encode("utf-8")
        )
    except FsError as exc:
        raise DeviceError(exc.code, exc.message) from None


@SETUP_OPS.register("add_note", doc="Write a Markor note.", args=NoteArgs)
def add_note(device: AndroidDevice, args: NoteArgs) -> None:
    path = device.resolve("sdcard", f"Documents/Markor/{args.name}")
    path.write_text(args.text, encoding="utf-8")


# The ops below fill one app's own storage: the effect lives with the app (which imports these
# argument models only to type its effect).
_APP_OPS: tuple[tuple[str, str, type[Args], Callable[[AndroidDevice, Any], None]], ...] = (
    ("add_image", "Write a generated PNG picture.", ImageArgs, setup_image),
    ("add_song", "Put a generated audio file in Music and the media store.", SongArgs, setup_song),
    ("add_playlist", "Create a playlist of library songs.", PlaylistArgs, setup_playlist),
    ("add_place", "Add a place Maps can find (optionally saved).", PlaceArgs, setup_place),
    ("add_page", "Serve a local web page to the Browser.", PageArgs, setup_page),
)
for _name, _doc, _args, _effect in _APP_OPS:
    SETUP_OPS.register(_name, doc=_doc, args=_args)(_effect)


@SETUP_OPS.register("open_app", doc="Start the episode inside an app.", args=OpenAppArgs)
def open_app(device: AndroidDevice, args: OpenAppArgs) -> None:
    app = device.phone.app_for(args.app)
    if app is None:
        raise DeviceError("NOT_FOUND", f"no app {args.app!r}")
    device.phone.open_app(app.package)


@SETUP_OPS.register(
    "set_permission",
    doc="An app's runtime permission: ask on its next open, granted or denied.",
    args=PermissionArgs,
)
def set_permission(device: AndroidDevice, args: PermissionArgs) -> None:
    from devicesworld.devices.android.system import permissions

    app = device.phone.app_for(args.app)
    if app is None:
        raise DeviceError("NOT_FOUND", f"no app {args.app!r}")
    if not app.permission:
        asking = sorted(device.phone.t(a.label_key) for a in device.phone.apps.values() if a.permission)
        raise DeviceError(
            "INVALID_ARGS", f"{args.app!r} asks for no permission; apps that do: {', '.join(asking)}"
        )
    permissions.set_state(device.phone, app.package, args.state)
