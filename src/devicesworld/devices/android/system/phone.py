"""The simulated OS: back stacks, dialogs, focus and keyboard, toasts, notifications, the screen.

:class:`Phone` owns everything that is not an app: which app is in front, one back
stack of :class:`Screen` per app, at most one modal dialog, the focused text field
(a reference into the state of the screen or dialog that owns it), whether the soft
keyboard is up, the notification list and the overlays (notification shade,
recents). After every action it rebuilds the view tree from state and lays it out
(:meth:`refresh`); the element list, the text rendering and the screenshot are all
read from that one tree, so they always agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.i18n import RTL_LANGUAGES, tr
from devicesworld.devices.android.profiles import AndroidProfile
from devicesworld.devices.android.storage import Storage
from devicesworld.devices.android.system import chrome, permissions
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.element import listed_nodes
from devicesworld.devices.android.ui.layout import layout, measure
from devicesworld.devices.android.ui.view import View
from devicesworld.devices.base import VirtualClock
from devicesworld.devices.safefs import SafeRoot

LAUNCHER = "com.google.android.apps.nexuslauncher"
SYSTEMUI = "com.android.systemui"
STATUS_DP = 24
NAV_DP = 48
KEYBOARD_DP = 260


@dataclass
class Focus:
    state: dict[str, Any]
    key: str


@dataclass
class Notification:
    package: str
    title: str
    text: str
    open: Callable[[], None]
    when: str
    key: str = ""


class Phone:
    def __init__(self, profile: AndroidProfile, storage: Storage, clock: VirtualClock) -> None:
        self.profile = profile
        self.storage = storage
        self.clock = clock
        self.lang: str = profile.language
        self.rtl = self.lang in RTL_LANGUAGES
        dt = profile.device_type
        self.width, self.height, self.density = dt.width, dt.height, dt.density
        self.apps: dict[str, App] = {}
        self.stacks: dict[str, list[Screen]] = {}
        self.foreground: str | None = None
        self.recents: list[str] = []
        self.dialog: Dialog | None = None
        self.focus: Focus | None = None
        self.keyboard = False
        self.toast: str | None = None
        self.overlay: str | None = None  # "shade" | "recents"
        self.notifications: list[Notification] = []
        self.root: View = View()
        self.dialog_view: View | None = None
        self.elements: list[View] = []
        self.parents: dict[int, View] = {}
        self.shade_state: dict[str, Any] = {}
        self.number = profile.owner_number or "+15551000"
        self.owner_label = profile.owner_name
        """The device name Settings > About shows: the profile's, or (when the phone takes a person's
        world and the profile names nobody) that person's, so which phone is whose can be found."""
        self.send_sms: Callable[[str, str], None] = lambda address, body: None
        """Called after this phone sends a text; the device delivers it to a phone of the task with that number."""
        self.locate: Callable[[str, str], Path] = lambda location, rel: storage.sd_path(rel)
        """``(location, relative) -> Path`` on /sdcard or the shared drive; the device wires the drive in."""
        self.fs: Callable[[str], SafeRoot] = lambda location: SafeRoot(storage.sdcard, "/sdcard")
        """``location -> SafeRoot``: file access that never follows a link (the drive is agent-writable)."""

    # --- strings and settings ------------------------------------------------------------
    def t(self, key: str, **fmt: object) -> str:
        return tr(self.lang, key, **fmt)

    def flag(self, table: str, name: str) -> bool:
        return self.storage.setting(table, name, "0") == "1"

    @property
    def dark(self) -> bool:
        return self.storage.setting("secure", "ui_night_mode", "1") == "2"

    @property
    def time_24h(self) -> bool:
        return self.storage.setting("system", "time_12_24", "12") == "24"

    # --- apps and navigation -------------------------------------------------------------
    def install(self, app: App) -> None:
        self.apps[app.package] = app

    def app_for(self, name: str) -> App | None:
        """An app by package, English label or label in the device's language (case-insensitive)."""
        wanted = name.strip().casefold()
        for app in self.apps.values():
            names = {
                app.package.casefold(),
                tr("en", app.label_key).casefold(),
                self.t(app.label_key).casefold(),
            }
            if wanted in names:
                return app
        return None

    @property
    def screen(self) -> Screen | None:
        if self.foreground is None:
            return None
        stack = self.stacks.get(self.foreground)
        return stack[-1] if stack else None

    def open_app(self, package: str) -> None:
        """Bring an app to the front, resuming its back stack (or starting its main screen)."""
        self.overlay = None
        self.dialog = None
        self.clear_focus()
        app = self.apps[package]
        if not self.stacks.get(package):
            screen = Screen(package, app.main_activity)
            self.stacks[package] = [screen]
            app.on_start(screen)
        self.foreground = package
        if package in self.recents:
            self.recents.remove(package)
        self.recents.insert(0, package)
        permissions.on_open(self, app)

    def start(self, package: str, activity: str, **state: Any) -> Screen:
        """Push a new screen of an app (``startActivity``) and bring the app forward."""
        if self.foreground != package:
            self.open_app(package)
        screen = Screen(package, activity, dict(state))
        self.stacks[package].append(screen)
        self.clear_focus()
        return screen

    def finish(self) -> None:
        """Close the top screen (``Activity.finish()``); the last one returns to the launcher."""
        if self.foreground is None:
            return
        stack = self.stacks[self.foreground]
        stack.pop()
        self.clear_focus()
        self.dialog = None
        if not stack:
            del self.stacks[self.foreground]
            self.foreground = None

    def home(self) -> None:
        self.overlay = None
        self.dialog = None
        self.clear_focus()
        self.foreground = None

    def back(self) -> None:
        """The system back: keyboard, overlay, dialog, the app's own handler, then the stack."""
        if self.keyboard:
            self.keyboard = False
            return
        if self.overlay is not None:
            self.overlay = None
            return
        if self.dialog is not None:
            self.dismiss()
            return
        screen = self.screen
        if screen is None:
            return
        if self.apps[screen.package].on_back(screen):
            return
        self.finish()

    def show_dialog(self, dialog: Dialog) -> None:
        self.clear_focus()
        self.dialog = dialog

    def dismiss(self) -> None:
        dialog = self.dialog
        self.dialog = None
        self.clear_focus()
        if dialog is not None and dialog.on_dismiss is not None:
            dialog.on_dismiss()

    def show_toast(self, message: str) -> None:
        self.toast = message

    def notify(self, note: Notification) -> None:
        self.notifications.insert(0, note)

    def clear_focus(self) -> None:
        self.focus = None
        self.keyboard = False

    def focus_field(self, state: dict[str, Any], key: str) -> None:
        self.focus = Focus(state, key)
        self.keyboard = True

    # --- the screen ----------------------------------------------------------------------
    def ancestors(self, node: View) -> list[View]:
        """The node and its parents, innermost first."""
        out = [node]
        while id(out[-1]) in self.parents:
            out.append(self.parents[id(out[-1])])
        return out

    def _content(self) -> View:
        if self.overlay == "shade":
            return chrome.shade(self)
        if self.overlay == "recents":
            return chrome.recents(self)
        screen = self.screen
        if screen is None:
            return chrome.launcher(self)
        app = self.apps[screen.package]
        content = (
            permissions.needed_screen(self, app) if permissions.blocked(self, app) else app.build(screen)
        )
        for node in content.walk():
            node.package = screen.package
        return content

    @property
    def foreground_package(self) -> str:
        if self.overlay is not None:
            return SYSTEMUI
        return self.foreground or LAUNCHER

    @property
    def foreground_activity(self) -> str:
        if self.overlay is not None:
            return f"{SYSTEMUI}/.{self.overlay}"
        screen = self.screen
        if screen is None:
            return f"{LAUNCHER}/.NexusLauncherActivity"
        return f"{screen.package}/.{screen.activity}"

    def refresh(self) -> None:
        """Rebuild and lay out the whole screen from state; drop a focus whose field is gone."""
        content = self._content()
        content.fill = True
        bars = [chrome.status_bar(self), content]
        if self.keyboard and self.focus is not None:
            bars.append(chrome.keyboard(self, KEYBOARD_DP))
        if self.toast:
            bars.append(View(v.TOAST, text=self.toast, height=48, package=SYSTEMUI, style="toast"))
        bars.append(chrome.nav_bar(self, NAV_DP))
        self.root = v.column(*bars)
        layout(self.root, 0, 0, self.width, self.height, self.density, self.rtl)
        self.dialog_view = None
        listed = listed_nodes(bars[0])
        if self.dialog is not None and self.overlay is None:
            self.dialog_view = chrome.dialog_view(self, self.dialog)
            x0, y0, x1, y1 = content.rect
            margin = round(24 * self.density)
            want = round(measure(self.dialog_view) * self.density)
            h = min(want, y1 - y0 - 2 * margin)
            top = y0 + max((y1 - y0 - h) // 2, margin)
            layout(self.dialog_view, x0 + margin, top, x1 - x0 - 2 * margin, h, self.density, self.rtl)
            listed += listed_nodes(self.dialog_view)
        else:
            listed += listed_nodes(content)
        for bar in bars[2:]:
            listed += listed_nodes(bar)
        self.elements = listed
        self.parents = {}
        for layer in (self.root, self.dialog_view):
            if layer is not None:
                for node in layer.walk():
                    for child in node.children:
                        self.parents[id(child)] = node
        if self.focus is not None and not any(
            n.editable and n.field == self.focus.key for n in self._focus_scope()
        ):
            self.clear_focus()

    def _focus_scope(self) -> list[View]:
        return self.dialog_view.walk() if self.dialog_view is not None else self.root.walk()

    def is_focused(self, node: View) -> bool:
        return self.focus is not None and node.editable and node.field == self.focus.key

    def screen_state_for(self, node: View) -> dict[str, Any]:
        """The state dict that owns an editable node: the dialog's, or the top screen's."""
        if self.dialog is not None and self.dialog_view is not None and node in self.dialog_view.walk():
            return self.dialog.state
        screen = self.screen
        if screen is None:
            return {}
        return screen.state
