"""LibreOffice on a real desktop: right after launch_app its document is in the element list, and typing at once lands."""

from __future__ import annotations

from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)


def test_writer_and_calc_are_drawn_when_launch_app_returns(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_docx", path="~/memo.docx", paragraphs=["Hello"])
    opened = gui.ok("launch_app", app="writer", path="~/memo.docx")
    assert (
        opened.data["window"] == "memo.docx - LibreOffice Writer"
    )  # the document's window, not the bare first one
    roles = {e["role"] for e in gui.device.observe()["elements"]}
    assert {"document text", "paragraph", "tool bar"} <= roles
    gui.ok("type_text", text="Typed at once ")
    texts = [e.get("text") or "" for e in gui.device.observe()["elements"] if e["role"] == "paragraph"]
    assert any(t.startswith("Typed at once Hello") for t in texts), texts
    gui.ok("launch_app", app="calc")
    obs = gui.device.observe()
    assert "LibreOffice Calc" in obs["focused_window"]["title"]
    assert any(e["role"] == "document spreadsheet" for e in obs["elements"])
    assert any(e["role"] == "table cell" for e in obs["elements"])
