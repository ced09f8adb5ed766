"""The phone's value checks that took no ``distractors`` (``contact_exists``, ``alarm_exists``) and
``event_exists``'s start distractors: each passes on the right value, fails on the near miss with
a message naming it, and behaves as before without the argument."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from pydantic import ValidationError

from devicesworld.devices.android.checks import CHECKS
from devicesworld.devices.base import CheckOutcome

RIGHT, SWITCHBOARD = "+1 555 010 2233", "+1 555 010 9000"


def run(check: str, args: dict[str, Any], state: dict[str, Any]) -> CheckOutcome:
    spec = dict(CHECKS)[check]

    def get(name: str, _: Mapping[str, Any]) -> Any:
        return state.get(name, {})  # no "clock": an alarm is judged by its row alone

    return spec.fn(get, spec.args_model.model_validate(args))


def contact(name: str, phone: str, **more: str) -> dict[str, str]:
    return {"name": name, "phone": phone, "email": "", "company": "", "notes": "", **more}


# --- contact_exists ------------------------------------------------------------------------
CONTACT = {"name": "Maya Roth", "phone": RIGHT}
TWIN = [{"value": SWITCHBOARD, "type": "phone"}]


def test_contact_passes_on_the_right_number_beside_other_contacts() -> None:
    state = {"contacts": [contact("Maya Roth", "555-010-2233"), contact("Clinic switchboard", SWITCHBOARD)]}
    assert run("contact_exists", {**CONTACT, "distractors": TWIN}, state).passed


def test_contact_fails_on_the_distractor_in_place_of_the_number() -> None:
    state = {"contacts": [contact("Maya Roth", "(555) 010-9000")]}
    out = run("contact_exists", {**CONTACT, "distractors": TWIN}, state)
    assert not out.passed and "distractor" in out.detail and "(555) 010-9000" in out.detail


def test_contact_fails_on_a_second_contact_of_the_name_with_the_distractor() -> None:
    state = {"contacts": [contact("Maya Roth", RIGHT), contact("Roth, Maya", SWITCHBOARD)]}
    out = run("contact_exists", {**CONTACT, "distractors": TWIN}, state)
    assert not out.passed and "distractor" in out.detail


def test_contact_fails_on_a_distractor_in_the_notes() -> None:
    state = {"contacts": [contact("Maya Roth", RIGHT, notes=f"or {SWITCHBOARD}")]}
    out = run("contact_exists", {**CONTACT, "distractors": TWIN}, state)
    assert not out.passed and "notes=" in out.detail


def test_contact_without_distractors_is_as_before() -> None:
    state = {"contacts": [contact("Maya Roth", RIGHT), contact("Maya Roth", SWITCHBOARD)]}
    assert run("contact_exists", CONTACT, state).passed
    wrong = run("contact_exists", CONTACT, {"contacts": [contact("Maya Roth", SWITCHBOARD)]})
    assert not wrong.passed and "distractor" not in wrong.detail


# --- alarm_exists --------------------------------------------------------------------------
def alarm(hour: int, minute: int, label: str = "Train", enabled: bool = True) -> dict[str, Any]:
    return {"hour": hour, "minute": minute, "enabled": enabled, "days": [], "label": label}


ALARM = {"hour": 6, "minute": 20, "label": "Train", "distractors": [{"value": "07:05", "type": "time"}]}


def test_alarm_passes_at_the_right_time_beside_unrelated_alarms() -> None:
    state = {"alarms": [alarm(6, 20), alarm(7, 5, label="Gym"), alarm(7, 5, enabled=False)]}
    assert run("alarm_exists", ALARM, state).passed


@pytest.mark.parametrize("alarms", [[alarm(7, 5)], [alarm(6, 20), alarm(7, 5)]], ids=["instead", "beside"])
def test_alarm_fails_at_the_distractor_time(alarms: list[dict[str, Any]]) -> None:
    out = run("alarm_exists", ALARM, {"alarms": alarms})
    assert not out.passed and "distractor" in out.detail and "07:05" in out.detail


def test_an_unlabelled_alarm_at_the_distractor_fails() -> None:
    out = run("alarm_exists", ALARM, {"alarms": [alarm(6, 20), alarm(7, 5, label="")]})
    assert not out.passed and "07:05" in out.detail


def test_alarm_distractor_in_any_spelling() -> None:
    args = {**ALARM, "distractors": ["7:05 am"]}
    assert not run("alarm_exists", args, {"alarms": [alarm(6, 20), alarm(7, 5)]}).passed


def test_alarm_without_distractors_is_as_before() -> None:
    plain = {k: v for k, v in ALARM.items() if k != "distractors"}
    assert run("alarm_exists", plain, {"alarms": [alarm(6, 20), alarm(7, 5)]}).passed
    out = run("alarm_exists", plain, {"alarms": [alarm(7, 5)]})
    assert not out.passed and "no alarm at 06:20" in out.detail


# --- event_exists: a distractor for the start ----------------------------------------------
def event(title: str, start: str) -> dict[str, str]:
    return {"title": title, "dtstart": start, "dtend": start, "eventLocation": "", "description": ""}


EVENT = {"title": "Dinner at Saffron House", "start": "2026-03-05T20:15"}
OLD = {"value": "19:00", "type": "time", "field": "start"}


def test_event_passes_at_the_right_start_beside_other_titles_at_the_old_time() -> None:
    state = {
        "events": [event("Dinner at Saffron House", "2026-03-05T20:15:00"), event("Yoga", "2026-03-05T19:00")]
    }
    assert run("event_exists", {**EVENT, "distractors": [OLD]}, state).passed


@pytest.mark.parametrize(
    "events",
    [
        [event("Dinner at Saffron House", "2026-03-05T19:00:00")],
        [
            event("Dinner at Saffron House", "2026-03-05T20:15:00"),
            event("dinner at saffron house", "2026-03-05T19:00"),
        ],
    ],
    ids=["instead", "beside"],
)
def test_event_fails_at_the_distractor_start(events: list[dict[str, str]]) -> None:
    out = run("event_exists", {**EVENT, "distractors": [OLD]}, {"events": events})
    assert not out.passed and "distractor" in out.detail and "19:00" in out.detail


def test_event_start_distractors_by_date_whole_start_and_default_field() -> None:
    moved = {"events": [event("Dinner at Saffron House", "2026-03-06T20:15")]}
    day = {"value": "2026-03-06", "type": "date", "field": "start"}
    assert not run("event_exists", {**EVENT, "distractors": [day]}, moved).passed
    whole = {"value": "2026-03-06T20:15", "field": "start"}
    assert not run("event_exists", {**EVENT, "distractors": [whole]}, moved).passed
    # entries without their own field stand in for the start when the check says so
    untagged = {**EVENT, "distractors": [{"value": "20:15", "type": "time"}], "distractor_field": "start"}
    out = run("event_exists", {**untagged, "start": "2026-03-06T20:15"}, moved)
    assert not out.passed and "starts at a distractor" in out.detail


def test_event_title_distractors_are_as_before() -> None:
    state = {
        "events": [event("Dinner at Saffron House", "2026-03-05T20:15"), event("19:00", "2026-03-01T09:00")]
    }
    untagged = {**EVENT, "distractors": [{"value": "19:00", "type": "time"}]}
    out = run("event_exists", untagged, state)
    assert not out.passed and "titled with a distractor" in out.detail
    old_only = {"events": [event("Dinner at Saffron House", "2026-03-05T19:00")]}
    out = run("event_exists", EVENT, old_only)
    assert not out.passed and "distractor" not in out.detail  # no distractor: the old message


def test_event_distractor_entries_need_a_known_field() -> None:
    with pytest.raises(ValidationError):
        CHECKS["event_exists"].args_model.model_validate(
            {**EVENT, "distractors": [{"value": "x", "field": "end"}]}
        )
