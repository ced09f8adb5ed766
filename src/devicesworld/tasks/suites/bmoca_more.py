"""The second half of suite ``bmoca``: 69 more daily tasks, so the suite has B-MoCA's 131.

Kept apart from :mod:`bmoca` so that neither module grows past one screenful per
category. The tasks vary B-MoCA's templates the way its own list does (alarms at other
times, other articles and products, other contacts, dates and apps) and add the
combinations and apps the first half lacked: two settings at once, quick-settings
tiles turned off, the Files app, Music playlists, Markor edits, Maps favourites.
"""

from __future__ import annotations

from devicesworld.spec.models import Condition, DeviceOp
from devicesworld.tasks.authoring.android_script import ScriptItem
from devicesworld.tasks.suites.bmoca import (
    ANN,
    BOB,
    CALC,
    CHROME,
    MUSIC,
    Item,
    P,
    Spec,
    calc_keys,
    cond,
    flag,
    op,
    send_new,
    set_time,
    setting,
)

CARA = ("Cara Diaz", "+15550103")
DEV = ("Dev Patel", "+15550104")
WIKI = ("Paris", "Mars", "Chess", "Seoul", "Jazz", "Python")
WIKI_TEXT = {
    "Paris": "Paris is the capital of France.",
    "Mars": "Mars is the fourth planet from the Sun.",
    "Chess": "Chess is a board game for two players.",
    "Seoul": "Seoul is the capital of South Korea.\n-> http://wiki.local/wiki/South_Korea",
    "Jazz": "Jazz is a music genre that originated in New Orleans.\n-> http://wiki.local/wiki/New_Orleans",
    "Python": "Python is a programming language.",
    "South_Korea": "South Korea is a country in East Asia.",
    "New_Orleans": "New Orleans is a city in Louisiana.",
}
ITEMS = {
    "lamp": ("Desk Lamp", "$18.00"),
    "backpack": ("Travel Backpack", "$45.00"),
    "mug": ("Coffee Mug", "$9.90"),
    "charger": ("USB Charger", "$15.00"),
    "headphones": ("Wireless Headphones", "$59.99"),
    "kettle": ("Electric Kettle", "$24.50"),
}


