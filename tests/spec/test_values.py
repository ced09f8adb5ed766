"""Value semantics beyond the corpus: inference, the task's context, locales and bad input."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from devicesworld.spec import values
from devicesworld.spec.models import Condition, DeviceSpec, Evaluation, Task


@pytest.mark.parametrize(
    ("expected", "kind"),
    [
        ("2026-05-07", "date"),
        ("18:15", "time"),
        ("7:05", "time"),
        ("ana@example.org", "email"),
        ("+1 555 123 4567", "phone"),
        ("5550103", "phone"),
        ("45%", "percentage"),
        ("$12.50", "money"),
        ("1,234.5", "number"),
        (42, "number"),
        (21.5, "number"),
        ("482913", "number"),
        ("007421", "text"),
        ("B-214", "text"),
        ("1280x320", "text"),
        (True, "text"),
    ],
)
def test_untyped_expected_values_get_the_type_they_plainly_have(expected: object, kind: str) -> None:
    assert values.infer_type(expected) == kind


def test_a_code_with_leading_zeros_is_not_read_as_a_number() -> None:
    assert values.same("007421", "007421")
    assert not values.same("7421", "007421")


def _task(**changes: object) -> Task:
    base: dict[str, object] = {
        "id": "t",
        "instruction": "do it",
        "devices": [DeviceSpec(id="android_0", kind="android", profile={"language": "fr"})],
        "evaluation": Evaluation(conditions=[Condition(id="c", device="env", check="finished")]),
        "start_time": datetime(2027, 1, 15, 9, 0),
    }
    base.update(changes)
    return Task.model_validate(base)


def test_the_context_comes_from_the_task_date_and_the_phone_language() -> None:
    ctx = values.value_context(_task())
    assert ctx.today == date(2027, 1, 15)
    assert ctx.locale == "fr"
    assert ctx.day_first and ctx.decimal_comma


def test_a_locale_in_the_metadata_wins_over_the_phone_language() -> None:
    task = _task(metadata={"locale": "en-US"})
    assert values.value_context(task).locale == "en-US"
    assert not values.value_context(task).day_first


def test_a_date_without_a_year_takes_the_task_year() -> None:
    with values.using(values.ValueContext(today=date(2027, 1, 15))):
        assert values.same("May 7", "2027-05-07", "date")
        assert not values.same("May 7", "2026-05-07", "date")
    assert values.same("May 7", "2026-05-07", "date")  # the context is restored after the block


def test_numeric_dates_follow_the_locale() -> None:
    with values.using(values.ValueContext(locale="en-US")):
        assert values.same("05/07/2026", "2026-05-07", "date")
    with values.using(values.ValueContext(locale="de-DE")):
        assert values.same("07.05.2026", "2026-05-07", "date")
        assert not values.same("05/07/2026", "2026-05-07", "date")


def test_a_decimal_comma_locale_reads_commas_as_decimals() -> None:
    with values.using(values.ValueContext(locale="fr-FR")):
        assert values.same("1.234,5", 1234.5, "number")
        assert values.same("22,5 °C", 22.5, "number")
    assert values.same("1,234.5", 1234.5, "number")


def test_a_typed_expected_value_carries_its_own_type() -> None:
    typed = values.TypedValue(value="18:15", type="time")
    assert values.same("6:15 pm", typed)
    assert values.find("pickup 6:15 pm", typed) == "6:15 pm"
    assert values.unpack("18:15", "time") == ("18:15", "time")
    assert values.unpack(values.TypedValue(value="x"), "name") == ("x", "name")


def test_an_unknown_value_type_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown value type 'colour'"):
        values.parse("red", "colour")  # type: ignore[arg-type]


def test_a_verdict_names_what_is_missing_and_which_distractor_was_given() -> None:
    verdict = values.judge_text("7 May or 8 May", ["2026-05-07", "18:15"], ["2026-05-08"])
    assert not verdict.passed
    assert verdict.missing == ["18:15"]
    assert verdict.distractors == ["2026-05-08"]
    assert "18:15" in verdict.explain() and "2026-05-08" in verdict.explain()


def test_an_exact_form_is_the_same_value_as_its_rounding() -> None:
    """Issue 32: 18 °C is exactly 64.4 °F; when rounding is not asked both 64 and 64.4 pass."""
    from devicesworld.spec.values import TypedValue, find, judge_field, same

    f = TypedValue(value=64, type="number", exact=64.4)
    assert find("It's 64.4 °F", f) and find("It's 64 °F", f) and find("64.40 F", f)
    assert find("It's 64.3 °F", f) is None and find("It's 65 °F", f) is None
    assert same("64.4", f) and same(64, f) and not same("64.5", f)
    assert judge_field("64.4 °F", f) and not judge_field("64.1 °F", f)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Key detail: 921 872", "921 872"),
        ("the code is 921-872.", "921-872"),
        ("code 921872", "921872"),
        ("code 9218721", None),  # a longer code is another code
        ("code 921 87", None),
    ],
)
def test_a_text_code_is_found_with_the_separators_people_write(text: str, found: str | None) -> None:
    from devicesworld.spec.values import find

    hit = find(text, "921872", "text")
    assert (hit is None) == (found is None)
    if found is not None:
        assert hit is not None and hit.replace(" ", "").replace("-", "") == "921872"
