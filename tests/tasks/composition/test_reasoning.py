from __future__ import annotations

import random

import pytest

from devicesworld.tasks.composition.atomic import InstanceContext, SlotValue
from devicesworld.tasks.composition.reasoning import (
    DECISIONS,
    OPERATIONS,
    Derivation,
    ReasoningError,
    ResolveTimes,
    ShiftTime,
    TotalAmounts,
    shift_time,
)


def _ctx(seed: int = 0) -> InstanceContext:
    return InstanceContext("", random.Random(seed))


def _hidden(t: str, value: object, mention: str) -> SlotValue:
    return SlotValue(t, value, mention, True, "linux_0")


def test_a_shifted_time_is_declared_and_recomputable() -> None:
    fragment = ShiftTime().instantiate(_ctx(3), {"time": _hidden("time_of_day", "14:30", "the pickup time")})
    (derivation,) = fragment.derivations
    out = fragment.outputs["time"]
    assert derivation.op == "shift_time" and derivation.inputs == ("14:30",)
    assert derivation.recompute() == out.value == shift_time("14:30", derivation.params["minutes"])
    assert out.hidden and "the pickup time" in out.mention and "14:30" not in out.mention


def test_times_that_leave_the_day_are_refused() -> None:
    with pytest.raises(ValueError, match="leaves the day"):
        shift_time("23:30", 60)


def test_conflicting_sources_must_disagree_and_the_rule_picks_one() -> None:
    a, b = _hidden("time_of_day", "09:15", "the SMS time"), _hidden("time_of_day", "10:45", "the file time")
    fragment = ResolveTimes().instantiate(_ctx(1), {"first": a, "second": b})
    (d,) = fragment.derivations
    assert fragment.outputs["time"].value == ("09:15" if d.op == "earlier" else "10:45")
    with pytest.raises(ReasoningError, match="agree"):
        ResolveTimes().instantiate(_ctx(1), {"first": a, "second": a})


def test_a_total_is_the_sum_to_the_cent() -> None:
    fragment = TotalAmounts().instantiate(
        _ctx(), {"first": _hidden("amount", 120.1, "A"), "second": _hidden("amount", 0.2, "B")}
    )
    assert fragment.outputs["amount"].value == 120.3


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d.name)
def test_a_decision_states_both_branches_and_takes_the_right_one(decision: object) -> None:
    for seed in range(10):
        measure = _hidden("temperature", 31.25, "the study temperature")
        fragment = decision.instantiate(_ctx(seed), {"measure": measure})  # type: ignore[attr-defined]
        (d,) = fragment.derivations
        out = fragment.outputs["choice"]
        expected = d.params["above"] if d.params["threshold"] < 31.25 else d.params["otherwise"]
        assert out.value == expected == d.recompute()
        assert d.params["above"] != d.params["otherwise"]
        assert not out.hidden  # both candidates are in the instruction; the measure is what is hidden
        assert "31.25" not in out.mention


def test_a_tampered_derivation_does_not_recompute() -> None:
    d = Derivation("total", (1.5, 2.0), {}, 4.0)
    assert d.recompute() == 3.5 != d.result


def test_a_lookup_picks_the_value_listed_beside_its_key() -> None:
    keys, values = ["IC 2418", "IC 2417"], ["09:10", "14:05"]
    d = Derivation("lookup", ("ic 2417",), {"keys": keys, "values": values}, "14:05")
    assert d.recompute() == "14:05"
    assert OPERATIONS["lookup"]("IC 2418", keys, values) == "09:10"
    for bad in (
        ("IC 9999", keys, values),
        ("IC 2417", [*keys, "IC 2417"], [*values, "x"]),
        ("IC 2417", keys, values[:1]),
    ):
        with pytest.raises(ReasoningError, match="lookup"):
            OPERATIONS["lookup"](*bad)


def test_a_share_splits_an_amount_evenly_to_the_cent_and_a_tampered_one_does_not_recompute() -> None:
    d = Derivation("share", (137.7,), {"ways": 3}, 45.9)
    assert d.recompute() == 45.9
    assert Derivation("share", (137.7,), {"ways": 3}, 68.85).recompute() != 68.85
    assert OPERATIONS["share"](100, 3) == 33.33
    with pytest.raises(ReasoningError, match="share"):
        OPERATIONS["share"](100, 1)
