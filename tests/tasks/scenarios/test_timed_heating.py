"""A heater scheduled for a time is worded as a command at that time, not as a room temperature by then.

A careful player (session 49, ``dw-flight-arrival-plan-0050``) read "the living room heater should
reach 21 °C then" as the room's temperature at the arrival, measured how fast the heater warms the
room and scheduled it 100 minutes early; the check wanted the target set at the arrival time, which
leaves the room cold when they walk in. A ``schedule_exists`` check on ``set_target_temperature``
judges *when the command runs*, so every phrasing must ask for the command at that time ("switch to
21 °C at …"), never for the room to be warm by then. This reads every family file and holds the rule.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

SCENARIOS = Path(__file__).parents[3] / "src" / "devicesworld" / "tasks" / "data" / "scenarios"
STATES_THE_LEAD = re.compile(r"needs\s+\{\w+(?::\w+)?\}\s+to get there", re.I)
"""A phrasing that says how long the heater takes ("needs {lead} to get there") makes the room
temperature by a time and the command at (time - lead) one answer: guests_arrival_heating's."""


def _outcome_wording(param: str) -> re.Pattern[str]:
    """Phrases that ask for the room to be at ``{param}`` by a time rather than a command then."""
    p = re.escape("{" + param + "}")
    return re.compile(
        rf"\breach(?:es)?\s+{p}|\bbe\s+(?:at\s+)?{p}\s+(?:by|when|for)|{p}\s+by the time|\bwarm\b[^.;]*?\s{p}\s+for when",
        re.I,
    )


def _timed_heating_families() -> list[Any]:
    out = []
    for path in sorted(SCENARIOS.glob("[!_]*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        params = []
        for c in doc["evaluation"]["conditions"]:
            args = c.get("args", {})
            if c.get("check") == "schedule_exists" and args.get("command") == "set_target_temperature":
                temp = str(args.get("params", {}).get("temperature", ""))
                if temp.startswith("{") and temp.endswith("}") and "due_at" in args:
                    params.append(temp[1:-1])
        if params:
            out.append(pytest.param(doc, params, id=path.stem))
    return out


def test_the_rule_finds_families_to_hold() -> None:
    assert len(_timed_heating_families()) >= 2


@pytest.mark.parametrize(("doc", "params"), _timed_heating_families())
def test_a_timed_heater_is_asked_for_as_a_command_at_that_time(
    doc: dict[str, Any], params: list[str]
) -> None:
    bad = [
        (p["style"], m.group(0))
        for p in doc["phrasings"]
        for param in params
        for m in [_outcome_wording(param).search(" ".join(p["text"].split()))]
        if m and not STATES_THE_LEAD.search(p["text"])
    ]
    assert not bad, f"phrasings ask for a room temperature by a time, the check a command at it: {bad}"


@pytest.mark.parametrize(
    ("text", "hit"),
    [
        ("so the living room heater should reach {target} then.", True),
        ("the kids' room should be {warm} by the time they walk in", True),
        ("warm the kids' room to {warm} for when they're home", True),
        ("have the living room heater switch to {target} at that moment", False),
        ("schedule the kids' room heater to {warm} for {walk} after the pickup", False),
        ("It should be at {target} by the time they arrive", True),
    ],
)
def test_the_wording_rule_tells_outcome_from_command(text: str, hit: bool) -> None:
    param = "target" if "{target}" in text else "warm"
    assert bool(_outcome_wording(param).search(text)) is hit
