"""The mechanical guards on a rewritten instruction, as pure text functions."""

from __future__ import annotations

from devicesworld.tasks.refine.guards import (
    added_literals,
    check_rewrite,
    device_mentions,
    leaked_values,
    literals,
    missing_literals,
)

TRANSFER = (
    'On the desktop linux_1, draft an email to ravi.patel@example.org with the subject "Follow-up" that '
    "gives the amount of invoice INV-5121 in ~/Documents/invoices.xlsx (on the desktop linux_0) with a "
    "20% surcharge added (to the cent)."
)
DEVICES = ["linux_0", "linux_1", "android_0", "smarthome_0"]


def test_literals_cover_every_kind_of_data_the_user_states() -> None:
    text = (
        "My devices disagree. On the phone android_1, send Dmitri Park a text at 14:30 with the start time "
        "of the 'Team sync' event, verify chloe@example.org on http://members.test/verify and save "
        "memo.md; call +1 415-555-0100."
    )
    found = literals(text)
    for token in [
        "android_1",
        "Dmitri",
        "Park",
        "14:30",
        "Team sync",
        "chloe@example.org",
        "http://members.test/verify",
        "memo.md",
        "+1",
        "415-555-0100",
    ]:
        assert token in found, token
    assert "My" not in found and "On" not in found  # sentence starts are not names
    assert literals("Could you help? Then I\u2019d like it, and I'm done.") == []


def test_a_number_inside_a_path_is_one_literal() -> None:
    assert literals("Open ~/Documents/v2/report.txt now.") == ["~/Documents/v2/report.txt"]


def test_missing_and_added_literals() -> None:
    rewrite = TRANSFER.replace("INV-5121", "the invoice").replace("20%", "25%")
    assert missing_literals(TRANSFER, rewrite) == ["INV-5121", "20%"]
    assert added_literals(TRANSFER, rewrite) == ["25%"]


def test_hidden_values_are_found_in_every_spelling() -> None:
    assert leaked_values([21.0], "Set it.", "Set it to 21 °C.") == ["21.0"]
    assert leaked_values([21.0], "Set it.", "It is 21.0 now") == ["21.0"]
    assert leaked_values([45], "x", "humidity 45%") == ["45"]
    assert leaked_values(["+14155550100"], "x", "call 1 (415) 555-0100") == ["+14155550100"]
    assert leaked_values(["2026-03-06T14:30:00"], "x", "at 14:30") == ["2026-03-06T14:30:00"]
    assert leaked_values(["ab12cd"], "x", "code AB12CD") == ["ab12cd"]


def test_no_false_leaks_inside_other_numbers() -> None:
    assert leaked_values([24], "x", "in 2024 with 24.5 degrees") == []
    assert leaked_values([21.0], "Set 21 °C.", "Please set 21 °C.") == []  # the user states it


def test_device_mentions_are_counted_and_skip_phone_numbers() -> None:
    assert device_mentions("Send Ravi's phone number to the desktop", DEVICES) == {"desktop": 1}
    text = "On my smartphone and the smart-home, linux_1; then the smart home again"
    assert device_mentions(text, DEVICES) == {"phone": 1, "smart home": 2, "linux_1": 1}


def test_dropping_one_of_two_mentions_of_a_device_is_refused() -> None:
    fewer = TRANSFER.replace(" (on the desktop linux_0)", "").replace("linux_1", "linux_0")
    (failure,) = [
        f for f in check_rewrite(TRANSFER, fewer, hidden=[], device_ids=DEVICES) if "device" in f.code
    ]
    assert failure.code == "device_dropped" and "linux_1 (0 of 1)" in failure.detail


def test_check_rewrite_accepts_a_faithful_rewrite() -> None:
    rewrite = (
        "Could you take the amount of invoice INV-5121 from ~/Documents/invoices.xlsx on the desktop "
        "linux_0, add a 20% surcharge (to the cent), and on the desktop linux_1 draft an email to "
        'ravi.patel@example.org with the subject "Follow-up" giving that total?'
    )
    assert check_rewrite(TRANSFER, rewrite, hidden=[3628.95], device_ids=DEVICES) == []


def test_check_rewrite_names_every_failure() -> None:
    rewrite = "Email ravi.patel@example.org the amount 3628.95."
    codes = [f.code for f in check_rewrite(TRANSFER, rewrite, hidden=[3628.95], device_ids=DEVICES)]
    assert codes == ["length", "hidden_value", "literal_dropped", "literal_added", "device_dropped"]
    assert [f.code for f in check_rewrite(TRANSFER, TRANSFER, hidden=[], device_ids=DEVICES)] == ["unchanged"]
    added = TRANSFER.replace("(to the cent)", "(to the cent) and tell me on the phone")
    assert [f.code for f in check_rewrite(TRANSFER, added, hidden=[], device_ids=DEVICES)] == ["device_added"]
