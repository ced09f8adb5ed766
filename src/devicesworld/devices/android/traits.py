"""What other layers need to know about the phone: nouns, state words, surfaces, the B-MoCA split."""

from __future__ import annotations

from devicesworld.devices.android.profiles import preset_names
from devicesworld.devices.traits import EnvSplit, KindTraits, KindUse


def surfaces(use: KindUse) -> set[str]:
    """A phone app counts when the reference solution opens it."""
    return {
        f"android:{str(args.get('app_name', '')).lower()}"
        for action, args in use.steps
        if action == "open_app"
    }


TRAITS = KindTraits(
    noun="phone",
    noun_pattern=r"\b(?:smart)?phone(?:['\u2019]s|s)?\b(?!\s+numbers?\b)",
    place="on the phone",
    state_words=("setting", "alarm", "brightness", "timer"),
    surfaces=surfaces,
    env_split=EnvSplit(presets=preset_names, keep=("owner_name", "owner_number")),
    screenshots="every_step",
)
