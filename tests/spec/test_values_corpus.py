"""The value corpus: for every value type, phrasings that must match and near misses that must not.

Each file in ``corpus_values`` names a value type and groups of cases. A group compares
either whole fields (``same``) or finds the value inside a longer text (``find``, with
the group's distractors: an answer giving one of them fails, as a hedged answer does).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from devicesworld.spec import values

CORPUS = Path(__file__).parent / "corpus_values"


def _cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for g, group in enumerate(doc["groups"]):
            ctx = {**doc.get("context", {}), **group.get("context", {})}
            for verdict in ("pass", "fail"):
                for i, answer in enumerate(group[verdict]):
                    case = (doc["type"], group, ctx, answer, verdict == "pass")
                    out.append(pytest.param(*case, id=f"{path.stem}-{g}-{verdict}-{i}"))
    return out


def _context(raw: dict[str, Any]) -> values.ValueContext:
    today = date.fromisoformat(str(raw.get("today", "2026-03-02")))
    return values.ValueContext(today=today, locale=str(raw.get("locale", "en-US")))


@pytest.mark.parametrize(("kind", "group", "ctx", "answer", "should_pass"), _cases())
def test_value_corpus(
    kind: values.ValueType, group: dict[str, Any], ctx: dict[str, Any], answer: Any, should_pass: bool
) -> None:
    with values.using(_context(ctx)):
        if group["mode"] == "field":
            got = values.same(answer, group["expected"], kind)
        else:
            verdict = values.judge_text(answer, [group["expected"]], group.get("distractors", []), kind)
            got = verdict.passed
    assert got is should_pass, f"{kind} {group['mode']}: {answer!r} vs {group['expected']!r}"


def test_every_value_type_has_a_corpus_of_ten_and_ten() -> None:
    seen: dict[str, tuple[int, int]] = {}
    for path in CORPUS.glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for group in doc["groups"]:
            assert len(group["pass"]) >= 10 and len(group["fail"]) >= 10, (path.name, group["expected"])
        seen[doc["type"]] = (len(doc["groups"]), 0)
    assert set(seen) == set(values.VALUE_TYPES) - {"auto"}
