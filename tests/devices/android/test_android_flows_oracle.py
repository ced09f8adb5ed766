"""The new app flows are reachable by reference solutions: tasks written by meaning with the phone's
macros compile (recorded on the simulator) and pass ``tasks validate``'s run gate."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.tasks.handwritten import compile_task
from devicesworld.tasks.validate import validate_task

BASE: dict[str, Any] = {
    "devices": ["android_0"],
    "metadata": {"pattern": "device_state_control", "split": "test", "origin": "handwritten"},
}

TASKS: list[dict[str, Any]] = [
    {
        "id": "flow-share-note-first-open",
        "instruction": "Text my packing list note to Ann Lee.",
        "setup": [
            {"add_contact": {"name": "Ann Lee", "phone": "+15550101"}},
            {"add_note": {"name": "packing.md", "text": "passport, charger"}},
            {"set_permission": {"app": "Messages"}},
        ],
        "conditions": [{"id": "sent", "sms_sent": {"to": "+15550101", "body": "passport, charger"}}],
        "solution": [
            {"open": "Markor"},
            {"hold": "packing.md"},
            {"press": "share"},
            {"tap": "Messages"},
            {"press": "allow"},
            {"type": {"into": "recipient", "text": "Ann"}},
            {"tap": "Ann Lee"},
            {"press": "send"},
        ],
    },
    {
        "id": "flow-alarm-on-a-date",
        "instruction": "Make my 6:30 AM alarm ring on 5 April only.",
        "setup": [{"add_alarm": {"hour": 6, "minute": 30, "label": "Flight"}}],
        "conditions": [
            {"id": "dated", "alarm_exists": {"hour": 6, "minute": 30, "date": "2026-04-05", "days": []}}
        ],
        "solution": [
            {"open": "Clock"},
            {"tap": "6:30 AM"},
            {"press": "schedule_alarm"},
            {"pick_date": {"date": "2026-04-05", "pages": 1}},
        ],
    },
    {
        "id": "flow-calendar-search-delete",
        "instruction": "Cancel my dentist appointment in the calendar.",
        "setup": [
            {"add_event": {"title": "Dentist", "start": "2026-06-11T10:00:00", "location": "Main St"}},
            {"add_event": {"title": "Standup", "start": "2026-03-03T09:30:00"}},
        ],
        "conditions": [
            {"id": "gone", "event_absent": {"title": "Dentist"}},
            {"id": "kept", "event_exists": {"title": "Standup"}},
        ],
        "solution": [
            {"open": "Calendar"},
            {"press": "calendar_search"},
            {"type": {"into": "event_search", "text": "dentist"}},
            {"tap": "Dentist"},
            {"press": "delete"},
            {"press": "ok"},
        ],
    },
]


@pytest.mark.parametrize("doc", TASKS, ids=[t["id"] for t in TASKS])
def test_flow_task_compiles_and_its_reference_solution_passes(doc: dict[str, Any]) -> None:
    task = compile_task({**BASE, **doc})
    report = validate_task(task, near_miss=False, paraphrase=False)
    assert report.ok, report
