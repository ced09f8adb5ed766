"""The published declarations of every kind are frozen: the kind refactor (#20) must not change them.

``declarations_snapshot.json`` was written from ``main`` (f39d755) before actions became
decorator-registered handlers: each kind's doc, action space, setup/cleanup ops,
getters and checks (names, docs, JSON Schemas of their arguments, whether a check
declares writes) and its profile schema. Agents, prompts and task files are built
from these, so any difference here is a change of the benchmark, not a refactor.
The GUI desktops (#16) extended it without changing an entry: the Linux kind's GUI
setup op, getters and checks and its profile's ``desktop``/``screen`` fields were
appended, and the ``windows`` kind added. The lived-in homes (#13) appended the
SmartHome setup ops ``remove_device`` and ``remove_room`` (a family's rooms on top of
the world's home), and an optional ``distractors`` argument on the value checks
``device_attribute`` and ``schedule_exists`` (every task's read value has a twin). The
Linux ``form_submitted`` check gained the optional ``max_rejected`` argument (default:
as before), found by play-testing suite v2, and ``email_draft`` the optional
``distractor_recipients`` flag (default: as before), so a draft hedging its To: between
a contact and the look-alike contact fails (#13). The checks that took no distractors gained
an optional ``distractors`` argument (``contact_exists``, ``alarm_exists``, ``table_has_row``),
and ``event_exists``'s distractors may name the field they stand in for (an entry with
``field: start``, or ``distractor_field``) — without them, each check is as before; so did
``playlist_contains`` (a playlist holding a near-miss song fails). The Windows file checks
``file_exists``, ``file_text``, ``rtf_text`` and ``rtf_paragraphs`` gained the same optional
``distractors`` (a near-miss path, value or paragraph; without it, each check is as before).
The Windows kind's doc names the profile folders ``Downloads`` and ``Pictures`` beside
``Desktop`` and ``Documents``: they became folders of their own when the kind took persona
worlds (#13; Wine had linked them to the home itself). The Linux ``email_drafts`` getter and
``email_draft`` check name the numbered message files of the GUI desktop's mail client
beside ``.eml`` files in their docs (#16; their arguments are as before). A typed expected
value (``TypedValue``) gained the optional ``exact`` (its unrounded form, so 64.4 °F passes
where 64 °F is shown; absent, each check is as before) (#32). The protocol that hides nothing
by accident (#34) appended ``read_element`` and ``list_elements`` to the phone's and the GUI
desktops' action spaces (the ways to the rest of a cut element text or list), and gave the
SmartHome's ``list_devices`` and ``list_schedules`` pages and filters (``start``, ``category``,
``contains``, ``device_id``; without them, a listing that fits one page is as before). The GUI-only desktop (#34) is a
deliberate change: the Linux profile's ``desktop`` gained ``hybrid`` (``gui`` is GUI-only from
schema version 2 on), the Windows profile gained ``desktop`` (``gui`` by default), and the
Windows kind's default action space lost ``run_command`` (it is the ``hybrid`` profile's);
``launch_app``'s doc says it is a convenience action. The SmartHome kind appended the
``timeline`` getter (a copy of the home run forward, for outcomes over time) and
``schedule_exists`` the optional ``window_hours`` (default 24: how far ahead the outcome is
judged) (#32). The phone's app flows (#34) appended the setup op ``set_permission`` (a
first-use permission prompt) and the ``permissions`` getter, and gave ``add_alarm`` and
``alarm_exists`` the optional ``date`` of a one-time alarm (absent: as before). The statement
checks that read prose (``sms_sent``, ``file_contains``, ``docx_contains``, ``pdf_contains``,
``email_draft``) gained the optional ``facts`` (what is true of named entities; a statement giving
one another value fails; absent, each check is as before) (#32).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceKind, get_kind

SNAPSHOT = Path(__file__).with_name("declarations_snapshot.json")
FROZEN: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def describe(kind: DeviceKind) -> dict[str, Any]:
    """What the snapshot records of a kind (every list in declaration order)."""
    return {
        "doc": kind.doc,
        "actions": kind.action_space(),
        "setup_ops": [s.describe() for s in kind.setup_ops.values()],
        "cleanup_ops": [s.describe() for s in kind.cleanup_ops.values()],
        "getters": [s.describe() for s in kind.getters.values()],
        "checks": [{**s.describe(), "writes": s.writes is not None} for s in kind.checks.values()],
        "profile_schema": kind.profile_model.model_json_schema() if kind.profile_model else None,
    }


@pytest.mark.parametrize("name", sorted(FROZEN))
def test_declarations_match_the_snapshot(name: str) -> None:
    kind = get_kind(name)
    assert kind is not None, f"kind {name!r} is no longer registered"
    now = json.loads(json.dumps(describe(kind)))
    was = FROZEN[name]
    for section in was:
        assert now[section] == was[section], f"{name}.{section} changed"
    assert set(now) == set(was)


def test_the_snapshot_covers_every_builtin_kind() -> None:
    from devicesworld.devices import builtin_kinds

    assert {k.name for k in builtin_kinds()} <= set(FROZEN)
