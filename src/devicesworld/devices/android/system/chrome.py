"""System UI around the apps: status bar, navigation bar, keyboard, launcher, shade, recents, dialogs.

Everything here belongs to ``com.android.systemui`` or the launcher and is built
from the same view nodes as apps, so the agent sees and taps it the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from devicesworld.devices.android.apps.base import Dialog
from devicesworld.devices.android.system import radios
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.system.phone import Phone

SYSUI = "com.android.systemui"
LAUNCHER_PKG = "com.google.android.apps.nexuslauncher"
ICON_ROW_DP = {"small": 80.0, "medium": 96.0, "large": 112.0}


def _sys(node: View, package: str = SYSUI) -> View:
    for n in node.walk():
        n.package = package
    return node


def clock_text(phone: Phone) -> str:
    now = phone.clock.now
    if phone.time_24h:
        return now.strftime("%H:%M")
    return f"{now.hour % 12 or 12}:{now.minute:02d}"


def status_bar(phone: Phone) -> View:
    icons: list[View] = [
        v.text(clock_text(phone), rid="com.android.systemui:id/clock", height=24, style="status")
    ]
    if phone.notifications:
        icons.append(
            View(
                v.IMAGE,
                content_description=f"{phone.t('sys.notifications')}: {len(phone.notifications)}",
                resource_id="com.android.systemui:id/notification_icons",
                height=24,
                style="status_icon",
            )
        )
    if phone.flag("global", "airplane_mode_on"):
        icons.append(
            View(v.IMAGE, content_description=phone.t("sys.airplane"), height=24, style="status_icon")
        )
    if phone.flag("global", "wifi_on"):
        icons.append(View(v.IMAGE, content_description=phone.t("sys.wifi"), height=24, style="status_icon"))
    if phone.flag("global", "bluetooth_on"):
        icons.append(
            View(v.IMAGE, content_description=phone.t("sys.bluetooth"), height=24, style="status_icon")
        )
    icons.append(
        View(
            v.IMAGE,
            content_description=phone.t("sys.battery", n=phone.profile.battery),
            resource_id="com.android.systemui:id/battery",
            height=24,
            style="status_icon",
        )
    )
    bar = v.row(*icons, height=24, rid="com.android.systemui:id/status_bar")
    bar.style = "status_bar"
    return _sys(bar)


def nav_bar(phone: Phone, height: float) -> View:
    bar = v.row(
        v.icon_button(phone.t("sys.back"), phone.back, rid="com.android.systemui:id/back"),
        v.icon_button(phone.t("sys.home"), phone.home, rid="com.android.systemui:id/home"),
        v.icon_button(
            phone.t("sys.recents"),
            partial(_open_overlay, phone, "recents"),
            rid="com.android.systemui:id/recent_apps",
        ),
        height=height,
        rid="com.android.systemui:id/navigation_bar",
    )
    bar.style = "nav_bar"
    return _sys(bar)


def keyboard(phone: Phone, height: float) -> View:
    return View(
        "android.inputmethodservice.KeyboardView",
        height=height,
        style="keyboard",
        package="com.google.android.inputmethod.latin",
    )


def _open_overlay(phone: Phone, name: str) -> None:
    phone.clear_focus()
    phone.overlay = None if phone.overlay == name else name


def launcher_order(phone: Phone) -> list[str]:
    packages = list(phone.apps)
    if phone.profile.icon_seed:
        random.Random(phone.profile.icon_seed).shuffle(packages)
    return packages


def launcher(phone: Phone) -> View:
    cols = phone.profile.icon_columns
    row_h = ICON_ROW_DP[phone.profile.icon_size] * phone.profile.font_scale
    icons = [
        View(
            v.TEXT,
            text=phone.t(phone.apps[p].label_key),
            content_description=phone.t(phone.apps[p].label_key),
            resource_id=f"{LAUNCHER_PKG}:id/icon",
            on_click=partial(phone.open_app, p),
            style="app_icon",
            height=row_h,
        )
        for p in launcher_order(phone)
    ]
    rows: list[View] = []
    for i in range(0, len(icons), cols):
        chunk = icons[i : i + cols]
        chunk += [View(v.FRAME, height=row_h) for _ in range(cols - len(chunk))]
        rows.append(v.row(*chunk, height=row_h))
    grid = v.column(View(v.FRAME, height=24), *rows, rid=f"{LAUNCHER_PKG}:id/workspace")
    grid.style = "wallpaper"
    grid.fill = True
    return _sys(grid, LAUNCHER_PKG)


def _clearable(
    phone: Phone,
    package: str,
    key: str,
    items: list[View],
    list_id: str,
    empty: str,
    clear: Callable[[], None],
) -> tuple[View, View]:
    """A system list (notifications, recent apps) and its *Clear all* button, greyed out when empty.

    Ids are ``<package>:id/<list_id>`` and ``<package>:id/clear_all``; ``empty`` is a string key.
    """
    return (
        v.scroll_list(key, items, phone.shade_state, rid=f"{package}:id/{list_id}", empty=phone.t(empty)),
        v.button(
            phone.t("sys.clear_all"),
            clear if items else None,
            rid=f"{package}:id/clear_all",
            enabled=bool(items),
        ),
    )


def shade(phone: Phone) -> View:
    st = phone.storage

    def tile(label: str, setting: str) -> View:
        return View(
            v.SWITCH,
            text=label,
            checkable=True,
            checked=phone.flag("global", setting),
            on_click=partial(radios.toggle, st, setting),
            resource_id=f"{SYSUI}:id/tile_{setting}",
            height=64,
            style="tile",
        )

    tiles = v.row(
        tile(phone.t("sys.wifi"), "wifi_on"),
        tile(phone.t("sys.bluetooth"), "bluetooth_on"),
        tile(phone.t("sys.airplane"), "airplane_mode_on"),
        height=64,
        rid=f"{SYSUI}:id/quick_settings",
    )

    def open_note(i: int) -> None:
        note = phone.notifications.pop(i)
        phone.overlay = None
        note.open()

    items = [
        v.item(f"{n.title}", n.text, on_click=partial(open_note, i), rid=f"{SYSUI}:id/notification")
        for i, n in enumerate(phone.notifications)
    ]

    def clear() -> None:
        phone.notifications.clear()

    body = v.column(
        tiles,
        v.text(phone.t("sys.notifications"), style="title", height=40),
        *_clearable(phone, SYSUI, "shade_scroll", items, "notification_stack", "sys.no_notifications", clear),
    )
    body.style = "shade"
    return _sys(body)


def recents(phone: Phone) -> View:
    def switch_to(p: str) -> None:
        phone.open_app(p)

    def clear() -> None:
        for p in list(phone.recents):
            phone.stacks.pop(p, None)
        phone.recents.clear()
        phone.home()

    cards = [
        v.item(
            phone.t(phone.apps[p].label_key),
            on_click=partial(switch_to, p),
            rid=f"{LAUNCHER_PKG}:id/snapshot",
        )
        for p in phone.recents
    ]
    body = v.column(
        *_clearable(phone, LAUNCHER_PKG, "recents_scroll", cards, "overview_panel", "sys.no_recents", clear),
    )
    return _sys(body, LAUNCHER_PKG)


def dialog_view(phone: Phone, dialog: Dialog) -> View:
    kids: list[View] = []
    if dialog.title:
        kids.append(v.text(dialog.title, rid="android:id/alertTitle", style="title", height=48))
    kids += dialog.body(dialog)
    buttons = dialog.buttons(dialog)
    if buttons:
        kids.append(v.row(*buttons, height=48, rid="android:id/buttonPanel"))
    root = v.column(*kids, rid=dialog.resource_id)
    root.style = "dialog"
    pkg = phone.foreground_package
    for n in root.walk():
        n.package = pkg
    return root
