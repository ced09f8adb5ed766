"""Which slot a value fills when one message must state several values of one type.

"We leave at 19:30 and will be back at 22:30" answers two slots with two times. A
reading that only asks whether each expected time is *mentioned* cannot tell a hedge
between the slots ("we leave at 19:30 (or maybe 22:30) …") or a correction that moves
one slot onto the other's value ("Sorry, correction: it is 22:30, not 19:30") from the
right answer, because the rival is itself an expected value. So each value of the shared
type in a sentence is attributed to one slot, in this order of evidence:

1. **cue** — the words a condition declares for the slot (``cues`` of a typed expected
   value: "leave", "head out" / "back", "home by"). A cue belongs to the value it
   introduces or follows in its clause: the nearer of the values before and after it,
   a conjunction ("and", "or", "then", "but") between them weighing against that side, the
   value after it on a tie; cues alone in their clause ("Leaving: 19:30", "fennel and
   ricotta: 200 g and 300 g") belong, in order, to the values after it (else before it).
   A value takes the slot of the nearest cue it holds.
2. **alternative** — a value offered as another possibility right after a value
   ("19:30 (or maybe 22:30)", "19:30 / 22:30"; at most four words between them) is
   an answer to that value's slot.
3. **replacement** — a value set against a value ruled out in its sentence ("it is
   22:30, not 19:30") answers the ruled-out value's slot.
4. **value** — otherwise a value that equals one slot's expected value answers it; a
   value that equals none answers none (it is judged as before, a rival to every slot
   only when offered or given as a correction).

Without declared cues, attribution falls back to proximity (2, 3) and identity (4), never to
bare word order: a correct answer may give the slots in either order ("back by 22:30,
we leave at 19:30").

Two rules read whole **assignments**, not single values (session 47): "200 g of flour and 300 g
of sugar, or 300 g and 200 g" offers two assignments of the same values, and attributing each
value alone (by identity) would find every slot consistently answered.

- **assignment** (before 2) — a run of two or more values without cues of their own, offered
  as another possibility ("…, or 300 g and 200 g", "Or maybe 22:30 and 19:30."), answers, in
  order, the slots of the assignment stated before it in the sentence (or, with none there, of
  the conversation's last assignment, ``prior``): the flour slot then gets 300 g as a rival, a
  hedge. The same values in the same order ("…, or in other words 200 g and 300 g") restate it.
- **ruled-out swap** — a strongly ruled-out value followed, in its clause, by further expected
  values ("…, not 300 g of flour and 200 g of sugar") rules the whole run out when, read by its
  cues (or in order against the assignment before it), the run is a permutation of other slots'
  values: the swap is named only to be excluded, so none of its values is claimed (``dropped``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_CONJUNCTION = re.compile(r"\b(?:and|or|then|but|while|plus|until|till)\b|&", re.I)
_ALTERNATIVE_GAP_WORDS = 4
_JOIN = re.compile(r"\band\b|&|,|;|/")
"""What joins the values of one assignment ("300 g and 200 g", "300 g, 200 g")."""
_BREAK = re.compile(r"\b(?:or|maybe|either|perhaps|possibly|not|no|never|but|then)\b|\?", re.I)
"""Words that start another statement between two values: the run of an assignment ends there."""
_SWAP_OFFER = re.compile(
    r"\b(?:or|maybe|perhaps|possibly|either)\b[^.!?\d]{0,24}?"
    r"\b(?:the other way (?:a)?round|vice versa|the reverse|reversed|swapped|switched|the opposite)\b",
    re.I,
)


@dataclass(frozen=True)
class Spot:
    """One value of the shared type in a sentence."""

    start: int
    end: int
    equals: int | None
    """The slot whose expected value it is (``None``: no slot's)."""
    offered_before: bool
    """Put forward as another possibility by the words before it ("or 22:30", "maybe 22:30", "/22:30")."""
    ruled_out: bool
    """Strongly ruled out in its clause ("not 19:30")."""


@dataclass(frozen=True)
class Owner:
    """The slot a spot answers, and the evidence (``cue``, ``assignment``, ``alternative``,
    ``replacement``, ``value``)."""

    slot: int | None
    how: str
    dropped: bool = False
    """Ruled out with the swapped assignment it belongs to ("not 300 g of flour and 200 g of sugar")."""


def swap_offered(text: str) -> bool:
    """The text offers the other assignment in words ("…, or the other way round", "or vice versa")."""
    return _SWAP_OFFER.search(text) is not None


def cue_pattern(cues: Sequence[str]) -> re.Pattern[str] | None:
    """Whole-word, case-insensitive matcher of a slot's cue words (longest first)."""
    words = sorted({c.strip() for c in cues if c.strip()}, key=len, reverse=True)
    if not words:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.I)


