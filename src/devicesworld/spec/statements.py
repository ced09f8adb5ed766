"""An answer is the whole conversation: read it as statements, not as a bag of values.

:func:`devicesworld.spec.values.judge_text` asks whether a text *mentions* a value.
People do more than mention: they rule a value out ("16:30 today, not 16:00",
"February's 861524 no longer works", "the Landing light is off"), hedge between two
("$103.5 (or $93.5)", "23.5 °C, or maybe 27.5 °C") and correct themselves in a later
message ("Sorry, correction: $93.5"). A verdict that only looks for mentions fails the
first and passes the other two. :func:`judge_conversation` reads every message to a
recipient together, in order:

- a value **ruled out** in its clause (``not``, ``no longer``, ``instead of``, ``rather
  than``, ``old``, ``was``, ``is off``, ``right now`` …) is not claimed — it neither
  gives the expected value nor offends as a distractor;
- a **hedge** — a sentence offering the expected value and another value of the slot's
  type (a declared distractor *or any other value of that type*) with ``or``,
  ``maybe``, ``either``, ``perhaps``, ``?`` or ``/`` — fails;
- the **last** statement wins: a declared distractor, or another value of the slot's
  type offered as a correction or a hedge, stated after the last statement of the
  expected value fails; one stated before it and then corrected does not;
- the expected values may be spread over several messages (judged together);
- when several expected values share a type (two times: leave 19:30, back 22:30), each
  value of that type is first attributed to the slot it answers
  (:mod:`devicesworld.spec.slots`: declared cue words, an alternative offered right after a
  value, a value set against a ruled-out one, else the value itself), and every rule above
  is applied per slot — so "19:30 (or maybe 22:30)" hedges the leave slot and "it is
  22:30, not 19:30" moves it, although 22:30 is itself expected.

Codes (door codes, PINs: a text value made of digits) are compared as digit strings:
separators people put inside them (``175-113``, ``175 113``) are fine, but ``103,215``
is a number with a thousands separator, not the code 103215.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.spec import slots as slotting
from devicesworld.spec import values
from devicesworld.spec.values import Expected, TypedValue, ValueType

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+")
_CLAUSE = re.compile(
    r",\s|;|:\s|[\[\]]|\((?!\d{2,4}\)\s?\d)|(?<!\(\d\d)(?<!\(\d{3})(?<!\(\d{4})\)|\s[-\u2013\u2014]\s|\u2014"
)
"""Clause breaks: a parenthesis that is not an area code's (``(555) 123-4567``), a spaced dash or
an em dash — not an en dash inside a code (``B\u2013214``)."""
_CORRECTION = re.compile(
    r"\b(?:correction|sorry|actually|i meant|make that|scratch that|my mistake|oops|update|"
    r"i was wrong|typo)\b",
    re.I,
)
# Ruling a value out: strong markers also take the expected value out of the answer
# ("not 16:30" does not give 16:30); weak ones (past tense, the current reading) only
# clear a competitor, so "your total was $93.50" still answers with $93.50.
_STRONG_BEFORE = re.compile(
    r"\b(?:not(?!\s+(?:sure|certain)\b)|no longer|instead of|rather than|isn't|wasn't|aren't|never|ignore|"
    r"forget)\b[^\d]*$",
    re.I,
)
"""("not sure if …" offers a value, it does not rule it out.)"""
_WEAK_BEFORE = re.compile(
    r"\b(?:old|older|previous|previously|former|formerly|earlier|was|were|used to be|currently|"
    r"right now|at the moment|now at|from|cancelled|canceled|expired|outdated|last (?:year|month|week)|"
    r"\w+'s (?=\S*$))\b",
    re.I,
)
_STRONG_AFTER = re.compile(
    r"^[^\d]*?\b(?:no longer|is not|isn't|was not|wasn't|does not|doesn't|did not|didn't|won't|"
    r"is wrong|was wrong|is off|is out|is gone|expired|is cancell?ed|was cancell?ed|is outdated|"
    r"is old|not valid|invalid|no good)\b",
    re.I,
)
_WEAK_AFTER = re.compile(
    r"^[^\d]*?\b(?:was|were|right now|currently|at the moment|before|earlier|last time)\b", re.I
)
_OPERAND_AFTER = re.compile(
    r"^\s*(?:[+*\u00d7]|plus|minus|times)\s*(?:[a-z][\w']*\s+){0,2}[$\u20ac\u00a3]?\d", re.I
)
_OPERAND_BEFORE = re.compile(
    r"\d[^\d,;]{0,24}?\s*(?:[+*\u00d7]|plus|minus|times)\s*(?:[a-z][\w']*\s+){0,2}[$\u20ac\u00a3]?$", re.I
)
"""A value shown as working beside the answer — an operand of a sum or product ("$110.5 (market
88.5 + bakery 22)", "88.5 plus 22") — is not claimed as the answer: weakly ruled out, like "was".
The result of an ``=`` is not an operand, so "66.5 + 22 = 88.5" still claims 88.5 (session 49: a
careful player's correct total with its working failed as a hedge)."""
_CODE_SHAPE = re.compile(r"\d(?:[ -]?\d){2,}")
_CODE_SPAN = re.compile(r"(?<![\w.,])\d(?:[ -]?\d)*(?![\w]|[.,]\d)")


@dataclass(frozen=True)
class Mention:
    """A value read from one clause: where it is, and whether it is claimed."""

    order: tuple[int, int, int]
    """(message, sentence, position in the sentence): the conversation's reading order."""
    span: str
    value: Any
    claimed: bool
    strong_out: bool


@dataclass
class StatementVerdict:
    """The conversation's verdict, with the reasons a person would give."""

    missing: list[str] = field(default_factory=list)
    distractors: list[str] = field(default_factory=list)
    hedged: list[str] = field(default_factory=list)
    corrected: list[str] = field(default_factory=list)

    false: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not (self.missing or self.distractors or self.hedged or self.corrected or self.false)

    def explain(self) -> str:
        found = [
            ("missing", self.missing),
            ("also claims distractor value(s)", self.distractors),
            ("hedges:", self.hedged),
            ("a later statement changes the answer:", self.corrected),
            ("states something false:", self.false),
        ]
        return values.reasons(found, "states every expected value and nothing against it")


@dataclass(frozen=True)
class _Sentence:
    order: tuple[int, int]
    text: str
    clauses: tuple[tuple[int, str], ...]
    correction: bool


def sentences(messages: Sequence[str]) -> list[_Sentence]:
    """Every sentence of the conversation in order, split into clauses (with their offsets)."""
    out: list[_Sentence] = []
    for i, message in enumerate(messages):
        for j, sent in enumerate(s for s in _SENTENCE.split(str(message)) if s.strip()):
            clauses: list[tuple[int, str]] = []
            start = 0
            for m in _CLAUSE.finditer(sent):
                clauses.append((start, sent[start : m.start()]))
                start = m.end()
            clauses.append((start, sent[start:]))
            out.append(
                _Sentence(
                    (i, j),
                    sent,
                    tuple(c for c in clauses if c[1].strip()),
                    bool(_CORRECTION.search(sent)),
                )
            )
    return out


def is_code(raw: Any, kind: ValueType) -> bool:
    """A text value made of digits (with separators): compared as a digit string."""
    return kind == "text" and isinstance(raw, str) and _CODE_SHAPE.fullmatch(raw.strip()) is not None


def _digits(s: str) -> str:
    return re.sub(r"\D", "", s)


def _spans(clause: str, kind: ValueType, code_len: int | None) -> list[tuple[int, str, Any]]:
    """Every value of the slot's type in a clause: (offset, span, typed value)."""
    if code_len is not None:
        return [
            (m.start(), m.group(0), _digits(m.group(0)))
            for m in _CODE_SPAN.finditer(clause)
            if len(_digits(m.group(0))) == code_len
        ]
    if kind in ("text", "name"):
        return []
    out: list[tuple[int, str, Any]] = []
    after: dict[str, int] = {}  # a span said twice in a clause: each mention at its own place
    for span, value in values.candidates(clause, kind):
        at = clause.find(span, after.get(span, 0))
        if at < 0:
            at = clause.find(span)
        after[span] = (at if at >= 0 else 0) + len(span)
        out.append((at if at >= 0 else 0, span, value))
    return out


def _ruled_out(clause: str, at: int, span: str) -> tuple[bool, bool]:
    """(ruled out at all, ruled out strongly) for the value at ``at`` in ``clause``."""
    before, after = clause[:at], clause[at + len(span) :]
    strong = bool(_STRONG_BEFORE.search(before) or _STRONG_AFTER.search(after))
    weak = bool(
        _WEAK_BEFORE.search(before)
        or _WEAK_AFTER.search(after)
        or _OPERAND_BEFORE.search(before)
        or _OPERAND_AFTER.search(after)
    )
    return strong or weak, strong


class _Slot:
    """How one expected value is recognised: its own mentions and the competing values of its type."""

    def __init__(self, item: Expected, kind: ValueType | None, tolerance: float) -> None:
        self.item = item
        self.raw, k = values.unpack(item, kind)
        self.kind: ValueType = values.resolve_type(self.raw, k)
        self.label = values.shown(item)
        self.tolerance = tolerance
        self.code_len = len(_digits(str(self.raw))) if is_code(self.raw, self.kind) else None
        ctx = values.current_context()
        self.want = (
            _digits(str(self.raw))
            if self.code_len is not None
            else (values.parse(self.raw, self.kind, ctx) if self.kind not in ("text", "name") else None)
        )
        self.unit = getattr(self.want, "unit", None)
        self.cues: tuple[str, ...] = tuple(item.cues) if isinstance(item, TypedValue) else ()

    def shares_type(self, other: _Slot) -> bool:
        """Two slots answered by values of one type (two times, two amounts of one unit)."""
        if self.code_len is None and self.kind in ("text", "name"):
            return other is self
        return (self.kind, self.code_len, self.unit) == (other.kind, other.code_len, other.unit)

    def is_me(self, clause: str, at: int, span: str, value: Any) -> bool:
        if self.code_len is not None:
            return bool(value == self.want)
        return values.find(span, self.item, self.kind, tolerance=self.tolerance) is not None

    def same_slot(self, value: Any) -> bool:
        """Could this value be an answer to the slot (a competitor when it is not the answer)?"""
        if self.unit is not None:
            return getattr(value, "unit", None) in (None, self.unit)
        return True

    def mentions(self, clause: str, base: tuple[int, int], offset: int) -> list[tuple[Mention, bool]]:
        """(mention, is the expected value) for every value of this slot's type in ``clause``."""
        out: list[tuple[Mention, bool]] = []
        if self.code_len is None and self.kind in ("text", "name"):
            hit = values.find(clause, self.raw, self.kind)
            if hit is not None:
                at = values.normalise_text(clause).find(values.normalise_text(hit))
                out.append((self._mention(clause, base, offset, max(at, 0), hit, hit), True))
            return out
        for at, span, value in _spans(clause, self.kind, self.code_len):
            out.append(
                (self._mention(clause, base, offset, at, span, value), self.is_me(clause, at, span, value))
            )
        return out

    @staticmethod
    def _mention(clause: str, base: tuple[int, int], offset: int, at: int, span: str, value: Any) -> Mention:
        out, strong = _ruled_out(clause, at, span)
        return Mention((base[0], base[1], offset + at), span, value, not out, strong)


def _distractor_mentions(
    sent: _Sentence, item: Expected, kind: ValueType | None, tolerance: float
) -> list[Mention]:
    raw, k = values.unpack(item, kind)
    k = values.resolve_type(raw, k)
    found: list[Mention] = []
    for offset, clause in sent.clauses:
        if is_code(raw, k):
            want = _digits(str(raw))
            for m in _CODE_SPAN.finditer(clause):
                if _digits(m.group(0)) == want:
                    out, strong = _ruled_out(clause, m.start(), m.group(0))
                    found.append(
                        Mention((*sent.order, offset + m.start()), m.group(0), want, not out, strong)
                    )
            continue
        hit = values.find(clause, raw, k, tolerance=tolerance)
        if hit is None:
            continue
        at = clause.find(hit)
        if at < 0:
            at = values.normalise_text(clause).find(values.normalise_text(hit))
        out, strong = _ruled_out(clause, max(at, 0), hit)
        found.append(Mention((*sent.order, offset + max(at, 0)), hit, raw, not out, strong))
    return found


class Fact(BaseModel):
    """What is true of a named entity the task's world holds (issue 32): the dentist is at 16:30,
    the parcel is at locker 7. A statement naming the entity with another value of the fact's type
    is false, whether or not any distractor names that value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    about: list[str] = Field(min_length=1, description="Names a person would use for the entity.")
    value: Expected = Field(description="Its true value (typed like an expected value), or its state.")
    others: list[str] = Field(
        default_factory=list,
        description="The other states the entity could be in, when ``value`` is a state word (a light "
        "that is ``off`` could be ``on``): a clause naming the entity in one of them is false.",
    )


def _fact_mentions(slot: _Slot, sent: _Sentence, offset: int, clause: str) -> list[tuple[Mention, bool]]:
    """The values of the fact's type in a clause that are not strongly ruled out."""
    return [
        (m, me)
        for m, me in slot.mentions(clause, sent.order, offset)
        if not m.strong_out and (me or slot.same_slot(m.value))
    ]


def _naming(names: Sequence[str]) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)", re.I)


