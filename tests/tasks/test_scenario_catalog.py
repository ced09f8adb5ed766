"""The scenario catalog (docs/scenario-catalog.md) meets the coverage issue #15 asks of it.

The catalog is the design list the family files are written from; these tests
read its entries and hold the targets: nine patterns with at least five families
each, all three JarvisGUI categories, at least 15 families over all three device
classes, at least 10 with four devices, and unique ids.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from devicesworld.spec.metadata import PATTERNS

CATALOG = Path(__file__).resolve().parents[2] / "docs" / "scenario-catalog.md"
ENTRY = re.compile(r"^### (F\d+) `([a-z0-9-]+)`$", re.M)
LINE = re.compile(r"\*\*pattern\*\* (\w+) · \*\*category\*\* (\w+) · \*\*devices\*\* ([A-Z0-9+]+)")
CATEGORIES = {"SD", "MI", "MD"}


def entries() -> list[tuple[str, str, str, list[str]]]:
    text = CATALOG.read_text(encoding="utf-8")
    heads = list(ENTRY.finditer(text))
    out = []
    for i, head in enumerate(heads):
        body = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        found = LINE.search(body)
        assert found is not None, f"{head.group(1)} has no pattern/category/devices line"
        out.append((head.group(2), found.group(1), found.group(2), found.group(3).split("+")))
    return out


def classes(devices: list[str]) -> set[str]:
    return {d[0] for d in devices}


def test_at_least_80_families_with_unique_ids() -> None:
    ids = [e[0] for e in entries()]
    assert len(ids) >= 80
    assert len(set(ids)) == len(ids)


def test_every_pattern_has_five_families_and_every_category_appears() -> None:
    rows = entries()
    patterns = Counter(e[1] for e in rows)
    assert set(patterns) == set(PATTERNS)
    assert min(patterns.values()) >= 5, patterns
    assert {e[2] for e in rows} == CATEGORIES


def test_device_combinations_reach_the_targets() -> None:
    rows = entries()
    for fid, _, category, devices in rows:
        assert len(devices) == len(set(devices)), f"{fid}: a device twice"
        assert set(devices) <= {"P1", "P2", "D1", "D2", "H"}, fid
        assert (category == "SD") == (len(devices) == 1), f"{fid}: {category} with {devices}"
    assert sum(classes(d) == {"P", "D", "H"} for *_, d in rows) >= 15
    assert sum(len(d) == 4 for *_, d in rows) >= 10
