"""The census counts a value read through ``contact_exists``, ``alarm_exists``, ``table_has_row``,
``playlist_contains`` or an ``event_exists`` start as covered once its condition declares a distractor, and as uncovered
(a check that could take one, none declared) while it does not."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.spec.metadata import Composition
from devicesworld.spec.models import Task
from devicesworld.tasks.readcover import uncovered_values

PHONE = {"id": "android_0", "kind": "android"}
DESK = {"id": "linux_0", "kind": "linux"}

CASES = [
    (PHONE, "contact_exists", {"name": "Maya Roth", "phone": "+15550102233"}, "+15550102233", "+15550109000"),
    (PHONE, "alarm_exists", {"hour": 6, "minute": 20, "label": "Train"}, "06:20", "07:05"),
    (
        DESK,
        "table_has_row",
        {"path": "~/shifts.csv", "row": {"Date": "2026-03-03", "Start": "07:30"}},
        "07:30",
        "08:00",
    ),
    (
        PHONE,
        "playlist_contains",
        {"name": "Road trip", "songs": ["Slow River"]},
        "Slow River",
        "Glass Houses",
    ),
    (
        PHONE,
        "event_exists",
        {"title": "Dinner", "start": "2026-03-05T20:15", "distractor_field": "start"},
        "20:15",
        "19:00",
    ),
]


def _task(device: dict[str, str], check: str, args: dict[str, Any], source: str) -> Task:
    return Task.model_validate(
        {
            "id": "readcover.t",
            "instruction": "Do it.",
            "devices": [device],
            "evaluation": {"conditions": [{"id": "c", "device": device["id"], "check": check, "args": args}]},
            "metadata": {
                "pattern": "x",
                "sources": [{"device": device["id"], "value": source, "description": "it"}],
            },
        }
    )


@pytest.mark.parametrize(("device", "check", "args", "source", "twin"), CASES, ids=[c[1] for c in CASES])
def test_covered_with_a_declared_distractor_and_listed_without(
    device: dict[str, str], check: str, args: dict[str, Any], source: str, twin: str
) -> None:
    bare = uncovered_values(_task(device, check, args, source))
    assert bare == [
        f"source {source!r} on {device['id']} (it): checked by {check} with no distractor declared"
    ]
    declared = {**args, "distractors": [{"value": twin, "type": "text"}]}
    assert uncovered_values(_task(device, check, declared, source)) == []


def test_a_lookup_key_is_covered_through_the_value_it_picks() -> None:
    """A train number read only to pick its arrival: covered once the lookup is recorded and the
    arrival's check declares the other train's arrival; listed while nothing derives from it."""
    args = {"path": "~/family.json", "field": "arrive", "equals": "14:05"}
    task = _task(DESK, "json_field_equals", {**args, "distractors": ["09:10"]}, "IC 2417")
    assert uncovered_values(task) == ["source 'IC 2417' on linux_0 (it): no check names it"]
    lookup = {
        "op": "lookup",
        "inputs": ["IC 2417"],
        "params": {"keys": ["IC 2418", "IC 2417"], "values": ["09:10", "14:05"]},
        "result": "14:05",
    }
    derived = task.model_copy(
        update={
            "metadata": task.metadata.model_copy(
                update={"composition": Composition.model_validate({"derivations": [lookup]})}
            )
        }
    )
    assert uncovered_values(derived) == []