STATE_WORDS: dict[str, tuple[str, ...]] = {
    "on": ("on", "lit", "running"),
    "off": ("off", "unlit"),
    "open": ("open", "opened"),
    "closed": ("closed", "shut"),
    "free": ("free", "available"),
    "busy": ("busy", "booked", "unavailable", "taken"),
    "locked": ("locked",),
    "unlocked": ("unlocked",),
}
"""The words a person uses for each state a fact may declare (a state not listed is its own word)."""


def _state_pattern(states: Sequence[str]) -> re.Pattern[str]:
    words = sorted({w for s in states for w in STATE_WORDS.get(s.casefold(), (s.casefold(),))}, key=len)
    return re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in reversed(words)) + r")(?![\w-])", re.I
    )


def _state_of(word: str, fact: Fact) -> bool | None:
    """Whether a state word says the fact's own state (True), another one (False), or neither."""
    w = word.casefold()
    if w in {x.casefold() for x in STATE_WORDS.get(str(values.unpack(fact.value)[0]).casefold(), ())} | {
        str(values.unpack(fact.value)[0]).casefold()
    }:
        return True
    if any(w == o.casefold() or w in STATE_WORDS.get(o.casefold(), ()) for o in fact.others):
        return False
    return None


_PAST = re.compile(r"\b(?:was|were|used to be|had been|earlier|before)\s+(?:\w+\s+)?$", re.I)
"""A state said of the past ("was on until 9") is not what the entity is now."""
_ARTICLE = re.compile(r"\s+(?:the|a|an|my|your|our|their|his|her|its|this|that|top|each)\b", re.I)


