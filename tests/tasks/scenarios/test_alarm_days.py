"""Alarms whose day the instruction names declare it (session 48, issue 32).

A family that asks for an alarm "tomorrow", "today", "tonight" or "every weekday" while its
``alarm_exists`` check declares neither ``date`` nor ``days`` passes an alarm that rings on any
day: twelve families did until session 48. This reads every family file and holds the rule for
new ones; families whose instruction names no day (the next time it is that hour) are free.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

SCENARIOS = Path(__file__).parents[3] / "src" / "devicesworld" / "tasks" / "data" / "scenarios"
DAY = re.compile(r"\b(tomorrow|today|tonight|weekdays?|every (?:day|week|mon|tue|wed|thu|fri|sat|sun))", re.I)


def _alarm_families() -> list[Any]:
    out = []
    for path in sorted(SCENARIOS.glob("[!_]*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        alarms = [c for c in doc["evaluation"]["conditions"] if c.get("check") == "alarm_exists"]
        if alarms:
            out.append(pytest.param(doc, alarms, id=path.stem))
    return out


@pytest.mark.parametrize(("doc", "alarms"), _alarm_families())
def test_an_alarm_the_instruction_gives_a_day_declares_it(doc: dict[str, Any], alarms: list[Any]) -> None:
    named = sorted({m.group(1).lower() for p in doc["phrasings"] for m in DAY.finditer(p["text"])})
    undeclared = [c["id"] for c in alarms if "date" not in c["args"] and "days" not in c["args"]]
    assert not (named and undeclared), f"phrasings name {named}; alarm checks {undeclared} declare no day"


@pytest.mark.parametrize(("doc", "alarms"), _alarm_families())
def test_a_declared_day_is_stated_in_every_phrasing_of_the_families_that_say_it(
    doc: dict[str, Any], alarms: list[Any]
) -> None:
    """Where the day is today or tomorrow as a word (not a source's date), every phrasing says it."""
    dates = {str(c["args"].get("date", "")) for c in alarms}
    word = {"{tomorrow}": ("tomorrow",), "{today}": ("today", "tonight")}
    for key, words in word.items():
        if key in dates:
            for p in doc["phrasings"]:
                assert any(w in p["text"].lower() for w in words), f"{p['style']} never says {words[0]}"
