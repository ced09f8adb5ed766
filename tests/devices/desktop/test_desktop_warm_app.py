"""A warm app (a pooled desktop's LibreOffice, started without a file) is taken over by the task's launch
of it, stopped when the same process would serve another app, and left alone by unrelated launches.
The live equivalence with a cold start is tests/devices/linux/test_linux_gui_warm_office.py."""

from __future__ import annotations

from typing import Any

from devicesworld.devices.desktop.gui import App, GuiSession, WarmApp
from devicesworld.devices.desktop.messages import Launched, Node, Tree, Window

WRITER = App("writer", ["soffice", "--writer"], window="LibreOffice Writer", ready_role="document text")
CALC = App("calc", ["soffice", "--calc"], window="LibreOffice Calc", ready_role="document spreadsheet")
EMPTY = "Untitled 1 - LibreOffice Writer"
WARM = WarmApp("writer", pid=35, window=7, title=EMPTY, shares=("calc",), leftovers=("/tmp/lu*.tmp",))


def _win(title: str, wid: int = 7) -> Window:
    return Window(id=wid, title=title, app="libreoffice-writer", box=(0, 19, 1280, 781), focused=True)


class FakeDesktop:
    """One LibreOffice window; a launch with a file replaces its document (as LibreOffice does)."""

    def __init__(self) -> None:
        self.title = EMPTY
        self.launched: list[list[str]] = []
        self.stopped: list[tuple[int, list[str]]] = []

    def windows(self) -> list[Window]:
        return [_win(self.title)] if self.title else []

    def launch(self, argv: list[str], **_: Any) -> Launched:
        self.launched.append(argv)
        if len(argv) > 2 and self.title:
            self.title = argv[-1].rsplit("/", 1)[-1] + " - LibreOffice Writer"
        return Launched(pid=100 + len(self.launched))

    def wait_window(self, pred: Any, timeout_s: float = 30.0, step_s: float = 0.05) -> Window | None:
        return next((w for w in self.windows() if pred(w)), None)

    def wait_idle(self, **_: Any) -> None:
        return None

    def tree(self, **_: Any) -> Tree:
        return Tree(nodes=[Node(role="document text", box=(0, 80, 1280, 600), window=self.title)])

    def focus_window(self, window_id: int) -> bool:
        return True

    def close_window(self, window_id: int) -> None:
        raise AssertionError("the file went into the empty document's window")

    def stop_app(self, pid: int, remove: list[str] | None = None) -> bool:
        self.stopped.append((pid, list(remove or [])))
        self.title = ""
        return True


def _session(desk: FakeDesktop) -> GuiSession:
    return GuiSession(desk, {"writer": WRITER, "calc": CALC}, warm=WARM)  # type: ignore[arg-type]


def test_a_launch_without_a_file_adopts_the_warm_window() -> None:
    desk = FakeDesktop()
    session = _session(desk)
    result = session.act("launch_app", _args(app="writer"))
    assert result.ok and result.data == {"window": EMPTY}
    assert desk.launched == [] and session.warm is None


def test_a_launch_with_a_file_hands_it_to_the_warm_instance() -> None:
    desk = FakeDesktop()
    session = _session(desk)
    result = session.act("launch_app", _args(app="writer", path="/home/user/memo.docx"))
    assert result.ok and result.data == {"window": "memo.docx - LibreOffice Writer"}
    assert desk.launched == [["soffice", "--writer", "/home/user/memo.docx"]]
    assert desk.stopped == [] and session.warm is None


def test_a_warm_office_nobody_took_is_stopped_with_its_leftovers() -> None:
    desk = FakeDesktop()
    session = _session(desk)
    session.drop_warm()
    session.drop_warm()  # once
    assert desk.stopped == [(35, ["/tmp/lu*.tmp"])] and session.warm is None


def _args(**kw: Any) -> Any:
    from devicesworld.devices.desktop.actions import LaunchAppArgs

    return LaunchAppArgs(**kw)
