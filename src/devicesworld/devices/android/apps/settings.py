"""Settings: network (Wi-Fi, airplane mode), Bluetooth, display (brightness, dark theme, font size), language.

Values go to ``settings.db`` (``global``/``system``/``secure``) the moment a switch is
flipped, as on Android. Brightness is a slider that takes the tap's position; font
size and language are chosen in radio-list dialogs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.i18n import LANGUAGES, RTL_LANGUAGES
from devicesworld.devices.android.system import radios
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.android.settings"
FONT_SCALES = (
    ("st.font_small", "0.85"),
    ("st.font_default", "1.0"),
    ("st.font_large", "1.15"),
    ("st.font_largest", "1.3"),
)
LANGUAGE_NAMES = {"en": "English", "ko": "한국어", "fr": "Français", "ar": "العربية"}


class SettingsApp(App):
    package = PACKAGE
    label_key = "app.settings"

    def screen_main(self, screen: Screen) -> View:
        st = self.storage
        wifi = self.t("st.on") if self.phone.flag("global", "wifi_on") else self.t("st.off")
        bt = self.t("st.on") if self.phone.flag("global", "bluetooth_on") else self.t("st.off")
        rows = [
            v.item(
                self.t("st.network"),
                f"{self.t('sys.wifi')}: {wifi}",
                on_click=partial(self.phone.start, PACKAGE, "network"),
                rid=self.rid("network"),
            ),
            v.item(
                self.t("st.connected"),
                f"{self.t('sys.bluetooth')}: {bt}",
                on_click=partial(self.phone.start, PACKAGE, "connected"),
                rid=self.rid("connected"),
            ),
            v.item(
                self.t("st.display"),
                self.t("st.brightness"),
                on_click=partial(self.phone.start, PACKAGE, "display"),
                rid=self.rid("display"),
            ),
            v.item(
                self.t("st.about"),
                self.phone.number,
                on_click=partial(self.phone.start, PACKAGE, "about"),
                rid=self.rid("about"),
            ),
            v.item(
                self.t("st.system"),
                LANGUAGE_NAMES.get(st.setting("system", "system_locales"), ""),
                on_click=partial(self.phone.start, PACKAGE, "system"),
                rid=self.rid("system"),
            ),
        ]
        return self.page(
            self.appbar(self.t("app.settings"), up=False),
            self.scroll("list", rows, screen.state, rid="recycler_view"),
        )

    def _switch(self, label: str, setting: str) -> View:
        return v.switch(
            label,
            self.phone.flag("global", setting),
            partial(radios.toggle, self.storage, setting),
            rid=self.rid(f"switch_{setting}"),
        )

    def screen_network(self, screen: Screen) -> View:
        return self.page(
            self.appbar(self.t("st.network")),
            v.column(
                self._switch(self.t("st.use_wifi"), "wifi_on"),
                self._switch(self.t("sys.airplane"), "airplane_mode_on"),
                fill=True,
            ),
        )

    def screen_connected(self, screen: Screen) -> View:
        return self.page(
            self.appbar(self.t("st.connected")),
            v.column(self._switch(self.t("st.use_bt"), "bluetooth_on"), fill=True),
        )

    def screen_display(self, screen: Screen) -> View:
        st = self.storage
        level = int(st.setting("system", "screen_brightness", "128"))

        def set_level(frac: float) -> None:
            st.put_setting("system", "screen_brightness", str(round(frac * 255)))

        def toggle_dark() -> None:
            radios.set_dark(st, not self.phone.dark)

        scale = st.setting("system", "font_scale", "1.0")
        scale_label = next((self.t(k) for k, val in FONT_SCALES if val == scale), scale)
        return self.page(
            self.appbar(self.t("st.display")),
            v.column(
                v.text(self.t("st.brightness"), height=32, style="label"),
                v.slider(self.t("st.brightness"), level / 255, set_level, rid=self.rid("brightness_slider")),
                v.switch(self.t("sys.dark_mode"), self.phone.dark, toggle_dark, rid=self.rid("dark_ui_mode")),
                v.item(
                    self.t("st.font_size"), scale_label, on_click=self._font_dialog, rid=self.rid("font_size")
                ),
                fill=True,
            ),
        )

    def _radio_dialog(
        self, title: str, options: list[tuple[str, str]], current: str, on_pick: Callable[[str], None]
    ) -> None:
        def pick(value: str) -> None:
            self.phone.dismiss()
            on_pick(value)

        def body(d: Dialog) -> list[View]:
            return [
                View(
                    v.CHECKBOX,
                    text=label,
                    checkable=True,
                    checked=value == current,
                    height=48,
                    on_click=partial(pick, value),
                    resource_id="android:id/text1",
                    style="radio",
                )
                for label, value in options
            ]

        self.phone.show_dialog(
            Dialog(
                title=title,
                body=body,
                buttons=lambda d: v.dialog_buttons(self.t("sys.cancel"), self.phone.dismiss),
            )
        )

    def _font_dialog(self) -> None:
        st = self.storage
        self._radio_dialog(
            self.t("st.font_size"),
            [(self.t(k), val) for k, val in FONT_SCALES],
            st.setting("system", "font_scale", "1.0"),
            partial(st.put_setting, "system", "font_scale"),
        )

    def screen_about(self, screen: Screen) -> View:
        prof = self.phone.profile
        return self.page(
            self.appbar(self.t("st.about")),
            v.column(
                v.item(self.phone.owner_label, self.t("st.device_name"), rid=self.rid("device_name")),
                v.item(self.phone.number, self.t("st.phone_number"), rid=self.rid("phone_number")),
                v.item(prof.device_type.name, self.t("st.model"), rid=self.rid("model")),
                fill=True,
            ),
        )

    def screen_system(self, screen: Screen) -> View:
        current = self.storage.setting("system", "system_locales", "en")
        return self.page(
            self.appbar(self.t("st.system")),
            v.column(
                v.item(
                    self.t("st.language"),
                    LANGUAGE_NAMES.get(current, current),
                    on_click=partial(self._language_dialog, current),
                    rid=self.rid("language"),
                ),
                fill=True,
            ),
        )

    def _language_dialog(self, current: str) -> None:
        self._radio_dialog(
            self.t("st.language"),
            [(LANGUAGE_NAMES[c], c) for c in LANGUAGES],
            current,
            partial(set_language, self.phone),
        )


def set_language(phone: object, code: str) -> None:
    """Switch the system language: every string on screen changes at the next frame."""
    from devicesworld.devices.android.system.phone import Phone

    assert isinstance(phone, Phone)
    phone.storage.put_setting("system", "system_locales", code)
    phone.lang = code
    phone.rtl = code in RTL_LANGUAGES