def _preposition(text: str, m: re.Match[str]) -> bool:
    """ "on the stairs", "checked on the lamp": ``on`` before an article is a preposition, no state."""
    return m.group(0).casefold() == "on" and _ARTICLE.match(text, m.end()) is not None


def _header(sent: _Sentence, i: int) -> tuple[int, str] | None:
    """The short clause a list hangs from ("Still on: A, B and C"): the nearest earlier clause of
    the sentence followed by a colon, of at most four words."""
    for j in range(i - 1, -1, -1):
        offset, clause = sent.clauses[j]
        end = offset + len(clause)
        if sent.text[end : end + 1] == ":" and len(clause.split()) <= 4:
            return offset, clause
    return None


def _false_states(sents: Sequence[_Sentence], fact: Fact) -> list[str]:
    """A state fact (a light ``off``, could be ``on``): in a clause naming the entity — or the clause
    right after it ("Landing light: on"), or the header its list hangs from ("Still on: A and B") —
    the state word nearest the name, not ruled out, is another state ("the Landing light is on"); or
    the entity's own state strongly ruled out ("the Landing light isn't off")."""
    names = [n.strip() for n in fact.about if n.strip()]
    if not names:
        return []
    naming = _naming(names)
    words = _state_pattern([str(values.unpack(fact.value)[0]), *fact.others])
    out: list[str] = []
    for sent in sents:
        clauses = list(sent.clauses)
        for i, (_, clause) in enumerate(clauses):
            where = [m.start() for m in naming.finditer(clause)]
            if not where:
                continue
            rest = naming.sub(lambda m: " " * len(m.group(0)), clause)  # a name's own words are no state
            found = [(m.start(), m.group(0)) for m in words.finditer(rest) if not _preposition(rest, m)]
            after = [x for x in found if x[0] > where[0]]
            said = [(*x, clause) for x in (after or [])]
            if not said and i + 1 < len(clauses) and len(clauses[i + 1][1].split()) <= 3:
                nxt = clauses[i + 1][1]
                said = [(m.start(), m.group(0), nxt) for m in words.finditer(nxt) if not _preposition(nxt, m)]
            if not said:
                said = [(*x, clause) for x in found]
            if not said and (head := _header(sent, i)) is not None:
                said = [(m.start(), m.group(0), head[1]) for m in words.finditer(head[1])]
            if not said:
                continue
            at, word, where_said = min(
                said, key=lambda x: min(abs(x[0] - w) for w in where) if x[2] is clause else 0
            )
            _, strong = _ruled_out(where_said, at, word)
            past = _PAST.search(where_said[:at]) is not None
            mine = _state_of(word, fact)
            if (mine is False and not (strong or past)) or (mine is True and strong):
                out.append(f"{names[0]}: {word!r} (it is {values.shown(fact.value)})")
    return out


