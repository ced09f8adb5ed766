"""An answer is the whole conversation (issue 32): ruled-out values, hedges, corrections, split texts, codes."""

from __future__ import annotations

import pytest

from devicesworld.spec.statements import is_code, judge_conversation
from devicesworld.spec.values import TypedValue


def t(value: str, kind: str) -> TypedValue:
    return TypedValue.model_validate({"value": value, "type": kind})


TIME, OLD_TIME = t("16:30", "time"), t("16:00", "time")
CODE, OLD_CODE = t("993053", "text"), t("861524", "text")
TOTAL = t("103.5", "money")
TEMP, NOW_TEMP = t("23 °C", "number"), t("21.5 °C", "number")
ROOM, OTHER_ROOM = t("Kitchen", "text"), t("Landing", "text")

PASS = [
    (["Pickup is 16:30 today, not 16:00"], [TIME], [OLD_TIME]),
    (["The new code is 993053 (February's 861524 no longer works)"], [CODE], [OLD_CODE]),
    (["The Kitchen light is on; the Landing light is off"], [ROOM], [OTHER_ROOM]),
    (["Set the study to 23 °C; the study is at 21.5 °C right now"], [TEMP], [NOW_TEMP]),
    (["Total is $93.5", "Sorry, correction: $103.5"], [TOTAL], []),
    (["Set to 21.5 °C", "Oops, I meant 23 °C"], [TEMP], [NOW_TEMP]),
    (["Pickup 16:30", "on 7 May"], [TIME, t("2026-05-07", "date")], []),
    (["Pickup at 18:15, dinner at 19:30"], [t("18:15", "time"), t("19:30", "time")], []),
    (["Your total was $103.50. Do you want to pay the $20 deposit too?"], [TOTAL], []),
    (["Door code 993-053"], [CODE], []),
    (["Door code 993 053"], [CODE], []),
    (["16:30 instead of 16:00"], [TIME], [OLD_TIME]),
    (["It moved from 16:00 to 16:30"], [TIME], [OLD_TIME]),
]
FAIL = [
    (["Pickup is 16:00 or 16:30"], [TIME], [OLD_TIME]),
    (["The total is $103.5 (or $93.5)"], [TOTAL], []),
    (["It is 23 °C, or maybe 27.5 °C"], [TEMP], []),
    (["Code: 993053 or maybe 993035"], [CODE], []),
    (["Total is $103.5", "Sorry, correction: $93.5"], [TOTAL], []),
    (["Pickup 16:30"], [TIME, t("2026-05-07", "date")], []),
    (["Door code 993,053"], [CODE], []),
    (["The Kitchen and Landing lights are on"], [ROOM], [OTHER_ROOM]),
    (["Set to 21.5 °C"], [TEMP], [NOW_TEMP]),
    (["Not 16:30, sorry"], [TIME], []),
    (["Pickup 16:30", "Pickup 16:00"], [TIME], [OLD_TIME]),
    (["Pickup 16:30?", "or 17:00?"], [TIME], []),
]


@pytest.mark.parametrize(("messages", "expected", "distractors"), PASS)
def test_correct_statements_pass(
    messages: list[str], expected: list[TypedValue], distractors: list[TypedValue]
) -> None:
    verdict = judge_conversation(messages, expected, distractors)
    assert verdict.passed, verdict.explain()


@pytest.mark.parametrize(("messages", "expected", "distractors"), FAIL)
def test_wrong_or_hedged_statements_fail(
    messages: list[str], expected: list[TypedValue], distractors: list[TypedValue]
) -> None:
    assert not judge_conversation(messages, expected, distractors).passed


def test_a_failure_says_why() -> None:
    verdict = judge_conversation(["Total is $103.5", "Sorry, correction: $93.5"], [TOTAL])
    assert verdict.corrected == ["$93.5"]
    assert "later statement" in verdict.explain()


def test_codes_are_digit_texts_only() -> None:
    assert is_code("175 113", "text") and is_code("175113", "text")
    assert not is_code("B-214", "text") and not is_code("175113", "number")


def test_guard_without_expected_values_flags_claimed_distractors() -> None:
    assert not judge_conversation(["see you at 16:00"], [], [OLD_TIME]).passed
    assert judge_conversation(["not 16:00 any more"], [], [OLD_TIME]).passed
