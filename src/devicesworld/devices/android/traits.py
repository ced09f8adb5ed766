"""What other layers need to know about the phone: nouns, state words, surfaces, the B-MoCA split."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.devices.android.profiles import preset_names
from devicesworld.devices.traits import EnvSplit, KindTraits, KindUse


def surfaces(use: KindUse) -> set[str]:
    """A phone app counts when the reference solution opens it."""
    return {
        f"android:{str(args.get('app_name', '')).lower()}"
        for action, args in use.steps
        if action == "open_app"
    }


def own_address(device_id: str, profile: Mapping[str, Any]) -> str | None:
    """The phone's own number, as the device sets it: the profile's owner number or ``+1555100<n>``."""
    number = profile.get("owner_number")
    if isinstance(number, str) and number:
        return number
    tail = device_id.rsplit("_", 1)[-1]
    return f"+1555{1000 + (int(tail) if tail.isdigit() else 0):04d}"


TRAITS = KindTraits(
    noun="phone",
    noun_pattern=r"\b(?:smart)?phone(?:['\u2019]s|s)?\b(?!\s+numbers?\b)",
    place="on the phone",
    state_words=("setting", "alarm", "brightness", "timer"),
    surfaces=surfaces,
    env_split=EnvSplit(presets=preset_names, keep=("owner_name", "owner_number")),
    screenshots="every_step",
    own_address=own_address,
)