def _clause_of(at: int, clauses: Sequence[tuple[int, int]]) -> int:
    for i, (start, end) in enumerate(clauses):
        if start <= at < end or (at == end and i == len(clauses) - 1):
            return i
    return -1


def _in_clause(text: str, start: int, end: int, same: Sequence[int], spots: Sequence[Spot]) -> int | None:
    """The spot a cue at ``text[start:end]`` belongs to among the spots of its own clause (rule 1)."""
    before = [i for i in same if spots[i].end <= start]
    after = [i for i in same if spots[i].start >= end]
    options: list[tuple[bool, int, int, int]] = []  # (conjunction between, distance, before?, spot)
    if before:
        i = before[-1]
        gap = text[spots[i].end : start]
        options.append((bool(_CONJUNCTION.search(gap)), len(gap.strip()), 1, i))
    if after:
        i = after[0]
        gap = text[end : spots[i].start]
        options.append((bool(_CONJUNCTION.search(gap)), len(gap.strip()), 0, i))
    return min(options)[3] if options else None


def _respectively(
    cues: Sequence[tuple[int, int, int]], clause: tuple[int, int], spots: Sequence[Spot]
) -> list[int | None]:
    """Cues alone in their clause ("fennel and ricotta: 200 g and 300 g") belong, in order, to the
    values of the clauses after it — or, with none after, to as many values before it."""
    later = [i for i, s in enumerate(spots) if s.start >= clause[1]]
    if later:
        return [later[min(k, len(later) - 1)] for k in range(len(cues))]
    earlier = [i for i, s in enumerate(spots) if s.end <= clause[0]]
    if not earlier:
        return [None] * len(cues)
    first = max(0, len(earlier) - len(cues))
    return [earlier[min(first + k, len(earlier) - 1)] for k in range(len(cues))]


def _matches(text: str, cues: Sequence[re.Pattern[str] | None]) -> list[tuple[int, int, int]]:
    """Every cue word in the text as (start, end, slot), in order; of overlapping ones the longest."""
    found = sorted(
        (
            (m.start(), m.end(), slot)
            for slot, p in enumerate(cues)
            if p is not None
            for m in p.finditer(text)
        ),
        key=lambda x: (x[0], -(x[1] - x[0])),
    )
    out: list[tuple[int, int, int]] = []
    for match in found:
        if not out or match[0] >= out[-1][1]:
            out.append(match)
    return out


def _by_cue(
    text: str,
    spots: Sequence[Spot],
    cues: Sequence[re.Pattern[str] | None],
    clauses: Sequence[tuple[int, int]],
) -> dict[int, int]:
    """Spot index -> slot, for the spots a declared cue belongs to (the nearest cue wins)."""
    targets: list[tuple[tuple[int, int, int], int | None]] = []
    alone: dict[int, list[tuple[int, int, int]]] = {}  # clause -> its cues, when it holds no value
    for match in _matches(text, cues):
        clause = _clause_of(match[0], clauses)
        same = [i for i, s in enumerate(spots) if _clause_of(s.start, clauses) == clause]
        if same:
            targets.append((match, _in_clause(text, match[0], match[1], same, spots)))
        else:
            alone.setdefault(clause, []).append(match)
    for clause, found in alone.items():
        span = clauses[clause] if clause >= 0 else (found[0][0], found[-1][1])
        targets += list(zip(found, _respectively(found, span, spots), strict=True))
    best: dict[int, tuple[int, int]] = {}  # spot -> (distance, slot)
    for (start, end, slot), target in targets:
        if target is None:
            continue
        s = spots[target]
        distance = max(s.start - end, start - s.end, 0)
        if target not in best or distance < best[target][0]:
            best[target] = (distance, slot)
    return {i: slot for i, (_, slot) in best.items()}


def _run(text: str, spots: Sequence[Spot], first: int, cued: dict[int, int], *, uncued: bool) -> list[int]:
    """The spots of one assignment starting at ``first``: the values after it joined by "and", a
    comma or a slash (at most four words between, none that starts another statement), without a
    cue of their own when ``uncued``."""
    run = [first]
    for i in range(first + 1, len(spots)):
        gap = text[spots[i - 1].end : spots[i].start]
        if (
            (uncued and i in cued)
            or spots[i].ruled_out
            or len(re.findall(r"\w+", gap)) > _ALTERNATIVE_GAP_WORDS
            or not _JOIN.search(gap)
            or _BREAK.search(gap)
        ):
            break
        run.append(i)
    return run