def _system() -> list[Spec]:
    s = "system"
    net, disp = P.tap(rid="network"), P.tap(rid="display")
    shade = P.act("swipe", direction="down", from_edge=True)
    font = setting("system", "font_scale", "1.3")
    light = setting("secure", "ui_night_mode", "1")
    return [
        Spec("WifiOn", s, "Turn on Wi-Fi in the settings.", [setting("global", "wifi_on", "0")],
             [flag("wifi", "global", "wifi_on", "1")], [P.open("Settings"), net, P.tap(rid="switch_wifi_on")],
             ["settings"]),
        Spec("WifiOffQuick", s, "Turn Wi-Fi off from the quick settings panel.", [setting("global", "wifi_on", "1")],
             [flag("wifi", "global", "wifi_on", "0")], [shade, P.tap(rid="tile_wifi_on")], ["system"]),
        Spec("BluetoothOffQuick", s, "Turn Bluetooth off from the quick settings panel.",
             [setting("global", "bluetooth_on", "1")], [flag("bt", "global", "bluetooth_on", "0")],
             [shade, P.tap(rid="tile_bluetooth_on")], ["system"]),
        Spec("AirplaneOffQuick", s, "Turn airplane mode off from the quick settings panel.",
             [setting("global", "airplane_mode_on", "1")], [flag("air", "global", "airplane_mode_on", "0")],
             [shade, P.tap(rid="tile_airplane_mode_on")], ["system"]),
        Spec("FontDefault", s, "Set the font size back to the default.", [font],
             [flag("font", "system", "font_scale", "1.0")],
             [P.open("Settings"), disp, P.tap(rid="font_size"), P.tap(text="Default")], ["settings"]),
        Spec("LanguageArabic", s, "Change the phone's language to Arabic.", [setting("system", "system_locales", "en")],
             [flag("lang", "system", "system_locales", "ar")],
             [P.open("Settings"), P.tap(rid="system"), P.tap(rid="language"), P.tap(text="العربية")],
             ["settings"], "medium"),
        Spec("BrightnessHalf", s, "Set the screen brightness to about half.",
             [setting("system", "screen_brightness", "255")],
             [cond("half", "setting_is", table="system", name="screen_brightness", min=100, max=155)],
             [P.open("Settings"), disp, P.tap_at(0.5, rid="brightness_slider")], ["settings"]),
        Spec("WifiAndBluetoothOn", s, "Turn on both Wi-Fi and Bluetooth.",
             [setting("global", "wifi_on", "0")],
             [flag("wifi", "global", "wifi_on", "1"), flag("bt", "global", "bluetooth_on", "1")],
             [shade, P.tap(rid="tile_wifi_on"), P.tap(rid="tile_bluetooth_on")], ["system"], "medium"),
        Spec("AirplaneOffWifiOn", s, "Turn off airplane mode and then turn on Wi-Fi.",
             [setting("global", "airplane_mode_on", "1"), setting("global", "wifi_on", "0")],
             [flag("air", "global", "airplane_mode_on", "0"), flag("wifi", "global", "wifi_on", "1")],
             [P.open("Settings"), net, P.tap(rid="switch_airplane_mode_on"), P.tap(rid="switch_wifi_on")],
             ["settings"], "medium"),
        Spec("DarkThemeDim", s, "Switch to the dark theme and turn the brightness down to the minimum.", [light],
             [flag("dark", "secure", "ui_night_mode", "2"),
              cond("dim", "setting_is", table="system", name="screen_brightness", max=25)],
             [P.open("Settings"), disp, P.tap(rid="dark_ui_mode"), P.tap_at(0.03, rid="brightness_slider")],
             ["settings"], "medium"),
        Spec("LightThemeBright", s, "Switch to the light theme and set the brightness to maximum.",
             [setting("secure", "ui_night_mode", "2")],
             [flag("light", "secure", "ui_night_mode", "1"),
              cond("bright", "setting_is", table="system", name="screen_brightness", min=230)],
             [P.open("Settings"), disp, P.tap(rid="dark_ui_mode"), P.tap_at(0.97, rid="brightness_slider")],
             ["settings"], "medium"),
        Spec("AllRadiosOff", s, "Turn off Wi-Fi and Bluetooth from the quick settings panel.",
             [setting("global", "wifi_on", "1"), setting("global", "bluetooth_on", "1")],
             [flag("wifi", "global", "wifi_on", "0"), flag("bt", "global", "bluetooth_on", "0")],
             [shade, P.tap(rid="tile_wifi_on"), P.tap(rid="tile_bluetooth_on")], ["system"], "medium"),
    ]  # fmt: skip


def wiki_pages() -> list[DeviceOp]:
    """The local Wikipedia: a home page listing the featured articles, and the articles."""
    links = "\n".join(f"-> http://wiki.local/wiki/{t}" for t in WIKI)
    home = op("add_page", url="http://wiki.local", title="Wikipedia", text=f"The Free Encyclopedia\n{links}")
    return [home] + [
        op("add_page", url=f"http://wiki.local/wiki/{t}", title=t.replace("_", " "), text=body)
        for t, body in WIKI_TEXT.items()
    ]


def shop_pages() -> list[DeviceOp]:
    """A local shop: the front page lists the products, each product page links to 'add to cart'."""
    links = "\n".join(f"-> http://shop.local/item/{k}" for k in ITEMS)
    pages = [op("add_page", url="http://shop.local", title="ShopMart", text=f"Deals of the day\n{links}")]
    for key, (name, price) in ITEMS.items():
        pages += [
            op("add_page", url=f"http://shop.local/item/{key}", title=name,
               text=f"{price}\n-> http://shop.local/cart/add/{key}\n-> http://shop.local"),
            op("add_page", url=f"http://shop.local/cart/add/{key}", title="Added to cart",
               text=f"{name} is in your cart.\n-> http://shop.local\n-> http://shop.local/cart"),
        ]  # fmt: skip
    return [*pages, op("add_page", url="http://shop.local/cart", title="Cart", text="Your cart")]