def _false_claims(
    sents: Sequence[_Sentence], facts: Sequence[Fact], kind: ValueType | None, tolerance: float
) -> list[str]:
    """Statements that give a named entity another value than its fact: in a clause naming the
    entity, the value of the fact's type nearest the name, claimed (not ruled out), is not the
    fact's value — "the dentist is at 17:00" when it is at 16:30; "not 17:00" is no claim. A
    state fact is judged by its state words (:func:`_false_states`)."""
    out: list[str] = []
    for fact in facts:
        if fact.others:
            out += _false_states(sents, fact)
            continue
        slot = _Slot(fact.value, kind, tolerance)
        names = [n.strip() for n in fact.about if n.strip()]
        if not names or (slot.code_len is None and slot.kind in ("text", "name")):
            continue  # a free-text value has no "other value of its type" to spot
        naming = _naming(names)
        for sent in sents:
            told = [m for _, c in sent.clauses for m, me in slot.mentions(c, sent.order, 0) if me]
            clauses = list(sent.clauses)
            for i, (offset, clause) in enumerate(clauses):
                where = [m.start() for m in naming.finditer(clause)]
                if not where:
                    continue
                said = _fact_mentions(slot, sent, offset, clause)
                if not said and i + 1 < len(clauses):  # "Locker: 4" — the value in the next clause
                    said = _fact_mentions(slot, sent, *clauses[i + 1])
                if not said:
                    continue
                m, me = min(said, key=lambda x: min(abs(x[0].order[2] - offset - w) for w in where))
                # a value only weakly ruled out ("from locker 9", "was 16:00") still states the
                # entity's value unless the sentence also gives the true one
                if not me and (m.claimed or not told):
                    out.append(f"{names[0]}: {m.span!r} (it is {slot.label})")
    return sorted(set(out))


