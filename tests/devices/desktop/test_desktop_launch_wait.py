"""A launch waits for the app's content to be drawn: the first observation is never a half-drawn window."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.devices.desktop import gui as g
from devicesworld.devices.desktop.gui import App, GuiSession
from devicesworld.devices.desktop.messages import Node, Tree

TITLE = "memo.docx - LibreOffice Writer"
APP = App("writer", ["soffice"], window="LibreOffice Writer", ready_role="document text")


def _node(role: str, window: str = TITLE, box: tuple[int, int, int, int] | None = (0, 0, 10, 10)) -> Node:
    return Node(role=role, name="", box=box, window=window)


class FakeDesktop:
    """Replays a list of trees, then repeats the last one."""

    def __init__(self, trees: list[Tree]) -> None:
        self.trees = trees
        self.walks = 0

    def tree(self, **_: Any) -> Tree:
        tree = self.trees[min(self.walks, len(self.trees) - 1)]
        self.walks += 1
        return tree


def _session(desk: FakeDesktop) -> GuiSession:
    return GuiSession(desk, {"writer": APP})  # type: ignore[arg-type]


def test_it_waits_past_a_bare_frame_until_the_document_is_drawn_and_settled() -> None:
    frame = Tree(nodes=[_node("frame")])
    half = Tree(nodes=[_node("frame"), _node("tool bar")])
    drawn = Tree(nodes=[_node("frame"), _node("tool bar"), _node("document text")])
    other = Tree(nodes=[_node("document text", window="Other - LibreOffice Writer")])
    desk = FakeDesktop([frame, other, half, drawn, drawn])
    assert _session(desk)._wait_tree(APP, TITLE)
    assert desk.walks == 5  # not before the document showed up in *this* window twice the same


def test_a_document_without_a_box_is_not_drawn_and_the_wait_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(g, "TREE_SETTLE_S", 0.5)
    desk = FakeDesktop([Tree(nodes=[_node("frame"), _node("document text", box=None)])])
    assert not _session(desk)._wait_tree(APP, TITLE)
    assert desk.walks >= 2


def test_a_walk_cut_by_its_time_budget_does_not_count_as_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "TREE_SETTLE_S", 0.5)
    cut = Tree(nodes=[_node("frame"), _node("document text")], incomplete="time budget")
    assert not _session(FakeDesktop([cut]))._wait_tree(APP, TITLE)
    capped = Tree(nodes=[_node("document spreadsheet")], incomplete="table: first 4 visible cells shown")
    calc = App("calc", ["soffice"], window="LibreOffice Calc", ready_role="document spreadsheet")
    assert _session(FakeDesktop([capped]))._wait_tree(calc, TITLE)


def test_a_terminal_is_ready_once_its_shell_printed_and_not_before() -> None:
    """xfce4-terminal drops keys until its shell has a pty: the launch waits for the prompt's text."""
    term = App("terminal", ["xfce4-terminal"], window="terminal", ready_role="terminal", ready_text=r"\S")
    title = "Terminal - user@desktop: ~"

    def shows(text: str | None) -> Tree:
        return Tree(
            nodes=[
                _node("frame", window=title),
                Node(role="terminal", box=(0, 0, 9, 9), window=title, text=text),
            ]
        )

    desk = FakeDesktop([shows(None), shows("\n\n"), shows("bash-5.2$ \n\n")])
    assert GuiSession(desk, {"terminal": term})._wait_tree(term, title, fresh=False)  # type: ignore[arg-type]
    assert desk.walks == 3  # an empty or blank terminal is not ready


def test_a_terminal_whose_shell_never_prints_is_waited_for_a_bounded_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(g, "TREE_SETTLE_S", 0.3)
    term = App("terminal", ["xfce4-terminal"], window="terminal", ready_role="terminal", ready_text=r"\S")
    blank = Tree(nodes=[Node(role="terminal", box=(0, 0, 9, 9), window="T", text="")])
    assert not GuiSession(FakeDesktop([blank]), {"terminal": term})._wait_tree(term, "T", fresh=False)  # type: ignore[arg-type]
