"""Value semantics for verifiers: does what the agent wrote *mean* the expected value?

Every check that compares a value an agent wrote (a cell, a message body, a draft,
a form field, an event title) goes through this one module, so that "7 May 2026",
"May 7" and "07/05/2026" (in a day-first locale) all count as the date 2026-05-07,
"6:15 pm" and "18:15" as the same time, "$1,234.50" as 1234.5, and so on — while a
value that merely *looks* similar (another day, the wrong half of the day, one digit
off) never does.

A comparison has a *value type* (:data:`ValueType`): the task states it (from the
slot type a value came from) or it is inferred from the expected value
(:func:`infer_type`, conservative: anything not clearly typed is free text). Two
operations cover every check:

- :func:`same` — is this whole field the expected value (a cell, a form field)?
- :func:`find` — does this longer text mention the expected value? Candidate spans of
  the right type are extracted and compared as typed values, so ``18:15`` is found in
  "pickup at 6:15 pm" but not in "at 16:15" nor in "6:15 am".

Dates without a year take the year of the task's date, and numeric dates are read
day-first or month-first by the task's locale; both come from the
:class:`ValueContext` the evaluator installs for the task (:func:`using`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Literal, get_args

import phonenumbers
from dateutil import parser as date_parser
from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from devicesworld.spec.models import Task

ValueType = Literal[
    "auto", "text", "name", "email", "phone", "date", "time", "duration", "number", "money", "percentage"
]
VALUE_TYPES: tuple[str, ...] = get_args(ValueType)

_MONTH_FIRST_REGIONS = frozenset({"US", "PH", "FM", "MH", "PW", "BZ", "CA"})
_DECIMAL_COMMA_LANGUAGES = frozenset(
    {"fr", "de", "es", "it", "pt", "nl", "ru", "tr", "pl", "sv", "da", "fi", "nb", "cs", "id"}
)
_YEAR_FIRST_LANGUAGES = frozenset({"ko", "ja", "zh", "hu"})


@dataclass(frozen=True)
class ValueContext:
    """What a comparison needs to know about the task: its date and its locale."""

    today: date = date(2026, 3, 2)
    locale: str = "en-US"

    @property
    def language(self) -> str:
        return self.locale.replace("_", "-").split("-")[0].lower()

    @property
    def region(self) -> str:
        parts = self.locale.replace("_", "-").split("-")
        if len(parts) > 1:
            return parts[1].upper()
        return {"en": "US", "ko": "KR", "fr": "FR", "ar": "SA", "de": "DE", "ja": "JP"}.get(
            self.language, "US"
        )

    @property
    def day_first(self) -> bool:
        """Numeric dates such as 07/05/2026 are read day-first everywhere but a few regions."""
        return self.region not in _MONTH_FIRST_REGIONS and self.language not in _YEAR_FIRST_LANGUAGES

    @property
    def decimal_comma(self) -> bool:
        return self.language in _DECIMAL_COMMA_LANGUAGES


_CONTEXT: ContextVar[ValueContext] = ContextVar("devicesworld_value_context", default=ValueContext())  # noqa: B039


def value_context(task: Task) -> ValueContext:
    """The task's date (its virtual start) and locale (``metadata.locale``, else the first
    phone's language, else en-US)."""
    locale = task.metadata.locale
    if not isinstance(locale, str) or not locale:
        languages = [d.profile.get("language") for d in task.devices if d.kind == "android"]
        language = next((lang for lang in languages if isinstance(lang, str) and lang), None)
        locale = "en-US" if language in (None, "en") else str(language)
    return ValueContext(today=task.start_time.date(), locale=locale)


def current_context() -> ValueContext:
    return _CONTEXT.get()


@contextmanager
def using(ctx: ValueContext) -> Iterator[ValueContext]:
    """Compare values in ``ctx`` (the task's date and locale) inside the block."""
    token = _CONTEXT.set(ctx)
    try:
        yield ctx
    finally:
        _CONTEXT.reset(token)


class TypedValue(BaseModel):
    """An expected value with its type stated, e.g. ``{"value": "2026-05-07", "type": "date"}``."""

    model_config = ConfigDict(extra="forbid")

    value: str | int | float
    type: ValueType = "auto"
    exact: str | int | float | None = None
    """The unrounded result of the computation ``value`` rounds (18 °C is exactly 64.4 °F):
    set when the instruction does not ask to round, so the exact value, or it rounded to
    at least the digits ``value`` shows, is the same answer (issue 32)."""
    cues: list[str] = Field(default_factory=list)
    """Words that introduce this value's slot when a message must state several values of one
    type ("leave", "head out" for the leaving time; "back", "home by" for the return): a value
    of the type after one of them answers this slot (:mod:`devicesworld.spec.slots`)."""