def judge_conversation(
    messages: Sequence[str],
    expected: Sequence[Expected],
    distractors: Sequence[Expected] = (),
    kind: ValueType | None = None,
    *,
    tolerance: float = 0.0,
    facts: Sequence[Fact] = (),
) -> StatementVerdict:
    """The verdict on a conversation (every message to the recipient, oldest first); ``facts``
    are checked against every statement naming their entity."""
    sents = sentences(messages)
    slots = [_Slot(item, kind, tolerance) for item in expected]
    verdict = StatementVerdict()
    declared: list[tuple[Mention, str]] = []
    for sent in sents:
        for item in distractors:
            for m in _distractor_mentions(sent, item, kind, tolerance):
                if m.claimed:
                    declared.append((m, values.shown(item)))
    priors: dict[int, Priors] = {}
    for slot in slots:
        mine: list[Mention] = []
        rivals = [(m, label) for m, label in declared if not _also_expected(m, slots)]
        placed_elsewhere = False
        group = [s for s in slots if slot.shares_type(s)]
        key = id(group[0])
        if len(group) > 1 and key not in priors:
            priors[key] = _priors(sents, group)
        for sent in sents:
            prior = priors[key][sent.order] if len(group) > 1 else ()
            here_mine, here_other, asserted = _slot_mentions(slot, sent, slots, prior)
            mine += here_mine
            placed_elsewhere |= _given_elsewhere(slot, sent, slots, prior=prior)
            if len(group) > 1 and here_mine and slotting.swap_offered(sent.text):
                verdict.hedged.append(repr(sent.text.strip()))
            offered = [m for m in here_other if _offered(sent.text, m) or sent.correction or m in asserted]
            rivals += [(m, m.span) for m in offered]
            declared_here = [m for m, _ in rivals if m.order[:2] == sent.order]
            if here_mine and (
                (offered and not sent.correction)
                or (any(_offered(sent.text, m) for m in here_mine) and (here_other or declared_here))
                or (declared_here and not sent.correction)
            ):
                verdict.hedged.append(repr(sent.text.strip()))
        if not mine:
            verdict.missing.append(
                slot.label + (" (given, but for another slot)" if placed_elsewhere else "")
            )
            continue
        last = max(m.order for m in mine)
        later = {label for m, label in rivals if m.order > last}
        names = {values.shown(d) for d in distractors}
        verdict.distractors += sorted(lab for lab in later & names if lab not in verdict.distractors)
        verdict.corrected += sorted(lab for lab in later - names if lab not in verdict.corrected)
    if not expected:  # a guard: no claimed distractor at all
        verdict.distractors = sorted({label for _, label in declared})
    verdict.hedged = sorted(set(verdict.hedged))
    verdict.false = _false_claims(sents, facts, kind, tolerance)
    return verdict