def _go(url: str) -> list[ScriptItem]:
    return [P.open("Browser"), P.type(url, rid="url_bar"), P.act("keyboard_enter")]


def _web() -> list[Spec]:
    w = "web_shopping"

    def at(url: str) -> Condition:
        return cond("page", "app_pref", package=CHROME, key="current_url", equals=url)

    def visited(url: str, cid: str = "visited") -> Condition:
        return cond(cid, "app_pref", package=CHROME, key="history", contains=url)

    def article(t: str) -> Spec:
        return Spec(f"Wiki{t}", w, f"On the local Wikipedia (wiki.local), open the article about {t.lower()}.",
                    wiki_pages(), [at(f"http://wiki.local/wiki/{t}")],
                    [*_go("wiki.local"), P.tap(text=f"http://wiki.local/wiki/{t}")], ["browser"], "medium")  # fmt: skip

    def buy(key: str) -> Spec:
        name = ITEMS[key][0]
        return Spec(f"Shop{key.title()}", w, f"On shop.local, add the {name.lower()} to the cart.", shop_pages(),
                    [visited(f"http://shop.local/cart/add/{key}")],
                    [*_go("shop.local"), P.tap(text=f"http://shop.local/item/{key}"),
                     P.tap(text=f"http://shop.local/cart/add/{key}")], ["browser"], "medium")  # fmt: skip

    def view(key: str) -> Spec:
        name = ITEMS[key][0]
        return Spec(f"ShopView{key.title()}", w, f"On shop.local, open the product page of the {name.lower()}.",
                    shop_pages(), [at(f"http://shop.local/item/{key}")],
                    [*_go("shop.local"), P.tap(text=f"http://shop.local/item/{key}")], ["browser"])  # fmt: skip

    return [
        *(article(t) for t in ("Paris", "Mars", "Chess")),
        Spec("WikiSouthKorea", w, "On wiki.local, go from the Seoul article to the article about South Korea.",
             wiki_pages(), [visited("http://wiki.local/wiki/Seoul", "seoul"), at("http://wiki.local/wiki/South_Korea")],
             [*_go("wiki.local"), P.tap(text="http://wiki.local/wiki/Seoul"),
              P.tap(text="http://wiki.local/wiki/South_Korea")], ["browser"], "hard"),
        Spec("WikiNewOrleans", w, "On wiki.local, follow the jazz article's link to New Orleans.",
             wiki_pages(), [visited("http://wiki.local/wiki/Jazz", "jazz"), at("http://wiki.local/wiki/New_Orleans")],
             [*_go("wiki.local"), P.tap(text="http://wiki.local/wiki/Jazz"),
              P.tap(text="http://wiki.local/wiki/New_Orleans")], ["browser"], "hard"),
        *(buy(k) for k in ("lamp", "backpack", "mug", "charger")),
        view("lamp"),
        Spec("ShopTwoItems", w, "On shop.local, add both the coffee mug and the electric kettle to the cart.",
             shop_pages(),
             [visited("http://shop.local/cart/add/mug", "mug"), visited("http://shop.local/cart/add/kettle", "kettle")],
             [*_go("shop.local"), P.tap(text="http://shop.local/item/mug"), P.tap(text="http://shop.local/cart/add/mug"),
              P.tap(text="http://shop.local"), P.tap(text="http://shop.local/item/kettle"),
              P.tap(text="http://shop.local/cart/add/kettle")], ["browser"], "hard"),
        Spec("ShopBuyThenCart", w, "On shop.local, add the USB charger to the cart and then open the cart.",
             shop_pages(), [visited("http://shop.local/cart/add/charger"), at("http://shop.local/cart")],
             [*_go("shop.local"), P.tap(text="http://shop.local/item/charger"),
              P.tap(text="http://shop.local/cart/add/charger"), P.tap(text="http://shop.local/cart")],
             ["browser"], "hard"),
    ]  # fmt: skip


