"""A save shows in the element list as it shows on the screen (#34): LibreOffice's status bar field
names the icon it draws (red: modified, grey: saved), Mousepad marks its title with ``*``.

Each wait is bounded and polls the observation: LibreOffice redraws its status bar a moment after
the change (a timer), so the state is read until it shows, never after a fixed time."""

from __future__ import annotations

import time
from collections.abc import Callable

from devicesworld.devices.desktop.inside_ctl import LO_MODIFIED, LO_NOT_MODIFIED
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)

BOUND_S = 15.0


def _until(read: Callable[[], object], want: object) -> object:
    """``read()`` once it equals ``want``, or its last value after :data:`BOUND_S`."""
    end = time.monotonic() + BOUND_S
    got = read()
    while got != want and time.monotonic() < end:
        time.sleep(0.2)
        got = read()
    return got


def _saved_field(gui: GuiDesk) -> list[str]:  # noqa: F811
    return [
        e["name"]
        for e in gui.device.observe()["elements"]
        if e["role"] == "label" and e["name"] in (LO_MODIFIED, LO_NOT_MODIFIED)
    ]


def test_writer_status_bar_says_modified_after_typing_and_not_after_ctrl_s(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_docx", path="~/memo.docx", paragraphs=["Hello"])
    gui.ok("launch_app", app="writer", path="~/memo.docx")
    assert _saved_field(gui) == [LO_NOT_MODIFIED]
    gui.ok("type_text", text="Gate 4471 ")
    assert _until(lambda: _saved_field(gui), [LO_MODIFIED]) == [LO_MODIFIED]
    gui.ok("hotkey", keys=["ctrl", "s"])
    assert _until(lambda: _saved_field(gui), [LO_NOT_MODIFIED]) == [LO_NOT_MODIFIED]
    assert gui.get("docx", path="~/memo.docx") == ["Gate 4471 Hello"]


def test_calc_status_bar_follows_an_entered_cell_and_its_save(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_xlsx", path="~/totals.xlsx", sheets={"S": [["a", 1]]})
    gui.ok("launch_app", app="calc", path="~/totals.xlsx")
    assert _saved_field(gui) == [LO_NOT_MODIFIED]
    gui.ok("type_text", text="42\n")
    assert _until(lambda: _saved_field(gui), [LO_MODIFIED]) == [LO_MODIFIED]
    gui.ok("hotkey", keys=["ctrl", "s"])
    assert _until(lambda: _saved_field(gui), [LO_NOT_MODIFIED]) == [LO_NOT_MODIFIED]


def test_mousepad_marks_its_title_while_the_file_has_unsaved_changes(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_text", path="~/notes.txt", content="first\n")
    gui.ok("launch_app", app="text_editor", path="~/notes.txt")

    def title() -> str:
        return str(gui.device.observe()["focused_window"]["title"])

    saved = title()
    assert saved.endswith("notes.txt - Mousepad") and not saved.startswith("*")
    gui.ok("type_text", text="more ")
    assert _until(title, "*" + saved) == "*" + saved
    gui.ok("hotkey", keys=["ctrl", "s"])
    assert _until(title, saved) == saved


def test_writer_toolbar_save_clicked_by_its_element_saves(gui: GuiDesk) -> None:  # noqa: F811
    """LibreOffice reports its own (VCL) content 25 px above where it draws it (docs/gui.md): the
    element list moves those boxes down, so a click on the Save button's box presses Save, not the
    menu bar's View above it."""
    gui.setup("write_docx", path="~/memo.docx", paragraphs=["Hello"])
    gui.ok("launch_app", app="writer", path="~/memo.docx")
    gui.ok("type_text", text="Dock 7 ")
    assert _until(lambda: _saved_field(gui), [LO_MODIFIED]) == [LO_MODIFIED]
    gui.ok("click", element={"role": "push button", "name": "Save"})
    assert _until(lambda: _saved_field(gui), [LO_NOT_MODIFIED]) == [LO_NOT_MODIFIED]
    assert gui.get("docx", path="~/memo.docx") == ["Dock 7 Hello"]
    menus = [e for e in gui.device.observe()["elements"] if e["role"] == "menu" and "selected" in e["states"]]
    assert not menus, menus
