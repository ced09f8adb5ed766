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