_OFFER_BEFORE = re.compile(
    r"\b(?:or|maybe|either|perhaps|possibly|probably|might be|not (?:sure|certain)(?: if| whether)?)\W+"
    r"(?:\w+\W+){0,2}$",
    re.I,
)
_OFFER_AFTER = re.compile(r"^\W{0,3}(?:\?|or\b|/)", re.I)


def _offered(sentence: str, m: Mention) -> bool:
    """The value is put forward as a possibility: "or $93.5", "maybe 27.5 °C", "16:00?", "7/8"."""
    after = sentence[m.order[2] + len(m.span) :]
    return _offered_before(sentence, m) or bool(_OFFER_AFTER.search(after))


def _offered_before(sentence: str, m: Mention) -> bool:
    """Offered by the words before it ("or 22:30", "maybe 22:30", "/ 22:30"): an alternative to
    what came before, unlike "22:30 or so" or "22:30?"."""
    before = sentence[: m.order[2]]
    return bool(_OFFER_BEFORE.search(before) or before.rstrip().endswith("/"))


def _slot_mentions(
    slot: _Slot, sent: _Sentence, slots: Sequence[_Slot], prior: Sequence[int] = ()
) -> tuple[list[Mention], list[Mention], list[Mention]]:
    """The slot's own values a sentence asserts (not strongly ruled out), the other values of its
    type it claims there that no slot expects, and — when other slots share its type — the values
    of another slot attributed to this one (:mod:`devicesworld.spec.slots`), which count as
    statements of this slot: what both the conversation and a file's sentence judge."""
    group = [s for s in slots if slot.shares_type(s)]
    if len(group) > 1:
        return _grouped_mentions(slot, sent, group, slots, prior)
    mine: list[Mention] = []
    other: list[Mention] = []
    for offset, clause in sent.clauses:
        for m, is_me in slot.mentions(clause, sent.order, offset):
            if is_me and not m.strong_out:
                mine.append(m)
            elif not is_me and m.claimed and slot.same_slot(m.value) and not _also_expected(m, slots):
                other.append(m)
    return mine, other, []


Priors = dict[tuple[int, int], tuple[int, ...]]
"""Per sentence, the conversation's last assignment of a group's slots before it (:mod:`.slots`)."""


def _priors(sents: Sequence[_Sentence], group: Sequence[_Slot]) -> Priors:
    """Each sentence's prior assignment: the slots the conversation has answered so far, in the
    order it gave them ("Get 200 g of fennel." "And 300 g of ricotta." before "Or maybe 300 g and
    200 g."); a sentence that answers two or more slots itself sets the order anew."""
    out: Priors = {}
    prior: tuple[int, ...] = ()
    for sent in sents:
        out[sent.order] = prior
        found = _attributed(sent, group, prior)
        spots = [slotting.Spot(0, 0, None, False, m.strong_out) for m, _, _ in found]
        given = slotting.assignment(spots, [o for _, _, o in found])
        if len(given) > 1:
            prior = given
        else:
            prior += tuple(k for k in given if k not in prior)
    return out


def _attributed(
    sent: _Sentence, group: Sequence[_Slot], prior: Sequence[int] = ()
) -> list[tuple[Mention, int | None, slotting.Owner]]:
    """Every value of the group's type in the sentence: (mention, the slot it equals, its owner); a
    value ruled out with a swapped assignment is not claimed."""
    found: list[tuple[Mention, int | None]] = []
    for offset, clause in sent.clauses:
        for m, _ in group[0].mentions(clause, sent.order, offset):
            equals = next((k for k, s in enumerate(group) if s.is_me(clause, 0, m.span, m.value)), None)
            found.append((m, equals))
    spots = [
        slotting.Spot(
            m.order[2],
            m.order[2] + len(m.span),
            equals,
            _offered_before(sent.text, m),
            m.strong_out,
        )
        for m, equals in found
    ]
    clauses = [(offset, offset + len(clause)) for offset, clause in sent.clauses]
    owners = slotting.attribute(sent.text, spots, [s.cues for s in group], clauses, prior)
    return [
        (replace(m, claimed=False, strong_out=True) if owner.dropped else m, equals, owner)
        for (m, equals), owner in zip(found, owners, strict=True)
    ]


