"""The controller's cached element tree (refreshed by AT-SPI events) reads what a full walk reads.

After each GUI action the agent's observation comes from the cache; a fresh walk asks every
node of the apps again. Both must list the same elements: same role, name, text, value,
states and box, in the same order."""

from __future__ import annotations

from typing import Any

from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)


def _facts(elements: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = ("role", "name", "text", "value", "box", "window")
    return [(*(e.get(k) for k in keys), tuple(sorted(e.get("states") or ()))) for e in elements]


def _same_as_fresh(desk: GuiDesk) -> list[dict[str, Any]]:
    """The cached observation equals the fresh walks around it, once the app held still.

    An app may still be drawing the last input when the step returns (the settle is bounded);
    the comparison counts only when the fresh walks before and after agree."""
    assert desk.device.gui is not None
    session = desk.device.gui.session
    for _ in range(20):
        before = _facts(session.owned_elements())
        cached: list[dict[str, Any]] = desk.device.observe()["elements"]
        after = _facts(session.owned_elements())
        if before == after:
            assert _facts(cached) == after
            return cached
    raise AssertionError("the app never held still for three walks")


def test_writer_tree_after_typing_formatting_and_clicks_is_the_fresh_walk(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_docx", path="~/memo.docx", paragraphs=["Hello"])
    gui.ok("launch_app", app="writer", path="~/memo.docx")
    _same_as_fresh(gui)
    gui.ok("type_text", text="Dear team ✓\nSecond line")
    els = _same_as_fresh(gui)
    assert any("Second line" in (e.get("text") or "") for e in els)
    gui.ok("hotkey", keys=["ctrl", "b"])
    gui.ok("type_text", text=" bold")
    _same_as_fresh(gui)
    gui.ok("type_text", text="\n" * 40 + "far down")  # the view scrolls: paragraphs move
    els = _same_as_fresh(gui)
    assert any("far down" in (e.get("text") or "") for e in els)
    bold = next(e for e in els if e["role"] == "toggle button" and e["name"].startswith("Bold"))
    gui.ok("click", x=bold["box"][0] + bold["box"][2] // 2, y=bold["box"][1] + bold["box"][3] // 2)
    _same_as_fresh(gui)


def test_calc_cells_after_typing_and_moving_are_the_fresh_walk(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_xlsx", path="~/b.xlsx", sheets={"S": [["a", 1], ["b", 2]]})
    gui.ok("launch_app", app="calc", path="~/b.xlsx")
    _same_as_fresh(gui)
    gui.ok("type_text", text="42\n")
    els = _same_as_fresh(gui)
    cells = {e["name"]: e for e in els if e["role"] == "table cell"}
    assert cells["A1"].get("text") == "42" and "focused" in cells["A2"]["states"]
    gui.ok("hotkey", keys=["right"])
    _same_as_fresh(gui)
    gui.ok("hotkey", keys=["page_down"])  # the sheet scrolls: other rows are visible
    gui.ok("hotkey", keys=["page_down"])
    els = _same_as_fresh(gui)
    assert "A1" not in {e["name"] for e in els if e["role"] == "table cell"}
