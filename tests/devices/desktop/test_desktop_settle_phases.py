"""Settling asks the controller for the focused app's quiet time, and every phase of a step is timed."""

from __future__ import annotations

from typing import Any

from devicesworld.devices.desktop.actions import ClickArgs, HotkeyArgs, LaunchAppArgs, TypeTextArgs
from devicesworld.devices.desktop.gui import SETTLE_QUIET_S, App, GuiSession
from devicesworld.devices.desktop.messages import Idle, Tree, Window

WRITER = App("writer", ["true"], window="LibreOffice Writer", settle_s=0.12, command_settle_s=0.45)
EDITOR = App("text_editor", ["true"], window="mousepad")


def _window(wid: int, title: str = "~/n.txt - Mousepad") -> Window:
    return Window(
        id=wid, title=title, app="Mousepad", instance="mousepad", pid=1, box=(0, 0, 9, 9), mapped=True
    )


class FakeDesktop:
    """Records the settle requests; ``frames`` are the window lists ``windows()`` returns in turn."""

    def __init__(self, frames: list[list[Window]] | None = None) -> None:
        self.settles: list[dict[str, Any]] = []
        self.frames = frames or [[]]
        self.looks = 0
        self.launches = 0
        self.focused: list[int] = []
        self.last_encode_s = 0.004
        self.ready = None

    def settle(self, **kw: Any) -> Idle:
        self.settles.append(kw)
        return Idle(idle=True, seconds=0.0)

    def pointer(self, op: str, **_: Any) -> None:
        pass

    def keys(self, keys: list[str], mode: str = "press") -> None:
        pass

    def type_text(self, text: str) -> None:
        pass

    def screenshot(self) -> bytes:
        return b"png"

    def windows(self) -> list[Window]:
        frame = self.frames[min(self.looks, len(self.frames) - 1)]
        self.looks += 1
        return frame

    def tree(self, **_: Any) -> Tree:
        return Tree(nodes=[])

    def launch(self, argv: list[str], **_: Any) -> Any:
        self.launches += 1
        return type("L", (), {"pid": 7})()

    def wait_window(self, pred: Any, timeout_s: float = 30.0) -> Window | None:
        return next((w for w in self.windows() if pred(w)), None)

    def wait_idle(self, **_: Any) -> Idle:
        return Idle(idle=True, seconds=0.0)

    def focus_window(self, window_id: int) -> bool:
        self.focused.append(window_id)
        return True


def _session(desk: FakeDesktop) -> GuiSession:
    return GuiSession(desk, {"writer": WRITER, "text_editor": EDITOR})  # type: ignore[arg-type]


def test_a_click_or_key_combination_asks_for_the_apps_command_quiet_time_and_typing_for_its_own() -> None:
    desk = FakeDesktop()
    s = _session(desk)
    assert s.act("click", ClickArgs(x=5, y=5)).ok
    assert s.act("hotkey", HotkeyArgs(keys=["ctrl", "b"])).ok
    assert s.act("type_text", TypeTextArgs(text="abc")).ok
    click, hotkey, typed = desk.settles
    assert click["quiet_s"] == hotkey["quiet_s"] == typed["quiet_s"] == SETTLE_QUIET_S  # other apps
    assert click["per_app"] == hotkey["per_app"] == [("LibreOffice Writer", 0.45)]
    assert typed["per_app"] == [("LibreOffice Writer", 0.12)]


def test_an_explicit_quiet_time_is_not_overridden_by_the_focused_app() -> None:
    desk = FakeDesktop()
    _session(desk).settle(quiet_s=0.6, timeout_s=20)
    assert desk.settles == [{"timeout_s": 20, "quiet_s": 0.6, "per_app": []}]


def test_each_phase_is_timed_once_and_taking_them_starts_again() -> None:
    s = _session(FakeDesktop())
    s.act("click", ClickArgs(x=5, y=5))
    s.observe()
    s.screenshot()
    phases = s.take_phases()
    assert set(phases) == {"input", "settle", "tree", "screenshot", "encode"}
    assert all(v >= 0 for v in phases.values())
    assert phases["encode"] == 0.004  # as the desktop measured it
    assert s.take_phases() == {}


def test_a_launch_handed_to_an_instance_that_was_closing_its_window_launches_again(monkeypatch: Any) -> None:
    """Mousepad closes a window ~0.5 s after ctrl+w, drawing nothing: a launch in between goes to the
    quitting instance. Once the running window is gone with no new one, the app is launched again,
    and the window it shows (Mousepad shows the same hidden window again) is the answer."""
    from devicesworld.devices.desktop import gui as g

    monkeypatch.setattr(g, "CLOSED_GRACE_S", 0.0)
    monkeypatch.setattr("shutil.which", lambda _: "/usr/bin/true")
    old = _window(1)
    desk = FakeDesktop([[old], [old], [], [], [_window(1, "~/m.txt - Mousepad")]])
    result = _session(desk).act("launch_app", LaunchAppArgs(app="text_editor", path="~/m.txt"))
    assert result.ok, result.message
    assert result.data == {"window": "~/m.txt - Mousepad"}
    assert desk.launches == 2


def test_a_launched_window_the_window_manager_left_unfocused_is_given_the_focus(monkeypatch: Any) -> None:
    """On a loaded machine an app can be idle before its window holds the keyboard focus; the
    agent's first ``type_text`` must not go nowhere, so the launch asks for the focus."""
    monkeypatch.setattr("shutil.which", lambda _: "/usr/bin/true")
    desk = FakeDesktop([[], [_window(4)]])
    assert _session(desk).act("launch_app", LaunchAppArgs(app="text_editor")).ok
    assert desk.focused == [4]
    focused = _window(5).model_copy(update={"focused": True})
    desk = FakeDesktop([[], [focused]])
    assert _session(desk).act("launch_app", LaunchAppArgs(app="text_editor")).ok
    assert desk.focused == []  # already in front: nothing asked
