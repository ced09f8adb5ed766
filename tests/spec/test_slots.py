"""Slot attribution (issue 32 rule 3 for messages that state several values of one type)."""

from __future__ import annotations

import pytest

from devicesworld.spec.slots import Owner, Spot, attribute, cue_pattern
from devicesworld.spec.statements import hedges_in_text, judge_conversation
from devicesworld.spec.values import TypedValue

LEAVE_CUES = ["leave", "leaving", "head out", "go out"]
BACK_CUES = ["back", "home by", "home", "return"]


def t(value: str, cues: list[str] | None = None) -> TypedValue:
    return TypedValue(value=value, type="time", cues=cues or [])


LEAVE, BACK = t("19:30", LEAVE_CUES), t("22:30", BACK_CUES)
BARE = [t("19:30"), t("22:30")]


def spots_of(
    text: str, values: list[str], offered: frozenset[int] = frozenset(), out: frozenset[int] = frozenset()
) -> list[Spot]:
    """Spots at each occurrence of the listed values, in order (index into ``values`` = what it equals)."""
    found: list[Spot] = []
    start = 0
    for i, v in enumerate(values):
        at = text.index(v, start)
        start = at + len(v)
        equals = {"19:30": 0, "22:30": 1}.get(v)
        found.append(Spot(at, at + len(v), equals, i in offered, i in out))
    return found


def test_a_cue_belongs_to_the_value_it_introduces_not_the_one_before_a_conjunction() -> None:
    text = "we leave at 19:30 and will be back at 22:30"
    owners = attribute(text, spots_of(text, ["19:30", "22:30"]), [LEAVE_CUES, BACK_CUES], [(0, len(text))])
    assert owners == [Owner(0, "cue"), Owner(1, "cue")]


def test_a_cue_after_its_value_belongs_to_it() -> None:
    text = "19:30 we head out and 22:30 we're home"
    owners = attribute(text, spots_of(text, ["19:30", "22:30"]), [LEAVE_CUES, BACK_CUES], [(0, len(text))])
    assert [o.slot for o in owners] == [0, 1]


def test_swapped_values_follow_their_cues() -> None:
    text = "we leave at 22:30 and will be back at 19:30"
    owners = attribute(text, spots_of(text, ["22:30", "19:30"]), [LEAVE_CUES, BACK_CUES], [(0, len(text))])
    assert [o.slot for o in owners] == [0, 1]


def test_an_alternative_offered_right_after_a_value_answers_its_slot() -> None:
    text = "we leave at 19:30 or maybe 22:30 and will be back at 22:30"
    spots = spots_of(text, ["19:30", "22:30", "22:30"], offered=frozenset({1}))
    owners = attribute(text, spots, [[], []], [(0, len(text))])
    assert owners == [Owner(0, "value"), Owner(0, "alternative"), Owner(1, "value")]


def test_a_value_set_against_a_ruled_out_one_replaces_it() -> None:
    text = "it is 22:30, not 19:30"
    spots = spots_of(text, ["22:30", "19:30"], out=frozenset({1}))
    owners = attribute(text, spots, [[], []], [(0, 11), (12, len(text))])
    assert owners[0] == Owner(0, "replacement")


def test_cue_words_match_whole_words_only() -> None:
    pattern = cue_pattern(["back"])
    assert pattern is not None and pattern.search("backpack") is None and pattern.search("Back at")
    assert cue_pattern([" ", ""]) is None


PASS = [
    ["Hi Hannah, we leave at 19:30 and will be back at 22:30."],
    ["We'll be back at 22:30; we leave at 19:30."],
    ["We leave at 19:30.", "Back at 22:30."],
    ["We leave at 19:30, not 19:00, and will be back at 22:30."],
    ["Leaving: 19:30. Home by: 22:30"],
    ["We leave at 7:30 pm and will be back at 10:30 pm or so."],
    ["We leave at 19:30 and will be back at 22:30.", "Sorry, correction: back at 22:30, not 23:00."],
]
FAIL = [
    ["Hi Hannah, we leave at 19:30 (or maybe 22:30) and will be back at 22:30."],
    ["Hi Hannah, we leave at 19:30 and will be back at 22:30.", "Sorry, correction: it is 22:30, not 19:30."],
    ["We leave at 22:30 and will be back at 19:30."],
    ["We leave at 19:30 / 22:30 and will be back at 22:30."],
    ["We leave at 19:30 and will be back at 22:30.", "Actually we leave at 20:00."],
]


@pytest.mark.parametrize("messages", PASS)
def test_correct_two_slot_messages_pass(messages: list[str]) -> None:
    verdict = judge_conversation(messages, [LEAVE, BACK])
    assert verdict.passed, verdict.explain()


@pytest.mark.parametrize("messages", FAIL)
def test_hedges_and_corrections_between_slots_fail(messages: list[str]) -> None:
    assert not judge_conversation(messages, [LEAVE, BACK]).passed


@pytest.mark.parametrize("messages", FAIL[:2] + FAIL[3:])
def test_without_cues_proximity_still_catches_hedges_and_corrections(messages: list[str]) -> None:
    assert not judge_conversation(messages, BARE).passed


def test_without_cues_the_slots_may_come_in_either_order() -> None:
    assert judge_conversation(["Back at 22:30; we leave at 19:30"], BARE).passed


def test_a_swap_is_named_in_the_detail() -> None:
    verdict = judge_conversation(["We leave at 22:30 and will be back at 19:30."], [LEAVE, BACK])
    assert "19:30 (given, but for another slot)" in verdict.explain()


def test_a_file_sentence_hedging_between_two_slots_is_caught() -> None:
    assert hedges_in_text("Bed 18:50 (or maybe 22:50)\nFeed 22:50", [t("18:50"), t("22:50")])
    assert not hedges_in_text("Bed 18:50\nFeed 22:50", [t("18:50"), t("22:50")])


def test_a_file_sentence_giving_a_value_under_another_slots_cue_is_caught() -> None:
    bed, feed = t("19:00", ["bed"]), t("22:30", ["feed", "night feed"])
    assert hedges_in_text("Day 12: first bath\nFirst night: bed 22:30, night feed 19:00", [bed, feed])
    assert not hedges_in_text("First night: bed 19:00, night feed 22:30", [bed, feed])
    assert not hedges_in_text("First night: night feed 22:30, bed 19:00", [bed, feed])
    # without cue words a file's sentence is not read for which slot a time answers
    assert not hedges_in_text("First night: bed 22:30, night feed 19:00", [t("19:00"), t("22:30")])


def test_cues_alone_in_their_clause_take_the_values_after_it_in_order() -> None:
    text = "fennel and ricotta: 200 g and 300 g"
    spots = [Spot(20, 23, 0, False, False), Spot(30, 33, 1, False, False)]
    clauses = [(0, 18), (20, len(text))]
    owners = attribute(text, spots, [["fennel"], ["ricotta"]], clauses)
    assert [o.slot for o in owners] == [0, 1] and {o.how for o in owners} == {"cue"}
    swapped = attribute(text, spots, [["ricotta"], ["fennel"]], clauses)
    assert [o.slot for o in swapped] == [1, 0]
