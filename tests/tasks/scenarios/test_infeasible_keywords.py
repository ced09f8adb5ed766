"""An infeasible variant's ``keywords`` reach its check: a blind "I cannot do that" no longer passes."""

from __future__ import annotations

from typing import Any

from devicesworld.tasks.nearmiss import VAGUE_REASON
from devicesworld.tasks.scenarios.compile import Choice, compile_task
from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros
from devicesworld.tasks.scenarios.model import Family
from devicesworld.verify.checks import InfeasibleReportedArgs, _infeasible_reported
from tests.tasks.scenarios.test_compile import MINI


def _family(keywords: list[str]) -> Family:
    setup = [dict(MINI["setup"][0]), {**MINI["setup"][1], "tag": "lamp"}]
    variant: dict[str, Any] = {"id": "no_lamp", "drop": ["lamp"], "reason": "the {room} has no lamp"}
    if keywords:
        variant["keywords"] = keywords
    return Family.model_validate({**MINI, "setup": setup, "infeasible": [variant]})


def _said(reason: str, keywords: list[str]) -> bool:
    def get(name: str, args: Any) -> Any:
        return {"infeasible_reason": reason}

    return _infeasible_reported(get, InfeasibleReportedArgs(keywords=keywords)).passed


def test_keywords_are_rendered_into_the_check_and_a_blind_report_fails() -> None:
    task = compile_task(
        _family(["no lamp", "{room}"]), shipped_macros(), Choice(seed=1, variant="no_lamp"), "dw-x"
    )
    (cond,) = task.evaluation.conditions
    room = task.setup[0].args["name"]
    assert cond.check == "infeasible_reported"
    assert cond.args["keywords"] == ["no lamp", room]
    assert not _said("I cannot do that.", cond.args["keywords"])
    assert _said(f"There is no lamp in the {room}.", cond.args["keywords"])


def test_a_variant_without_keywords_compiles_as_before() -> None:
    task = compile_task(_family([]), shipped_macros(), Choice(seed=1, variant="no_lamp"), "dw-x")
    assert task.evaluation.conditions[0].args == {}


BLIND_EXCUSES = [
    VAGUE_REASON,
    "I cannot do this task.",
    "This is not possible.",
    "I don't have access to that.",
    "Sorry, this request can't be completed successfully.",
    "I was unable to find a way to do this.",
]


def test_every_shipped_infeasible_variant_declares_its_cause() -> None:
    """Issue 32 item 5: judged by cause (entity + state), no keyword list per task."""
    from devicesworld.spec.causes import judge_reason

    variants = [(f.family, v) for f in shipped_families() for v in f.infeasible]
    assert variants
    for family, v in variants:
        assert v.cause is not None, f"{family}/{v.id}: an infeasible variant without a declared cause"
        assert not v.keywords, f"{family}/{v.id}: keywords are ignored beside a cause; drop them"
        for excuse in BLIND_EXCUSES:
            assert not judge_reason(excuse, v.cause)[0], f"{family}/{v.id}: {excuse!r} names no cause"


def test_a_declared_cause_reaches_the_check_and_judges_by_cause() -> None:
    """Issue 32: a variant's `cause` replaces its keywords; a reason blaming something else fails."""
    setup = [dict(MINI["setup"][0]), {**MINI["setup"][1], "tag": "lamp"}]
    variant: dict[str, Any] = {
        "id": "no_lamp",
        "drop": ["lamp"],
        "reason": "the {room} has no lamp",
        "keywords": ["no lamp"],
        "cause": {"id": "no_lamp", "entity": ["lamp", "{room} light"], "states": ["absent"]},
    }
    family = Family.model_validate({**MINI, "setup": setup, "infeasible": [variant]})
    task = compile_task(family, shipped_macros(), Choice(seed=1, variant="no_lamp"), "dw-x")
    (cond,) = task.evaluation.conditions
    room = task.setup[0].args["name"]
    assert cond.args["cause"]["entity"] == ["lamp", f"{room} light"]
    args = InfeasibleReportedArgs.model_validate(cond.args)

    def said(reason: str) -> bool:
        return _infeasible_reported(lambda name, a: {"infeasible_reason": reason}, args).passed

    assert said(f"There isn't a lamp in the {room}.")
    assert said("The lamp is missing.")
    assert not said("The phone seems to be switched off.")
    from devicesworld.tasks.nearmiss import near_misses

    kinds = {m.mutation for m in near_misses(task)}
    assert {"vague_reason", "wrong_cause"} <= kinds
