"""What other layers need to know about the phone: nouns, state words, surfaces, the B-MoCA split."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from devicesworld.devices.android.profiles import preset_names
from devicesworld.devices.traits import EnvSplit, KindTraits, KindUse, Splice, StepTuple


def surfaces(use: KindUse) -> set[str]:
    """A phone app counts when the reference solution opens it."""
    return {
        f"android:{str(args.get('app_name', '')).lower()}"
        for action, args in use.steps
        if action == "open_app"
    }


_BREAK = re.compile(r"(?<=[.!?;])\s+")
MESSAGING_APPS = frozenset({"messages", "sms messenger", "simple sms messenger"})


def _below_new_bubble(tap: Mapping[str, Any]) -> dict[str, Any]:
    """The send tap after a text was sent: the new bubble above the compose bar moves it one on."""
    index = tap.get("index")
    return {**tap, "index": index + 1} if isinstance(index, int) else dict(tap)


def paraphrases(steps: Sequence[StepTuple], start: datetime) -> list[Splice]:
    """A message typed and sent in one go, typed and sent as two (issue 32's paraphrase gate: an
    answer is the whole conversation): a text of the messaging app is cut at the sentence end nearest
    its middle (where a person would send a second text) and
    the send tap repeated (the second text typed into the field that kept the focus, the send
    button one index on: the sent bubble moves the screen's indices)."""
    app = ""
    for i in range(len(steps) - 1):
        (action, args), (after, tap) = steps[i], steps[i + 1]
        if action == "open_app":
            app = str(args.get("app_name", "")).casefold()
        text = args.get("text")
        if (
            action != "input_text"
            or after != "click"
            or not isinstance(text, str)
            or app not in MESSAGING_APPS
        ):
            continue
        cuts = [m for m in _BREAK.finditer(text) if 0 < m.start() < len(text) - 1]
        if not cuts:
            continue
        cut = min(cuts, key=lambda m: abs(m.start() - len(text) / 2))
        first, second = text[: cut.start()], text[cut.end() :]
        return [
            Splice(
                "the message split over two texts",
                i,
                2,
                (
                    (action, {**args, "text": first}),
                    (after, dict(tap)),
                    (
                        action,
                        {**{k: v for k, v in args.items() if k not in ("index", "x", "y")}, "text": second},
                    ),
                    (after, _below_new_bubble(tap)),
                ),
            )
        ]
    return []


def own_address(device_id: str, profile: Mapping[str, Any]) -> str | None:
    """The phone's own number, as the device sets it: the profile's owner number or ``+1555100<n>``."""
    number = profile.get("owner_number")
    if isinstance(number, str) and number:
        return number
    tail = device_id.rsplit("_", 1)[-1]
    return f"+1555{1000 + (int(tail) if tail.isdigit() else 0):04d}"


def address_profile(number: str) -> dict[str, Any]:
    """The profile that gives a phone this number (:func:`own_address` reads it back)."""
    return {"owner_number": number}


TRAITS = KindTraits(
    services=frozenset({"drive", "android_network"}),
    paraphrases=paraphrases,
    conversation_checks=frozenset({"sms_sent", "sms_received"}),
    day_checks=frozenset({"alarm_exists"}),
    noun="phone",
    noun_pattern=r"\b(?:smart)?phone(?:['\u2019]s|s)?\b(?!\s+numbers?\b)",
    place="on the phone",
    surfaces=surfaces,
    env_split=EnvSplit(presets=preset_names, keep=("owner_name", "owner_number")),
    screenshots="every_step",
    own_address=own_address,
    address_profile=address_profile,
)