def _communication() -> list[Spec]:
    c = "communication"
    people = [op("add_contact", name=n, phone=p) for n, p in (ANN, BOB, CARA, DEV)]

    def dial(number: str) -> list[ScriptItem]:
        return [P.open("Phone"), P.type(number, rid="digits"), P.tap(rid="dialpad_floating_action_button")]

    def call_contact(who: tuple[str, str]) -> Spec:
        first = who[0].split()[0]
        return Spec(f"Call{first}", c, f"Call {who[0]}.", people, [cond("called", "call_made", number=who[1])],
                    [P.open("Contacts"), P.tap(text=who[0]), P.tap(rid="call_button")], ["contacts", "phone"])  # fmt: skip

    def text_contact(who: tuple[str, str], body: str) -> Spec:
        first = who[0].split()[0]
        return Spec(f"Text{first}", c, f"Text {who[0]}: {body}", people,
                    [cond("sent", "sms_sent", to=who[1], body=body)],
                    send_new(first, who[0], body), ["messages"], "medium")  # fmt: skip

    return [
        Spec("CallNumberTwo", c, "Call +1 555 0199.", [], [cond("called", "call_made", number="+15550199")],
             dial("+15550199"), ["phone"]),
        call_contact(CARA),
        call_contact(DEV),
        text_contact(BOB, "See you at 7"),
        text_contact(CARA, "Happy birthday!"),
        text_contact(DEV, "Meeting moved to 3 PM"),
        Spec("ReplyAnn", c, "Reply 'Yes' to Ann Lee's message.",
             [*people, op("add_sms", address=ANN[1], body="Dinner tonight?", minutes_ago=3)],
             [cond("sent", "sms_sent", to=ANN[1], body="Yes")],
             [P.open("Messages"), P.tap(text="Ann Lee"), P.type("Yes", rid="thread_type_message"),
              P.tap(rid="thread_send_message")], ["messages"]),
        Spec("AddContactTwo", c, "Add a contact Eli Park with phone number +1 555 0155.", [],
             [cond("added", "contact_exists", name="Eli Park", phone="+15550155")],
             [P.open("Contacts"), P.tap(rid="floating_action_button"), P.type("Eli", rid="editor_first"),
              P.type("Park", rid="editor_last"), P.type("+15550155", rid="editor_phone"), P.tap(rid="menu_save")],
             ["contacts"], "medium"),
        Spec("DeleteContactAnn", c, "Delete the contact Ann Lee.", people,
             [cond("gone", "contact_absent", name="Ann Lee"), cond("kept", "contact_exists", name="Bob Stone")],
             [P.open("Contacts"), P.tap(text="Ann Lee"), P.tap(rid="menu_delete"), P.tap(rid="button1")],
             ["contacts"]),
        Spec("CallBackMissedTwo", c, "Return the missed call from +1 555 0321.",
             [op("add_call", number="+15550321", kind="missed", minutes_ago=10),
              op("add_call", number="+15550999", kind="incoming", minutes_ago=90)],
             [cond("called", "call_made", number="+15550321")],
             [P.open("Phone"), P.tap(rid="tab_recents"), P.tap(text="+15550321")], ["phone"], "medium"),
        Spec("TextFromContact", c, "Open Cara Diaz in Contacts and text her 'On my way'.", people,
             [cond("sent", "sms_sent", to=CARA[1], body="On my way")],
             [P.open("Contacts"), P.tap(text=CARA[0]), P.tap(rid="sms_button"),
              P.type("On my way", rid="thread_type_message"), P.tap(rid="thread_send_message")],
             ["contacts", "messages"], "medium"),
        Spec("CallBackDev", c, "Call Dev Patel back from the call log.",
             [*people, op("add_call", number=DEV[1], kind="missed", minutes_ago=25)],
             [cond("called", "call_made", number=DEV[1])],
             [P.open("Phone"), P.tap(rid="tab_recents"), P.tap(text="Dev Patel")], ["phone"], "medium"),
    ]  # fmt: skip


