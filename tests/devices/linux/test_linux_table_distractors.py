"""``table_has_row``'s ``distractors``: a row that is the expected one but for a near-miss value
fails (in place of the right row or beside it), naming the distractor; without the argument the
check is as before. Read through a fake getter: the table's parsing is tested elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from devicesworld.devices.base import CheckOutcome
from devicesworld.devices.linux.checks import CHECKS

HEADER = ["Date", "Start"]
WANT = {"path": "~/shifts.csv", "row": {"Date": "2026-03-03", "Start": "07:30"}}
TWIN = [{"value": "08:00", "type": "time"}]


def run(args: dict[str, Any], rows: list[list[Any]]) -> CheckOutcome:
    spec = dict(CHECKS)["table_has_row"]

    def get(name: str, _: Mapping[str, Any]) -> Any:
        assert name == "csv"
        return rows

    return spec.fn(get, spec.args_model.model_validate(args))


def test_passes_on_the_right_row_beside_other_rows_holding_the_distractor() -> None:
    rows = [HEADER, ["2026-02-24", "08:00"], ["2026-03-03", "7:30 am"]]
    assert run({**WANT, "distractors": TWIN}, rows).passed


@pytest.mark.parametrize(
    "rows",
    [[HEADER, ["2026-03-03", "08:00"]], [HEADER, ["2026-03-03", "07:30"], ["3 March 2026", "8:00 AM"]]],
    ids=["instead", "beside"],
)
def test_fails_on_the_expected_row_with_the_distractor(rows: list[list[Any]]) -> None:
    out = run({**WANT, "distractors": TWIN}, rows)
    assert not out.passed and "distractor" in out.detail and "08:00" in out.detail


def test_a_whole_row_list_with_a_distractor_amount() -> None:
    args = {"path": "~/e.csv", "row": ["2026-03-01", "CityCabs", {"value": "$23.40", "type": "money"}]}
    rows = [["date", "vendor", "amount"], ["2026-03-01", "CityCabs", "23.40"]]
    twin = [{"value": "$19.90", "type": "money"}]
    assert run({**args, "distractors": twin}, rows).passed
    out = run({**args, "distractors": twin}, [*rows, ["2026-03-01", "CityCabs", "19.90"]])
    assert not out.passed and "$19.90" in out.detail


def test_without_distractors_as_before() -> None:
    rows = [HEADER, ["2026-03-03", "07:30"], ["2026-03-03", "08:00"]]
    assert run(WANT, rows).passed
    out = run(WANT, [HEADER, ["2026-03-03", "08:00"]])
    assert not out.passed and "has no row" in out.detail


def test_absent_rows_ignore_distractors() -> None:
    rows = [HEADER, ["2026-03-03", "08:00"]]
    assert run({**WANT, "present": False, "distractors": TWIN}, rows).passed
