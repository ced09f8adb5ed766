"""`devicesworld tasks compare-value`: the verifiers' value semantics from the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from devicesworld.cli import main


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tasks", "compare-value", *args])
    return result.exit_code, result.output


def test_a_time_is_found_in_a_draft_in_12_hour_form() -> None:
    code, out = _run("7 May 2026, pickup at 6:15 pm", "18:15", "--in-text", "--json")
    assert code == 0
    assert json.loads(out) == {
        "passed": True,
        "type": "time",
        "detail": "has every expected value and no distractor",
    }


def test_a_hedged_answer_fails_and_says_why() -> None:
    code, out = _run(
        "7 May or 8 May", "2026-05-07", "--type", "date", "--in-text", "--distractor", "2026-05-08", "--json"
    )
    assert code == 0
    verdict = json.loads(out)
    assert verdict["passed"] is False and "2026-05-08" in verdict["detail"]


def test_numeric_dates_follow_the_locale() -> None:
    assert json.loads(_run("07/05/2026", "2026-05-07", "--locale", "en-GB", "--json")[1])["passed"]
    assert not json.loads(_run("07/05/2026", "2026-05-07", "--locale", "en-US", "--json")[1])["passed"]


def test_bad_options_are_clear_errors() -> None:
    code, out = _run("x", "y", "--type", "colour")
    assert code == 2 and "unknown value type 'colour'" in out
    code, out = _run("x", "y", "--today", "soon")
    assert code == 2 and "not a date" in out