Expected = TypedValue | str | int | float
"""What a check's args may give as an expected value: a plain value or a typed one."""


def unpack(expected: Expected, default: ValueType | None = None) -> tuple[Any, ValueType]:
    """The raw value and its type (the item's own, else the check's ``value_type``, else inferred)."""
    if isinstance(expected, TypedValue):
        kind = expected.type if expected.type != "auto" else (default or "auto")
        return expected.value, kind
    return expected, default or "auto"


def shown(expected: Expected) -> str:
    """How an expected value is named in a check's detail."""
    return str(expected.value) if isinstance(expected, TypedValue) else str(expected)


# ------------------------------------------------------------------------------ inference
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_HHMM = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?")
_EMAIL = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
_PLAIN_NUMBER = re.compile(r"[-+]?(?:0|[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*)(?:\.\d+)?")
_INTL_PHONE = re.compile(r"\+\d[\d\s().-]{6,}\d")


def infer_type(expected: Any) -> ValueType:
    """The value type an untyped expected value most plausibly has; free text when unsure.

    Codes with leading zeros (``007421``) stay text, since a number would drop the zeros;
    digit runs of 7 or more are phone numbers (``5550103`` is found in "+1 555 0103").
    """
    if isinstance(expected, bool):
        return "text"
    if isinstance(expected, int | float):
        return "number"
    s = str(expected).strip()
    if _ISO_DATE.fullmatch(s):
        return "date"
    if _HHMM.fullmatch(s):
        return "time"
    if _EMAIL.fullmatch(s):
        return "email"
    if _INTL_PHONE.fullmatch(s) or re.fullmatch(r"\d{7,15}", s):
        return "phone"  # a long digit run is a number to dial, not a quantity
    if re.fullmatch(r"[-+]?\d+(?:\.\d+)?\s*%", s):
        return "percentage"
    if re.fullmatch(r"[$€£¥₹]\s*\d[\d,]*(?:\.\d+)?", s):
        return "money"
    if _PLAIN_NUMBER.fullmatch(s):
        return "number"
    return "text"


def resolve_type(expected: Any, kind: ValueType) -> ValueType:
    return infer_type(expected) if kind == "auto" else kind


# ------------------------------------------------------------------------------ text and names
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)


def normalise_text(text: Any) -> str:
    """Unicode-normalised, case-folded, typographic quotes and dashes plain, whitespace runs single."""
    s = unicodedata.normalize("NFKC", str(text)).translate(_QUOTES)
    return re.sub(r"\s+", " ", s).strip().casefold()


def normalise_name(text: Any, *, reorder: bool = True) -> str:
    """A person's name without case, diacritics, punctuation or extra spaces; "Doe, Jane" is "jane doe"
    (``reorder=False`` for a longer text that merely mentions a name)."""
    s = unicodedata.normalize("NFKD", str(text).translate(_QUOTES))
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    if reorder and s.count(",") == 1 and "@" not in s:
        last, first = s.split(",")
        s = f"{first} {last}"
    s = re.sub(r"[^\w\s-]", " ", s.replace("'", ""))
    return re.sub(r"\s+", " ", s).strip().casefold()


def _contains_words(haystack: str, needle: str) -> bool:
    """``needle`` in ``haystack``, not as a part of a longer word or number."""
    if not needle:
        return True
    start = r"(?<![\w])" if needle[0].isalnum() else ""
    end = r"(?![\w])" if needle[-1].isalnum() else ""
    return re.search(start + re.escape(needle) + end, haystack) is not None


