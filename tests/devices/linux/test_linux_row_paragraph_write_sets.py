"""Tables by row and documents by paragraph on a real desktop (issue 32): the asked row passes,
a wrong extra row or an extra paragraph fails the guard, a reformatted file passes."""

from __future__ import annotations

from tests.devices.linux.linux_harness import require_bwrap
from tests.verify.test_collateral import L0, _env, _guard, _step, _task

BUDGET = "Item,Amount\nRent,1200\nFood,300\n"
SETUP = [
    {"device": L0, "op": "write_text", "args": {"path": "~/Documents/budget.csv", "content": BUDGET}},
    {
        "device": L0,
        "op": "write_docx",
        "args": {"path": "~/Documents/report.docx", "paragraphs": ["We left on Monday.", "It rained."]},
    },
]
RENT = {
    "id": "rent",
    "device": L0,
    "check": "table_cell_equals",
    "args": {
        "path": "~/Documents/budget.csv",
        "key_column": "Item",
        "key": "Rent",
        "column": "Amount",
        "equals": 1250,
    },
}
PICKUP = {
    "id": "pickup",
    "device": L0,
    "check": "docx_paragraph",
    "args": {
        "path": "~/Documents/report.docx",
        "starts_with": "Pickup:",
        "contains": ["18:15"],
        "keep": ["We left on Monday.", "It rained."],
    },
}


def _csv(env: object, content: str) -> None:
    _step(env, L0, "write_file", path="~/Documents/budget.csv", content=content)  # type: ignore[arg-type]


def test_the_asked_row_reformatted_passes_and_an_extra_row_fails() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [RENT])) as env:
        _csv(env, '"Item","Amount"\r\n"Food","300.00"\r\n"Rent","1250"\r\n')
        verdict = env.evaluate()
        assert verdict.success, _guard(verdict, L0)[1]
        _csv(env, "Item,Amount\nRent,1250\nFood,300\nRent increase,50\n")
        verdict = env.evaluate()
    ok, detail = _guard(verdict, L0)
    assert not ok and "Rent increase" in detail and verdict.score == 0.0


def test_a_new_paragraph_passes_and_an_extra_one_fails() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [PICKUP])) as env:
        paragraphs = ["We left on Monday.", "It rained.", "Pickup: 18:15 on 7 May"]
        _step(env, L0, "write_document", path="~/Documents/report.docx", paragraphs=paragraphs)
        verdict = env.evaluate()
        assert verdict.success, _guard(verdict, L0)[1]
        _step(
            env,
            L0,
            "write_document",
            path="~/Documents/report.docx",
            paragraphs=[*paragraphs, "Dinner at 20:00."],
        )
        verdict = env.evaluate()
    ok, detail = _guard(verdict, L0)
    assert not ok and "Dinner at 20:00" in detail


def test_quality_controls_extra_beside_writes_a_wrong_row_the_guard_catches() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [RENT])) as env:
        _csv(env, "Item,Amount\nRent,1250\nFood,300\n")
        assert env.evaluate().success
        assert env.output_change(L0, "undo") is None
        done = env.output_change(L0, "beside")
        assert done is not None and "budget.csv" in done
        ok, detail = _guard(env.evaluate(), L0)
    assert not ok and "Added by mistake" in detail
