"""The installed apps, in the launcher's default order."""

from __future__ import annotations

from devicesworld.devices.android.apps.base import App
from devicesworld.devices.android.apps.browser import BrowserApp
from devicesworld.devices.android.apps.calculator import CalculatorApp
from devicesworld.devices.android.apps.calendar import CalendarApp
from devicesworld.devices.android.apps.camera import CameraApp
from devicesworld.devices.android.apps.clock import ClockApp
from devicesworld.devices.android.apps.contacts import ContactsApp
from devicesworld.devices.android.apps.dialer import DialerApp
from devicesworld.devices.android.apps.files import FilesApp
from devicesworld.devices.android.apps.maps import MapsApp
from devicesworld.devices.android.apps.markor import MarkorApp
from devicesworld.devices.android.apps.messages import MessagesApp
from devicesworld.devices.android.apps.music import MusicApp
from devicesworld.devices.android.apps.recorder import RecorderApp
from devicesworld.devices.android.apps.settings import SettingsApp

ALL_APPS: list[type[App]] = [
    MessagesApp,
    ContactsApp,
    DialerApp,
    ClockApp,
    CalendarApp,
    FilesApp,
    MarkorApp,
    CalculatorApp,
    MusicApp,
    MapsApp,
    CameraApp,
    RecorderApp,
    BrowserApp,
    SettingsApp,
]