# ------------------------------------------------------------------------------ numbers
_NUM = r"[-+\u2212]?(?:\d{1,3}(?:[,.\u00a0\u202f ']\d{3})+|\d+)(?:[.,]\d+)?"
_UNIT_ALIASES: dict[str, str] = {
    "°c": "°C",
    "ºc": "°C",
    "c": "°C",
    "degc": "°C",
    "celsius": "°C",
    "degrees": "°C",
    "degree": "°C",
    "deg": "°C",
    "°": "°C",
    "°f": "°F",
    "f": "°F",
    "fahrenheit": "°F",
    "kg": "kg",
    "kgs": "kg",
    "kilo": "kg",
    "kilos": "kg",
    "kilogram": "kg",
    "kilograms": "kg",
    "g": "g",
    "gram": "g",
    "grams": "g",
    "km": "km",
    "kilometre": "km",
    "kilometres": "km",
    "kilometer": "km",
    "kilometers": "km",
    "m": "m",
    "metre": "m",
    "metres": "m",
    "meter": "m",
    "meters": "m",
    "cm": "cm",
    "mm": "mm",
    "l": "l",
    "litre": "l",
    "litres": "l",
    "liter": "l",
    "liters": "l",
    "ml": "ml",
    "lux": "lx",
    "lx": "lx",
    "w": "W",
    "watt": "W",
    "watts": "W",
    "kwh": "kWh",
    "pcs": "pcs",
    "pieces": "pcs",
    "units": "pcs",
    "items": "pcs",
}
_UNIT_RE = "|".join(sorted((re.escape(u) for u in _UNIT_ALIASES), key=len, reverse=True))
_NUMBER_WITH_UNIT = re.compile(
    rf"(?<![\w./-])(?<!\d:)(?P<num>{_NUM})(?![\d])(?:\s?(?P<unit>{_UNIT_RE})(?![\w])|(?![\w]))", re.IGNORECASE
)


def _to_decimal(raw: str, ctx: ValueContext) -> Decimal | None:
    s = raw.strip().replace("\u2212", "-").replace("\u00a0", "").replace("\u202f", "").replace("'", "")
    s = s.replace(" ", "")
    if ctx.decimal_comma:
        if re.fullmatch(r"[-+]?\d{1,3}(?:\.\d{3})+(?:,\d+)?|[-+]?\d+(?:,\d+)?", s):
            s = s.replace(".", "").replace(",", ".")
        else:
            s = s.replace(",", "")
    elif "," in s and "." in s:
        s = s.replace(",", "")
    elif "," in s:
        s = s.replace(",", "") if re.fullmatch(r"[-+]?\d{1,3}(?:,\d{3})+", s) else s.replace(",", ".")
    try:
        return Decimal(s)
    except InvalidOperation:
        return None