def assignment(spots: Sequence[Spot], owners: Sequence[Owner]) -> tuple[int, ...]:
    """The slots the claimed values answer, in the order they are first given (an assignment when
    two or more): what a later "or 300 g and 200 g" is read against."""
    out: list[int] = []
    for spot, owner in zip(spots, owners, strict=False):
        if owner.slot is not None and not spot.ruled_out and not owner.dropped and owner.slot not in out:
            out.append(owner.slot)
    return tuple(out)


def _against(
    spots: Sequence[Spot], owners: Sequence[Owner], prior: Sequence[int], size: int
) -> tuple[int, ...]:
    """The assignment a run of ``size`` values is read against: the one before it in the sentence,
    else the conversation's last one; empty when neither gives that many slots."""
    here = assignment(spots, owners)
    if len(here) >= size:
        return here[:size]
    return tuple(prior[:size]) if len(prior) >= size else ()


def attribute(
    text: str,
    spots: Sequence[Spot],
    cues: Sequence[Sequence[str]],
    clauses: Sequence[tuple[int, int]],
    prior: Sequence[int] = (),
) -> list[Owner]:
    """The slot each spot of one sentence answers (``clauses``: the sentence's clause spans;
    ``prior``: the conversation's last assignment before this sentence)."""
    patterns = [cue_pattern(c) for c in cues]
    cued = _by_cue(text, spots, patterns, clauses)
    owners: list[Owner] = []
    pending: dict[int, int] = {}  # spot -> slot, from an offered assignment (rule "assignment")
    for i, spot in enumerate(spots):
        if i in cued:
            owners.append(Owner(cued[i], "cue"))
            continue
        if i in pending:
            owners.append(Owner(pending[i], "assignment"))
            continue
        if spot.offered_before and not spot.ruled_out:
            run = _run(text, spots, i, cued, uncued=True)
            against = _against(spots[:i], owners, prior, len(run)) if len(run) > 1 else ()
            if against:
                pending.update(zip(run[1:], against[1:], strict=True))
                owners.append(Owner(against[0], "assignment"))
                continue
        if spot.offered_before and i > 0 and owners[i - 1].slot is not None:
            gap = text[spots[i - 1].end : spot.start]
            if len(re.findall(r"\w+", gap)) <= _ALTERNATIVE_GAP_WORDS:
                owners.append(Owner(owners[i - 1].slot, "alternative"))
                continue
        owners.append(Owner(spot.equals, "value"))
    return _replacements(spots, _ruled_out_swaps(text, spots, owners, cued, prior))


def _ruled_out_swaps(
    text: str, spots: Sequence[Spot], owners: list[Owner], cued: dict[int, int], prior: Sequence[int]
) -> list[Owner]:
    """Rule "ruled-out swap": a strongly ruled-out value and the expected values joined to it in its
    clause, read as an assignment (by their cues, else in order against the assignment before
    them), are all ruled out when that assignment is a permutation of other slots' values."""
    out = list(owners)
    i = 0
    while i < len(spots):
        if not spots[i].ruled_out or spots[i].equals is None:
            i += 1
            continue
        run = _run(text, spots, i, cued, uncued=False)
        equals = [spots[k].equals for k in run]
        if len(run) < 2 or None in equals or len(set(equals)) < len(run):
            i += 1
            continue
        against = _against(spots[:i], owners[:i], prior, len(run))
        slots = [cued[k] if k in cued else (against[n] if against else None) for n, k in enumerate(run)]
        if (
            None not in slots
            and len(set(slots)) == len(run)
            and set(slots) == set(equals)
            and slots != equals
        ):
            for k, slot in zip(run, slots, strict=True):
                out[k] = Owner(slot, owners[k].how, dropped=True)
        i = run[-1] + 1
    return out


def _replacements(spots: Sequence[Spot], owners: list[Owner]) -> list[Owner]:
    """Rule 3: the claimed value nearest a ruled-out one, with no cue of its own, answers its slot —
    unless the sentence goes on to give the ruled-out value for its own slot ("200 g, not 300 g, and 300 g
    of ricotta": 300 g was ruled out for another slot, and 200 g stays where it is)."""
    out = list(owners)
    for r, ruled in enumerate(spots):
        if not ruled.ruled_out or owners[r].slot is None or owners[r].dropped:
            continue
        if any(
            i > r and not s.ruled_out and not owners[i].dropped and s.equals == ruled.equals == owners[i].slot
            for i, s in enumerate(spots)
        ):
            continue
        free = [
            i
            for i, s in enumerate(spots)
            if i != r
            and not s.ruled_out
            and not owners[i].dropped
            and owners[i].how == "value"
            and s.equals != owners[r].slot
        ]
        if free:
            i = min(free, key=lambda j: max(spots[j].start - ruled.end, ruled.start - spots[j].end))
            out[i] = Owner(owners[r].slot, "replacement")
    return out
