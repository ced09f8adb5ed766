"""Infeasibility judged by cause: the entity that blocks the request and what is wrong with it.

A keyword list per task passes a reason that names the wrong thing in the right words
("Michael's phone seems to be switched off" matched ``switched off`` on a task whose
real cause is that the guest network no longer exists) and fails the right cause in
other words ("no longer active", "discontinued"). A task instead declares its
:class:`Cause` — the entity (with the names a person would use for it) and one or more
*states* from the shared catalogue :data:`STATES`, whose synonyms are written once here
for every task. A reason passes when one sentence names the entity and one of its
states' synonyms (a following sentence that starts with "it", "this" or "that" still
speaks of it); a reason that blames something else, or names the entity without saying
what is wrong, fails.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.spec.values import normalise_text

StateId = Literal[
    "absent", "switched_off", "unsupported", "out_of_range", "unavailable", "ambiguous", "not_running"
]

STATES: dict[str, tuple[str, ...]] = {
    "absent": (
        "no such",
        "there is no",
        "there's no",
        "there are no",
        "does not exist",
        "doesn't exist",
        "do not exist",
        "don't exist",
        "not exist",
        "no longer exist",
        "not found",
        "can't find",
        "cannot find",
        "could not find",
        "couldn't find",
        "missing",
        "does not have",
        "doesn't have",
        "don't have",
        "do not have",
        "has no",
        "have no",
        "isn't a",
        "is not a",
        "isn't any",
        "only a",
        "only has",
        "no ",
        "none",
        "nothing",
        "without",
        "removed",
        "deleted",
        "gone",
    ),
    "switched_off": (
        "switched off",
        "turned off",
        "is off",
        "was off",
        "are off",
        "been off",
        "disabled",
        "deactivated",
        "shut down",
        "shut off",
        "no longer active",
        "not active",
        "inactive",
        "discontinued",
        "no longer exist",
        "no longer available",
        "no longer",
        "not running",
        "gone",
        "retired",
        "taken down",
    ),
    "unsupported": (
        "not support",
        "unsupported",
        "doesn't support",
        "does not support",
        "cannot",
        "can't",
        "can not",
        "unable",
        "only on/off",
        "only on and off",
        "only white",
        "no colo",
        "not dimmable",
        "no brightness",
        "not possible",
        "isn't possible",
        "doesn't offer",
        "has no",
    ),
    "out_of_range": (
        "too high",
        "too low",
        "too hot",
        "too cold",
        "above",
        "below",
        "beyond",
        "exceeds",
        "maximum",
        "minimum",
        "max",
        "min",
        "limit",
        "range",
        "highest",
        "lowest",
        "at most",
        "at least",
        "outside",
        "up to",
        "only goes",
        "can't go",
        "cannot go",
        "won't go",
        "doesn't go",
        "does not go",
    ),
    "unavailable": (
        "fully booked",
        "booked up",
        "sold out",
        "unavailable",
        "not available",
        "no longer available",
        "no slots",
        "no free",
        "taken",
        "full",
    ),
    "ambiguous": (
        "two ",
        "more than one",
        "several",
        "multiple",
        "both",
        "which one",
        "which of",
        "ambiguous",
        "not sure which",
    ),
    "not_running": (
        "not running",
        "isn't running",
        "is not running",
        "idle",
        "not started",
        "hasn't started",
        "has not started",
        "not on",
        "never started",
        "stopped",
    ),
}
"""Each state's wordings, normalised text, matched as stems at word starts."""


class Cause(BaseModel):
    """What makes a request infeasible: an entity and what is wrong with it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="The cause's id, e.g. `guest_network_off`.")
    entity: list[str] = Field(
        min_length=1,
        description="Names a person would use for the blocking entity: `guest network`, `guest wi-fi`.",
    )
    states: list[StateId] = Field(min_length=1, description="What is wrong with it (see `spec/causes.py`).")


_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+|\s(?:but|however|whereas|although)\s")
_CONTINUES = re.compile(r"^(?:it|this|that|they|which)\b")


def _has(text: str, phrase: str) -> bool:
    p = normalise_text(phrase)
    start = r"(?<![\w])" if p[:1].isalnum() else ""
    return re.search(start + re.escape(p), text) is not None


def names_entity(text: str, cause: Cause) -> bool:
    """Entity names match as stems at word starts ("dryer" in "dryers"); a short name (an
    abbreviation such as "AC") only as a whole word, so "ac" is not found in "actually"."""
    t = normalise_text(text)
    return any(_has_word(t, name) if len(name) <= SHORT_NAME else _has(t, name) for name in cause.entity)


SHORT_NAME = 3


def _has_word(text: str, phrase: str) -> bool:
    p = normalise_text(phrase)
    return re.search(r"(?<![\w])" + re.escape(p) + r"(?![\w])", text) is not None


def names_state(text: str, states: Sequence[str]) -> bool:
    t = normalise_text(text)
    return any(_has(t, w) for s in states for w in STATES[s])


def judge_reason(reason: str, cause: Cause) -> tuple[bool, str]:
    """(passed, why): the reason names the cause's entity and one of its states in one sentence."""
    parts = [p.strip() for p in _SENTENCE.split(reason) if p and p.strip()]
    for i, part in enumerate(parts):
        if not names_entity(part, cause):
            continue
        window = [part]
        if i + 1 < len(parts) and _CONTINUES.match(normalise_text(parts[i + 1])):
            window.append(parts[i + 1])
        if any(names_state(w, cause.states) for w in window):
            return True, f"names the cause {cause.id!r}"
    if any(names_entity(p, cause) for p in parts):
        return False, f"names {cause.entity[0]!r} but not what is wrong with it ({', '.join(cause.states)})"
    return False, f"does not name the cause {cause.id!r} ({cause.entity[0]!r}: {', '.join(cause.states)})"
