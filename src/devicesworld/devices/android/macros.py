"""The phone's task-file macros: UI steps by meaning, so task files hold no internal element ids.

A reference solution for a phone is what an agent would send (``click`` with the
index of an element in the observation); a task file writes it by meaning instead —
``open: Messages``, ``send_sms: {to: Ann, pick: Ann Lee, body: hi}``, ``press: save``,
``set_time: {hour: 19, minute: 15}`` — and the task compiler records the indexes on
the simulator. The element names a task may ``press`` or ``type`` into are the
plain-English keys of :data:`ELEMENTS`; the resource ids behind them live only here,
next to the apps that define them. Macros read the phone's profile, so one script
fits every profile: a 12- or 24-hour time picker, a slider mirrored in a
right-to-left language.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from devicesworld.devices.android.i18n import RTL_LANGUAGES, tr_list
from devicesworld.devices.android.profiles import resolve_profile
from devicesworld.macros import MacroContext, MacroError, mapping_args, register

KIND = "android"

ELEMENTS: dict[str, str] = {
    # dialogs, permission prompts, share sheet
    "ok": "button1",
    "cancel": "button2",
    "allow": "permission_allow_button",
    "deny": "permission_deny_button",
    "grant_permission": "grant_permission",
    "share": "action_share",
    "share_contact": "menu_share",
    "next_month": "next",
    "previous_month": "prev",
    # Messages
    "new_conversation": "conversations_fab",
    "recipient": "new_conversation_address",
    "use_typed_number": "new_conversation_confirm",
    "message_field": "thread_type_message",
    "send": "thread_send_message",
    # Contacts
    "new_contact": "floating_action_button",
    "contact_search": "search_view",
    "first_name": "editor_first",
    "last_name": "editor_last",
    "phone_number": "editor_phone",
    "email": "editor_email",
    "company": "editor_company",
    "save_contact": "menu_save",
    "edit_contact": "menu_edit",
    "delete_contact": "menu_delete",
    "call_contact": "call_button",
    "text_contact": "sms_button",
    # Phone
    "recents_tab": "tab_recents",
    "dial_field": "digits",
    "dial": "dialpad_floating_action_button",
    # Settings and quick settings
    "network_settings": "network",
    "connected_devices": "connected",
    "display_settings": "display",
    "system_settings": "system",
    "about_phone": "about",
    "language_settings": "language",
    "font_size": "font_size",
    "dark_theme": "dark_ui_mode",
    "airplane_switch": "switch_airplane_mode_on",
    "bluetooth_switch": "switch_bluetooth_on",
    "wifi_switch": "switch_wifi_on",
    "brightness": "brightness_slider",
    "wifi_tile": "tile_wifi_on",
    "bluetooth_tile": "tile_bluetooth_on",
    "airplane_tile": "tile_airplane_mode_on",
    # Clock
    "clock_button": "fab",
    "hour": "hour",
    "minute": "minute",
    "am": "am_label",
    "pm": "pm_label",
    "alarm_time": "digital_clock",
    "alarm_switch": "onoff",
    "alarm_label": "edit_label",
    "label_field": "label_input",
    "timer_tab": "tab_timer",
    "timer_digits": "timer_setup_digits",
    "schedule_alarm": "schedule_alarm",
    # Calendar (and the Clock's delete)
    "new_event": "calendar_fab",
    "agenda": "agenda_view",
    "calendar_search": "search",
    "event_search": "search_query",
    "event_title": "event_title",
    "start_date": "event_start_date",
    "start_time": "event_start_time",
    "end_time": "event_end_time",
    "event_location": "event_location",
    "save": "save",
    "edit": "edit",
    "delete": "delete",
    # Files
    "internal_storage": "root_sdcard",
    "drive": "root_drive",
    "rename": "action_rename",
    "new_name": "rename_input",
    "move": "action_move",
    "copy": "action_copy",
    "paste": "clip_paste",
    "delete_file": "action_delete",
    # Markor
    "new_note": "fab_add_new_item",
    "note_name": "new_file_dialog__name",
    "note_editor": "document__fragment__edit__highlighting_editor",
    "save_note": "action_save",
    # Maps, Browser, Camera, Audio Recorder
    "map_search": "searchEditText",
    "save_place": "save_button",
    "address_bar": "url_bar",
    "shutter": "shutter_button",
    "record": "btn_record_start",
    "stop": "btn_stop",
}
"""Element names a task file may use (``press: save``), and the resource id each stands for."""

CALCULATOR_KEYS: dict[str, str] = {
    "=": "eq",
    "*": "op_mul",
    "/": "op_div",
    "-": "op_sub",
    "+": "op_add",
    ".": "dec_point",
}
"""Calculator keys by the character they type (digits are ``digit_N``)."""


def _element(name: Any) -> str:
    if not isinstance(name, str) or name not in ELEMENTS:
        raise MacroError(f"unknown phone element {name!r}; known: {', '.join(sorted(ELEMENTS))}")
    return ELEMENTS[name]


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise MacroError(f"{what} must be a string, got {value!r}")
    return value


def _ui(action: str, target: dict[str, Any] | None = None, **args: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"action": action, "args": args}
    if target is not None:
        item["target"] = target
    return item


def _press(rid: str, **target: Any) -> dict[str, Any]:
    return _ui("click", {"rid": rid, **target})


def _type(rid: str, text: str, clear: bool = False) -> dict[str, Any]:
    return _ui("input_text", {"rid": rid}, text=text, clear=clear)


def _target(args: Any, macro: str) -> dict[str, Any]:
    """``TEXT`` or ``{text|desc|hint: ..., nth: n}`` — an element by what the screen shows."""
    if isinstance(args, str):
        return {"text": args}
    spec = mapping_args(args, macro, (), ("text", "desc", "hint", "nth"))
    if not any(k in spec for k in ("text", "desc", "hint")):
        raise MacroError(f"{macro} needs text, desc or hint")
    return spec


# --- single steps ----------------------------------------------------------------------------


@register(KIND, "solution", "open", "open: APP — open an app by its launcher name")
def _open(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("open_app", app_name=_text(args, "open"))]


@register(KIND, "solution", "tap", "tap: TEXT | {text|desc|hint, nth} — tap the element showing this")
def _tap(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("click", _target(args, "tap"))]


@register(
    KIND, "solution", "hold", "hold: TEXT | {text|desc|hint, nth} — long-press the element showing this"
)
def _hold(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("long_press", _target(args, "hold"))]


@register(KIND, "solution", "press", "press: NAME | {name, desc, nth} — tap a named element (see ELEMENTS)")
def _press_macro(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    if isinstance(args, str):
        return [_press(_element(args))]
    spec = mapping_args(args, "press", ("name",), ("desc", "text", "nth"))
    return [_press(_element(spec.pop("name")), **spec)]


@register(KIND, "solution", "type", "type: {into: NAME, text, clear} — type into a named field")
def _type_macro(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "type", ("into", "text"), ("clear",))
    return [_type(_element(spec["into"]), _text(spec["text"], "type.text"), bool(spec.get("clear", False)))]


@register(KIND, "solution", "slide", "slide: {element: NAME, to: 0..1} — set a slider (mirrored in RTL)")
def _slide(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "slide", ("element", "to"))
    to = spec["to"]
    if isinstance(to, bool) or not isinstance(to, (int, float)) or not 0 <= to <= 1:
        raise MacroError(f"slide.to must be a number from 0 to 1, got {to!r}")
    if resolve_profile(dict(ctx.profile)).language in RTL_LANGUAGES:
        to = 1.0 - to  # sliders run from the right in right-to-left languages
    item = _press(_element(spec["element"]))
    item["at_fraction"] = to
    return [item]


@register(KIND, "solution", "back", "back — the system back button")
def _back(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("navigate_back")]


@register(KIND, "solution", "home", "home — the system home button")
def _home(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("navigate_home")]


@register(KIND, "solution", "enter", "enter — the keyboard's enter key")
def _enter(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("keyboard_enter")]


@register(KIND, "solution", "shade", "shade — pull down the notification shade (quick settings)")
def _shade(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("swipe", direction="down", from_edge=True)]


@register(KIND, "solution", "pause", "pause: SECONDS — let time pass on the phone")
def _pause(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    if isinstance(args, bool) or not isinstance(args, (int, float)):
        raise MacroError(f"pause takes a number of seconds, got {args!r}")
    return [_ui("wait", seconds=args)]


# --- app routines ----------------------------------------------------------------------------


@register(KIND, "solution", "open_contact", "open_contact: NAME — open Contacts and the contact of that name")
def _open_contact(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("open_app", app_name="Contacts"), _ui("click", {"text": _text(args, "open_contact")})]


@register(
    KIND, "solution", "open_conversation", "open_conversation: NAME — open Messages and that conversation"
)
def _open_conversation(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_ui("open_app", app_name="Messages"), _ui("click", {"text": _text(args, "open_conversation")})]


@register(
    KIND,
    "solution",
    "send_sms",
    "send_sms: {to, pick, body} — new text: type `to`, tap `pick` (or use the number)",
)
def _send_sms(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "send_sms", ("to", "body"), ("pick",))
    pick = spec.get("pick")
    return [
        _ui("open_app", app_name="Messages"),
        _press(ELEMENTS["new_conversation"]),
        _type(ELEMENTS["recipient"], _text(spec["to"], "send_sms.to")),
        _ui("click", {"text": _text(pick, "send_sms.pick")})
        if pick is not None
        else _press(ELEMENTS["use_typed_number"]),
        *_write_sms(spec["body"], ctx),
    ]


@register(
    KIND, "solution", "write_sms", "write_sms: BODY — type a message in the open conversation and send it"
)
def _write_sms(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [_type(ELEMENTS["message_field"], _text(args, "write_sms")), _press(ELEMENTS["send"])]


@register(
    KIND, "solution", "set_time", "set_time: {hour: 0-23, minute} — fill the open time picker and press OK"
)
def _set_time(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "set_time", ("hour", "minute"))
    hour, minute = spec["hour"], spec["minute"]
    if not (isinstance(hour, int) and 0 <= hour <= 23 and isinstance(minute, int) and 0 <= minute <= 59):
        raise MacroError(f"set_time needs hour 0-23 and minute 0-59, got {hour!r}:{minute!r}")
    h24 = resolve_profile(dict(ctx.profile)).time_24h
    steps = [
        _type(ELEMENTS["hour"], str(hour) if h24 else str(hour % 12 or 12), clear=True),
        _type(ELEMENTS["minute"], f"{minute:02d}", clear=True),
    ]
    if not h24:
        steps.append(_press(ELEMENTS["pm" if hour >= 12 else "am"]))
    return [*steps, _press(ELEMENTS["ok"])]


@register(
    KIND,
    "solution",
    "pick_date",
    "pick_date: {date: YYYY-MM-DD, pages: n} — in the open date picker, page n months on, tap the day, OK",
)
def _pick_date(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "pick_date", ("date",), ("pages",))
    try:
        day = date.fromisoformat(str(spec["date"]))
    except ValueError:
        raise MacroError(f"pick_date.date must be YYYY-MM-DD, got {spec['date']!r}") from None
    pages = spec.get("pages", 0)
    if isinstance(pages, bool) or not isinstance(pages, int) or abs(pages) > 24:
        raise MacroError(f"pick_date.pages must be a whole number of months (-24..24), got {pages!r}")
    months = tr_list(resolve_profile(dict(ctx.profile)).language, "cal.months")
    arrow = ELEMENTS["next_month" if pages > 0 else "previous_month"]
    return [
        *[_press(arrow) for _ in range(abs(pages))],
        _ui("click", {"desc": f"{day.day} {months[day.month - 1]} {day.year}"}),
        _press(ELEMENTS["ok"]),
    ]


@register(KIND, "solution", "calc", "calc: KEYS — press calculator keys, e.g. '48*17='")
def _calc(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    keys = _text(args, "calc")
    bad = [ch for ch in keys if not ch.isdigit() and ch not in CALCULATOR_KEYS]
    if bad:
        raise MacroError(f"calc: no key for {''.join(bad)!r} (keys: digits and {''.join(CALCULATOR_KEYS)})")
    return [_press(CALCULATOR_KEYS.get(ch, f"digit_{ch}")) for ch in keys]


@register(KIND, "solution", "dial", "dial: DIGITS — press the dial pad's keys (no call yet)")
def _dial(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    digits = _text(args, "dial")
    if not digits.isdigit():
        raise MacroError(f"dial takes digits, got {digits!r}")
    return [_press(f"key_{ch}") for ch in digits]
