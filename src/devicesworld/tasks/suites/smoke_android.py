"""Phone part of the ``smoke`` suite: single-phone tasks across the apps, two-phone hand-offs, phone + home.

Every task's reference solution is written as a script by meaning (tap the element
with this resource id, type into that field) and recorded into concrete index-based
steps by :func:`android_script.record`, so each solution has been played once on the
real simulator when the suite is built. Setup-satisfied conditions become unscored
guards (:func:`unscore_setup_satisfied`). The virtual clock starts on Monday
2026-03-02 at 09:00.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from devicesworld.spec.models import Condition, DeviceOp, DeviceSpec, Evaluation, Metadata, Step, Task
from devicesworld.tasks.authoring.android_script import On, ScriptItem, record
from devicesworld.tasks.guards import unscore_setup_satisfied
from devicesworld.tasks.suites.smoke import _maple_flat

A0, A1, SH = "android_0", "android_1", "smarthome_0"
P, Q = On(A0), On(A1)
FINISH = Step(action="finish")

ANN = ("Ann Lee", "+15550101")
BOB = ("Bob Stone", "+15550102")
CARL = ("Carl Diaz", "+15550103")


def op(device: str, op_name: str, /, **args: Any) -> DeviceOp:
    return DeviceOp(device=device, op=op_name, args=args)


def contact(device: str, who: tuple[str, str], **extra: Any) -> DeviceOp:
    return op(device, "add_contact", name=who[0], phone=who[1], **extra)


def cond(cid: str, check: str, device: str = A0, *, scored: bool = True, **args: Any) -> Condition:
    return Condition(id=cid, device=device, check=check, args=args, scored=scored)


def sh(action: str, **args: Any) -> Step:
    return Step(device=SH, action=action, args=args)


def send_new(ph: On, query: str, pick: str | None, body: str) -> list[ScriptItem]:
    """Messages: start a chat, find the recipient (pick a contact, or confirm a typed number), send."""
    steps: list[ScriptItem] = [
        ph.open("Messages"),
        ph.tap(rid="conversations_fab"),
        ph.type(query, rid="new_conversation_address"),
    ]
    steps.append(ph.tap(text=pick) if pick else ph.tap(rid="new_conversation_confirm"))
    return [*steps, ph.type(body, rid="thread_type_message"), ph.tap(rid="thread_send_message")]


def set_time(ph: On, hour: int, minute: int, *, h24: bool = False) -> list[ScriptItem]:
    """Fill an open time picker and press OK (12-hour phones also pick AM/PM)."""
    if h24:
        return [
            ph.type(str(hour), clear=True, rid="hour"),
            ph.type(f"{minute:02d}", clear=True, rid="minute"),
            ph.tap(rid="button1"),
        ]
    h12 = hour % 12 or 12
    return [
        ph.type(str(h12), clear=True, rid="hour"),
        ph.type(f"{minute:02d}", clear=True, rid="minute"),
        ph.tap(rid="pm_label" if hour >= 12 else "am_label"),
        ph.tap(rid="button1"),
    ]


class _Builder:
    def __init__(self) -> None:
        self.tasks: list[Task] = []

    def add(
        self,
        instruction: str,
        devices: list[str],
        setup: list[DeviceOp],
        conditions: list[Condition],
        script: list[ScriptItem],
        *,
        pattern: str,
        apps: list[str],
        difficulty: str = "easy",
        profiles: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        n = len(self.tasks) + 1
        kinds = {A0: "android", A1: "android", SH: "smarthome"}
        task = Task(
            id=f"smoke-android-{n:03d}",
            instruction=instruction,
            devices=[DeviceSpec(id=d, kind=kinds[d], profile=(profiles or {}).get(d, {})) for d in devices],
            setup=setup,
            evaluation=Evaluation(conditions=conditions),
            metadata=Metadata(
                pattern=pattern,
                difficulty=difficulty,
                apps=apps,
                split="test",
                origin="handwritten",
                tags=["android"],
            ),
        )
        steps = record(task, script)
        if not steps or steps[-1].action != "report_infeasible":
            steps.append(FINISH)
        self.tasks.append(unscore_setup_satisfied(task.model_copy(update={"solution": steps})))


def _messages(b: _Builder) -> None:
    ctl, xfer = "device_state_control", "direct_transfer"
    b.add(
        "Text Ann Lee: Running 10 minutes late",
        [A0],
        [contact(A0, ANN), contact(A0, BOB)],
        [
            cond("sent", "sms_sent", to=ANN[1], body="Running 10 minutes late"),
            cond("only_ann", "sms_not_sent", to=BOB[1], scored=False),
        ],
        send_new(P, "Ann", "Ann Lee", "Running 10 minutes late"),
        pattern=ctl,
        apps=["messages", "contacts"],
    )
    b.add(
        "Reply 'Got it, thanks' to the latest message from Mom.",
        [A0],
        [
            op(A0, "add_contact", name="Mom", phone="+15550177"),
            op(A0, "add_sms", address="+15550177", body="Don't forget the keys", minutes_ago=5),
            op(A0, "add_sms", address=BOB[1], body="Lunch?", minutes_ago=30),
        ],
        [cond("reply", "sms_sent", to="+15550177", body="Got it, thanks")],
        [
            P.open("Messages"),
            P.tap(text="Mom"),
            P.type("Got it, thanks", rid="thread_type_message"),
            P.tap(rid="thread_send_message"),
        ],
        pattern=ctl,
        apps=["messages"],
    )
    b.add(
        "Your bank texted you a verification code. Forward just the code to Bob Stone.",
        [A0],
        [
            contact(A0, BOB),
            op(A0, "incoming_sms", address="+18005550199", body="BankCo: your code is 482913"),
        ],
        [cond("fwd", "sms_sent", to=BOB[1], contains=["482913"])],
        [*send_new(P, "Bob", "Bob Stone", "482913")],
        pattern="information_extraction",
        apps=["messages"],
    )
    b.add(
        "Send Carl Diaz's phone number to Ann Lee by text.",
        [A0],
        [contact(A0, ANN), contact(A0, CARL)],
        [cond("sent", "sms_sent", to=ANN[1], contains=["5550103"])],
        send_new(P, "Ann", "Ann Lee", "Carl: +15550103"),
        pattern=xfer,
        apps=["messages", "contacts"],
    )
    b.add(
        "Text +1 555 0188: 'Package received'",
        [A0],
        [],
        [cond("sent", "sms_sent", to="+15550188", body="Package received")],
        send_new(P, "+15550188", None, "Package received"),
        pattern=ctl,
        apps=["messages"],
    )
    b.add(
        "Send a text to Zelda Quinn saying hello.",
        [A0],
        [contact(A0, ANN)],
        [
            Condition(id="reported", device="env", check="infeasible_reported", args={"keywords": ["zelda"]}),
            cond("nothing_sent", "sms_not_sent", scored=False),
        ],
        [
            P.open("Contacts"),
            P.type("Zelda", rid="search_view"),
            Step(
                action="report_infeasible", args={"reason": "There is no contact or number for Zelda Quinn."}
            ),
        ],
        pattern="infeasible_request_reporting",
        apps=["contacts"],
    )


def _contacts(b: _Builder) -> None:
    ctl = "device_state_control"
    b.add(
        "Add a contact Dana Whitfield, phone +1 555 0142, email dana@whitfield.io.",
        [A0],
        [],
        [
            cond(
                "added", "contact_exists", name="Dana Whitfield", phone="+15550142", email="dana@whitfield.io"
            )
        ],
        [
            P.open("Contacts"),
            P.tap(rid="floating_action_button"),
            P.type("Dana", rid="editor_first"),
            P.type("Whitfield", rid="editor_last"),
            P.type("+1 555 0142", rid="editor_phone"),
            P.type("dana@whitfield.io", rid="editor_email"),
            P.tap(rid="menu_save"),
        ],
        pattern=ctl,
        apps=["contacts"],
    )
    b.add(
        "Ann Lee changed jobs: set her company to Northwind.",
        [A0],
        [contact(A0, ANN, company="Contoso"), contact(A0, BOB)],
        [cond("company", "contact_exists", name="Ann Lee", company="Northwind", phone=ANN[1])],
        [
            P.open("Contacts"),
            P.tap(text="Ann Lee"),
            P.tap(rid="menu_edit"),
            P.type("Northwind", clear=True, rid="editor_company"),
            P.tap(rid="menu_save"),
        ],
        pattern=ctl,
        apps=["contacts"],
    )
    b.add(
        "Delete the contact 'Old Landlord'.",
        [A0],
        [contact(A0, ANN), op(A0, "add_contact", name="Old Landlord", phone="+15550666")],
        [cond("gone", "contact_absent", name="Old Landlord"), cond("kept", "contact_exists", name="Ann Lee")],
        [P.open("Contacts"), P.tap(text="Old Landlord"), P.tap(rid="menu_delete"), P.tap(rid="button1")],
        pattern=ctl,
        apps=["contacts"],
    )
    b.add(
        "Someone from the gym texted you. Save their number as a contact named with the name they gave.",
        [A0],
        [op(A0, "incoming_sms", address="+15550160", body="Hi, this is Priya from the gym!")],
        [cond("saved", "contact_exists", name="Priya", phone="+15550160")],
        [
            P.open("Contacts"),
            P.tap(rid="floating_action_button"),
            P.type("Priya", rid="editor_first"),
            P.type("+15550160", rid="editor_phone"),
            P.tap(rid="menu_save"),
        ],
        pattern="information_extraction",
        apps=["messages", "contacts"],
    )


def _phone(b: _Builder) -> None:
    b.add(
        "Call Bob Stone.",
        [A0],
        [contact(A0, ANN), contact(A0, BOB)],
        [cond("called", "call_made", number=BOB[1])],
        [P.open("Contacts"), P.tap(text="Bob Stone"), P.tap(rid="call_button")],
        pattern="device_state_control",
        apps=["contacts", "phone"],
    )
    b.add(
        "Call back the number you missed a call from this morning.",
        [A0],
        [
            op(A0, "add_call", number="+15550123", kind="missed", minutes_ago=40),
            op(A0, "add_call", number="+15550999", kind="outgoing", minutes_ago=600),
        ],
        [cond("called", "call_made", number="+15550123")],
        [P.open("Phone"), P.tap(rid="tab_recents"), P.tap(text="+15550123")],
        pattern="information_extraction",
        apps=["phone"],
    )


def _settings(b: _Builder) -> None:
    ctl = "device_state_control"

    def flag(cid: str, table: str, name: str, value: str) -> Condition:
        return cond(cid, "setting_is", table=table, name=name, value=value)

    b.add(
        "Turn on Bluetooth.",
        [A0],
        [],
        [flag("bt", "global", "bluetooth_on", "1")],
        [P.open("Settings"), P.tap(rid="connected"), P.tap(rid="switch_bluetooth_on")],
        pattern=ctl,
        apps=["settings"],
    )
    b.add(
        "Turn on airplane mode.",
        [A0],
        [],
        [flag("air", "global", "airplane_mode_on", "1")],
        [P.open("Settings"), P.tap(rid="network"), P.tap(rid="switch_airplane_mode_on")],
        pattern=ctl,
        apps=["settings"],
    )
    b.add(
        "Turn Wi-Fi off from the quick settings.",
        [A0],
        [],
        [flag("wifi", "global", "wifi_on", "0")],
        [P.act("swipe", direction="down", from_edge=True), P.tap(rid="tile_wifi_on")],
        pattern=ctl,
        apps=["system"],
    )
    b.add(
        "Switch the phone to the dark theme.",
        [A0],
        [],
        [flag("dark", "secure", "ui_night_mode", "2")],
        [P.open("Settings"), P.tap(rid="display"), P.tap(rid="dark_ui_mode")],
        pattern=ctl,
        apps=["settings"],
    )
    b.add(
        "Set the screen brightness to (nearly) maximum.",
        [A0],
        [],
        [cond("bright", "setting_is", table="system", name="screen_brightness", min=230)],
        [P.open("Settings"), P.tap(rid="display"), P.tap_at(0.97, rid="brightness_slider")],
        pattern=ctl,
        apps=["settings"],
    )
    b.add(
        "Make the font size the largest available.",
        [A0],
        [],
        [flag("font", "system", "font_scale", "1.3")],
        [P.open("Settings"), P.tap(rid="display"), P.tap(rid="font_size"), P.tap(text="Largest")],
        pattern=ctl,
        apps=["settings"],
    )
    b.add(
        "Change the phone's language to French.",
        [A0],
        [],
        [flag("lang", "system", "system_locales", "fr")],
        [P.open("Settings"), P.tap(rid="system"), P.tap(rid="language"), P.tap(text="Français")],
        pattern=ctl,
        apps=["settings"],
    )


def _clock(b: _Builder) -> None:
    ctl = "device_state_control"
    b.add(
        "Set an alarm for 6:30 AM.",
        [A0],
        [],
        [cond("alarm", "alarm_exists", hour=6, minute=30)],
        [P.open("Clock"), P.tap(rid="fab"), *set_time(P, 6, 30)],
        pattern=ctl,
        apps=["clock"],
    )
    b.add(
        "Set an alarm for 7:15 PM that repeats on Mondays and Fridays, labelled Pills.",
        [A0],
        [],
        [cond("alarm", "alarm_exists", hour=19, minute=15, days=["mon", "fri"], label="Pills")],
        [
            P.open("Clock"),
            P.tap(rid="fab"),
            *set_time(P, 19, 15),
            P.tap(text="7:15 PM"),
            P.tap(desc="Monday"),
            P.tap(desc="Friday"),
            P.tap(rid="edit_label"),
            P.type("Pills", rid="label_input"),
            P.tap(rid="button1"),
        ],
        pattern=ctl,
        apps=["clock"],
        difficulty="medium",
    )
    b.add(
        "Turn off the 5:45 AM alarm but keep it.",
        [A0],
        [op(A0, "add_alarm", hour=5, minute=45), op(A0, "add_alarm", hour=8, minute=0)],
        [
            cond("off", "alarm_exists", hour=5, minute=45, enabled=False),
            cond("other_on", "alarm_exists", hour=8, minute=0, enabled=True),
        ],
        [P.open("Clock"), P.tap(rid="onoff", desc="5:45 AM")],
        pattern=ctl,
        apps=["clock"],
    )
    b.add(
        "Delete the 9:00 PM alarm.",
        [A0],
        [op(A0, "add_alarm", hour=21, minute=0, label="Read")],
        [cond("gone", "alarm_absent", hour=21, minute=0)],
        [P.open("Clock"), P.tap(text="9:00 PM"), P.tap(rid="delete")],
        pattern=ctl,
        apps=["clock"],
    )
    b.add(
        "Start a 10-minute timer.",
        [A0],
        [],
        [cond("timer", "timer_running", seconds=600)],
        [P.open("Clock"), P.tap(rid="tab_timer"), P.type("10", rid="timer_setup_digits"), P.tap(rid="fab")],
        pattern=ctl,
        apps=["clock"],
    )


def _calendar(b: _Builder) -> None:
    ctl = "device_state_control"
    b.add(
        "Add a calendar event 'Dentist' on 5 March 2026 from 10:00 to 11:00 AM.",
        [A0],
        [],
        [cond("event", "event_exists", title="Dentist", start="2026-03-05T10:00", end="2026-03-05T11:00")],
        [
            P.open("Calendar"),
            P.tap(rid="calendar_fab"),
            P.type("Dentist", rid="event_title"),
            P.tap(rid="event_start_date"),
            P.tap(desc="5 March 2026"),
            P.tap(rid="button1"),
            P.tap(rid="event_start_time"),
            *set_time(P, 10, 0),
            P.tap(rid="save"),
        ],
        pattern=ctl,
        apps=["calendar"],
        difficulty="medium",
    )
    b.add(
        "Ann invited you by text. Put the dinner in your calendar (title 'Dinner', 2 hours, at the place she "
        "named).",
        [A0],
        [
            contact(A0, ANN),
            op(A0, "add_sms", address=ANN[1], body="Dinner at Luigi's on Friday at 7 PM?", minutes_ago=20),
        ],
        [
            cond(
                "event",
                "event_exists",
                title="Dinner",
                start="2026-03-06T19:00",
                end="2026-03-06T21:00",
                location="Luigi's",
            )
        ],
        [
            P.open("Calendar"),
            P.tap(desc="6 March 2026"),
            P.tap(rid="calendar_fab"),
            P.type("Dinner", rid="event_title"),
            P.tap(rid="event_start_time"),
            *set_time(P, 19, 0),
            P.tap(rid="event_end_time"),
            *set_time(P, 21, 0),
            P.type("Luigi's", rid="event_location"),
            P.tap(rid="save"),
        ],
        pattern="information_extraction",
        apps=["messages", "calendar"],
        difficulty="hard",
    )
    b.add(
        "Move tomorrow's Yoga class from 8:00 to 9:00 AM (same length).",
        [A0],
        [op(A0, "add_event", title="Yoga", start="2026-03-03T08:00:00", duration_minutes=60)],
        [cond("moved", "event_exists", title="Yoga", start="2026-03-03T09:00", end="2026-03-03T10:00")],
        [
            P.open("Calendar"),
            P.tap(desc="3 March 2026 •"),
            P.tap(text="Yoga"),
            P.tap(rid="edit"),
            P.tap(rid="event_start_time"),
            *set_time(P, 9, 0),
            P.tap(rid="save"),
        ],
        pattern=ctl,
        apps=["calendar"],
        difficulty="medium",
    )
    b.add(
        "Delete the 'Budget review' event on 4 March.",
        [A0],
        [
            op(A0, "add_event", title="Budget review", start="2026-03-04T14:00:00"),
            op(A0, "add_event", title="Standup", start="2026-03-04T09:30:00", duration_minutes=15),
        ],
        [cond("gone", "event_absent", title="Budget review"), cond("kept", "event_exists", title="Standup")],
        [
            P.open("Calendar"),
            P.tap(desc="4 March 2026 •"),
            P.tap(text="Budget review"),
            P.tap(rid="delete"),
            P.tap(rid="button1"),
        ],
        pattern=ctl,
        apps=["calendar"],
    )


def _files_notes(b: _Builder) -> None:
    ctl = "device_state_control"
    b.add(
        "In Downloads, rename scan_0412.txt to receipt.txt.",
        [A0],
        [op(A0, "add_file", path="Download/scan_0412.txt", text="Total: 42.10")],
        [
            cond("renamed", "file_exists", path="Download/receipt.txt", equals="Total: 42.10"),
            cond("old_gone", "file_absent", path="Download/scan_0412.txt"),
        ],
        [
            P.open("Files"),
            P.tap(rid="root_sdcard"),
            P.tap(text="Download"),
            P.hold(text="scan_0412.txt"),
            P.tap(rid="action_rename"),
            P.type("receipt.txt", clear=True, rid="rename_input"),
            P.tap(rid="button1"),
        ],
        pattern=ctl,
        apps=["files"],
    )
    b.add(
        "Move notes.txt from Download to Documents.",
        [A0],
        [op(A0, "add_file", path="Download/notes.txt", text="draft")],
        [
            cond("moved", "file_exists", path="Documents/notes.txt"),
            cond("not_left", "file_absent", path="Download/notes.txt"),
        ],
        [
            P.open("Files"),
            P.tap(rid="root_sdcard"),
            P.tap(text="Download"),
            P.hold(text="notes.txt"),
            P.tap(rid="action_move"),
            P.back(),
            P.tap(text="Documents"),
            P.tap(rid="clip_paste"),
        ],
        pattern=ctl,
        apps=["files"],
        difficulty="medium",
    )
    b.add(
        "Upload report.txt from Download to the shared Drive.",
        [A0],
        [op(A0, "add_file", path="Download/report.txt", text="Q1 revenue 1.2M")],
        [cond("on_drive", "file_exists", path="report.txt", location="drive", equals="Q1 revenue 1.2M")],
        [
            P.open("Files"),
            P.tap(rid="root_sdcard"),
            P.tap(text="Download"),
            P.hold(text="report.txt"),
            P.tap(rid="action_copy"),
            P.back(),
            P.back(),
            P.tap(rid="root_drive"),
            P.tap(rid="clip_paste"),
        ],
        pattern="direct_transfer",
        apps=["files", "drive"],
        difficulty="medium",
    )
    b.add(
        "Create a Markor note called shopping.md containing 'milk, eggs, rice'.",
        [A0],
        [],
        [cond("note", "file_exists", path="Documents/Markor/shopping.md", equals="milk, eggs, rice")],
        [
            P.open("Markor"),
            P.tap(rid="fab_add_new_item"),
            P.type("shopping.md", rid="new_file_dialog__name"),
            P.tap(rid="button1"),
            P.type("milk, eggs, rice", rid="document__fragment__edit__highlighting_editor"),
            P.tap(rid="action_save"),
        ],
        pattern=ctl,
        apps=["markor"],
    )
    b.add(
        "Add a line 'call plumber' to the end of your todo.md note in Markor.",
        [A0],
        [op(A0, "add_note", name="todo.md", text="- pay rent\n")],
        [cond("note", "file_exists", path="Documents/Markor/todo.md", contains=["pay rent", "call plumber"])],
        [
            P.open("Markor"),
            P.tap(text="todo.md"),
            P.type("- call plumber", rid="document__fragment__edit__highlighting_editor"),
            P.back(),
            P.back(),
            P.tap(rid="button1"),
        ],
        pattern=ctl,
        apps=["markor"],
    )
    b.add(
        "Write the Wi-Fi password your landlord texted you into a Markor note wifi.md.",
        [A0],
        [
            op(A0, "add_contact", name="Landlord", phone="+15550444"),
            op(A0, "add_sms", address="+15550444", body="The Wi-Fi password is sunflower-77", minutes_ago=90),
        ],
        [cond("note", "file_exists", path="Documents/Markor/wifi.md", contains=["sunflower-77"])],
        [
            P.open("Markor"),
            P.tap(rid="fab_add_new_item"),
            P.type("wifi", rid="new_file_dialog__name"),
            P.tap(rid="button1"),
            P.type("sunflower-77", rid="document__fragment__edit__highlighting_editor"),
            P.tap(rid="action_save"),
        ],
        pattern="information_extraction",
        apps=["messages", "markor"],
    )
    b.add(
        "Use the calculator to work out 48 times 17.",
        [A0],
        [],
        [
            cond(
                "result", "app_pref", package="com.google.android.calculator", key="last_result", equals="816"
            )
        ],
        [
            P.open("Calculator"),
            P.tap(rid="digit_4"),
            P.tap(rid="digit_8"),
            P.tap(rid="op_mul"),
            P.tap(rid="digit_1"),
            P.tap(rid="digit_7"),
            P.tap(rid="eq"),
        ],
        pattern=ctl,
        apps=["calculator"],
    )
    b.add(
        "If Ann's last text cancels today's meeting, delete the 'Project meeting' event; otherwise reply 'See "
        "you there'.",
        [A0],
        [
            contact(A0, ANN),
            op(
                A0,
                "add_sms",
                address=ANN[1],
                body="Sorry, I have to cancel our meeting today.",
                minutes_ago=10,
            ),
            op(A0, "add_event", title="Project meeting", start="2026-03-02T15:00:00"),
        ],
        [
            cond("deleted", "event_absent", title="Project meeting"),
            cond("no_reply", "sms_not_sent", to=ANN[1], scored=False),
        ],
        [
            P.open("Messages"),
            P.tap(text="Ann Lee"),
            P.home(),
            P.open("Calendar"),
            P.tap(desc="2 March 2026 •"),
            P.tap(text="Project meeting"),
            P.tap(rid="delete"),
            P.tap(rid="button1"),
        ],
        pattern="conditional_decision",
        apps=["messages", "calendar"],
        difficulty="medium",
    )


def _two_phones(b: _Builder) -> None:
    xfer = "direct_transfer"
    b.add(
        "Phone android_0 received a sign-in code. Send that code from phone android_1 to the help desk at "
        "+1 555 0300.",
        [A0, A1],
        [op(A0, "incoming_sms", address="+18005550111", body="Your sign-in code: 730615")],
        [
            cond("sent", "sms_sent", device=A1, to="+15550300", contains=["730615"]),
            cond("not_from_0", "sms_not_sent", device=A0, scored=False),
        ],
        [P.act("swipe", direction="down", from_edge=True), *send_new(Q, "+15550300", None, "730615")],
        pattern=xfer,
        apps=["messages"],
        difficulty="medium",
    )
    b.add(
        "Copy Grace Hill's contact (name and number) from android_1 into the contacts of android_0.",
        [A0, A1],
        [op(A1, "add_contact", name="Grace Hill", phone="+15550250"), contact(A1, BOB)],
        [cond("copied", "contact_exists", device=A0, name="Grace Hill", phone="+15550250")],
        [
            Q.open("Contacts"),
            Q.tap(text="Grace Hill"),
            P.open("Contacts"),
            P.tap(rid="floating_action_button"),
            P.type("Grace", rid="editor_first"),
            P.type("Hill", rid="editor_last"),
            P.type("+15550250", rid="editor_phone"),
            P.tap(rid="menu_save"),
        ],
        pattern=xfer,
        apps=["contacts"],
        difficulty="medium",
    )
    b.add(
        "android_0 has an alarm for the early flight. Set the same alarm time on android_1.",
        [A0, A1],
        [op(A0, "add_alarm", hour=4, minute=50, label="Flight")],
        [cond("same", "alarm_exists", device=A1, hour=4, minute=50)],
        [P.open("Clock"), Q.open("Clock"), Q.tap(rid="fab"), *set_time(Q, 4, 50)],
        pattern="state_synchronization",
        apps=["clock"],
    )
    b.add(
        "Text Ann Lee, from android_1, the content of the note parking.md on android_0.",
        [A0, A1],
        [op(A0, "add_note", name="parking.md", text="Level 3, spot C14"), contact(A1, ANN)],
        [cond("sent", "sms_sent", device=A1, to=ANN[1], contains=["C14"])],
        [P.open("Markor"), P.tap(text="parking.md"), *send_new(Q, "Ann", "Ann Lee", "Level 3, spot C14")],
        pattern=xfer,
        apps=["markor", "messages"],
        difficulty="medium",
    )
    b.add(
        "Move the file menu.txt from android_0's Download folder to android_1's Download folder using the "
        "shared Drive.",
        [A0, A1],
        [op(A0, "add_file", path="Download/menu.txt", text="Soup of the day: lentil")],
        [
            cond(
                "arrived",
                "file_exists",
                device=A1,
                path="Download/menu.txt",
                equals="Soup of the day: lentil",
            )
        ],
        [
            P.open("Files"),
            P.tap(rid="root_sdcard"),
            P.tap(text="Download"),
            P.hold(text="menu.txt"),
            P.tap(rid="action_copy"),
            P.back(),
            P.back(),
            P.tap(rid="root_drive"),
            P.tap(rid="clip_paste"),
            Q.open("Files"),
            Q.tap(rid="root_drive"),
            Q.hold(text="menu.txt"),
            Q.tap(rid="action_move"),
            Q.back(),
            Q.tap(rid="root_sdcard"),
            Q.tap(text="Download"),
            Q.tap(rid="clip_paste"),
        ],
        pattern=xfer,
        apps=["files", "drive"],
        difficulty="hard",
    )
    b.add(
        "Create on android_1 the same calendar event android_0 has on 10 March ('Vet visit').",
        [A0, A1],
        [op(A0, "add_event", title="Vet visit", start="2026-03-10T16:00:00", duration_minutes=60)],
        [
            cond(
                "synced",
                "event_exists",
                device=A1,
                title="Vet visit",
                start="2026-03-10T16:00",
                end="2026-03-10T17:00",
            )
        ],
        [
            P.open("Calendar"),
            P.tap(desc="10 March 2026 •"),
            Q.open("Calendar"),
            Q.tap(desc="10 March 2026"),
            Q.tap(rid="calendar_fab"),
            Q.type("Vet visit", rid="event_title"),
            Q.tap(rid="event_start_time"),
            *set_time(Q, 16, 0),
            Q.tap(rid="save"),
        ],
        pattern="state_synchronization",
        apps=["calendar"],
        difficulty="hard",
    )


def _profiles(b: _Builder) -> None:
    """The same kinds of task on randomized devices: a dark Korean Pixel 6, an Arabic tablet, a French Pixel 4."""
    b.add(
        "Turn on Bluetooth.",
        [A0],
        [],
        [cond("bt", "setting_is", table="global", name="bluetooth_on", value="1")],
        [P.open("Settings"), P.tap(rid="connected"), P.tap(rid="switch_bluetooth_on")],
        pattern="device_state_control",
        apps=["settings"],
        profiles={A0: {"preset": "dark_ko_phone"}},
    )
    b.add(
        "Set an alarm for 18:20.",
        [A0],
        [],
        [cond("alarm", "alarm_exists", hour=18, minute=20)],
        [P.open("Clock"), P.tap(rid="fab"), *set_time(P, 18, 20, h24=True)],
        pattern="device_state_control",
        apps=["clock"],
        profiles={A0: {"preset": "ar_tablet"}},
    )
    b.add(
        "Text Ann Lee: 'On arrive'",
        [A0],
        [contact(A0, ANN)],
        [cond("sent", "sms_sent", to=ANN[1], body="On arrive")],
        send_new(P, "Ann", "Ann Lee", "On arrive"),
        pattern="device_state_control",
        apps=["messages"],
        profiles={A0: {"preset": "test_02"}},
    )


def _phone_network(b: _Builder) -> None:
    b.add(
        "android_0 just got a delivery code. Text it to the other phone, android_1 (its number is under "
        "Settings > About phone there).",
        [A0, A1],
        [op(A0, "incoming_sms", address="+18005550123", body="Courier: your delivery code is 5512")],
        [cond("arrived", "sms_received", device=A1, sender="+15551000", contains=["5512"])],
        [Q.open("Settings"), Q.tap(rid="about"), *send_new(P, "+15551001", None, "5512")],
        pattern="direct_transfer",
        apps=["settings", "messages"],
        difficulty="medium",
    )
    b.add(
        "Ask android_1's owner by text from android_0 whether they are free, then answer 'Yes' from android_1.",
        [A0, A1],
        [],
        [
            cond("asked", "sms_received", device=A1, sender="+15551000"),
            cond("answered", "sms_received", device=A0, sender="+15551001", body="Yes"),
        ],
        [
            Q.open("Settings"),
            Q.tap(rid="about"),
            *send_new(P, "+15551001", None, "Are you free?"),
            Q.act("swipe", direction="down", from_edge=True),
            Q.tap(text="Are you free?"),
            Q.type("Yes", rid="thread_type_message"),
            Q.tap(rid="thread_send_message"),
        ],
        pattern="direct_transfer",
        apps=["messages"],
        difficulty="medium",
    )


def _with_home(b: _Builder) -> None:
    b.add(
        "Your roommate texted you which light to switch on. Do it in the smart home.",
        [A0, SH],
        [
            *_maple_flat(),
            op(A0, "add_contact", name="Sam", phone="+15550505"),
            op(
                A0,
                "incoming_sms",
                address="+15550505",
                body="Can you turn on the hallway light? I'm coming home.",
            ),
        ],
        [cond("light", "device_power", device=SH, device_id="hall_light", on=True)],
        [
            P.act("swipe", direction="down", from_edge=True),
            P.tap(text="Can you turn on the hallway light? I'm coming home."),
            sh("control_device", device_id="hall_light", command="turn_on"),
        ],
        pattern="direct_transfer",
        apps=["messages", "smarthome"],
    )
    b.add(
        "Text Ann Lee the bedroom's current temperature in °C (just the number).",
        [A0, SH],
        [*_maple_flat(), contact(A0, ANN)],
        [cond("sent", "sms_sent", to=ANN[1], contains=["25"])],
        [sh("get_room_status", room="bedroom"), *send_new(P, "Ann", "Ann Lee", "25")],
        pattern="information_extraction",
        apps=["smarthome", "messages"],
    )
    b.add(
        "Movie night is in your calendar today. Schedule the living room lamp to turn off when it starts.",
        [A0, SH],
        [*_maple_flat(), op(A0, "add_event", title="Movie night", start="2026-03-02T20:30:00")],
        [
            cond(
                "sched",
                "schedule_exists",
                device=SH,
                device_id="living_lamp",
                command="turn_off",
                due_at="2026-03-02T20:30:00",
            )
        ],
        [
            P.open("Calendar"),
            P.tap(desc="2 March 2026 •"),
            sh("create_schedule", device_id="living_lamp", command="turn_off", at="20:30"),
        ],
        pattern="information_extraction",
        apps=["calendar", "smarthome"],
        difficulty="medium",
    )
    b.add(
        "Bedtime: put the phone in airplane mode and close the bedroom curtains fully.",
        [A0, SH],
        [*_maple_flat(), op(A0, "add_alarm", hour=7, minute=0)],
        [
            cond("air", "setting_is", table="global", name="airplane_mode_on", value="1"),
            cond(
                "curtain",
                "device_attribute",
                device=SH,
                device_id="bedroom_curtain",
                attribute="position",
                equals=0,
            ),
        ],
        [
            P.act("swipe", direction="down", from_edge=True),
            P.tap(rid="tile_airplane_mode_on"),
            sh("control_device", device_id="bedroom_curtain", command="set_position", params={"position": 0}),
        ],
        pattern="device_state_control",
        apps=["system", "smarthome"],
    )
    b.add(
        "Switch the bedroom AC on and set it to the temperature written in your Markor note ac.md.",
        [A0, SH],
        [*_maple_flat(), op(A0, "add_note", name="ac.md", text="Bedroom AC: 21 degrees, cool mode")],
        [
            cond(
                "temp",
                "device_attribute",
                device=SH,
                device_id="ac_bedroom",
                attribute="target_temperature",
                equals=21,
            )
        ],
        [
            P.open("Markor"),
            P.tap(text="ac.md"),
            sh("control_device", device_id="ac_bedroom", command="turn_on"),
            sh(
                "control_device",
                device_id="ac_bedroom",
                command="set_target_temperature",
                params={"temperature": 21},
            ),
        ],
        pattern="information_extraction",
        apps=["markor", "smarthome"],
    )


def _media(b: _Builder) -> None:
    ctl = "device_state_control"
    songs = [op(A0, "add_song", title=t, artist=a) for t, a in
             (("Blue Train", "John Coltrane"), ("So What", "Miles Davis"), ("Take Five", "Dave Brubeck"))]  # fmt: skip
    music = "code.name.monkey.retromusic"
    b.add(
        "Play 'So What' in the music app.",
        [A0],
        songs,
        [
            cond("playing", "app_pref", package=music, key="now_playing", equals="So What"),
            cond("not_paused", "app_pref", package=music, key="playing", equals=True),
        ],
        [P.open("Music"), P.tap(text="So What")],
        pattern=ctl,
        apps=["music"],
    )
    b.add(
        "Add 'Take Five' to your Jazz playlist.",
        [A0],
        [*songs, op(A0, "add_playlist", name="Jazz", songs=["Blue Train"])],
        [cond("added", "playlist_contains", name="Jazz", songs=["Blue Train", "Take Five"])],
        [P.open("Music"), P.hold(text="Take Five"), P.tap(text="Jazz")],
        pattern=ctl,
        apps=["music"],
    )
    b.add(
        "Find the Corner Cafe in Maps and save it.",
        [A0],
        [
            op(A0, "add_place", name="Corner Cafe", address="9 Elm St", lat=40.2, lon=-73.3, category="cafe"),
            op(
                A0,
                "add_place",
                name="Central Library",
                address="1 Main St",
                lat=40.1,
                lon=-73.2,
                category="library",
            ),
        ],
        [cond("saved", "app_pref", package="net.osmand", key="saved_places", contains="Corner Cafe")],
        [
            P.open("Maps"),
            P.type("Corner", rid="searchEditText"),
            P.act("keyboard_enter"),
            P.tap(text="Corner Cafe"),
            P.tap(rid="save_button"),
        ],
        pattern=ctl,
        apps=["maps"],
    )
    b.add(
        "Text Bob Stone the street address of the Central Library (look it up in Maps).",
        [A0],
        [
            contact(A0, BOB),
            op(
                A0,
                "add_place",
                name="Central Library",
                address="1 Main St",
                lat=40.1,
                lon=-73.2,
                category="library",
            ),
        ],
        [cond("sent", "sms_sent", to=BOB[1], contains=["1 Main St"])],
        [
            P.open("Maps"),
            P.type("library", rid="searchEditText"),
            P.act("keyboard_enter"),
            P.tap(text="Central Library"),
            *send_new(P, "Bob", "Bob Stone", "1 Main St"),
        ],
        pattern="direct_transfer",
        apps=["maps", "messages"],
        difficulty="medium",
    )
    b.add(
        "Take a photo with the camera.",
        [A0],
        [],
        [cond("photo", "files_in_folder", folder="DCIM/Camera", suffix=".jpg", at_least=1)],
        [P.open("Camera"), P.tap(rid="shutter_button")],
        pattern=ctl,
        apps=["camera"],
    )
    b.add(
        "Record a voice memo of at least 10 seconds with the audio recorder.",
        [A0],
        [],
        [cond("memo", "files_in_folder", folder="Recordings", suffix=".wav", at_least=1)],
        [
            P.open("Audio Recorder"),
            P.tap(rid="btn_record_start"),
            P.act("wait", seconds=12),
            P.tap(rid="btn_stop"),
        ],
        pattern=ctl,
        apps=["recorder"],
    )
    b.add(
        "The canteen menu is on http://intranet.local/menu. Text Ann Lee today's soup.",
        [A0],
        [
            contact(A0, ANN),
            op(
                A0,
                "add_page",
                url="http://intranet.local/menu",
                title="Canteen",
                text="Monday\nSoup: lentil\nMain: risotto",
            ),
        ],
        [cond("sent", "sms_sent", to=ANN[1], contains=["lentil"])],
        [
            P.open("Browser"),
            P.type("intranet.local/menu", rid="url_bar"),
            P.act("keyboard_enter"),
            *send_new(P, "Ann", "Ann Lee", "Soup today: lentil"),
        ],
        pattern="information_extraction",
        apps=["browser", "messages"],
        difficulty="medium",
    )


@cache
def _build() -> tuple[Task, ...]:
    b = _Builder()
    for part in (
        _messages,
        _contacts,
        _phone,
        _settings,
        _clock,
        _calendar,
        _files_notes,
        _media,
        _profiles,
        _two_phones,
        _phone_network,
        _with_home,
    ):
        part(b)
    return tuple(b.tasks)


def build_android_smoke() -> list[Task]:
    """The phone tasks of ``smoke``, in a fixed order (built once per process)."""
    return [t.model_copy(deep=True) for t in _build()]
