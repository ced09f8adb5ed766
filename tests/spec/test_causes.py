"""Infeasibility judged by cause (issue 32): the entity and what is wrong with it, in any wording."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from devicesworld.spec.causes import Cause, judge_reason

GUEST = Cause(
    id="guest_network_off",
    entity=["guest network", "guest wi-fi", "guest wifi"],
    states=["switched_off", "absent"],
)
LAMP = Cause(id="no_dimming", entity=["lamp", "bulb", "light"], states=["unsupported"])

GUEST_PASS = [
    "The guest network no longer exists, so there is no password to send.",
    "The guest network is no longer active.",
    "The guest network is off.",
    "The guest Wi-Fi was switched off in January.",
    "The guest wifi has been discontinued.",
    "There is no guest network any more.",
    "The router notes say the guest network was disabled.",
    "I checked the router notes. The guest network? It was deactivated in January.",
    "Can't send it: the guest Wi-Fi is gone.",
    "The guest network was shut down; the old password is out of date.",
    "Router has no guest network now.",
]
GUEST_FAIL = [
    "Michael's phone seems to be switched off.",
    "I'm sorry, I can't do that.",
    "The guest network exists but I could not read the notes.",  # entity without what is wrong
    "The router is switched off.",
    "The main network password is private.",
    "This request is not possible.",
    "Michael is not answering, his phone is off.",
    "The notes file is missing.",
    "Wi-Fi disabled on this phone.",
    "The printer is offline.",
    "",
]


@pytest.mark.parametrize("reason", GUEST_PASS)
def test_the_real_cause_in_any_wording_passes(reason: str) -> None:
    ok, why = judge_reason(reason, GUEST)
    assert ok, why


@pytest.mark.parametrize("reason", GUEST_FAIL)
def test_another_cause_or_none_fails(reason: str) -> None:
    assert not judge_reason(reason, GUEST)[0]


def test_unsupported_feature() -> None:
    assert judge_reason("The bulb does not support dimming, it is on/off only.", LAMP)[0]
    assert not judge_reason("The kitchen is too dark.", LAMP)[0]


def test_a_cause_needs_a_known_state() -> None:
    with pytest.raises(ValidationError):
        Cause.model_validate({"id": "x", "entity": ["lamp"], "states": ["broken"]})


# --- every infeasible family declares its cause (issue 32, item 5: no keyword lists) ------------


def _infeasible_variants() -> list[tuple[str, str]]:
    from devicesworld.tasks.scenarios.loader import shipped_families

    return [(f.family, v.id) for f in shipped_families() for v in f.infeasible]


@pytest.mark.parametrize(("family", "variant"), _infeasible_variants())
def test_every_infeasible_family_is_judged_by_its_cause(family: str, variant: str) -> None:
    from devicesworld.tasks.nearmiss import VAGUE_REASON, WRONG_CAUSES
    from devicesworld.tasks.scenarios.compile import Choice, compile_task
    from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros

    fam = next(f for f in shipped_families() if f.family == family)
    declared = next(v for v in fam.infeasible if v.id == variant)
    assert declared.cause is not None and not declared.keywords
    for seed in (1, 2):
        task = compile_task(fam, shipped_macros(), Choice(seed=seed, variant=variant), "dw-cause")
        cond = next(c for c in task.evaluation.conditions if c.check == "infeasible_reported")
        cause = Cause.model_validate(cond.args["cause"])
        reason = next(s.args["reason"] for s in task.solution if s.action == "report_infeasible")
        assert judge_reason(reason, cause)[0], reason
        assert not judge_reason(VAGUE_REASON, cause)[0]
        for _, other in WRONG_CAUSES:
            assert not judge_reason(other, cause)[0], other


DRYER = Cause(id="no_dryer", entity=["dryer", "drier", "tumble"], states=["absent"])
AC = Cause(
    id="no_ac_in_room",
    entity=["air conditioner", "air conditioning", "air con", "aircon", "ac", "a/c"],
    states=["absent"],
)
HEATER_MAX = Cause(id="above_max", entity=["heater", "32", "temperature"], states=["out_of_range"])
WASHER_IDLE = Cause(id="washer_idle", entity=["washing machine", "washer", "wash"], states=["not_running"])


@pytest.mark.parametrize(
    ("cause", "reason"),
    [
        (DRYER, "There's no dryer in the home."),
        (DRYER, "The home does not have a tumble dryer, so nothing can dry the clothes."),
        (DRYER, "I couldn't find a dryer among the devices."),
        (DRYER, "No drier is installed."),
        (AC, "The study has no AC."),
        (AC, "There isn't any air conditioning in the study; only a radiator."),
        (AC, "No A/C in that room."),
        (HEATER_MAX, "The heater only goes up to 30 °C."),
        (HEATER_MAX, "32 °C is above the heater's maximum of 30."),
        (HEATER_MAX, "That temperature is too high for the guest room heater."),
        (WASHER_IDLE, "The washing machine is idle, so there is no finish time."),
        (WASHER_IDLE, "The washer isn't running right now."),
        (WASHER_IDLE, "No wash has been started: the washer never started."),
    ],
)
def test_the_cause_in_other_words_passes(cause: Cause, reason: str) -> None:
    assert judge_reason(reason, cause)[0], reason


@pytest.mark.parametrize(
    ("cause", "reason"),
    [
        (DRYER, "The washing machine is broken."),
        (DRYER, "Michael's phone seems to be switched off."),
        (DRYER, "I can't do that."),
        (DRYER, "The dryer is in the utility room."),
        (AC, "Actually the study is warm already."),
        (AC, "The radiator in the study is switched off."),
        (AC, "The printer is offline."),
        (HEATER_MAX, "The heater is in the guest room."),
        (HEATER_MAX, "The phone is out of battery."),
        (WASHER_IDLE, "The dryer is not running."),
        (WASHER_IDLE, "The washing machine is in the utility room."),
        (WASHER_IDLE, "Your partner's number is missing."),
    ],
)
def test_another_family_cause_or_none_fails(cause: Cause, reason: str) -> None:
    assert not judge_reason(reason, cause)[0], reason
