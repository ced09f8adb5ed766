"""Pydantic argument models for every SmartHome action, setup op and getter.

These are the boundary: the environment validates raw JSON against them (and shows
agents their JSON Schema) before anything reaches the simulator. Values the catalog
constrains per device (ranges, enum choices) are checked later by the home, where the
device is known, so that errors can name the device, the range and the unit.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from devicesworld.devices.base import Args
from devicesworld.devices.smarthome.catalog import CATEGORY_NAMES

MAX_MINUTES = 7 * 24 * 60
NAME_PATTERN = r"^[a-z][a-z0-9_]*$"
Value = bool | int | float | str
CategoryName = Literal[
    "light",
    "dimmable_light",
    "curtain",
    "air_conditioner",
    "heater",
    "air_purifier",
    "humidifier",
    "dehumidifier",
    "washing_machine",
    "dryer",
    "robot_vacuum",
]
assert set(CategoryName.__args__) == set(CATEGORY_NAMES)  # type: ignore[attr-defined]
ScheduleStatusName = Literal["pending", "fired", "failed", "cancelled"]


# --- agent actions -----------------------------------------------------------------------


DEVICE_PAGE = 25
"""Devices ``list_devices`` returns per call (about 2,500 characters: within the agent's feedback)."""
SCHEDULE_PAGE = 6
"""Schedules ``list_schedules`` returns per call."""


class PageArgs(Args):
    start: int = Field(default=0, ge=0, description="Skip this many (a page's start).")


class ListDevicesArgs(PageArgs):
    room: str | None = Field(default=None, description="Only devices in this room.")
    category: CategoryName | None = Field(default=None, description="Only devices of this category.")
    contains: str | None = Field(default=None, description="Id or name has this (any case).")


class DeviceIdArgs(Args):
    device_id: str = Field(description="A device id from list_devices, e.g. 'ac_bedroom'.")


class RoomArgs(Args):
    room: str = Field(description="A room name from list_rooms, e.g. 'living_room'.")


class ControlArgs(Args):
    device_id: str
    command: str = Field(description="A command listed by get_capabilities, e.g. 'turn_on'.")
    params: dict[str, Any] = Field(default_factory=dict)


class SetAttributeArgs(Args):
    device_id: str
    attribute: str = Field(description="A writable attribute, e.g. 'target_temperature'.")
    value: Value


class AfterEventArgs(Args):
    device_id: str = Field(description="The device whose event triggers the schedule.")
    event: str = Field(description="An event of that device, e.g. 'completed' for a washing machine.")
    delay_minutes: float = Field(default=0.0, ge=0, le=MAX_MINUTES)


class CreateScheduleArgs(Args):
    """Exactly one trigger: ``at``, ``delay_minutes`` or ``after_event``."""

    device_id: str
    command: str
    params: dict[str, Any] = Field(default_factory=dict)
    at: str | None = Field(default=None, description="'HH:MM' (next occurrence) or ISO datetime.")
    delay_minutes: float | None = Field(default=None, gt=0, le=MAX_MINUTES)
    after_event: AfterEventArgs | None = None

    @model_validator(mode="after")
    def _one_trigger(self) -> CreateScheduleArgs:
        given = [n for n in ("at", "delay_minutes", "after_event") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one trigger: at, delay_minutes or after_event")
        return self


class ListSchedulesArgs(PageArgs):
    status: ScheduleStatusName | None = None
    device_id: str | None = Field(default=None, description="Only schedules of this device.")


class ScheduleIdArgs(Args):
    schedule_id: str


class AdvanceArgs(Args):
    minutes: float = Field(gt=0, le=MAX_MINUTES, description="Virtual minutes to let pass.")


class TimelineArgs(Args):
    hours: float = Field(
        default=24.0, ge=0, le=MAX_MINUTES / 60, description="How far ahead to run a copy of the home."
    )


# --- setup ops ---------------------------------------------------------------------------


class ConfigureHomeArgs(Args):
    name: str = "Home"
    outdoor_temperature: float = Field(default=15.0, ge=-30, le=50)
    outdoor_humidity: float = Field(default=60.0, ge=0, le=100)
    outdoor_pm25: float = Field(default=25.0, ge=0, le=1000)


class AddRoomArgs(Args):
    name: str = Field(pattern=NAME_PATTERN)
    temperature: float = Field(default=22.0, ge=-30, le=50)
    humidity: float = Field(default=45.0, ge=0, le=100)
    pm25: float = Field(default=12.0, ge=0, le=1000)
    has_window: bool = True


class AddDeviceArgs(Args):
    device_id: str = Field(pattern=NAME_PATTERN)
    category: CategoryName
    room: str
    name: str | None = None
    state: dict[str, Any] = Field(default_factory=dict, description="Initial stored attributes.")


class SetStateArgs(Args):
    device_id: str
    attributes: dict[str, Any]


class StartCycleArgs(Args):
    device_id: str
    program: str | None = None
    elapsed_minutes: float = Field(default=0.0, ge=0, le=MAX_MINUTES)


class HomeProfile(Args):
    """The optional device profile: same fields as ``configure_home``."""

    name: str = "Home"
    outdoor_temperature: float = Field(default=15.0, ge=-30, le=50)
    outdoor_humidity: float = Field(default=60.0, ge=0, le=100)
    outdoor_pm25: float = Field(default=25.0, ge=0, le=1000)
