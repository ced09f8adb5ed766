"""The ``android`` device: a :class:`Phone` with its storage, wired to the device protocol."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android import providers
from devicesworld.devices.android.actions import (
    GestureArgs,
    InputTextArgs,
    OpenAppArgs,
    ScrollArgs,
    SwipeArgs,
    TargetArgs,
    WaitArgs,
)
from devicesworld.devices.android.apps import ALL_APPS
from devicesworld.devices.android.apps.clock import PACKAGE as CLOCK_PACKAGE
from devicesworld.devices.android.apps.messages import PACKAGE as SMS_PACKAGE
from devicesworld.devices.android.getters import GETTERS
from devicesworld.devices.android.profiles import resolve_profile
from devicesworld.devices.android.screentext import element_line, screen_text
from devicesworld.devices.android.setup import SETUP_OPS
from devicesworld.devices.android.storage import Storage
from devicesworld.devices.android.system import input as touch
from devicesworld.devices.android.system.phone import Notification, Phone
from devicesworld.devices.android.ui.element import to_element
from devicesworld.devices.android.ui.view import View
from devicesworld.devices.base import ActionResult, Args, DeviceContext, DeviceError, NoArgs
from devicesworld.devices.declare import ActionTable
from devicesworld.devices.drive import get_drive
from devicesworld.devices.listing import (
    LIST_DOC,
    READ_DOC,
    ListElementsArgs,
    ReadElementArgs,
    list_elements,
    read_element,
)
from devicesworld.devices.safefs import SafeRoot

if TYPE_CHECKING:
    from PIL import Image

NETWORK_KEY = "android_network"
"""Task-wide services key: the task's phones by device id, so texts between them arrive."""


@dataclass
class _Pending:
    due: datetime
    address: str
    body: str


ACTIONS: ActionTable[AndroidDevice] = ActionTable("android")
"""The phone's actions, declared on the methods below; setup ops in :mod:`.setup`, getters in :mod:`.getters`."""


