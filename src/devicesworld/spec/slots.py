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
   a conjunction ("and", "then", "but") between them weighing against that side, the
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
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_CONJUNCTION = re.compile(r"\b(?:and|then|but|while|plus|until|till)\b|&", re.I)
_ALTERNATIVE_GAP_WORDS = 4


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
    """The slot a spot answers, and the evidence (``cue``, ``alternative``, ``replacement``, ``value``)."""

    slot: int | None
    how: str


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


def attribute(
    text: str,
    spots: Sequence[Spot],
    cues: Sequence[Sequence[str]],
    clauses: Sequence[tuple[int, int]],
) -> list[Owner]:
    """The slot each spot of one sentence answers (``clauses``: the sentence's clause spans)."""
    patterns = [cue_pattern(c) for c in cues]
    cued = _by_cue(text, spots, patterns, clauses)
    owners: list[Owner] = []
    for i, spot in enumerate(spots):
        if i in cued:
            owners.append(Owner(cued[i], "cue"))
            continue
        if spot.offered_before and i > 0 and owners[i - 1].slot is not None:
            gap = text[spots[i - 1].end : spot.start]
            if len(re.findall(r"\w+", gap)) <= _ALTERNATIVE_GAP_WORDS:
                owners.append(Owner(owners[i - 1].slot, "alternative"))
                continue
        owners.append(Owner(spot.equals, "value"))
    return _replacements(spots, owners)


def _replacements(spots: Sequence[Spot], owners: list[Owner]) -> list[Owner]:
    """Rule 3: the claimed value nearest a ruled-out one, with no cue of its own, answers its slot."""
    out = list(owners)
    for r, ruled in enumerate(spots):
        if not ruled.ruled_out or owners[r].slot is None:
            continue
        free = [
            i
            for i, s in enumerate(spots)
            if i != r and not s.ruled_out and owners[i].how == "value" and s.equals != owners[r].slot
        ]
        if free:
            i = min(free, key=lambda j: max(spots[j].start - ruled.end, ruled.start - spots[j].end))
            out[i] = Owner(owners[r].slot, "replacement")
    return out
