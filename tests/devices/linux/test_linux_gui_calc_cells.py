"""Calc's visible cells in the element list: read through the table, boxes from the sheet's grid."""

from __future__ import annotations

from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)


def test_every_listed_cell_has_its_text_and_the_box_of_its_place_in_the_grid(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_xlsx", path="~/b.xlsx", sheets={"S": [["a", 1], ["b", 2], ["Straße", 3.5]]})
    gui.ok("launch_app", app="calc", path="~/b.xlsx")
    cells = {e["name"]: e for e in gui.device.observe()["elements"] if e["role"] == "table cell"}
    texts = {name: c.get("text") for name, c in cells.items() if c.get("text")}
    assert texts == {"A1": "a", "B1": "1", "A2": "b", "B2": "2", "A3": "Straße", "B3": "3.5"}
    a1, b1, a2 = cells["A1"]["box"], cells["B1"]["box"], cells["A2"]["box"]
    assert b1[0] == a1[0] + a1[2] and b1[1] == a1[1]  # the next column, the same row
    assert a2[1] == a1[1] + a1[3] and a2[0] == a1[0]
    assert cells["B3"]["box"][:2] == [b1[0], a1[1] + 2 * a1[3]]
    assert cells["B2"].get("value") == 2.0 and "value" not in cells["C1"]
    assert "focused" in cells["A1"]["states"]
