"""Device profiles: B-MoCA's randomization of device type, language, wallpaper, theme and icons.

A task's ``profile`` for an ``android`` device is an :class:`AndroidProfile`; it may
name a shipped ``preset`` (``train_00`` .. ``train_34``, ``test_00`` .. ``test_09``,
or ``light_en_phone``/``dark_ko_phone``/``ar_tablet``) whose values fill whatever the
task leaves out. Device types carry their real screen sizes and densities, so
layout (in dp) scales to pixels as on the real devices. The shipped 35 training and
10 test presets live in ``data/profiles.json``; as in B-MoCA, training presets are
all Pixel 3 while the test presets use the other device types and language/layout
combinations never seen in training.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from devicesworld.devices.base import DeviceError


@dataclass(frozen=True)
class DeviceType:
    name: str
    width: int
    height: int
    dpi: int

    @property
    def density(self) -> float:
        return self.dpi / 160


DEVICE_TYPES: dict[str, DeviceType] = {
    "pixel_3": DeviceType("Pixel 3", 1080, 2160, 440),
    "pixel_4": DeviceType("Pixel 4", 1080, 2280, 440),
    "pixel_4_xl": DeviceType("Pixel 4 XL", 1440, 3040, 560),
    "pixel_6": DeviceType("Pixel 6", 1080, 2400, 420),
    "wxga_tablet": DeviceType("WXGA Tablet", 1280, 800, 160),
}

WALLPAPERS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "default": ((32, 64, 128), (96, 160, 220)),
    "sunset": ((240, 128, 64), (120, 40, 110)),
    "forest": ((20, 80, 40), (120, 180, 90)),
    "ocean": ((10, 40, 90), (40, 170, 200)),
    "sand": ((200, 170, 120), (240, 220, 180)),
    "night": ((10, 10, 30), (60, 40, 100)),
}

DeviceName = Literal["pixel_3", "pixel_4", "pixel_4_xl", "pixel_6", "wxga_tablet"]


class AndroidProfile(BaseModel):
    """How one phone looks and who owns it; every field has a default."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: str | None = Field(default=None, description="A shipped profile whose values fill the rest.")
    device: DeviceName = "pixel_3"
    language: Literal["en", "ko", "fr", "ar"] = "en"
    dark_mode: bool = False
    wallpaper: str = "default"
    icon_columns: int = Field(default=4, ge=3, le=6)
    icon_size: Literal["small", "medium", "large"] = "medium"
    icon_seed: int = Field(default=0, ge=0, description="0 keeps the default icon order; others shuffle it.")
    font_scale: float = Field(default=1.0, ge=0.85, le=1.3)
    time_24h: bool = False
    owner_name: str = "Me"
    owner_number: str | None = Field(
        default=None, description="This phone's number; default +1555100N for android_N."
    )
    battery: int = Field(default=82, ge=1, le=100)

    @model_validator(mode="after")
    def _known_wallpaper(self) -> AndroidProfile:
        if self.wallpaper not in WALLPAPERS:
            raise ValueError(f"unknown wallpaper {self.wallpaper!r}; known: {', '.join(WALLPAPERS)}")
        if self.preset is not None and self.preset not in presets():
            raise ValueError(f"unknown profile preset {self.preset!r}")
        return self

    @property
    def device_type(self) -> DeviceType:
        return DEVICE_TYPES[self.device]


@cache
def presets() -> dict[str, dict[str, Any]]:
    """The shipped presets by name (data/profiles.json)."""
    text = resources.files("devicesworld.devices.android").joinpath("data/profiles.json").read_text("utf-8")
    doc = json.loads(text)
    return {
        p["name"]: {k: val for k, val in p.items() if k not in ("name", "split")} for p in doc["profiles"]
    }


def preset_names(split: str | None = None) -> list[str]:
    text = resources.files("devicesworld.devices.android").joinpath("data/profiles.json").read_text("utf-8")
    return [p["name"] for p in json.loads(text)["profiles"] if split is None or p["split"] == split]


def resolve_profile(raw: dict[str, Any]) -> AndroidProfile:
    """The task's profile with its preset's values under it; bad profiles are a DeviceError."""
    try:
        base = AndroidProfile.model_validate(raw)
        if base.preset is None:
            return base
        merged = {**presets()[base.preset], **raw}
        return AndroidProfile.model_validate(merged)
    except ValueError as exc:
        raise DeviceError("INVALID_PROFILE", f"bad android profile: {exc}") from None
