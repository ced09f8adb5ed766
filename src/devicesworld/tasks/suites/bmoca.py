"""Suite ``bmoca``: B-MoCA's daily phone tasks (§2.3, B.1) on the simulated phone, in its five categories.

Each task is one phone and a rule-based success detector (the task's conditions,
checked after every step by the Gymnasium environments, where success ends the
episode). Tasks start on the launcher, as B-MoCA's do, and the phone's look comes from
its profile: ``devicesworld run --env-split train|test`` or the gym ``split`` argument
put every phone on one of the 35 training or 10 test presets. Settings that a profile
can itself set (theme, language) are fixed by the task's setup so that a profile never
makes a task already solved.

Reference solutions are scripts by meaning, recorded into index-based steps by
:func:`android_script.record` when the suite is built. ``metadata.split`` is ``test``
for every task: B-MoCA's train/test split is over device configurations, not tasks.
Each task also has a CamelCase ``name`` (``metadata.gym_name``), which names its
Gymnasium environment ``devicesworld/Bmoca<Name>-v0``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from devicesworld.devices.android.i18n import RTL_LANGUAGES
from devicesworld.devices.android.profiles import resolve_profile
from devicesworld.spec.models import Condition, DeviceOp, DeviceSpec, Evaluation, Limits, Metadata, Step, Task
from devicesworld.tasks.authoring.android_script import On, ScriptError, ScriptItem, UiStep, record
from devicesworld.tasks.guards import unscore_setup_satisfied

A0 = "android_0"
P = On(A0)
FINISH = Step(action="finish")
CATEGORIES = ("system", "web_shopping", "communication", "utility", "event")
CALC = "com.google.android.calculator"
CHROME = "com.android.chrome"
MUSIC = "code.name.monkey.retromusic"

ANN = ("Ann Lee", "+15550101")
BOB = ("Bob Stone", "+15550102")


@dataclass(frozen=True)
class Spec:
    """One daily task before its solution is recorded (cheap to make: no phone is built)."""

    name: str
    category: str
    instruction: str
    setup: list[DeviceOp]
    conditions: list[Condition]
    script: Sequence[Item]
    apps: list[str]
    difficulty: str = "easy"
    tags: list[str] = field(default_factory=list)

    @property
    def task_id(self) -> str:
        return "bmoca-" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", self.name).lower()


def op(op_name: str, /, **args: Any) -> DeviceOp:
    return DeviceOp(device=A0, op=op_name, args=args)


def cond(cid: str, check: str, *, scored: bool = True, **args: Any) -> Condition:
    return Condition(id=cid, device=A0, check=check, args=args, scored=scored)


def setting(table: str, name: str, value: str) -> DeviceOp:
    return op("set_setting", table=table, name=name, value=value)


def flag(cid: str, table: str, name: str, value: str) -> Condition:
    return cond(cid, "setting_is", table=table, name=name, value=value)


@dataclass(frozen=True)
class TimeFill:
    """Fill the open time picker with ``hour:minute`` and press OK; expanded per profile (12 or 24 hours)."""

    hour: int
    minute: int

    def expand(self, h24: bool) -> list[ScriptItem]:
        hour = str(self.hour) if h24 else str(self.hour % 12 or 12)
        steps: list[ScriptItem] = [
            P.type(hour, clear=True, rid="hour"),
            P.type(f"{self.minute:02d}", clear=True, rid="minute"),
        ]
        if not h24:
            steps.append(P.tap(rid="pm_label" if self.hour >= 12 else "am_label"))
        return [*steps, P.tap(rid="button1")]


Item = ScriptItem | TimeFill


def set_time(hour: int, minute: int) -> list[Item]:
    return [TimeFill(hour, minute)]


def send_new(query: str, pick: str | None, body: str) -> list[ScriptItem]:
    steps: list[ScriptItem] = [
        P.open("Messages"),
        P.tap(rid="conversations_fab"),
        P.type(query, rid="new_conversation_address"),
        P.tap(text=pick) if pick else P.tap(rid="new_conversation_confirm"),
    ]
    return [*steps, P.type(body, rid="thread_type_message"), P.tap(rid="thread_send_message")]


def calc_keys(expr: str) -> list[ScriptItem]:
    ids = {"=": "eq", "*": "op_mul", "/": "op_div", "-": "op_sub", "+": "op_add", ".": "dec_point"}
    return [P.tap(rid=ids.get(ch, f"digit_{ch}")) for ch in expr]


def _system() -> list[Spec]:
    s = "system"
    light = setting("secure", "ui_night_mode", "1")
    dark = setting("secure", "ui_night_mode", "2")
    english = setting("system", "system_locales", "en")
    return [
        Spec("AirplaneOn", s, "Turn on airplane mode.", [], [flag("air", "global", "airplane_mode_on", "1")],
             [P.open("Settings"), P.tap(rid="network"), P.tap(rid="switch_airplane_mode_on")], ["settings"]),
        Spec("AirplaneOff", s, "Turn off airplane mode.", [setting("global", "airplane_mode_on", "1")],
             [flag("air", "global", "airplane_mode_on", "0")],
             [P.open("Settings"), P.tap(rid="network"), P.tap(rid="switch_airplane_mode_on")], ["settings"]),
        Spec("BluetoothOn", s, "Turn on Bluetooth.", [], [flag("bt", "global", "bluetooth_on", "1")],
             [P.open("Settings"), P.tap(rid="connected"), P.tap(rid="switch_bluetooth_on")], ["settings"]),
        Spec("BluetoothOff", s, "Turn off Bluetooth.", [setting("global", "bluetooth_on", "1")],
             [flag("bt", "global", "bluetooth_on", "0")],
             [P.open("Settings"), P.tap(rid="connected"), P.tap(rid="switch_bluetooth_on")], ["settings"]),
        Spec("WifiOff", s, "Turn off Wi-Fi in the settings.", [setting("global", "wifi_on", "1")],
             [flag("wifi", "global", "wifi_on", "0")],
             [P.open("Settings"), P.tap(rid="network"), P.tap(rid="switch_wifi_on")], ["settings"]),
        Spec("WifiOnQuick", s, "Turn Wi-Fi on from the quick settings panel.",
             [setting("global", "wifi_on", "0")], [flag("wifi", "global", "wifi_on", "1")],
             [P.act("swipe", direction="down", from_edge=True), P.tap(rid="tile_wifi_on")], ["system"]),
        Spec("DarkTheme", s, "Switch the phone to the dark theme.", [light],
             [flag("dark", "secure", "ui_night_mode", "2")],
             [P.open("Settings"), P.tap(rid="display"), P.tap(rid="dark_ui_mode")], ["settings"]),
        Spec("LightTheme", s, "Switch the phone back to the light theme.", [dark],
             [flag("light", "secure", "ui_night_mode", "1")],
             [P.open("Settings"), P.tap(rid="display"), P.tap(rid="dark_ui_mode")], ["settings"]),
        Spec("BrightnessMax", s, "Set the screen brightness to (nearly) maximum.", [],
             [cond("bright", "setting_is", table="system", name="screen_brightness", min=230)],
             [P.open("Settings"), P.tap(rid="display"), P.tap_at(0.97, rid="brightness_slider")], ["settings"]),
        Spec("BrightnessMin", s, "Turn the screen brightness down to (nearly) the minimum.", [],
             [cond("dim", "setting_is", table="system", name="screen_brightness", max=25)],
             [P.open("Settings"), P.tap(rid="display"), P.tap_at(0.03, rid="brightness_slider")], ["settings"]),
        Spec("FontLargest", s, "Make the font size the largest available.", [setting("system", "font_scale", "1.0")],
             [flag("font", "system", "font_scale", "1.3")],
             [P.open("Settings"), P.tap(rid="display"), P.tap(rid="font_size"), P.tap(text="Largest")],
             ["settings"]),
        Spec("FontSmall", s, "Make the font size small.", [setting("system", "font_scale", "1.0")],
             [flag("font", "system", "font_scale", "0.85")],
             [P.open("Settings"), P.tap(rid="display"), P.tap(rid="font_size"), P.tap(text="Small")],
             ["settings"]),
        Spec("LanguageKorean", s, "Change the phone's language to Korean.", [english],
             [flag("lang", "system", "system_locales", "ko")],
             [P.open("Settings"), P.tap(rid="system"), P.tap(rid="language"), P.tap(text="한국어")],
             ["settings"], "medium"),
        Spec("LanguageFrench", s, "Change the phone's language to French.", [english],
             [flag("lang", "system", "system_locales", "fr")],
             [P.open("Settings"), P.tap(rid="system"), P.tap(rid="language"), P.tap(text="Français")],
             ["settings"], "medium"),
        Spec("AirplaneOnQuick", s, "Turn on airplane mode from the quick settings panel.", [],
             [flag("air", "global", "airplane_mode_on", "1")],
             [P.act("swipe", direction="down", from_edge=True), P.tap(rid="tile_airplane_mode_on")], ["system"]),
        Spec("BluetoothOnQuick", s, "Turn on Bluetooth from the quick settings panel.", [],
             [flag("bt", "global", "bluetooth_on", "1")],
             [P.act("swipe", direction="down", from_edge=True), P.tap(rid="tile_bluetooth_on")], ["system"]),
        Spec("FontLarge", s, "Make the font size large (one step above default).",
             [setting("system", "font_scale", "1.0")], [flag("font", "system", "font_scale", "1.15")],
             [P.open("Settings"), P.tap(rid="display"), P.tap(rid="font_size"), P.tap(text="Large")],
             ["settings"]),
        Spec("OpenSettings", s, "Open the Settings app.", [],
             [cond("fg", "foreground_is", package="com.android.settings")], [P.open("Settings")], ["settings"]),
    ]  # fmt: skip


def _web() -> list[Spec]:
    w = "web_shopping"
    wiki_home = op("add_page", url="http://wiki.local", title="Wikipedia",
                   text="The Free Encyclopedia\nFeatured articles:\n-> http://wiki.local/wiki/Seoul\n"
                        "-> http://wiki.local/wiki/Jazz\n-> http://wiki.local/wiki/Python")  # fmt: skip
    wiki_pages = [
        op("add_page", url=f"http://wiki.local/wiki/{t}", title=t, text=f"{t}\n{body}")
        for t, body in (
            ("Seoul", "Seoul is the capital of South Korea."),
            ("Jazz", "Jazz is a music genre that originated in New Orleans."),
            ("Python", "Python is a programming language."),
        )
    ]
    shop = [
        op("add_page", url="http://shop.local", title="ShopMart",
           text="Deals of the day\n-> http://shop.local/item/headphones\n-> http://shop.local/item/kettle\n"
                "-> http://shop.local/cart"),
        op("add_page", url="http://shop.local/item/headphones", title="Wireless Headphones",
           text="$59.99\n-> http://shop.local/cart/add/headphones"),
        op("add_page", url="http://shop.local/item/kettle", title="Electric Kettle",
           text="$24.50\n-> http://shop.local/cart/add/kettle"),
        op("add_page", url="http://shop.local/cart/add/headphones", title="Added to cart",
           text="Wireless Headphones is in your cart.\n-> http://shop.local/cart"),
        op("add_page", url="http://shop.local/cart/add/kettle", title="Added to cart",
           text="Electric Kettle is in your cart.\n-> http://shop.local/cart"),
        op("add_page", url="http://shop.local/cart", title="Cart", text="Your cart"),
    ]  # fmt: skip

    def at(url: str) -> Condition:
        return cond("page", "app_pref", package=CHROME, key="current_url", equals=url)

    def visited(url: str) -> Condition:
        return cond("visited", "app_pref", package=CHROME, key="history", contains=url)

    def go(url: str) -> list[ScriptItem]:
        return [P.open("Browser"), P.type(url, rid="url_bar"), P.act("keyboard_enter")]

    return [
        Spec("WikiOpen", w, "Open the local Wikipedia at wiki.local in the browser.", [wiki_home, *wiki_pages],
             [at("http://wiki.local")], go("wiki.local"), ["browser"]),
        Spec("WikiSeoul", w, "On the local Wikipedia (wiki.local), open the article about Seoul.",
             [wiki_home, *wiki_pages], [at("http://wiki.local/wiki/Seoul")],
             [*go("wiki.local"), P.tap(text="http://wiki.local/wiki/Seoul")], ["browser"], "medium"),
        Spec("WikiJazz", w, "On the local Wikipedia (wiki.local), read the article about jazz.",
             [wiki_home, *wiki_pages], [at("http://wiki.local/wiki/Jazz")],
             [*go("wiki.local"), P.tap(text="http://wiki.local/wiki/Jazz")], ["browser"], "medium"),
        Spec("WikiPython", w, "On the local Wikipedia (wiki.local), open the article about Python.",
             [wiki_home, *wiki_pages], [at("http://wiki.local/wiki/Python")],
             [*go("wiki.local"), P.tap(text="http://wiki.local/wiki/Python")], ["browser"], "medium"),
        Spec("ShopOpen", w, "Open the ShopMart store at shop.local in the browser.", shop,
             [at("http://shop.local")], go("shop.local"), ["browser"]),
        Spec("ShopHeadphones", w, "On shop.local, add the wireless headphones to the cart.", shop,
             [visited("http://shop.local/cart/add/headphones")],
             [*go("shop.local"), P.tap(text="http://shop.local/item/headphones"),
              P.tap(text="http://shop.local/cart/add/headphones")], ["browser"], "medium"),
        Spec("ShopKettle", w, "On shop.local, add the electric kettle to the cart.", shop,
             [visited("http://shop.local/cart/add/kettle")],
             [*go("shop.local"), P.tap(text="http://shop.local/item/kettle"),
              P.tap(text="http://shop.local/cart/add/kettle")], ["browser"], "medium"),
        Spec("ShopCart", w, "Open your shopping cart on shop.local.", shop,
             [at("http://shop.local/cart")],
             [*go("shop.local"), P.tap(text="http://shop.local/cart")], ["browser"]),
    ]  # fmt: skip


def _communication() -> list[Spec]:
    c = "communication"
    contacts = [op("add_contact", name=ANN[0], phone=ANN[1]), op("add_contact", name=BOB[0], phone=BOB[1])]
    return [
        Spec("Call911", c, "Call 911.", [], [cond("called", "call_made", number="911")],
             [P.open("Phone"), P.tap(rid="key_9"), P.tap(rid="key_1"), P.tap(rid="key_1"),
              P.tap(rid="dialpad_floating_action_button")], ["phone"]),
        Spec("CallNumber", c, "Call +1 555 0188.", [], [cond("called", "call_made", number="+15550188")],
             [P.open("Phone"), P.type("+15550188", rid="digits"), P.tap(rid="dialpad_floating_action_button")],
             ["phone"]),
        Spec("CallBob", c, "Call Bob Stone.", contacts, [cond("called", "call_made", number=BOB[1])],
             [P.open("Contacts"), P.tap(text="Bob Stone"), P.tap(rid="call_button")], ["contacts", "phone"]),
        Spec("CallBackMissed", c, "Call back the number you missed a call from.",
             [op("add_call", number="+15550123", kind="missed", minutes_ago=40)],
             [cond("called", "call_made", number="+15550123")],
             [P.open("Phone"), P.tap(rid="tab_recents"), P.tap(text="+15550123")], ["phone"], "medium"),
        Spec("TextAnn", c, "Text Ann Lee: Running late", contacts,
             [cond("sent", "sms_sent", to=ANN[1], body="Running late"),
              cond("only_ann", "sms_not_sent", to=BOB[1], scored=False)],
             send_new("Ann", "Ann Lee", "Running late"), ["messages"], "medium"),
        Spec("TextNumber", c, "Send 'Hello' by text to +1 555 0177.", [],
             [cond("sent", "sms_sent", to="+15550177", body="Hello")],
             send_new("+15550177", None, "Hello"), ["messages"], "medium"),
        Spec("ReplyBob", c, "Reply 'OK' to Bob Stone's message.",
             [*contacts, op("add_sms", address=BOB[1], body="Can you call me later?", minutes_ago=5)],
             [cond("sent", "sms_sent", to=BOB[1], body="OK")],
             [P.open("Messages"), P.tap(text="Bob Stone"), P.type("OK", rid="thread_type_message"),
              P.tap(rid="thread_send_message")], ["messages"]),
        Spec("AddContact", c, "Add a contact Dana Kim with phone number +1 555 0142.", [],
             [cond("added", "contact_exists", name="Dana Kim", phone="+15550142")],
             [P.open("Contacts"), P.tap(rid="floating_action_button"), P.type("Dana", rid="editor_first"),
              P.type("Kim", rid="editor_last"), P.type("+15550142", rid="editor_phone"),
              P.tap(rid="menu_save")], ["contacts"], "medium"),
        Spec("CallAnn", c, "Call Ann Lee.", contacts, [cond("called", "call_made", number=ANN[1])],
             [P.open("Contacts"), P.tap(text="Ann Lee"), P.tap(rid="call_button")], ["contacts", "phone"]),
        Spec("CallFromLog", c, "Call Bob Stone back from the call log.",
             [*contacts, op("add_call", number=BOB[1], kind="incoming", minutes_ago=15)],
             [cond("called", "call_made", number=BOB[1])],
             [P.open("Phone"), P.tap(rid="tab_recents"), P.tap(text="Bob Stone")], ["phone"], "medium"),
        Spec("DeleteContact", c, "Delete the contact Bob Stone.", contacts,
             [cond("gone", "contact_absent", name="Bob Stone"), cond("kept", "contact_exists", name="Ann Lee")],
             [P.open("Contacts"), P.tap(text="Bob Stone"), P.tap(rid="menu_delete"), P.tap(rid="button1")],
             ["contacts"]),
    ]  # fmt: skip


def _utility() -> list[Spec]:
    u = "utility"
    songs = [op("add_song", title="Blue Train", artist="John Coltrane"),
             op("add_song", title="So What", artist="Miles Davis")]  # fmt: skip

    def result(value: str) -> Condition:
        return cond("result", "app_pref", package=CALC, key="last_result", equals=value)

    return [
        Spec("AlarmSimple", u, "Set an alarm for 6:30 AM.", [], [cond("alarm", "alarm_exists", hour=6, minute=30)],
             [P.open("Clock"), P.tap(rid="fab"), *set_time(6, 30)], ["clock"]),
        Spec("AlarmEvening", u, "Set an alarm for 9:45 PM.", [], [cond("alarm", "alarm_exists", hour=21, minute=45)],
             [P.open("Clock"), P.tap(rid="fab"), *set_time(21, 45)], ["clock"]),
        Spec("AlarmComplex", u, "Set an alarm for 7:15 PM that repeats on Mondays and Fridays, labelled Pills.", [],
             [cond("alarm", "alarm_exists", hour=19, minute=15, days=["mon", "fri"], label="Pills")],
             [P.open("Clock"), P.tap(rid="fab"), *set_time(19, 15), P.tap(rid="digital_clock"),
              P.tap(desc="Monday"), P.tap(desc="Friday"), P.tap(rid="edit_label"),
              P.type("Pills", rid="label_input"), P.tap(rid="button1")], ["clock"], "hard"),
        Spec("AlarmOff", u, "Turn off the 5:45 AM alarm but keep it.",
             [op("add_alarm", hour=5, minute=45), op("add_alarm", hour=8, minute=0)],
             [cond("off", "alarm_exists", hour=5, minute=45, enabled=False),
              cond("other_on", "alarm_exists", hour=8, minute=0, enabled=True)],
             [P.open("Clock"), P.tap(rid="onoff", nth=0)], ["clock"]),
        Spec("AlarmDelete", u, "Delete the 9:00 PM alarm.", [op("add_alarm", hour=21, minute=0, label="Read")],
             [cond("gone", "alarm_absent", hour=21, minute=0)],
             [P.open("Clock"), P.tap(rid="digital_clock"), P.tap(rid="delete")], ["clock"]),
        Spec("Timer10", u, "Start a 10-minute timer.", [], [cond("timer", "timer_running", seconds=600)],
             [P.open("Clock"), P.tap(rid="tab_timer"), P.type("10", rid="timer_setup_digits"), P.tap(rid="fab")],
             ["clock"]),
        Spec("CalcMultiply", u, "Use the calculator to compute 48 times 17.", [], [result("816")],
             [P.open("Calculator"), *calc_keys("48*17=")], ["calculator"]),
        Spec("CalcAdd", u, "Use the calculator to add 125 and 389.", [], [result("514")],
             [P.open("Calculator"), *calc_keys("125+389=")], ["calculator"]),
        Spec("CalcDivide", u, "Use the calculator to divide 1000 by 8.", [], [result("125")],
             [P.open("Calculator"), *calc_keys("1000/8=")], ["calculator"]),
        Spec("CalcSubtract", u, "Use the calculator to compute 900 minus 123.", [], [result("777")],
             [P.open("Calculator"), *calc_keys("900-123=")], ["calculator"]),
        Spec("OpenClock", u, "Open the Clock app.", [],
             [cond("fg", "foreground_is", package="com.google.android.deskclock")], [P.open("Clock")], ["clock"]),
        Spec("OpenCalculator", u, "Open the Calculator.", [], [cond("fg", "foreground_is", package=CALC)],
             [P.open("Calculator")], ["calculator"]),
        Spec("TakePhoto", u, "Take a photo with the camera.", [],
             [cond("photo", "files_in_folder", folder="DCIM/Camera", suffix=".jpg", at_least=1)],
             [P.open("Camera"), P.tap(rid="shutter_button")], ["camera"]),
        Spec("PlaySong", u, "Play 'So What' in the music app.", songs,
             [cond("playing", "app_pref", package=MUSIC, key="now_playing", equals="So What")],
             [P.open("Music"), P.tap(text="So What")], ["music"]),
        Spec("Timer5", u, "Start a 5-minute timer.", [], [cond("timer", "timer_running", seconds=300)],
             [P.open("Clock"), P.tap(rid="tab_timer"), P.type("5", rid="timer_setup_digits"), P.tap(rid="fab")],
             ["clock"]),
        Spec("RecordMemo", u, "Record a voice memo of at least 10 seconds.", [],
             [cond("memo", "files_in_folder", folder="Recordings", suffix=".wav", at_least=1)],
             [P.open("Audio Recorder"), P.tap(rid="btn_record_start"), P.act("wait", seconds=12),
              P.tap(rid="btn_stop")], ["recorder"], "medium"),
        Spec("OpenCamera", u, "Open the Camera.", [],
             [cond("fg", "foreground_is", package="com.android.camera2")], [P.open("Camera")], ["camera"]),
        Spec("MapsSave", u, "Find the Corner Cafe in Maps and save it.",
             [op("add_place", name="Corner Cafe", address="9 Elm St", lat=40.2, lon=-73.3, category="cafe")],
             [cond("saved", "app_pref", package="net.osmand", key="saved_places", contains="Corner Cafe")],
             [P.open("Maps"), P.type("Corner", rid="searchEditText"), P.act("keyboard_enter"),
              P.tap(text="Corner Cafe"), P.tap(rid="save_button")], ["maps"], "medium"),
        Spec("NewNote", u, "Create a Markor note called todo.md containing 'buy milk'.", [],
             [cond("note", "file_exists", path="Documents/Markor/todo.md", equals="buy milk")],
             [P.open("Markor"), P.tap(rid="fab_add_new_item"), P.type("todo.md", rid="new_file_dialog__name"),
              P.tap(rid="button1"), P.type("buy milk", rid="document__fragment__edit__highlighting_editor"),
              P.tap(rid="action_save")], ["markor"], "medium"),
    ]  # fmt: skip


def _event() -> list[Spec]:
    e = "event"
    return [
        Spec("EventAdd", e, "Add a calendar event 'Dentist' on 5 March 2026 from 10:00 to 11:00 AM.", [],
             [cond("event", "event_exists", title="Dentist", start="2026-03-05T10:00", end="2026-03-05T11:00")],
             [P.open("Calendar"), P.tap(rid="calendar_fab"), P.type("Dentist", rid="event_title"),
              P.tap(rid="event_start_date"), P.tap(desc="5 March 2026"), P.tap(rid="button1"),
              P.tap(rid="event_start_time"), *set_time(10, 0), P.tap(rid="save")], ["calendar"], "hard"),
        Spec("EventToday", e, "Add an event 'Gym' today at 6:00 PM (one hour).", [],
             [cond("event", "event_exists", title="Gym", start="2026-03-02T18:00", end="2026-03-02T19:00")],
             [P.open("Calendar"), P.tap(rid="calendar_fab"), P.type("Gym", rid="event_title"),
              P.tap(rid="event_start_time"), *set_time(18, 0), P.tap(rid="save")], ["calendar"], "medium"),
        Spec("EventLocation", e, "Add an event 'Lunch' today at 12:30 PM (one hour) at Luigi's.", [],
             [cond("event", "event_exists", title="Lunch", start="2026-03-02T12:30", end="2026-03-02T13:30",
                   location="Luigi's")],
             [P.open("Calendar"), P.tap(rid="calendar_fab"), P.type("Lunch", rid="event_title"),
              P.tap(rid="event_start_time"), *set_time(12, 30), P.type("Luigi's", rid="event_location"),
              P.tap(rid="save")], ["calendar"], "hard"),
        Spec("EventDeleteToday", e, "Delete today's 'Standup' event.",
             [op("add_event", title="Standup", start="2026-03-02T15:30:00", duration_minutes=15)],
             [cond("gone", "event_absent", title="Standup")],
             [P.open("Calendar"), P.tap(desc="2 March 2026 •"), P.tap(text="Standup"), P.tap(rid="delete"),
              P.tap(rid="button1")], ["calendar"], "medium"),
        Spec("EventDelete", e, "Delete the 'Budget review' event on 4 March.",
             [op("add_event", title="Budget review", start="2026-03-04T14:00:00")],
             [cond("gone", "event_absent", title="Budget review")],
             [P.open("Calendar"), P.tap(desc="4 March 2026 •"), P.tap(text="Budget review"), P.tap(rid="delete"),
              P.tap(rid="button1")], ["calendar"], "medium"),
        Spec("EventMove", e, "Move tomorrow's Yoga class from 8:00 to 9:00 AM (same length).",
             [op("add_event", title="Yoga", start="2026-03-03T08:00:00", duration_minutes=60)],
             [cond("moved", "event_exists", title="Yoga", start="2026-03-03T09:00", end="2026-03-03T10:00")],
             [P.open("Calendar"), P.tap(desc="3 March 2026 •"), P.tap(text="Yoga"), P.tap(rid="edit"),
              P.tap(rid="event_start_time"), *set_time(9, 0), P.tap(rid="save")], ["calendar"], "hard"),
    ]  # fmt: skip


@cache
def specs() -> tuple[Spec, ...]:
    """Every task of the suite, in order, before recording (the second half is :mod:`bmoca_more`)."""
    from devicesworld.tasks.suites.bmoca_more import more_specs  # imports this module's helpers

    return (*_system(), *_web(), *_communication(), *_utility(), *_event(), *more_specs())


def task_names() -> dict[str, str]:
    """Gym environment names (``Bmoca<Name>``) to task ids; builds no phone."""
    return {f"Bmoca{s.name}": s.task_id for s in specs()}


def to_task(spec: Spec) -> Task:
    """The task of a spec, without its solution."""
    return Task(
        id=spec.task_id,
        instruction=spec.instruction,
        devices=[DeviceSpec(id=A0, kind="android")],
        setup=list(spec.setup),
        evaluation=Evaluation(conditions=list(spec.conditions)),
        limits=Limits(max_steps=30),
        metadata=Metadata.model_validate(
            {
                "pattern": "device_state_control",
                "difficulty": spec.difficulty,
                "apps": list(spec.apps),
                "split": "test",
                "origin": "b-moca",
                "tags": ["android", "bmoca", f"category:{spec.category}", *spec.tags],
                "category": spec.category,
                "gym_name": f"Bmoca{spec.name}",
            }
        ),
    )


def _solve(spec: Spec, task: Task) -> list[Step]:
    """Record the spec's script on ``task`` (its phone profile decides 12- or 24-hour pickers)."""
    profile = resolve_profile(task.devices[0].profile)
    rtl = profile.language in RTL_LANGUAGES
    script: list[ScriptItem] = []
    for item in spec.script:
        if isinstance(item, TimeFill):
            script += item.expand(profile.time_24h)
        elif isinstance(item, UiStep) and item.at_fraction is not None and rtl:
            # sliders run from the right in right-to-left languages
            script.append(replace(item, at_fraction=1.0 - item.at_fraction))
        else:
            script.append(item)
    return [*record(task, script), FINISH]


def solution_on(task: Task) -> list[Step] | None:
    """The reference solution of a ``bmoca`` task recorded on the task's own profile; None for other tasks.

    Solutions are index-based, and some indexes and every pixel depend on the phone's
    profile (screen size, 24-hour clock), so a task moved to another profile
    (``--env-split``) gets its solution recorded again there.
    """
    spec = next((s for s in specs() if s.task_id == task.id), None)
    if spec is None:
        return None
    try:
        return _solve(spec, task)
    except ScriptError:
        # scripts name elements by their English text; on a phone in another language the
        # same profile in English has the same layout, so its recorded indexes fit
        english = [
            d.model_copy(update={"profile": {**d.profile, "language": "en"}}) if d.id == A0 else d
            for d in task.devices
        ]
        return _solve(spec, task.model_copy(update={"devices": english}))


def build_bmoca() -> list[Task]:
    """The suite: each spec's task with its recorded reference solution."""
    tasks: list[Task] = []
    for spec in specs():
        task = to_task(spec)
        tasks.append(unscore_setup_satisfied(task.model_copy(update={"solution": _solve(spec, task)})))
    return tasks
