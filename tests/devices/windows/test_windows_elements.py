"""The element list made from the HWND-tree helper's JSON: visibility, cover, list items, bad output."""

from __future__ import annotations

import json
from typing import Any

import pytest

from devicesworld.devices.windows.elements import TreeError, elements, parse


def node(h: int, cls: str, text: str, r: list[int], p: int = 0, **kw: Any) -> dict[str, Any]:
    return {"h": h, "p": p, "d": 0 if p == 0 else 1, "pid": 7, "cls": cls, "text": text, "r": r, **kw}


def tree(*nodes: dict[str, Any], focus: int = 0, fg: int = 0) -> str:
    return json.dumps({"foreground": fg, "focus": focus, "windows": list(nodes), "truncated": 0})


def test_edit_text_focus_and_boxes() -> None:
    raw = tree(
        node(1, "Notepad", "todo.txt - Notepad", [0, 0, 760, 570]),
        node(2, "Edit", "eggs\r\nmilk", [4, 42, 756, 546], p=1),
        focus=2,
        fg=1,
    )
    els = elements(parse(raw))
    assert [e.role for e in els] == ["Notepad", "Edit"]
    assert els[0].name == "todo.txt - Notepad" and "active" in els[0].states
    assert els[1].text == "eggs\r\nmilk" and els[1].name == ""
    assert {"focused", "editable"} <= set(els[1].states)
    assert els[1].box == (4, 42, 752, 504) and els[1].center == (380, 294)
    assert '[1] Edit text="eggs\\r\\nmilk"' in els[1].line()


def test_hidden_offscreen_and_covered_elements_are_left_out() -> None:
    raw = tree(
        node(10, "#32770", "Save As", [100, 100, 400, 300]),  # on top
        node(11, "Button", "&Save", [300, 250, 380, 280], p=10),
        node(1, "Notepad", "x - Notepad", [0, 0, 760, 570]),
        node(
            2, "Edit", "", [4, 42, 756, 546], p=1
        ),  # centre (380, 294): under the dialog? no: 380 >= 400? inside
        node(3, "Button", "hidden", [0, 0, 10, 10], p=1, vis=0),
        node(4, "Static", "far away", [5000, 5000, 5100, 5100], p=1),
        node(5, "msctls_statusbar32", "Ln 1", [4, 546, 756, 566], p=1),
    )
    roles = [(e.role, e.name) for e in elements(parse(raw))]
    assert ("Button", "&Save") in roles
    assert ("Edit", "") not in roles  # its centre is covered by the dialog
    assert ("Button", "hidden") not in roles and ("Static", "far away") not in roles
    assert ("msctls_statusbar32", "Ln 1") in roles
    assert [e.index for e in elements(parse(raw))] == list(range(len(roles)))


def test_list_view_items_become_elements_unless_scrolled_out() -> None:
    items = [
        {"text": "a.txt", "r": [157, 99, 200, 116], "sel": 1},
        {"text": "b.txt", "r": [157, 116, 200, 133], "sel": 0},
        {"text": "far.txt", "r": [157, 900, 200, 917], "sel": 0},
    ]
    raw = tree(
        node(1, "ExplorerWClass", "Documents", [0, 0, 640, 480]),
        node(2, "SysListView32", "", [155, 83, 635, 475], p=1, items=items),
    )
    els = elements(parse(raw))
    listed = [(e.name, e.states) for e in els if e.role == "ListItem"]
    assert listed == [("a.txt", ["visible", "selected"]), ("b.txt", ["visible"])]


@pytest.mark.parametrize("raw", ["not json", '{"windows": [{"h": "x"}]}', "{}"])
def test_unreadable_helper_output_is_a_tree_error(raw: str) -> None:
    with pytest.raises(TreeError, match="unreadable output"):
        parse(raw)


def test_toolbar_buttons_carry_checked_and_disabled() -> None:
    items = [
        {"k": "button", "id": 1, "r": [211, 74, 234, 96], "sel": 1, "en": 1},
        {"k": "button", "id": 2, "r": [234, 74, 257, 96], "sel": 0, "en": 0},
    ]
    raw = tree(
        node(1, "WORDPADTOP", "a.rtf - Wine Wordpad", [0, 0, 600, 300]),
        node(2, "ToolbarWindow32", "", [4, 70, 596, 98], p=1, items=items),
    )
    buttons = [(e.box, e.states) for e in elements(parse(raw)) if e.role == "ToolbarButton"]
    assert buttons == [
        ((211, 74, 23, 22), ["visible", "checked"]),
        ((234, 74, 23, 22), ["visible", "disabled"]),
    ]


def test_a_documents_modification_flag_becomes_a_state_and_a_console_lists_its_characters() -> None:
    """What a person learns from WordPad's saved file and from a console's screen reaches the list:
    the helper's ``mod`` (EM_GETMODIFY) and ``con`` (the console's visible rows)."""
    raw = tree(
        node(1, "WordPadTop", "x.rtf - Wine Wordpad", [0, 0, 760, 570]),
        node(2, "RichEdit20W", "draft", [4, 42, 756, 500], p=1, mod=1),
        node(3, "Edit", "9", [4, 10, 40, 30], p=1),  # a one-line box: no flag
        node(
            4, "WineConsoleClass", r"C:\windows\system32\cmd.exe", [800, 0, 1280, 400], con="C:\\>echo hi\nhi"
        ),
    )
    els = {e.role: e for e in elements(parse(raw))}
    assert "modified" in els["RichEdit20W"].states and "unmodified" not in els["RichEdit20W"].states
    assert not {"modified", "unmodified"} & set(els["Edit"].states)
    console = els["WineConsoleClass"]
    assert console.name == r"C:\windows\system32\cmd.exe" and console.text == "C:\\>echo hi\nhi"
    saved = tree(
        node(1, "Notepad", "x.txt - Notepad", [0, 0, 760, 570]),
        node(2, "Edit", "a", [4, 42, 756, 546], p=1, mod=0),
    )
    assert "unmodified" in elements(parse(saved))[1].states