def _readings(raw: str, ctx: ValueContext) -> list[Decimal]:
    """The number a span reads as, and — when its commas are no thousands separators, as in
    a CSV line "5,599748" — each comma-separated piece too."""
    whole = _to_decimal(raw, ctx)
    out = [] if whole is None else [whole]
    if "," in raw and not re.fullmatch(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?", raw.strip()):
        out += [d for piece in raw.split(",") if (d := _to_decimal(piece, ctx)) is not None]
    return out


def _decimals(d: Decimal) -> int:
    exponent = d.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def numbers_equal(actual: Decimal, expected: Decimal, tolerance: float = 0.0) -> bool:
    """Equal within ``tolerance``, or ``actual`` is ``expected`` rounded to the digits it shows.

    Rounding counts only to at least two decimals (or all of the expected's, when it has
    fewer): 12.345 may be written 12.35, never 12.3 or 12.
    """
    if abs(actual - expected) <= Decimal(str(tolerance)):
        return True
    shown_digits = _decimals(actual)
    if shown_digits < min(_decimals(expected), 2):
        return False
    step = Decimal(1).scaleb(-shown_digits)
    return expected.quantize(step, rounding=ROUND_HALF_UP) == actual


@dataclass(frozen=True)
class Quantity:
    amount: Decimal
    unit: str | None = None


def _quantities(text: str, ctx: ValueContext) -> Iterator[tuple[str, Quantity]]:
    for m in _NUMBER_WITH_UNIT.finditer(_mask_clock_and_dates(text)):
        unit = _UNIT_ALIASES.get(m["unit"].lower()) if m["unit"] else None
        for value in _readings(m["num"], ctx):
            yield m.group(0), Quantity(value, unit)


def _number_or_text(raw: Any) -> Decimal | str | None:
    """A whole field as the number parsers first read it: a JSON number as a ``Decimal``, a bool as
    ``None`` (never a number), anything else as its stripped text (for the parser to read)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        return Decimal(str(raw))
    return str(raw).strip()


def _parse_quantity(raw: Any, ctx: ValueContext) -> Quantity | None:
    s = _number_or_text(raw)
    if not isinstance(s, str):
        return None if s is None else Quantity(s)
    m = re.fullmatch(rf"(?P<num>{_NUM})\s*(?P<unit>[^\d\s].*)?", s)
    if m is None:
        return None
    value = _to_decimal(m["num"], ctx)
    if value is None:
        return None
    unit_raw = (m["unit"] or "").strip().lower().rstrip(".")
    if unit_raw and unit_raw not in _UNIT_ALIASES:
        return None
    return Quantity(value, _UNIT_ALIASES.get(unit_raw) if unit_raw else None)


def _same_quantity(a: Quantity, e: Quantity, tolerance: float) -> bool:
    if a.unit and e.unit and a.unit != e.unit:
        return False
    return numbers_equal(a.amount, e.amount, tolerance)


# ------------------------------------------------------------------------------ money
_CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "us$": "USD"}
_CURRENCY_WORDS = {
    "usd": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "gbp": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "jpy": "JPY",
    "yen": "JPY",
    "inr": "INR",
    "rupees": "INR",
    "krw": "KRW",
    "won": "KRW",
    "chf": "CHF",
    "cad": "CAD",
    "aud": "AUD",
}
_SYM_RE = r"US\$|[$€£¥₹₩]"
_WORD_RE = "|".join(sorted(_CURRENCY_WORDS, key=len, reverse=True))
_MONEY = re.compile(
    rf"(?:(?P<pre>{_SYM_RE}|\b(?:{_WORD_RE})\b)\s?)?(?<![\w./-])(?<!\d:)(?P<num>{_NUM})(?![\d])"
    rf"(?:\s?(?P<post>{_SYM_RE}|(?:{_WORD_RE})\b)|(?![\w]))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str | None = None


def _currency(token: str | None) -> str | None:
    if not token:
        return None
    t = token.lower()
    return _CURRENCY_SYMBOLS.get(t) or _CURRENCY_WORDS.get(t)


def _monies(text: str, ctx: ValueContext) -> Iterator[tuple[str, Money]]:
    for m in _MONEY.finditer(_mask_clock_and_dates(text)):
        for value in _readings(m["num"], ctx):
            yield m.group(0), Money(value, _currency(m["pre"]) or _currency(m["post"]))


def _parse_money(raw: Any, ctx: ValueContext) -> Money | None:
    s = _number_or_text(raw)
    if not isinstance(s, str):
        return None if s is None else Money(s)
    m = _MONEY.fullmatch(s)
    if m is None:
        return None
    value = _to_decimal(m["num"], ctx)
    return None if value is None else Money(value, _currency(m["pre"]) or _currency(m["post"]))


def _same_money(a: Money, e: Money, tolerance: float) -> bool:
    if a.currency and e.currency and a.currency != e.currency:
        return False
    return numbers_equal(a.amount, e.amount, max(tolerance, 0.005) if _decimals(a.amount) >= 2 else tolerance)


# ------------------------------------------------------------------------------ percentages
_PERCENT = re.compile(
    rf"(?<![\w./-])(?<!\d:)(?P<num>{_NUM})(?![\d])(?:\s?(?:%|percent\b|per cent\b|pct\b)|(?![\w%]))",
    re.IGNORECASE,
)


def _percentages(text: str, ctx: ValueContext) -> Iterator[tuple[str, Decimal]]:
    for m in _PERCENT.finditer(_mask_clock_and_dates(text)):
        for value in _readings(m["num"], ctx):
            yield m.group(0), value


def _parse_percentage(raw: Any, ctx: ValueContext) -> Decimal | None:
    s = _number_or_text(raw)
    if not isinstance(s, str):
        return s
    m = _PERCENT.fullmatch(s)
    return None if m is None else _to_decimal(m["num"], ctx)


# ------------------------------------------------------------------------------ times
_TIME = re.compile(
    r"(?<![\d])(?<!\d[:.,])(?P<h>[01]?\d|2[0-3])(?:(?P<sep>[:.h])(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?)?(?![\d:])"
    r"(?:\s*(?P<half>[ap])\.?\s*m\b\.?)?",
    re.IGNORECASE,
)
_NAMED_TIMES = {"noon": time(12, 0), "midday": time(12, 0), "midnight": time(0, 0)}


def _time_of(m: re.Match[str]) -> time | None:
    hour, half = int(m["h"]), (m["half"] or "").lower()
    if m["m"] is None and not half:
        return None  # a bare number is not a time
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    return time(hour, int(m["m"] or 0), int(m["s"] or 0))


def _times(text: str) -> Iterator[tuple[str, time]]:
    for m in _TIME.finditer(_mask_dates(text)):
        t = _time_of(m)
        if t is not None:
            yield m.group(0), t
    for word, t in _NAMED_TIMES.items():
        if re.search(rf"\b{word}\b", text, re.IGNORECASE):
            yield word, t


def _parse_time(raw: Any) -> time | None:
    s = str(raw).strip()
    if s.lower() in _NAMED_TIMES:
        return _NAMED_TIMES[s.lower()]
    iso = re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ](.+)", s)
    if iso:
        s = iso.group(1)
    m = _TIME.fullmatch(s)
    return None if m is None else _time_of(m)


def _same_time(a: time, e: time) -> bool:
    return (a.hour, a.minute) == (e.hour, e.minute) and (a.second == e.second or 0 in (a.second, e.second))


# ------------------------------------------------------------------------------ dates
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_WEEKDAYS = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?\.?,?\s+"
_ORD = r"(?:st|nd|rd|th)?"
_DATE_PATTERNS = [
    re.compile(r"(?<![\d/.-])\d{4}-\d{1,2}-\d{1,2}(?![\d])"),
    re.compile(r"(?<![\d/.-])\d{4}/\d{1,2}/\d{1,2}(?![\d/])"),
    re.compile(r"(?<![\d/.:-])\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?![\d/.-]\d)(?!\d)"),
    re.compile(
        rf"(?<![\w])(?:{_WEEKDAYS})?\d{{1,2}}{_ORD}\s+(?:of\s+)?(?:{_MONTHS})\b\.?,?(?:\s+\d{{4}}\b)?",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?<![\w])(?:{_WEEKDAYS})?(?:{_MONTHS})\b\.?\s+\d{{1,2}}{_ORD}(?![\d:])\b(?:,?\s+\d{{4}}\b)?",
        re.IGNORECASE,
    ),
]


def _read_date(span: str, ctx: ValueContext) -> date | None:
    s = span.strip().rstrip(".,")
    iso = re.fullmatch(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})", s)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        if not re.search(_MONTHS, s, re.IGNORECASE) and not re.fullmatch(
            r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}", s
        ):
            return None
        default = datetime(ctx.today.year, 1, 1)
        return date_parser.parse(s, default=default, dayfirst=ctx.day_first, yearfirst=False).date()
    except (ValueError, OverflowError, date_parser.ParserError):
        return None


def _dates(text: str, ctx: ValueContext) -> Iterator[tuple[str, date]]:
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            d = _read_date(m.group(0), ctx)
            if d is not None:
                yield m.group(0), d


def _parse_date(raw: Any, ctx: ValueContext) -> date | None:
    if isinstance(raw, datetime):
        return raw.date()
    if isinstance(raw, date):
        return raw
    s = re.sub(r"^(?:on\s+)?(?:the\s+)?", "", str(raw).strip(), flags=re.IGNORECASE)
    stamp = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?", s)
    if stamp:
        s = stamp.group(1)
    if any(p.fullmatch(s) for p in _DATE_PATTERNS):
        return _read_date(s, ctx)
    return None


def _mask_dates(text: str) -> str:
    """``text`` with date spans blanked, so their digits are read as neither times nor numbers."""
    for pattern in _DATE_PATTERNS[:3]:
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def _mask_clock_and_dates(text: str) -> str:
    text = _mask_dates(text)
    return re.sub(r"(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)", lambda m: " " * len(m.group(0)), text)


# ------------------------------------------------------------------------------ durations
_DUR_UNITS = {
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
}
_DUR_UNIT_RE = "|".join(sorted(_DUR_UNITS, key=len, reverse=True))
_DUR_PART = rf"(?P<n{{i}}>\d+(?:[.,]\d+)?)\s?(?P<u{{i}}>{_DUR_UNIT_RE})(?![a-z])"
_DURATION = re.compile(
    r"(?<![\w.,:])"
    + _DUR_PART.format(i=1)
    + r"(?:,?\s*(?:and\s+)?"
    + _DUR_PART.format(i=2)
    + r")?(?:,?\s*(?:and\s+)?"
    + _DUR_PART.format(i=3)
    + r")?",
    re.IGNORECASE,
)
_CLOCK_DURATION = re.compile(r"(?<![\d:])(?P<h>\d{1,2}):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?![\d:])")
_WORD_DURATIONS = {
    "half an hour": 1800,
    "an hour and a half": 5400,
    "one and a half hours": 5400,
    "a quarter of an hour": 900,
    "quarter of an hour": 900,
    "an hour": 3600,
    "one hour": 3600,
}


def _duration_of(m: re.Match[str]) -> Decimal | None:
    total = Decimal(0)
    for i in (1, 2, 3):
        n, u = m[f"n{i}"], m[f"u{i}"]
        if n is None:
            continue
        total += Decimal(n.replace(",", ".")) * _DUR_UNITS[u.lower()]
    return total


def _durations(text: str, *, clock: bool) -> Iterator[tuple[str, Decimal]]:
    for m in _DURATION.finditer(text):
        d = _duration_of(m)
        if d is not None:
            yield m.group(0), d
    if clock:
        for c in _CLOCK_DURATION.finditer(text):
            yield c.group(0), Decimal(int(c["h"]) * 3600 + int(c["m"]) * 60 + int(c["s"] or 0))
    low = text.casefold()
    for words, seconds in _WORD_DURATIONS.items():
        if re.search(rf"\b{words}\b", low):
            yield words, Decimal(seconds)


def _parse_duration(raw: Any) -> Decimal | None:
    """Seconds; a bare number is a number of seconds; ISO 8601 ``PT1H30M`` is read too."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        return Decimal(str(raw))
    s = str(raw).strip()
    iso = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?", s, re.IGNORECASE)
    if iso and any(iso.groups()):
        hours, minutes, sec = (int(g or 0) for g in iso.groups())
        return Decimal(hours * 3600 + minutes * 60 + sec)
    low = s.casefold()
    if low in _WORD_DURATIONS:
        return Decimal(_WORD_DURATIONS[low])
    m = _DURATION.fullmatch(s) or _CLOCK_DURATION.fullmatch(s)
    if m is None:
        return None
    if m.re is _CLOCK_DURATION:
        return Decimal(int(m["h"]) * 3600 + int(m["m"]) * 60 + int(m["s"] or 0))
    return _duration_of(m)


# ------------------------------------------------------------------------------ phones and e-mail
@dataclass(frozen=True)
class Phone:
    country: int | None
    national: str


def _parse_phone(raw: Any, ctx: ValueContext) -> Phone | None:
    s = str(raw).strip()
    digits = re.sub(r"\D", "", s)
    if len(digits) < 3 or re.search(r"[^\d\s().+\-/]", re.sub(r"(?i)\b(?:tel|phone|ext)\b\.?:?", "", s)):
        return None
    try:
        number = phonenumbers.parse(s, ctx.region if not s.startswith("+") else None)
    except phonenumbers.NumberParseException:
        return Phone(None, digits)
    has_cc = s.startswith("+") or s.startswith("00")
    return Phone(number.country_code if has_cc else None, str(number.national_number))


def _same_phone(a: Phone, e: Phone) -> bool:
    if a.country is not None and e.country is not None and a.country != e.country:
        return False
    if a.national == e.national:
        return True
    # a side written without "+" may still start with the other's country code ("1-555-...")
    if a.country is None and e.country is not None and a.national == f"{e.country}{e.national}":
        return True
    if e.country is None and a.country is not None and e.national == f"{a.country}{a.national}":
        return True
    # one side kept a trunk/country prefix in its digits that the other left out
    short, long_ = sorted((a.national, e.national), key=len)
    return a.country is None and e.country is None and len(short) >= 7 and long_.endswith(short)


def _phones(text: str, ctx: ValueContext) -> Iterator[tuple[str, Phone]]:
    seen: set[tuple[int, int]] = set()
    for m in phonenumbers.PhoneNumberMatcher(text, ctx.region, leniency=phonenumbers.Leniency.POSSIBLE):
        seen.add((m.start, m.end))
        p = _parse_phone(m.raw_string, ctx)
        if p is not None:
            yield m.raw_string, p
    for r in re.finditer(r"(?<![\w+])\+?\d[\d\s().-]{5,}\d(?![\w])", text):
        if (r.start(), r.end()) not in seen:
            p = _parse_phone(r.group(0), ctx)
            if p is not None:
                yield r.group(0), p


def normalise_email(raw: Any) -> str:
    s = str(raw).strip().strip("<>").strip()
    if s.lower().startswith("mailto:"):
        s = s[7:]
    return s.casefold()


# ------------------------------------------------------------------------------ the two operations
_PARSERS: dict[str, Callable[[Any, ValueContext], Any]] = {
    "text": lambda raw, _ctx: normalise_text(raw),
    "name": lambda raw, _ctx: normalise_name(raw),
    "email": lambda raw, _ctx: normalise_email(raw),
    "phone": _parse_phone,
    "date": _parse_date,
    "time": lambda raw, _ctx: _parse_time(raw),
    "duration": lambda raw, _ctx: _parse_duration(raw),
    "number": _parse_quantity,
    "money": _parse_money,
    "percentage": _parse_percentage,
}
"""Each concrete value type's parser (what :func:`parse` reads a whole field with)."""


def parse(raw: Any, kind: ValueType, ctx: ValueContext | None = None) -> Any:
    """The typed value of a whole field (``None`` when it is not a value of that type)."""
    ctx = ctx or current_context()
    kind = resolve_type(raw, kind)
    parser = _PARSERS.get(kind)
    if parser is not None:
        return parser(raw, ctx)
    raise ValueError(f"unknown value type {kind!r}; use one of {', '.join(VALUE_TYPES)}")


def _equal(kind: ValueType, a: Any, e: Any, tolerance: float) -> bool:
    if a is None or e is None:
        return False
    if kind == "time":
        return _same_time(a, e)
    if kind == "phone":
        return _same_phone(a, e)
    if kind == "number":
        return _same_quantity(a, e, tolerance)
    if kind == "money":
        return _same_money(a, e, tolerance)
    if kind in ("percentage", "duration"):
        return numbers_equal(a, e, tolerance)
    return bool(a == e)


def same(actual: Any, expected: Any, kind: ValueType = "auto", *, tolerance: float = 0.0) -> bool:
    """Is the whole field ``actual`` the value ``expected`` (of type ``kind``)?"""
    if isinstance(expected, TypedValue) and expected.exact is not None:
        plain = expected.model_copy(update={"exact": None})
        return same(actual, plain, kind, tolerance=tolerance) or same(
            actual, plain.model_copy(update={"value": expected.exact}), kind, tolerance=tolerance
        )
    if isinstance(expected, TypedValue):
        expected, kind = unpack(expected, kind if kind != "auto" else None)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if actual is None:
        return False
    declared = kind
    kind = resolve_type(expected, kind)
    ctx = current_context()
    got = parse(actual, kind, ctx)
    if got is None and kind == "number" and declared == "auto":
        got = _amount_of_money(actual, ctx)
    return _equal(kind, got, parse(expected, kind, ctx), tolerance)


def _amount_of_money(raw: Any, ctx: ValueContext) -> Quantity | None:
    """A field written as money ("$45.00", "45 EUR") read as the bare number an untyped expected
    value asks for: a cost row written in its file's own "$210.00" style is the amount 45
    (session 49: a careful player's correct row failed a check that had lost its money type)."""
    money = _parse_money(raw, ctx)
    return None if money is None or money.currency is None else Quantity(money.amount)


def candidates(text: str, kind: ValueType, ctx: ValueContext | None = None) -> list[tuple[str, Any]]:
    """Every span of ``text`` that reads as a value of ``kind``, with its typed value."""
    ctx = ctx or current_context()
    if kind == "date":
        return list(_dates(text, ctx))
    if kind == "time":
        return list(_times(text))
    if kind == "duration":
        return list(_durations(text, clock=True))
    if kind == "number":
        return list(_quantities(text, ctx))
    if kind == "money":
        return list(_monies(text, ctx))
    if kind == "percentage":
        return list(_percentages(text, ctx))
    if kind == "phone":
        return list(_phones(text, ctx))
    if kind == "email":
        return [(m.group(0), normalise_email(m.group(0))) for m in _EMAIL.finditer(text)]
    raise ValueError(f"value type {kind!r} has no spans")


def find(text: Any, expected: Any, kind: ValueType = "auto", *, tolerance: float = 0.0) -> str | None:
    """The span of ``text`` that means ``expected`` (``None`` when there is none).

    Text and names are found as whole words of the normalised text; every other type
    by extracting candidate spans of that type and comparing typed values.
    """
    if isinstance(expected, TypedValue):
        if expected.exact is not None:
            plain = expected.model_copy(update={"exact": None})
            hit = find(text, plain, kind, tolerance=tolerance)
            if hit is not None:
                return hit
            return find(text, plain.model_copy(update={"value": expected.exact}), kind, tolerance=tolerance)
        expected, kind = unpack(expected, kind if kind != "auto" else None)
    if text is None:
        return None
    hay = str(text)
    kind = resolve_type(expected, kind)
    ctx = current_context()
    if kind == "text":
        needle = normalise_text(expected)
        if _contains_words(normalise_text(hay), needle):
            return needle
        return _find_code(hay, expected)
    if kind == "name":
        needle = normalise_name(expected)
        return needle if _contains_words(normalise_name(hay, reorder=False), needle) else None
    want = parse(expected, kind, ctx)
    if want is None:  # an expected value that is not of its type: fall back to the literal
        needle = normalise_text(expected)
        return needle if _contains_words(normalise_text(hay), needle) else None
    for span, value in candidates(hay, kind, ctx):
        if _equal(kind, value, want, tolerance):
            return span
    return None


_CODE_LIKE = re.compile(r"\d(?:[ -]?\d){2,}")
_CODE_IN_TEXT = re.compile(r"(?<![\w.,])\d(?:[ -]?\d)*(?![\w]|[.,]\d)")


def _find_code(hay: str, expected: Any) -> str | None:
    """A code (``921872``) written with the separators people put inside one (``921 872``,
    ``921-872``); a comma or point makes a number, not a code (``103,215`` is no code)."""
    if not isinstance(expected, str) or _CODE_LIKE.fullmatch(expected.strip()) is None:
        return None
    digits = re.sub(r"\D", "", expected)
    for m in _CODE_IN_TEXT.finditer(hay):
        if re.sub(r"\D", "", m.group(0)) == digits:
            return m.group(0)
    return None


# ------------------------------------------------------------------------------ answers
class AnswerVerdict(BaseModel):
    passed: bool
    missing: list[str] = Field(default_factory=list)
    distractors: list[str] = Field(default_factory=list)

    def explain(self) -> str:
        return reasons(
            [("missing", self.missing), ("also gives distractor value(s)", self.distractors)],
            "has every expected value and no distractor",
        )


def reasons(found: Sequence[tuple[str, list[str]]], none: str) -> str:
    """A verdict's reasons as a person says them: each non-empty list after its words; ``none`` if all are empty.

    The answer and the conversation verdicts word their reasons the same way through it.
    """
    return "; ".join(f"{words} {items}" for words, items in found if items) or none


def judge_text(
    text: Any,
    expected: Sequence[Expected],
    distractors: Sequence[Expected] = (),
    kind: ValueType | None = None,
    *,
    tolerance: float = 0.0,
) -> AnswerVerdict:
    """An answer text must mention every expected value and none of the declared distractors.

    An answer hedging between the right value and a distractor ("7 or 8 May") fails.
    """
    missing, present = [], []
    for item in expected:
        if find(text, item, kind or "auto", tolerance=tolerance) is None:
            missing.append(shown(item))
    for item in distractors:
        raw, k = unpack(item, kind)
        if find(text, raw, k, tolerance=tolerance) is not None:
            present.append(shown(item))
    return AnswerVerdict(passed=not missing and not present, missing=missing, distractors=present)


def judge_field(
    actual: Any,
    expected: Expected,
    distractors: Sequence[Expected] = (),
    kind: ValueType | None = None,
    *,
    tolerance: float = 0.0,
) -> bool:
    """A whole field must be the expected value; a field that also mentions a distractor fails."""
    if not same(actual, expected, kind or "auto", tolerance=tolerance):
        return False
    for item in distractors:
        d_raw, d_kind = unpack(item, kind)
        if same(actual, d_raw, d_kind, tolerance=tolerance) or (
            isinstance(actual, str) and find(actual, d_raw, d_kind, tolerance=tolerance) is not None
        ):
            return False
    return True


def resolve_path(value: Any, path: str) -> Any:
    """Follow ``a.b.0.c`` through dicts and lists; raises ``KeyError`` naming the missing part."""
    if not path:
        return value
    current = value
    for part in path.split("."):
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif (
            isinstance(current, list)
            and part.lstrip("-").isdigit()
            and -len(current) <= int(part) < len(current)
        ):
            current = current[int(part)]
        else:
            raise KeyError(f"no {part!r} in {path!r}")
    return current


def values_match(actual: Any, expected: Any, tolerance: float = 0.0) -> bool:
    """Equality that treats numbers numerically (with a tolerance) and strings case-sensitively."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return math.isclose(float(actual), float(expected), abs_tol=tolerance, rel_tol=0.0)
    return bool(actual == expected)
