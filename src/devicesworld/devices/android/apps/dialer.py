"""Phone (Google Dialer): keypad with a number field, call button, in-call screen, call log.

A call is logged as outgoing when it is placed; *End call* closes the in-call screen.
Calls fail with a toast in airplane mode.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.system.phone import Phone

PACKAGE = "com.google.android.dialer"
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#")


def place_call(phone: Phone, number: str) -> None:
    if phone.flag("global", "airplane_mode_on"):
        phone.show_toast(phone.t("msg.airplane_failed"))
        return
    p.add_call(phone.storage, number, phone.clock.now, p.CALL_OUTGOING)
    phone.start(PACKAGE, "incall", number=number)


class DialerApp(App):
    package = PACKAGE
    label_key = "app.phone"
    permission = "phone"
    tabs = (("recents", "ph.recents"), ("keypad", "ph.keypad"))
    default_tab = "keypad"

    def screen_main(self, screen: Screen) -> View:
        if self.tab(screen) == "recents":
            kinds = {"incoming": "ph.incoming", "outgoing": "ph.outgoing", "missed": "ph.missed"}
            rows = [
                v.item(
                    c["name"] or c["number"],
                    f"{self.t(kinds[c['kind']])} · {c['date'][5:16].replace('T', ' ')}",
                    on_click=partial(place_call, self.phone, c["number"]),
                    rid=self.rid("call_log_item"),
                )
                for c in p.calls(self.storage)
            ]
            body = self.scroll("log", rows, screen.state, rid="call_log", empty="ph.no_calls")
            return self.page(self.appbar(self.t("app.phone"), up=False), self.tab_row(screen), body)
        number = str(screen.state.get("number", ""))

        def press(key: str) -> None:
            screen.state["number"] = str(screen.state.get("number", "")) + key

        def backspace() -> None:
            screen.state["number"] = str(screen.state.get("number", ""))[:-1]

        def call() -> None:
            n = str(screen.state.get("number", "")).strip()
            if n:
                screen.state["number"] = ""
                place_call(self.phone, n)

        rows = [
            v.row(
                *[
                    v.button(k, partial(press, k), rid=self.rid(f"key_{k}"), height=56)
                    for k in KEYS[i : i + 3]
                ],
                height=56,
            )
            for i in range(0, 12, 3)
        ]
        return self.page(
            self.appbar(self.t("app.phone"), up=False),
            self.tab_row(screen),
            v.row(
                v.edit("number", number, hint=self.t("ph.number"), rid=self.rid("digits"), weight=5),
                v.icon_button(self.t("ph.delete_digit"), backspace, rid=self.rid("deleteButton")),
                height=56,
            ),
            v.column(*rows, fill=True),
            v.button(
                self.t("ph.call"), call, rid=self.rid("dialpad_floating_action_button"), style="primary"
            ),
        )

    def screen_incall(self, screen: Screen) -> View:
        number = str(screen.state["number"])
        who = p.name_for(self.storage, number) or number
        return self.page(
            v.column(
                v.text(
                    self.t("ph.calling", who=who),
                    rid=self.rid("contactgrid_contact_name"),
                    height=96,
                    style="headline",
                ),
                fill=True,
            ),
            v.button(
                self.t("ph.end_call"), self.phone.finish, rid=self.rid("incall_end_call"), style="danger"
            ),
        )
