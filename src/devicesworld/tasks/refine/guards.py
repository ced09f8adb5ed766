"""Mechanical guards on a rewritten instruction: what a rewrite may never change.

An LLM rewrite is only accepted when it provably keeps the task the same task:

- it reveals no *hidden* value (``metadata.sources``: what the agent must find on a
  device) in any usual spelling — ``21.0`` also as ``21``, ``+15551234`` also with
  separators, an ISO time as ``14:30``;
- every *literal* the user states in the original — numbers, times, codes, phone
  numbers, e-mail addresses, URLs, file paths and names, quoted strings, and proper
  names (people, apps, companies) — is still there verbatim, and it adds none;
- every mention of a device (``on the phone``, ``on the desktop linux_1``, ``in the
  smart home``) is still there, as many times as in the original, and no other
  device is named;
- its length stays within sane bounds of the original.

These checks are pure text functions, so they run without a model or the ``openai``
package and are tested directly.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import BaseModel

from devicesworld.devices.base import kind_names, traits_of
from devicesworld.tasks.provenance import as_datetime

MIN_RATIO = 0.5
MAX_RATIO = 2.0
MIN_CHARS = 20
MAX_CHARS = 2000


class GuardFailure(BaseModel):
    """Why a rewrite was refused: a short code (counted in the report) and the details."""

    code: str
    detail: str


# ------------------------------------------------------------------ literals
_QUOTED = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|(?<!\w)\'([^\'\n]+)\'(?!\w)')
_URL = re.compile(r"\bhttps?://[^\s\"'<>)]+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PATH = re.compile(r"(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]*|~/?")
_FILENAME = re.compile(r"\b[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,4}\b")
_DIGITS = re.compile(r"\S*\d\S*")
_WORD = re.compile(r"[A-Za-z][\w'\u2019-]*")
_EDGE = ".,;:!?()[]{}\"'\u201c\u201d\u2018\u2019"
_SENTENCE_END = re.compile(r"(?:^|[.!?:;]\s+|\(\s*)$")
NOT_NAMES = frozenset({"I", "OK", "I'd", "I'm", "I've", "I'll"})
"""Capitalised words that are never data, wherever they stand."""


def literals(text: str) -> list[str]:
    """The data tokens of ``text``, in order of appearance, each once.

    Quoted strings, URLs, e-mail addresses, paths and file names are taken first and
    blanked out, so a number inside ``~/Documents/v2.txt`` is not counted twice; then
    every run of non-blanks with a digit in it (trimmed of punctuation), then proper
    names (capitalised words that do not start a sentence).
    """
    found: list[str] = []
    work = text

    def take(pattern: re.Pattern[str], group_any: bool = False) -> None:
        nonlocal work
        for m in pattern.finditer(work):
            raw = next((g for g in m.groups() if g), "") if group_any else m.group(0)
            token = raw.strip() if group_any else raw.rstrip(".,;:!?)")
            if token and any(ch.isalnum() for ch in token):
                found.append(token)
        work = pattern.sub(lambda m: " " * len(m.group(0)), work)

    take(_QUOTED, group_any=True)
    take(_URL)
    take(_EMAIL)
    take(_PATH)
    take(_FILENAME)
    for m in _DIGITS.finditer(work):
        token = m.group(0).strip(_EDGE)
        if token:
            found.append(token)
    work = _DIGITS.sub(lambda m: " " * len(m.group(0)), work)
    for m in _WORD.finditer(work):
        word = re.sub(r"['\u2019]s$", "", m.group(0).replace("\u2019", "'")).rstrip("'-")
        if (
            len(word) > 1
            and word[:1].isupper()
            and word not in NOT_NAMES
            and not _SENTENCE_END.search(work[: m.start()])
        ):
            found.append(word)
    return list(dict.fromkeys(found))


def missing_literals(original: str, rewrite: str) -> list[str]:
    """Literals of the original that the rewrite no longer contains verbatim."""
    return [lit for lit in literals(original) if lit not in rewrite]


def added_literals(original: str, rewrite: str) -> list[str]:
    """Literals of the rewrite that the original never states (a rewrite must not invent data)."""
    return [lit for lit in literals(rewrite) if lit not in original]


# ------------------------------------------------------------------ hidden values
def spellings(value: str | int | float) -> set[str]:
    """The ways a value could be written: ``21.0`` also ``21``, an ISO time as ``14:30``."""
    forms = {str(value)}
    if isinstance(value, float):
        forms |= {f"{value:g}", f"{value:.1f}", f"{value:.2f}"}
    elif isinstance(value, int) and not isinstance(value, bool):
        forms |= {f"{value}.0"}
    else:
        text = str(value)
        if text.startswith("+"):
            forms.add(text[1:])
        stamp = as_datetime(text)
        if stamp is not None:
            forms |= {stamp.strftime("%H:%M"), f"{stamp.hour}:{stamp.minute:02d}"}
    return {f for f in forms if f.strip()}


def _mentions(form: str, text: str) -> bool:
    """``form`` appears as a whole token: ``24`` is in "24 °C" and "24.0" but not in "2024" or "24.5"."""
    pattern = rf"(?<![\w])(?<!\d[.,]){re.escape(form)}(?![\w])(?![.,][1-9])"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def _joined_digits(text: str) -> str:
    """Digits with their separators dropped, so ``+1 (415) 555-0100`` reads as ``14155550100``."""
    return re.sub(r"(?<=\d)[\s().-]+(?=\d)", "", text)


def leaked_values(hidden: Iterable[str | int | float], original: str, rewrite: str) -> list[str]:
    """Hidden values the rewrite spells out (values the original already states are not leaks)."""
    leaks: list[str] = []
    joined = _joined_digits(rewrite)
    for value in hidden:
        for form in sorted(spellings(value)):
            if _mentions(form, original):
                continue
            digits = re.sub(r"\D", "", form)
            if _mentions(form, rewrite) or (
                len(digits) >= 6 and digits in re.sub(r"\D", " ", joined).split()
            ):
                leaks.append(str(value))
                break
    return leaks


# ------------------------------------------------------------------ devices
def device_nouns() -> dict[str, str]:
    """How each device class is named in an instruction: noun -> pattern, from every kind's traits.

    The nouns are those of ``KindTraits.place`` ("on the phone"), which composed
    instructions use; a kind without a noun adds none.
    """
    out: dict[str, str] = {}
    for kind in kind_names():
        traits = traits_of(kind)
        pattern = traits.noun_regex()
        if pattern is not None:
            out[traits.noun] = pattern
    return out


def device_mentions(text: str, device_ids: Sequence[str]) -> Counter[str]:
    """How often ``text`` names each device class and each device id.

    Counted, not just collected: a composed instruction names a device once per
    clause that happens there, and a rewrite that drops one of those mentions moves
    a clause to an unnamed place even when the device is still named elsewhere.
    """
    found: Counter[str] = Counter()
    for noun, pattern in device_nouns().items():
        found[noun] = len(re.findall(pattern, text, re.IGNORECASE))
    for d in device_ids:
        found[d] = len(re.findall(rf"\b{re.escape(d)}\b", text))
    return +found


# ------------------------------------------------------------------ all guards
def check_rewrite(
    original: str,
    rewrite: str,
    *,
    hidden: Sequence[str | int | float],
    device_ids: Sequence[str],
) -> list[GuardFailure]:
    """Every reason the rewrite cannot replace the original; empty when it can."""
    failures: list[GuardFailure] = []
    if rewrite.strip() == original.strip():
        return [GuardFailure(code="unchanged", detail="the rewrite is the original")]
    lo, hi = max(MIN_CHARS, int(len(original) * MIN_RATIO)), min(MAX_CHARS, int(len(original) * MAX_RATIO))
    if not lo <= len(rewrite) <= max(hi, lo):
        failures.append(
            GuardFailure(code="length", detail=f"{len(rewrite)} characters, allowed {lo}..{max(hi, lo)}")
        )
    leaks = leaked_values(hidden, original, rewrite)
    if leaks:
        failures.append(GuardFailure(code="hidden_value", detail=f"reveals {', '.join(leaks)}"))
    dropped = missing_literals(original, rewrite)
    if dropped:
        failures.append(GuardFailure(code="literal_dropped", detail=f"drops {', '.join(map(repr, dropped))}"))
    invented = added_literals(original, rewrite)
    if invented:
        failures.append(GuardFailure(code="literal_added", detail=f"adds {', '.join(map(repr, invented))}"))
    before, after = device_mentions(original, device_ids), device_mentions(rewrite, device_ids)
    fewer = sorted(f"{d} ({after[d]} of {n})" for d, n in before.items() if after[d] < n)
    if fewer:
        failures.append(GuardFailure(code="device_dropped", detail=f"names fewer times {', '.join(fewer)}"))
    new = sorted(set(after) - set(before))
    if new:
        failures.append(GuardFailure(code="device_added", detail=f"names {', '.join(new)} too"))
    return failures
