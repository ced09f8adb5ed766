"""The shipped scenario families cover what issue #15 asks of the library.

Nine workflow patterns with at least five families each, JarvisGUI's three
categories, families over all three device classes and families on four devices
(docs/scenario-catalog.md lists the design). Phrasings are read as a person would
write them: four distinct phrasings per family, none repeating a clause, none a copy
of another family's phrasing once the slots are masked.
"""

from __future__ import annotations

import random
from collections import Counter

from devicesworld.spec.metadata import CATEGORIES, PATTERNS
from devicesworld.tasks.naturalness import masked, repeated_clauses
from devicesworld.tasks.scenarios.compile import draw, world_people
from devicesworld.tasks.scenarios.loader import shipped_families
from devicesworld.tasks.scenarios.model import STYLES, Family
from devicesworld.tasks.scenarios.templates import render_text


def _pattern(family: Family) -> str:
    return "infeasible_request" if family.infeasible_only else family.pattern


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


def _rendered(family: Family) -> list[str]:
    drawn = draw(family, random.Random(3))
    values = {**drawn.values, **world_people(drawn.model, drawn.values)}  # {my_partner}, as compiling does
    return [render_text(p.text, values, spoken=True) for p in family.phrasings]


def test_every_family_has_four_distinct_styles_of_phrasing_without_repeated_clauses() -> None:
    for f in shipped_families():
        assert {p.style for p in f.phrasings} >= set(STYLES), f.family
        texts = _rendered(f)
        assert len({masked(t) for t in texts}) == len(texts), f"{f.family}: two phrasings are the same"
        for style, text in zip((p.style for p in f.phrasings), texts, strict=True):
            assert repeated_clauses(text) == [], f"{f.family} ({style}) repeats a clause: {text}"


def test_no_phrasing_is_shared_between_families() -> None:
    seen: dict[str, str] = {}
    for f in shipped_families():
        for text in _rendered(f):
            key = masked(text)
            assert seen.get(key, f.family) == f.family, f"{f.family} and {seen[key]} share {text!r}"
            seen[key] = f.family
