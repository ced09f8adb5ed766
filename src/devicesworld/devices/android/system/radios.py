"""Radio and display switches shared by Settings and the quick-settings shade.

Airplane mode turns Wi-Fi and Bluetooth off, as Android does by default, and a
radio switched on while in airplane mode stays on (Android allows that too).
"""

from __future__ import annotations

from devicesworld.devices.android.storage import Storage


def set_airplane(storage: Storage, on: bool) -> None:
    storage.put_setting("global", "airplane_mode_on", "1" if on else "0")
    if on:
        storage.put_setting("global", "wifi_on", "0")
        storage.put_setting("global", "bluetooth_on", "0")


def toggle(storage: Storage, name: str) -> bool:
    """Flip a ``global`` on/off setting (``wifi_on``, ``bluetooth_on``, ``airplane_mode_on``)."""
    new = storage.setting("global", name, "0") != "1"
    if name == "airplane_mode_on":
        set_airplane(storage, new)
    else:
        storage.put_setting("global", name, "1" if new else "0")
    return new


def set_dark(storage: Storage, on: bool) -> None:
    storage.put_setting("secure", "ui_night_mode", "2" if on else "1")
