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


def test_launching_an_app_that_is_open_and_opens_no_new_window_names_its_window(
    gui: GuiDesk,  # noqa: F811
) -> None:
    """Mousepad asked for a file it already shows only raises that window (so does Chromium asked
    for a URL, in a new tab): the launch says so and puts the window in front, instead of
    waiting a minute for a window that never comes and reporting a timeout."""
    gui.setup("write_text", path="~/notes.txt", content="Gate 4471\n")
    first = gui.ok("launch_app", app="text_editor", path="~/notes.txt")
    gui.ok("launch_app", app="files", path="~")
    again = gui.ok("launch_app", app="text_editor", path="~/notes.txt")
    assert again.data["already_open"] and again.data["window"] == first.data["window"]
    assert "already open" in again.message
    assert gui.device.observe()["focused_window"]["title"] == first.data["window"]


def test_a_line_typed_right_after_the_terminal_opens_is_run(gui: GuiDesk) -> None:  # noqa: F811
    """The first line typed into a new terminal reaches its shell: the launch returned once the prompt
    showed (xfce4-terminal drops keys until its shell has a pty)."""
    for n in range(2):
        gui.ok("launch_app", app="terminal")
        gui.ok("type_text", text=f"echo hi-$((40+{n}))\n")
        gui.ok("wait", seconds=0.5)
        term = next(
            e
            for e in gui.device.observe()["elements"]
            if e["role"] == "terminal" and "focused" in e["states"]
        )
        assert f"\nhi-{40 + n}\n" in term["text"], term["text"]
        gui.ok("type_text", text="exit\n")
