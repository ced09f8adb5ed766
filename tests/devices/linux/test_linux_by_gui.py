"""A scenario family's tool-style desktop steps done through the GUI (``devices/linux/gui/by_gui.py``)."""

from __future__ import annotations

import time

import pytest

from devicesworld.devices.linux.device import GUI_ACTIONS, HYBRID_ACTIONS
from devicesworld.devices.linux.gui.by_gui import gui_steps
from devicesworld.spec.models import Step
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)


def _s(action: str, **args: object) -> Step:
    return Step(device="linux_0", action=action, args=dict(args))


def test_reading_opens_the_file_in_the_app_of_its_format_and_closes_it() -> None:
    assert [(s.action, s.args) for s in gui_steps(_s("read_file", path="~/notes/a.md"))] == [
        ("launch_app", {"app": "text_editor", "path": "~/notes/a.md"}),
        ("hotkey", {"keys": ["ctrl", "w"]}),
    ]
    assert gui_steps(_s("read_document", path="~/r.docx"))[0].args["app"] == "writer"
    assert gui_steps(_s("read_document", path="~/r.xlsx"))[0].args["app"] == "calc"
    assert gui_steps(_s("read_document", path="~/r.csv"))[0].args["app"] == "text_editor"
    assert gui_steps(_s("read_document", path="~/Downloads/pass.pdf"))[0].args["app"] == "pdf_viewer"
    assert gui_steps(_s("list_dir", path="~/Downloads"))[0].args == {"app": "files", "path": "~/Downloads"}


def test_writing_types_the_whole_text_and_saves_and_every_step_is_a_gui_action() -> None:
    steps = gui_steps(_s("write_file", path="~/n.txt", content="SSID: Home\nPassword: x\n"))
    assert [s.action for s in steps] == ["launch_app", "hotkey", "type_text", "hotkey", "wait", "hotkey"]
    assert steps[2].args["text"] == "SSID: Home\nPassword: x\n" and steps[3].args["keys"] == ["ctrl", "s"]
    typed = gui_steps(_s("write_document", path="~/s.json", data={"heat": 21.5, "room": "Café"}))[2]
    assert typed.args["text"] == '{\n  "heat": 21.5,\n  "room": "Café"\n}\n'
    appended = gui_steps(_s("write_file", path="~/e.csv", content="a,1\n", append=True))
    assert appended[1].args["keys"] == ["ctrl", "End"] and appended[2].args["text"] == "a,1\n"
    for step in steps:
        assert step.action in GUI_ACTIONS and step.device == "linux_0"


def test_a_shell_command_is_typed_into_the_terminal_app_so_the_desktop_can_be_gui_only() -> None:
    """#34: a family's ``run_command`` (and an archive's listing) becomes GUI steps in the terminal's window."""
    typed = gui_steps(_s("run_command", command="mv ~/Desktop/a.png ~/Pictures/"))
    assert [(s.action, s.args) for s in typed] == [
        ("launch_app", {"app": "terminal"}),
        ("type_text", {"text": "mv ~/Desktop/a.png ~/Pictures/\n"}),
        ("wait", {"seconds": 1.0}),
        ("type_text", {"text": "exit\n"}),
    ]
    listed = gui_steps(_s("read_document", path="~/Downloads/gift.zip"))
    assert (
        listed[0].args == {"app": "terminal"}
        and listed[1].args["text"] == 'unzip -l "$HOME"/Downloads/gift.zip\n'
    )
    for step in [*typed, *listed]:
        assert step.action in GUI_ACTIONS and step.action not in set(HYBRID_ACTIONS) - set(GUI_ACTIONS)


@pytest.mark.parametrize(
    ("action", "args", "why"),
    [
        ("read_document", {"path": "~/photo.heic"}, ".heic"),
        ("write_email_draft", {"to": ["a@b.c"], "subject": "s", "body": "b", "cc": ["d@e.f"]}, "cc"),
        ("browser_type", {"index": 3, "text": "x"}, "browser_type"),
        ("write_document", {"path": "~/t.xlsx", "rows": [[1]]}, "write_document"),
    ],
)
def test_a_step_without_a_faithful_gui_way_says_so(action: str, args: dict[str, object], why: str) -> None:
    with pytest.raises(KeyError, match=why):
        gui_steps(_s(action, **args))


def test_the_translated_steps_do_on_a_live_desktop_what_the_tool_steps_do(gui: GuiDesk) -> None:  # noqa: F811
    """Read a file, then write it and a new one: each step closes its window, so the second opening
    of the same file is a fresh window (an open one would only be raised, and the launch would wait)."""
    gui.setup("write_text", path="~/network.txt", content="SSID: HomeNet\nPassword: old-1\n")
    gui.setup("make_dir", path="~/Documents")
    plan = [
        _s("read_file", path="~/network.txt"),
        _s("write_file", path="~/network.txt", content="SSID: HomeNet\nPassword: new-2\n"),
        _s("write_document", path="~/Documents/state.json", data={"on": ["lamp"], "t": 20}),
        _s("write_file", path="~/network.txt", content="Guest: g-3\n", append=True),
        _s("run_command", command="mkdir -p ~/Pictures/Shots && mv ~/network.txt ~/Pictures/Shots/"),
    ]
    for step in plan:
        for gs in gui_steps(step):
            gui.ok(gs.action, **gs.args)
    moved = "~/Pictures/Shots/network.txt"
    deadline = time.monotonic() + 30  # the terminal's shell runs the command on its own time
    while time.monotonic() < deadline and not gui.check("file_exists", path=moved).passed:
        time.sleep(0.2)
    assert gui.get("text", path=moved) == "SSID: HomeNet\nPassword: new-2\nGuest: g-3\n"
    assert gui.get("json", path="~/Documents/state.json") == {"on": ["lamp"], "t": 20}
    titles = [w["title"] for w in gui.device.observe()["windows"]]
    assert not [t for t in titles if "Mousepad" in t], titles


def test_a_pdf_read_through_the_gui_puts_its_page_text_in_the_element_list(gui: GuiDesk) -> None:  # noqa: F811
    """Evince exposes each page's text to AT-SPI, so an agent (and the first-match baseline) reads the
    PDF from the element list; the step closes the viewer again."""
    gui.setup(
        "write_pdf", path="~/Downloads/pass.pdf", paragraphs=["Boarding pass", "Gate B12, boards 14:35"]
    )
    opened, closed = gui_steps(_s("read_document", path="~/Downloads/pass.pdf"))
    gui.ok(opened.action, **opened.args)
    pages = [e for e in gui.device.observe()["elements"] if e["role"] == "page"]
    assert any("Gate B12, boards 14:35" in str(e.get("text")) for e in pages), pages
    gui.ok(closed.action, **closed.args)
    assert not [w for w in gui.device.observe()["windows"] if "pass.pdf" in w["title"]]


def test_an_app_that_is_not_installed_fails_at_once_with_its_name(
    gui: GuiDesk,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import shutil

    real = shutil.which
    monkeypatch.setattr(
        shutil, "which", lambda name, *a, **k: None if name == "evince" else real(name, *a, **k)
    )
    result = gui.act("launch_app", app="pdf_viewer", path="~/x.pdf")
    assert not result.ok and result.error_code == "UNSUPPORTED" and "evince" in result.message