def _grouped_mentions(
    slot: _Slot, sent: _Sentence, group: Sequence[_Slot], slots: Sequence[_Slot], prior: Sequence[int] = ()
) -> tuple[list[Mention], list[Mention], list[Mention]]:
    """:func:`_slot_mentions` when other slots share the type: a value counts for the slot it is
    attributed to, so another slot's expected value offered or set here is this slot's rival."""
    me = group.index(slot)
    mine: list[Mention] = []
    other: list[Mention] = []
    asserted: list[Mention] = []
    for m, equals, owner in _attributed(sent, group, prior):
        if owner.slot == me and equals == me:
            if not m.strong_out:
                mine.append(m)
        elif m.claimed and slot.same_slot(m.value):
            if owner.slot == me:
                other.append(m)
                asserted.append(m)
            elif owner.slot is None and equals is None and not _also_expected(m, slots):
                other.append(m)
    return mine, other, asserted


def _given_elsewhere(
    slot: _Slot, sent: _Sentence, slots: Sequence[_Slot], *, cue_only: bool = False, prior: Sequence[int] = ()
) -> bool:
    """The slot's own value is claimed in the sentence, but as another slot's ("back at 19:30");
    ``cue_only``: only by that slot's declared cue words (how a file's sentence is judged)."""
    group = [s for s in slots if slot.shares_type(s)]
    if len(group) < 2:
        return False
    me = group.index(slot)
    return any(
        equals == me and owner.slot not in (me, None) and m.claimed and (owner.how == "cue" or not cue_only)
        for m, equals, owner in _attributed(sent, group, prior)
    )


def _also_expected(m: Mention, slots: Sequence[_Slot]) -> bool:
    """A value that is itself one of the expected values is no rival (two times asked for)."""
    for slot in slots:
        if slot.code_len is not None:
            if m.value == slot.want:
                return True
        elif values.find(m.span, slot.item, slot.kind, tolerance=slot.tolerance) is not None:
            return True
    return False


def hedges_in_text(
    text: str,
    expected: Sequence[Expected],
    kind: ValueType | None = None,
    *,
    tolerance: float = 0.0,
) -> list[str]:
    """The sentences of a file that hedge or correct an expected value *in the statement that gives
    it* (issue 32: "23.5 °C, or maybe 27.5 °C" in a note fails).

    A file is not a conversation: its other lines (a board's other weekdays, a log's other
    readings) are statements about other things, never corrections of the asked value. So only
    the sentence (a line, or a sentence of a line) that states the expected value is judged: it
    fails when another value of the slot's type is offered there as a possibility (``or``,
    ``maybe``, ``?``, ``/``), or the expected value is offered beside another one, or a correction
    in that sentence puts another value after it ("16:30 — sorry, correction: 17:00"), or — when
    the values of several slots share a type and declare cue words — the slot's value stands under
    another slot's cue ("bed 22:30, night feed 19:00" when bed is 19:00 and the feed 22:30)."""
    sents = sentences([text])
    slots = [_Slot(item, kind, tolerance) for item in expected]
    out: list[str] = []
    for slot in slots:
        for sent in sents:
            if _given_elsewhere(slot, sent, slots, cue_only=True):
                out.append(repr(sent.text.strip()))
                continue
            mine, other, _ = _slot_mentions(slot, sent, slots)
            if mine and slotting.swap_offered(sent.text) and sum(slot.shares_type(s) for s in slots) > 1:
                out.append(repr(sent.text.strip()))
                continue
            if not mine or not other:
                continue
            offered = any(_offered(sent.text, m) for m in other) or any(_offered(sent.text, m) for m in mine)
            corrected = sent.correction and max(m.order for m in other) > max(m.order for m in mine)
            if offered or corrected:
                out.append(repr(sent.text.strip()))
    return sorted(set(out))
