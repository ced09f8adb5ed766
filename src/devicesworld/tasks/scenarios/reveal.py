"""The "instruction reveals the value" gate: does a text state a value the agent must find?

A task whose instruction already says the verification code, the alarm time or the
contact's number tests nothing. The gate used to look for the value as a substring,
which both fired on values that are not there (``12`` inside "2012", ``5`` inside
"15 minutes") and missed values said another way (``09:30`` as "9:30 am", a date
``2026-03-14`` as "Saturday 14 March", ``+14155550100`` as "415-555-0100"). Here a
value is looked for by its meaning, through the verifiers' own reading of values
(:func:`devicesworld.spec.values.find`): numbers as numbers (a number inside a
longer number, a clock time or a date is no mention of it), times as times, dates as
dates, phone numbers in any formatting, and codes, names and text as whole tokens.
"""

from __future__ import annotations

from typing import Any

from devicesworld.spec import values
from devicesworld.spec.values import ValueType
from devicesworld.tasks.scenarios.slots import MEANINGS

_NUMERIC: frozenset[str] = frozenset({"number", "money", "percentage"})


def reveals(text: str, value: Any, meaning: str | None = None) -> bool:
    """Whether ``text`` states ``value``, a value of the slot meaning ``meaning`` (inferred if unknown)."""
    if value is None or isinstance(value, bool) or str(value).strip() == "":
        return False
    slot = MEANINGS.get(meaning or "")
    kind: ValueType = slot.verify_as if slot is not None else values.infer_type(value)
    if kind == "duration":
        # minutes said with a unit ("an hour", "15 min") or bare ("wait 15")
        spoken = slot.say(value) if slot is not None else str(value)
        return values.find(text, spoken, "duration") is not None or _number(text, value)
    if kind in _NUMERIC:
        # "40%" and "$20.00" as well as a bare "40" or "20" state the value
        return values.find(text, value, kind) is not None or _number(text, value)
    return values.find(text, value, kind) is not None


def _number(text: str, value: Any) -> bool:
    try:
        float(str(value).replace(",", ""))
    except ValueError:
        return False
    return values.find(text, value, "number") is not None