def _utility() -> list[Spec]:
    u = "utility"
    songs = [op("add_song", title=t, artist=a) for t, a in
             (("Blue Train", "John Coltrane"), ("So What", "Miles Davis"), ("Take Five", "Dave Brubeck"))]  # fmt: skip

    def alarm(name: str, hour: int, minute: int, words: str) -> Spec:
        return Spec(name, u, f"Set an alarm for {words}.", [], [cond("alarm", "alarm_exists", hour=hour, minute=minute)],
                    [P.open("Clock"), P.tap(rid="fab"), *set_time(hour, minute)], ["clock"])  # fmt: skip

    def result(value: str) -> Condition:
        return cond("result", "app_pref", package=CALC, key="last_result", equals=value)

    def calc(name: str, words: str, expr: str, value: str) -> Spec:
        return Spec(name, u, f"Use the calculator to {words}.", [], [result(value)],
                    [P.open("Calculator"), *calc_keys(expr)], ["calculator"])  # fmt: skip

    def opener(label: str, package: str, app: str) -> Spec:
        return Spec(f"Open{label.replace(' ', '')}", u, f"Open the {label} app.", [],
                    [cond("fg", "foreground_is", package=package)], [P.open(label)], [app])  # fmt: skip

    def timer(minutes: int) -> Spec:
        return Spec(f"Timer{minutes}", u, f"Start a {minutes}-minute timer.", [],
                    [cond("timer", "timer_running", seconds=60 * minutes)],
                    [P.open("Clock"), P.tap(rid="tab_timer"), P.type(str(minutes), rid="timer_setup_digits"),
                     P.tap(rid="fab")], ["clock"])  # fmt: skip

    return [
        alarm("AlarmSeven", 7, 0, "7:00 AM"),
        alarm("AlarmNoon", 12, 0, "noon"),
        Spec("AlarmWeekend", u, "Set a 9:00 AM alarm that repeats on Saturdays and Sundays.", [],
             [cond("alarm", "alarm_exists", hour=9, minute=0, days=["sat", "sun"])],
             [P.open("Clock"), P.tap(rid="fab"), *set_time(9, 0), P.tap(rid="digital_clock"),
              P.tap(desc="Saturday"), P.tap(desc="Sunday")], ["clock"], "hard"),
        Spec("AlarmLabel", u, "Set an alarm for 6:00 AM labelled Run.", [],
             [cond("alarm", "alarm_exists", hour=6, minute=0, label="Run")],
             [P.open("Clock"), P.tap(rid="fab"), *set_time(6, 0), P.tap(rid="digital_clock"), P.tap(rid="edit_label"),
              P.type("Run", rid="label_input"), P.tap(rid="button1")], ["clock"], "hard"),
        Spec("AlarmOn", u, "Turn on the 7:30 AM alarm.",
             [op("add_alarm", hour=7, minute=30, enabled=False)],
             [cond("on", "alarm_exists", hour=7, minute=30, enabled=True)],
             [P.open("Clock"), P.tap(rid="onoff", nth=0)], ["clock"]),
        Spec("AlarmDeleteMorning", u, "Delete the 6:15 AM alarm and keep the others.",
             [op("add_alarm", hour=6, minute=15), op("add_alarm", hour=22, minute=0, label="Sleep")],
             [cond("gone", "alarm_absent", hour=6, minute=15), cond("kept", "alarm_exists", hour=22, minute=0)],
             [P.open("Clock"), P.tap(rid="digital_clock", nth=0), P.tap(rid="delete")], ["clock"], "medium"),
        timer(1),
        timer(15),
        calc("CalcDecimal", "compute 2.5 times 4", "2.5*4=", "10"),
        calc("CalcMultiplyTwo", "compute 12 times 12", "12*12=", "144"),
        calc("CalcAddTwo", "add 47 and 76", "47+76=", "123"),
        calc("CalcChain", "compute 15 plus 27 times 2 (left to right: first 15 + 27, then times 2)", "15+27=*2=",
             "84"),
        opener("Music", MUSIC, "music"),
        opener("Maps", "net.osmand", "maps"),
        opener("Files", "com.google.android.documentsui", "files"),
        opener("Markor", "net.gsantner.markor", "markor"),
        opener("Audio Recorder", "com.dimowner.audiorecorder", "recorder"),
        Spec("PlayBlueTrain", u, "Play 'Blue Train' in the music app.", songs,
             [cond("playing", "app_pref", package=MUSIC, key="now_playing", equals="Blue Train")],
             [P.open("Music"), P.tap(text="Blue Train")], ["music"]),
        Spec("PlaylistAdd", u, "Add 'Take Five' to your Jazz playlist.",
             [*songs, op("add_playlist", name="Jazz", songs=["Blue Train"])],
             [cond("added", "playlist_contains", name="Jazz", songs=["Blue Train", "Take Five"])],
             [P.open("Music"), P.hold(text="Take Five"), P.tap(text="Jazz")], ["music"], "medium"),
        Spec("MapsSaveMuseum", u, "Find the City Museum in Maps and save it.",
             [op("add_place", name="City Museum", address="1 Museum Sq", lat=40.1, lon=-73.2, category="museum"),
              op("add_place", name="City Park", address="2 Park Rd", lat=40.15, lon=-73.25, category="park")],
             [cond("saved", "app_pref", package="net.osmand", key="saved_places", contains="City Museum")],
             [P.open("Maps"), P.type("Museum", rid="searchEditText"), P.act("keyboard_enter"),
              P.tap(text="City Museum"), P.tap(rid="save_button")], ["maps"], "medium"),
        Spec("NewNoteTwo", u, "Create a Markor note called ideas.md containing 'learn piano'.", [],
             [cond("note", "file_exists", path="Documents/Markor/ideas.md", equals="learn piano")],
             [P.open("Markor"), P.tap(rid="fab_add_new_item"), P.type("ideas.md", rid="new_file_dialog__name"),
              P.tap(rid="button1"), P.type("learn piano", rid="document__fragment__edit__highlighting_editor"),
              P.tap(rid="action_save")], ["markor"], "medium"),
        Spec("FileDelete", u, "In the Files app, delete old.txt from Download.",
             [op("add_file", path="Download/old.txt", text="old"), op("add_file", path="Download/keep.txt", text="k")],
             [cond("gone", "file_absent", path="Download/old.txt"), cond("kept", "file_exists", path="Download/keep.txt")],
             [P.open("Files"), P.tap(rid="root_sdcard"), P.tap(text="Download"), P.hold(text="old.txt"),
              P.tap(rid="action_delete"), P.tap(rid="button1")], ["files"], "medium"),
        Spec("FileRename", u, "In Downloads, rename scan.txt to receipt.txt.",
             [op("add_file", path="Download/scan.txt", text="Total: 42.10")],
             [cond("renamed", "file_exists", path="Download/receipt.txt", equals="Total: 42.10"),
              cond("old_gone", "file_absent", path="Download/scan.txt")],
             [P.open("Files"), P.tap(rid="root_sdcard"), P.tap(text="Download"), P.hold(text="scan.txt"),
              P.tap(rid="action_rename"), P.type("receipt.txt", clear=True, rid="rename_input"), P.tap(rid="button1")],
             ["files"], "medium"),
    ]  # fmt: skip