class AndroidDevice:
    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.context = context
        self.started = context.clock.now
        """The task's start (the ``clock`` getter reports it beside the time now)."""
        self.profile = resolve_profile(dict(profile))
        self.storage = Storage(context.workdir)
        s = self.storage
        s.put_setting("system", "system_locales", self.profile.language)
        s.put_setting("secure", "ui_night_mode", "2" if self.profile.dark_mode else "1")
        s.put_setting("system", "font_scale", str(self.profile.font_scale))
        s.put_setting("system", "time_12_24", "24" if self.profile.time_24h else "12")
        self.phone = Phone(self.profile, s, context.clock)
        self.phone.locate = self.resolve
        self.phone.fs = self.fs
        n = int(device_id.rsplit("_", 1)[-1]) if device_id.rsplit("_", 1)[-1].isdigit() else 0
        self.phone.number = self.profile.owner_number or f"+1555{1000 + n:04d}"
        self.phone.send_sms = self._send_to_peer
        network: dict[str, AndroidDevice] = context.shared.setdefault(NETWORK_KEY, {})
        network[device_id] = self
        for app_cls in ALL_APPS:
            self.phone.install(app_cls(self.phone))
        self._pending: list[_Pending] = []
        self._dirty = True
        context.clock.subscribe(self._on_time)

    # --- paths ---------------------------------------------------------------------------
    def resolve(self, location: str, relative: str) -> Path:
        """A path on /sdcard or the shared drive; a bad path is a DeviceError."""
        try:
            if location == "drive":
                drive = get_drive(self.context)
                return drive.root if not relative.strip("/") else drive.resolve(relative)
            return self.storage.sd_path(relative)
        except ValueError as exc:
            raise DeviceError("INVALID_PATH", str(exc)) from None

    def fs(self, location: str) -> SafeRoot:
        """/sdcard or the shared drive for file access that never follows a link."""
        if location == "drive":
            return get_drive(self.context).fs
        return SafeRoot(self.storage.sdcard, "/sdcard")

    @staticmethod
    def relative(location: str, path: str) -> str:
        """``path`` relative to its location's root (``/sdcard/`` prefix dropped)."""
        rel = path.removeprefix("/sdcard") if location == "sdcard" else path
        return rel.lstrip("/")

    def prefs_of(self, package: str) -> dict[str, Any]:
        rows = self.storage.db(package, "app.db").execute("SELECT key FROM prefs").fetchall()
        return {r[0]: self.storage.pref(package, r[0]) for r in rows}

    # --- the task's phone network ----------------------------------------------------------
    def _send_to_peer(self, address: str, body: str) -> None:
        """A text to the number of another phone of the same task arrives there, from this phone's number."""
        network: dict[str, AndroidDevice] = self.context.shared.get(NETWORK_KEY, {})
        for peer in network.values():
            reachable = not peer.phone.flag("global", "airplane_mode_on")
            if peer is not self and reachable and providers.same_number(peer.phone.number, address):
                peer.schedule_sms(self.phone.number, body, 0)

    # --- incoming messages ---------------------------------------------------------------
    def schedule_sms(self, address: str, body: str, delay: float) -> None:
        due = self.context.clock.now + timedelta(seconds=delay)
        if delay <= 0:
            self._deliver(_Pending(due, address, body))
        else:
            self._pending.append(_Pending(due, address, body))

    def _deliver(self, msg: _Pending) -> None:
        providers.add_sms(self.storage, msg.address, msg.body, msg.due, sent=False, read=False)
        who = providers.name_for(self.storage, msg.address) or msg.address
        app = self.phone.apps[SMS_PACKAGE]

        def open_thread() -> None:
            self.phone.open_app(SMS_PACKAGE)
            app.open_thread(msg.address)  # type: ignore[attr-defined]

        self.phone.notify(
            Notification(
                SMS_PACKAGE,
                who,
                msg.body,
                open_thread,
                msg.due.isoformat(),
                key=providers.digits(msg.address),
            )
        )
        self._dirty = True

    def _on_time(self, old: datetime, new: datetime) -> None:
        due = sorted((m for m in self._pending if m.due <= new), key=lambda m: m.due)
        self._pending = [m for m in self._pending if m.due > new]
        for m in due:
            self._deliver(m)
        self._ring_alarms(old, new)
        self._dirty = True

    def _ring_alarms(self, old: datetime, new: datetime) -> None:
        """Enabled alarms whose time falls in ``(old, new]`` ring: a notification; one-shot alarms turn off."""
        for alarm in providers.alarms(self.storage):
            if not alarm["enabled"]:
                continue
            at = old.replace(hour=alarm["hour"], minute=alarm["minute"], second=0, microsecond=0)
            if at <= old:
                at += timedelta(days=1)
            rang = False
            on = alarm.get("date")
            while at <= new and not rang:
                weekday = providers.WEEKDAYS[(at.weekday() + 1) % 7]
                if on:  # a one-time alarm on a date rings on that date only
                    rang = at.date().isoformat() == on
                elif not alarm["days"] or weekday in alarm["days"]:
                    rang = True
                at += timedelta(days=1)
            if not rang:
                continue
            label = alarm["label"] or self.phone.t("ck.alarm")
            when = f"{alarm['hour']:02d}:{alarm['minute']:02d}"
            self.phone.notify(
                Notification(
                    CLOCK_PACKAGE, label, when, partial(self.phone.open_app, CLOCK_PACKAGE), new.isoformat()
                )
            )
            if not alarm["days"]:
                self.storage.execute(
                    *providers.ALARMS_DB, "UPDATE alarm_templates SET enabled=0 WHERE _id=?", (alarm["id"],)
                )

    # --- protocol ------------------------------------------------------------------------
    def setup(self, op: str, args: Args) -> None:
        SETUP_OPS.call(self, op, args)
        self._dirty = True

    def _fresh(self) -> None:
        if self._dirty:
            self.storage.commit()
            self.phone.refresh()
            self._dirty = False

    def act(self, action: str, args: Args) -> ActionResult:
        self._fresh()
        phone = self.phone
        phone.toast = None
        try:
            result = ACTIONS.act(self, action, args)
        finally:
            self._dirty = True
        return result

    def _target(self, args: TargetArgs) -> View | ActionResult:
        if args.index is not None:
            return touch.element(self.phone, args.index)
        assert args.x is not None and args.y is not None  # TargetArgs' validator
        return touch.hit(self.phone, args.x, args.y)

    # --- actions -------------------------------------------------------------------------
    @ACTIONS.register("click", doc="Tap an element (index) or a point (x, y).", args=TargetArgs)
    def _click(self, args: TargetArgs) -> ActionResult:
        node = self._target(args)
        if isinstance(node, ActionResult):
            return node
        return touch.tap(self.phone, node, _point(args))

    @ACTIONS.register("double_tap", doc="Tap twice quickly.", args=TargetArgs)
    def _double_tap(self, args: TargetArgs) -> ActionResult:
        phone = self.phone
        node = self._target(args)
        if isinstance(node, ActionResult):
            return node
        at = _point(args)
        result = touch.tap(phone, node, at)
        if result.ok:
            phone.refresh()
            again = touch.hit(phone, *_center(node)) if at is None else touch.hit(phone, *at)
            if isinstance(again, View):
                touch.tap(phone, again, at)
            result = ActionResult.success("double-" + result.message)
        return result

    @ACTIONS.register("long_press", doc="Press and hold an element or point.", args=TargetArgs)
    def _long_press(self, args: TargetArgs) -> ActionResult:
        node = self._target(args)
        if isinstance(node, ActionResult):
            return node
        return touch.long_press(self.phone, node)

    @ACTIONS.register(
        "input_text",
        doc="Type into the focused field (tapping index or x,y first if given).",
        args=InputTextArgs,
    )
    def _input_text(self, args: InputTextArgs) -> ActionResult:
        phone = self.phone
        if args.index is not None:
            node = touch.element(phone, args.index)
            if isinstance(node, ActionResult):
                return node
            if not node.editable:
                return ActionResult.failure("NOT_EDITABLE", f"{touch.describe(node)} is not a text field")
            touch.tap(phone, node)
        elif args.x is not None and args.y is not None:
            # AndroidWorld taps the point, whatever is there, then types into what has focus
            hit = touch.hit(phone, args.x, args.y)
            if isinstance(hit, View):
                touch.tap(phone, hit, (args.x, args.y))
                phone.refresh()
        typed = touch.type_text(phone, args.text, args.clear)
        if not (typed.ok and args.enter):
            return typed
        phone.refresh()
        pressed = touch.enter(phone)
        return ActionResult(ok=typed.ok, message=f"{typed.message}; {pressed.message}", data=typed.data)

    @ACTIONS.register("keyboard_enter", doc="Press the keyboard's Enter/action key.")
    def _keyboard_enter(self, args: NoArgs) -> ActionResult:
        return touch.enter(self.phone)

    @ACTIONS.register("scroll", doc="Scroll a list; 'down' shows what is further down.", args=ScrollArgs)
    def _scroll(self, args: ScrollArgs) -> ActionResult:
        within: View | None = None
        if args.index is not None:
            found = touch.element(self.phone, args.index)
            if isinstance(found, ActionResult):
                return found
            within = found
        return touch.scroll(self.phone, args.direction, within, args.distance)

    @ACTIONS.register("swipe", doc="Swipe a finger across the screen.", args=SwipeArgs)
    def _swipe(self, args: SwipeArgs) -> ActionResult:
        return touch.swipe(self.phone, args.direction, args.from_edge)

    @ACTIONS.register("navigate_home", doc="Press Home.")
    def _navigate_home(self, args: NoArgs) -> ActionResult:
        self.phone.home()
        return ActionResult.success("home screen")

    @ACTIONS.register("navigate_back", doc="Press Back (closes keyboard, dialog, screen - in that order).")
    def _navigate_back(self, args: NoArgs) -> ActionResult:
        self.phone.back()
        return ActionResult.success("back")

    @ACTIONS.register("navigate_recents", doc="Show recent apps.")
    def _navigate_recents(self, args: NoArgs) -> ActionResult:
        self.phone.clear_focus()
        self.phone.overlay = "recents"
        return ActionResult.success("recent apps")

    @ACTIONS.register("open_app", doc="Launch an app.", args=OpenAppArgs)
    def _open_app(self, args: OpenAppArgs) -> ActionResult:
        phone = self.phone
        app = phone.app_for(args.app_name)
        if app is None:
            names = ", ".join(phone.t(a.label_key) for a in phone.apps.values())
            return ActionResult.failure("NOT_FOUND", f"no app named {args.app_name!r}; installed: {names}")
        phone.open_app(app.package)
        return ActionResult.success(f"opened {phone.t(app.label_key)}")

    @ACTIONS.register("wait", doc="Let virtual time pass (timers, incoming messages).", args=WaitArgs)
    def _wait(self, args: WaitArgs) -> ActionResult:
        self.context.clock.advance(args.seconds)
        return ActionResult.success(f"waited {args.seconds:g} s")

    @ACTIONS.register(
        "gesture",
        doc="B-MoCA's gesture: touch, then lift; a short one is a tap.",
        args=GestureArgs,
    )
    def _gesture(self, args: GestureArgs) -> ActionResult:
        return touch.gesture(self.phone, args.touch_point, args.lift_point)

    @ACTIONS.register("read_element", doc=READ_DOC, args=ReadElementArgs)
    def _read_element(self, args: ReadElementArgs) -> ActionResult:
        return read_element([n.text or n.content_description or "" for n in self.phone.elements], args)

    @ACTIONS.register("list_elements", doc=LIST_DOC, args=ListElementsArgs)
    def _list_elements(self, args: ListElementsArgs) -> ActionResult:
        phone = self.phone
        els = phone.elements

        def haystack(i: int) -> str:
            n = els[i]
            return " ".join(x or "" for x in (n.text, n.content_description, n.hint_text, n.resource_id))

        return list_elements(
            len(els),
            lambda i: element_line(i, els[i], phone.is_focused(els[i])),
            haystack,
            lambda i: els[i].class_name.rsplit(".", 1)[-1],
            args,
        )

    def observe(self) -> dict[str, Any]:
        self._fresh()
        phone = self.phone
        w, h = phone.width, phone.height
        return {
            "foreground_app": phone.foreground_package,
            "foreground_activity": phone.foreground_activity,
            "screen_size": [w, h],
            "keyboard_visible": phone.keyboard,
            # the compact text screen comes before the verbose element list, so a consumer that
            # clips long observations (LLM prompts) still sees every element with its index
            "screen_text": screen_text(phone, self.profile.device_type.name),
            "ui_elements": [to_element(n, w, h, phone.is_focused(n)) for n in phone.elements],
        }

    def screenshot(self) -> bytes | None:
        from devicesworld.devices.android.render import render_png

        self._fresh()
        return render_png(self.phone)

    def screenshot_image(self) -> Image.Image:
        """The screen as a Pillow image, without the PNG round trip (pixel observations downscale it)."""
        from devicesworld.devices.android.render import render

        self._fresh()
        return render(self.phone)

    def current_phone(self) -> Phone:
        """The phone with its screen rebuilt from the latest state (for facades that read the view tree)."""
        self._fresh()
        return self.phone

    def ui_summary(self) -> dict[str, Any]:
        self._fresh()
        return {
            "foreground_app": self.phone.foreground_package,
            "foreground_activity": self.phone.foreground_activity,
            "texts": [n.text or n.content_description for n in self.phone.elements],
        }

    def get(self, getter: str, args: Args) -> object:
        return GETTERS.call(self, getter, args)

    def close(self) -> None:
        self.context.shared.get(NETWORK_KEY, {}).pop(self.device_id, None)
        self.storage.close()


def _point(args: TargetArgs) -> tuple[float, float] | None:
    return (args.x, args.y) if args.x is not None and args.y is not None else None


def _center(node: View) -> tuple[float, float]:
    x0, y0, x1, y1 = node.rect
    return (x0 + x1) / 2, (y0 + y1) / 2


def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> AndroidDevice:
    return AndroidDevice(device_id, profile, context)


__all__ = ["AndroidDevice", "factory"]
