"""Did a required source value appear in what the agent saw? (evidence for failure type B1).

A task may declare, in ``metadata.sources``, the values the agent has to read from a
source device (a meeting time in a calendar, a room temperature). The runner calls
:func:`sources_seen` after every step with that step's observation and feedback and
records the indices of the values it found; the failure diagnosis then knows whether
a budget-exhausted run ever acquired its source information, without the run
directory having to store every observation.

Matching is deliberately simple and documented: the value, as text, must occur in
the JSON text of the observation of its source device or of the action's feedback
(message and data), after case folding and collapsing whitespace. A float with an
integral value also matches its integer form (``21.0`` matches ``21``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Case-fold and collapse whitespace, so that layout does not hide a value."""
    return _SPACE.sub(" ", text.casefold()).strip()


def value_forms(value: Any) -> list[str]:
    """The normalised texts that count as an occurrence of ``value``."""
    if isinstance(value, bool):
        return [str(value).casefold()]
    if isinstance(value, float) and value.is_integer():
        return [normalise(repr(value)), str(int(value))]
    return [normalise(str(value))]


def as_text(obj: Any) -> str:
    """A JSON-ish text of any observation or result payload, normalised."""
    if isinstance(obj, str):
        return normalise(obj)
    try:
        return normalise(json.dumps(obj, ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        return normalise(str(obj))


def value_in(value: Any, text: str) -> bool:
    """True when one form of ``value`` occurs in the already normalised ``text``."""
    return any(form and form in text for form in value_forms(value))


def sources_seen(
    sources: Sequence[Mapping[str, Any]],
    observation: Mapping[str, Any] | None,
    feedback: Sequence[Any] = (),
) -> list[int]:
    """Indices of ``sources`` (each with ``device`` and ``value``) visible in this step.

    ``observation`` maps device ids to their observations; a source counts only in the
    observation of its own device. ``feedback`` (the action's message and data) counts
    for every source, since a query's answer is how some devices show their state.
    """
    if not sources:
        return []
    fb_text = " ".join(as_text(part) for part in feedback if part is not None)
    obs_text: dict[str, str] = {}
    found: list[int] = []
    for i, src in enumerate(sources):
        value = src.get("value")
        if value is None:
            continue
        device = str(src.get("device", ""))
        if value_in(value, fb_text):
            found.append(i)
            continue
        if observation is not None and device in observation:
            if device not in obs_text:
                obs_text[device] = as_text(observation[device])
            if value_in(value, obs_text[device]):
                found.append(i)
    return found