def _event() -> list[Spec]:
    e = "event"

    def add(name: str, title: str, day: int, hour: int, words: str, difficulty: str = "hard") -> Spec:
        start = f"2026-03-{day:02d}T{hour:02d}:00"
        end = f"2026-03-{day:02d}T{hour + 1:02d}:00"
        script: list[Item] = [P.open("Calendar"), P.tap(rid="calendar_fab"), P.type(title, rid="event_title")]
        if day != 2:
            script += [P.tap(rid="event_start_date"), P.tap(desc=f"{day} March 2026"), P.tap(rid="button1")]
        script += [P.tap(rid="event_start_time"), *set_time(hour, 0), P.tap(rid="save")]
        return Spec(name, e, f"Add a calendar event '{title}' {words} (one hour).", [],
                    [cond("event", "event_exists", title=title, start=start, end=end)], script,
                    ["calendar"], difficulty)  # fmt: skip

    def delete(name: str, title: str, day: int, words: str) -> Spec:
        return Spec(name, e, f"Delete the '{title}' event {words}.",
                    [op("add_event", title=title, start=f"2026-03-{day:02d}T11:00:00"),
                     op("add_event", title="Keep me", start=f"2026-03-{day:02d}T16:00:00")],
                    [cond("gone", "event_absent", title=title),
                     cond("kept", "event_exists", title="Keep me", scored=False)],
                    [P.open("Calendar"), P.tap(desc=f"{day} March 2026 •"), P.tap(text=title), P.tap(rid="delete"),
                     P.tap(rid="button1")], ["calendar"], "medium")  # fmt: skip

    return [
        add("EventTomorrow", "Haircut", 3, 14, "tomorrow (3 March 2026) at 2:00 PM"),
        add("EventMeeting", "Team meeting", 2, 9, "today at 9:00 AM", "medium"),
        add("EventFriday", "Piano lesson", 6, 16, "on 6 March 2026 at 4:00 PM"),
        add("EventNextWeek", "Car service", 10, 8, "on 10 March 2026 at 8:00 AM"),
        delete("EventDeleteTomorrow", "Call plumber", 3, "tomorrow"),
        delete("EventDeleteFriday", "Book club", 6, "on Friday 6 March"),
        Spec("EventMoveLater", e, "Move today's 'Review' from 1:00 PM to 3:00 PM (same length).",
             [op("add_event", title="Review", start="2026-03-02T13:00:00", duration_minutes=60)],
             [cond("moved", "event_exists", title="Review", start="2026-03-02T15:00", end="2026-03-02T16:00")],
             [P.open("Calendar"), P.tap(desc="2 March 2026 •"), P.tap(text="Review"), P.tap(rid="edit"),
              P.tap(rid="event_start_time"), *set_time(15, 0), P.tap(rid="save")], ["calendar"], "hard"),
        Spec("EventRename", e, "Rename tomorrow's 'Lunch' event to 'Team lunch'.",
             [op("add_event", title="Lunch", start="2026-03-03T12:00:00", duration_minutes=60)],
             [cond("renamed", "event_exists", title="Team lunch", start="2026-03-03T12:00"),
              cond("old", "event_absent", title="Lunch")],
             [P.open("Calendar"), P.tap(desc="3 March 2026 •"), P.tap(text="Lunch"), P.tap(rid="edit"),
              P.type("Team lunch", clear=True, rid="event_title"), P.tap(rid="save")], ["calendar"], "medium"),
        Spec("EventAddLocation", e, "Add an event 'Concert' on 7 March 2026 at 8:00 PM (one hour) at City Hall.", [],
             [cond("event", "event_exists", title="Concert", start="2026-03-07T20:00", end="2026-03-07T21:00",
                   location="City Hall")],
             [P.open("Calendar"), P.tap(rid="calendar_fab"), P.type("Concert", rid="event_title"),
              P.tap(rid="event_start_date"), P.tap(desc="7 March 2026"), P.tap(rid="button1"),
              P.tap(rid="event_start_time"), *set_time(20, 0), P.type("City Hall", rid="event_location"),
              P.tap(rid="save")], ["calendar"], "hard"),
        Spec("EventMoveDay", e, "Move the 'Dentist' appointment from 4 March to the same time on 5 March.",
             [op("add_event", title="Dentist", start="2026-03-04T10:00:00", duration_minutes=60)],
             [cond("moved", "event_exists", title="Dentist", start="2026-03-05T10:00", end="2026-03-05T11:00")],
             [P.open("Calendar"), P.tap(desc="4 March 2026 •"), P.tap(text="Dentist"), P.tap(rid="edit"),
              P.tap(rid="event_start_date"), P.tap(desc="5 March 2026"), P.tap(rid="button1"), P.tap(rid="save")],
             ["calendar"], "hard"),
    ]  # fmt: skip


def more_specs() -> list[Spec]:
    """The 69 tasks of this half, in category order (131 with :mod:`bmoca`'s 62)."""
    return [*_system(), *_web(), *_communication(), *_utility(), *_event()]
