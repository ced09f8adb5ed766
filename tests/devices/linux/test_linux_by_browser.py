"""The built-in browser's steps done in Chromium (``devices/linux/gui/by_browser.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.devices.linux.device import GUI_ACTIONS
from devicesworld.devices.linux.gui.by_browser import NoBrowserWay
from devicesworld.devices.linux.gui.by_gui import NoGuiWay, gui_solution, gui_steps
from devicesworld.spec.models import DeviceOp, Step
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)

SITE: dict[str, Any] = {
    "host": "power.test",
    "title": "Power",
    "pages": [
        {"path": "/tariffs", "title": "Tariffs", "table": [["Plan", "Price"], ["Green", "31.2 p"]]},
        {
            "path": "/move-in",
            "title": "Move in",
            "form": {
                "id": "movein",
                "fields": [
                    {"name": "date", "label": "Move-in date", "type": "date"},
                    {"name": "plan", "label": "Plan", "type": "select", "options": ["Green", "Fixed 12"]},
                    {"name": "reading", "label": "Meter reading"},
                    {"name": "pin", "label": "Account PIN", "type": "password"},
                ],
                "submit_label": "Register",
            },
        },
    ],
}
SETUP = [DeviceOp(device="linux_0", op="add_site", args={"site": SITE})]


def _s(action: str, **args: object) -> Step:
    return Step(device="linux_0", action=action, args=dict(args))


FILL = [
    _s("browser_open", url="http://power.test/tariffs"),
    _s("read_file", path="~/Documents/lease.txt"),
    _s("browser_open", url="http://power.test/move-in"),
    _s("browser_type", index=3, text="2026-03-05"),
    _s("browser_select", index=4, option="Fixed 12"),
    _s("browser_type", index=5, text="04417"),
    _s("browser_type", index=6, text="8812"),
    _s("browser_submit"),
]
"""The built-in engine numbers the move-in page: [1], [2] the site's two links, [3] the date ... [7] Register."""


def test_each_element_number_becomes_the_chromium_element_of_its_label_and_role() -> None:
    done = gui_solution(FILL, SETUP)
    assert len(done) == len(FILL)
    assert [(s.action, s.args) for s in done[0]] == [
        ("launch_app", {"app": "browser", "path": "http://power.test/tariffs"})
    ]
    assert done[1] == gui_steps(FILL[1])  # not a browser step: translated as before
    assert [s.action for s in done[2]] == ["click", "hotkey", "type_text", "wait"]  # the address bar
    assert done[2][2].args == {"text": "http://power.test/move-in\n"}
    assert [s.args for s in done[3]] == [
        {"element": {"role": "spin button", "name": "Month Move-in date"}},
        {"text": "03052026"},
    ]
    assert [s.args["element"] for s in done[4]] == [
        {"role": "combo box", "name": "Plan"},
        {"role": "menu item", "name": "Fixed 12"},
    ]
    assert done[5][0].args["element"] == {"role": "entry", "name": "Meter reading"}
    assert done[5][2].args == {"text": "04417"}
    assert done[6][0].args["element"] == {"role": "password text", "name": "Account PIN"}
    assert done[7][0].args["element"] == {"role": "push button", "name": "Register"}
    for step in (s for steps in done for s in steps):
        assert step.action in GUI_ACTIONS and step.device == "linux_0"


@pytest.mark.parametrize(
    ("steps", "why"),
    [
        ([_s("browser_type", index=2, text="x")], "not on a page"),
        (
            [_s("browser_open", url="http://power.test/move-in"), _s("browser_type", index=1, text="x")],
            "into a link",
        ),
        (
            [_s("browser_open", url="http://power.test/move-in"), _s("browser_type", index=9, text="x")],
            "no element",
        ),
        (
            [
                _s("browser_open", url="http://power.test/move-in"),
                _s("browser_type", index=3, text="5 March"),
            ],
            "YYYY-MM-DD",
        ),
        (
            [_s("browser_open", url="http://power.test/move-in"), _s("browser_select", index=5, option="x")],
            "not a list",
        ),
        ([_s("browser_open", url="http://power.test/tariffs"), _s("browser_submit")], "with a form"),
        ([_s("browser_open", url="http://elsewhere.test/"), _s("browser_submit")], "not on a page"),
    ],
)
def test_a_browser_step_the_page_cannot_take_says_why(steps: list[Step], why: str) -> None:
    with pytest.raises(NoBrowserWay, match=why):
        gui_solution(steps, SETUP)


def test_a_browser_step_alone_asks_for_the_sequence() -> None:
    with pytest.raises(NoGuiWay, match="gui_solution"):
        gui_steps(_s("browser_submit"))


def test_an_eml_reads_in_the_text_editor_and_an_archive_is_listed_in_the_terminal() -> None:
    assert gui_steps(_s("read_document", path="~/Mail/Inbox/quote.eml"))[0].args["app"] == "text_editor"
    # typed into the terminal app's window (a GUI-only desktop has no run_command, issue #34)
    steps = gui_steps(_s("read_document", path="~/Downloads/Book Nook gift.zip"))
    assert [s.action for s in steps] == ["launch_app", "type_text", "wait", "type_text"]
    assert steps[0].args["app"] == "terminal"
    assert steps[1].args["text"] == "unzip -l \"$HOME\"'/Downloads/Book Nook gift.zip'\n"


def test_the_translated_form_is_submitted_with_every_value_on_a_live_desktop(gui: GuiDesk) -> None:  # noqa: F811
    """The page read first, a text file between, then the form: Chromium gets the typed date in the
    sandbox's locale order, the chosen option and the typed fields, as the built-in engine would."""
    gui.setup("add_site", site=SITE)
    gui.setup("write_text", path="~/Documents/lease.txt", content="Move-in: 5 March 2026\n")
    done = gui_solution(FILL, SETUP)
    for steps in done[:1]:
        for gs in steps:
            result = gui.ok(gs.action, **gs.args)
            if gs.action == "launch_app":  # the window's title once the page is in, not "Untitled"
                assert "Power" in result.data["window"] and "Untitled" not in result.data["window"]
    cells = [e.get("text") for e in gui.device.observe()["elements"] if e["role"] == "table cell"]
    assert "31.2 p" in cells, cells
    for steps in done[1:]:
        for gs in steps:
            gui.ok(gs.action, **gs.args)
    (sent,) = gui.get("site_submissions", host="power.test")
    assert sent["fields"] == {"date": "2026-03-05", "plan": "Fixed 12", "reading": "04417", "pin": "8812"}
    assert sent["accepted"] is True
