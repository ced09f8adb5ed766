"""The shipped scenario families cover what issue #15 asks of the library.

Nine workflow patterns with at least five families each, JarvisGUI's three
categories, families over all three device classes and families on four devices
(docs/scenario-catalog.md lists the design). Phrasings are read as a person would
write them: four distinct phrasings per family, none repeating a clause, none a copy
of another family's phrasing once the slots are masked.
"""

from __future__ import annotations

import re
from collections import Counter

from devicesworld.tasks.scenarios.loader import shipped_families
from devicesworld.tasks.scenarios.model import CATEGORIES, PATTERNS, STYLES, Family

SLOT = re.compile(r"\{[^{}]*\}")


def _pattern(family: Family) -> str:
    return "infeasible_request" if family.infeasible_only else family.pattern


def _masked(text: str) -> str:
    text = SLOT.sub("#", text.lower())
    return " ".join(re.sub(r"\d+", "#", text).split())


def _clauses(text: str) -> list[str]:
    parts = re.split(r"[.;:!?,()]|\s-\s", _masked(text))
    return [p.strip() for p in parts if len(p.split()) >= 4]


def test_at_least_80_families_over_all_patterns_and_categories() -> None:
    families = shipped_families()
    assert len(families) >= 80
    patterns = Counter(_pattern(f) for f in families)
    assert set(patterns) == set(PATTERNS)
    assert min(patterns.values()) >= 5, patterns
    assert {f.category for f in families} == set(CATEGORIES)


def test_device_combinations_span_three_classes_and_four_devices() -> None:
    families = shipped_families()
    all_classes = [f for f in families if len(set(f.roles.values())) >= 3]
    four = [f for f in families if len(f.roles) == 4]
    assert len(all_classes) >= 15, [f.family for f in all_classes]
    assert len(four) >= 10, [f.family for f in four]
    for f in families:
        several = len(f.roles) > 1
        assert several == (f.category != "single_device_dependent"), f.family


def test_every_family_has_four_distinct_styles_of_phrasing_without_repeated_clauses() -> None:
    for f in shipped_families():
        assert {p.style for p in f.phrasings} >= set(STYLES), f.family
        masked = [_masked(p.text) for p in f.phrasings]
        assert len(set(masked)) == len(masked), f"{f.family}: two phrasings are the same"
        for p in f.phrasings:
            clauses = _clauses(p.text)
            assert len(set(clauses)) == len(clauses), f"{f.family} ({p.style}) repeats a clause"


def test_no_phrasing_is_shared_between_families() -> None:
    seen: dict[str, str] = {}
    for f in shipped_families():
        for p in f.phrasings:
            key = _masked(p.text)
            assert key not in seen or seen[key] == f.family, (
                f"{f.family} and {seen.get(key)} share {p.text!r}"
            )
            seen[key] = f.family
