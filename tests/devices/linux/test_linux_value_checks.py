"""Linux checks on a real desktop: the latest draft is the answer, cells are found by key."""

from __future__ import annotations

from tests.devices.linux.linux_harness import Desktop


def test_the_latest_draft_to_the_recipient_is_the_answer(desk: Desktop) -> None:
    want = {"to": "ana@example.org", "body_contains": [{"value": "18:15", "type": "time"}]}
    desk.ok("write_email_draft", to=["ana@example.org"], subject="Pickup", body="pickup at 6:15 pm")
    assert desk.check("email_draft", **want).passed
    desk.ok("write_email_draft", to=["ana@example.org"], subject="Pickup again", body="make it 4:15 pm")
    drafts = desk.get("email_drafts")
    assert all(isinstance(d["modified_ns"], int) for d in drafts)
    outcome = desk.check("email_draft", **want)
    assert not outcome.passed and "earlier" in outcome.detail
    desk.ok("write_email_draft", to=["ana@example.org"], subject="Pickup final", body="18:15 it is")
    assert desk.check("email_draft", **want).passed


def test_a_draft_also_addressed_to_a_distractor_fails_when_the_check_says_so(desk: Desktop) -> None:
    want = {"to": "ana@example.org", "body_contains": ["Thursday"], "distractors": ["ana.b@example.org"]}
    desk.ok("write_email_draft", to=["ana@example.org"], subject="Meet", body="Thursday?")
    assert desk.check("email_draft", **want, distractor_recipients=True).passed
    # a hedged To: is parsed as its first address only; the raw header still names the twin
    desk.ok(
        "write_email_draft", to=["ana@example.org or ana.b@example.org"], subject="Meet", body="Thursday?"
    )
    hedged = desk.check("email_draft", **want, distractor_recipients=True)
    assert not hedged.passed and "ana.b@example.org" in hedged.detail
    assert desk.check("email_draft", **want).passed  # opt-in: without it, as before
    desk.ok(
        "write_email_draft",
        to=["ana@example.org", "Ana B <ana.b@example.org>"],
        subject="Meet",
        body="Thursday?",
    )
    assert not desk.check("email_draft", **want, distractor_recipients=True).passed
    desk.ok("write_email_draft", to=["ana@example.org", "bo@example.org"], subject="Meet", body="Thursday?")
    assert desk.check("email_draft", **want, distractor_recipients=True).passed


def test_a_cell_is_found_by_its_key_after_the_rows_were_sorted(desk: Desktop) -> None:
    rows = [["key", "value"], ["parcel", "TBD"], ["badge", "TBD"]]
    desk.setup("write_xlsx", path="~/t.xlsx", sheets={"S": rows})
    cell = {"path": "~/t.xlsx", "key_column": "key", "key": "parcel", "column": "value"}
    assert not desk.check("table_cell_equals", **cell, equals="2026-05-07").passed
    sorted_rows = [["key", "value"], ["badge", "TBD"], ["parcel", "7 May 2026"]]
    desk.ok("write_document", path="~/t.xlsx", rows=sorted_rows, sheet="S")
    assert desk.check("table_cell_equals", **cell, equals={"value": "2026-05-07", "type": "date"}).passed
    badge = {**cell, "key": "badge"}
    assert not desk.check("table_cell_equals", **badge, equals="2026-05-07").passed
