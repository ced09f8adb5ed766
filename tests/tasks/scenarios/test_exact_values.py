"""A computed value carries its exact form unless the instruction asks to round (issue 32)."""

from __future__ import annotations

from devicesworld.spec.statements import judge_conversation
from devicesworld.spec.values import TypedValue
from devicesworld.tasks.scenarios.compile import Choice, compile_task
from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros


def _told(phrasing: int) -> tuple[str, TypedValue, list[TypedValue]]:
    family = next(f for f in shipped_families() if f.family == "fahrenheit_for_grandma")
    task = compile_task(family, shipped_macros(), Choice(seed=7, phrasing=phrasing), "dw-f")
    args = task.evaluation.conditions[0].args
    want = args["contains"][0]
    typed = TypedValue.model_validate(want if isinstance(want, dict) else {"value": want, "type": "number"})
    return task.instruction, typed, [TypedValue.model_validate(d) for d in args["distractors"]]


def test_the_exact_conversion_passes_when_rounding_is_not_asked() -> None:
    instruction, want, distractors = _told(0)
    assert "round" not in instruction.casefold()
    assert want.exact is not None and float(want.exact) != float(want.value)
    for text in (f"{want.value}°F", f"It is set to {want.exact} °F", f"about {want.value} °F"):
        assert judge_conversation([text], [want], distractors).passed, text
    assert not judge_conversation([f"{float(want.exact) + 0.3:.1f} °F"], [want], distractors).passed


def test_only_the_rounded_value_passes_when_rounding_is_asked() -> None:
    instruction, want, _ = _told(3)
    assert "round" in instruction.casefold()
    assert want.exact is None
