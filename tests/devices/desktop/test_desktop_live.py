"""A real desktop: start, apps, Unicode typing, the element tree, screenshots, failures as results."""

from __future__ import annotations

import time
from pathlib import Path

from devicesworld.devices.desktop import actions as a
from devicesworld.devices.desktop.gui import App, GuiSession
from tests.devices.desktop.desktop_harness import fresh_desktop

TEXT = "Héllo — ✓ 日本語 Ελληνικά «ß» €5\nline two"
EDITOR = {"editor": App("editor", ["mousepad"], window="mousepad")}


def test_unicode_typed_into_mousepad_is_saved_exactly(tmp_path: Path) -> None:
    with fresh_desktop(tmp_path) as desk:
        gui = GuiSession(desk, EDITOR)
        assert gui.act("launch_app", a.LaunchAppArgs(app="editor", path="/home/user/out.txt")).ok
        assert gui.act("type_text", a.TypeTextArgs(text=TEXT)).ok
        assert gui.act("hotkey", a.HotkeyArgs(keys=["ctrl", "s"])).ok
        saved = tmp_path / "home" / "out.txt"
        end = time.monotonic() + 60
        while time.monotonic() < end and not (saved.exists() and saved.read_text("utf-8").startswith(TEXT)):
            time.sleep(0.1)
        assert saved.read_text("utf-8").rstrip("\n") == TEXT
        assert any("out.txt" in t for t in gui.window_titles())


def test_observation_lists_the_text_area_and_screenshot_is_png(tmp_path: Path) -> None:
    with fresh_desktop(tmp_path, width=1024, height=768) as desk:
        gui = GuiSession(desk, EDITOR)
        gui.act("launch_app", a.LaunchAppArgs(app="editor"))
        gui.act("type_text", a.TypeTextArgs(text="abc"))
        obs = gui.observe()
        assert obs["screen"] == {"width": 1024, "height": 768}
        assert obs["focused_window"] is not None and "Mousepad" in obs["focused_window"]["title"]
        texts = [e for e in obs["elements"] if e["role"] == "text" and e.get("text") == "abc"]
        assert texts and "focused" in texts[0]["states"]
        png = gui.screenshot()
        assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_steps_are_failed_results(tmp_path: Path) -> None:
    with fresh_desktop(tmp_path) as desk:
        gui = GuiSession(desk, EDITOR)
        gui.observe()
        stale = gui.act("click", a.ClickArgs(element=999))
        assert not stale.ok and stale.error_code == "STALE_ELEMENT"
        missing = gui.act("click", a.ClickArgs(element=a.Selector(role="push button", name="Nope")))
        assert not missing.ok and missing.error_code == "NOT_FOUND"
        unknown = gui.act("launch_app", a.LaunchAppArgs(app="paint"))
        assert not unknown.ok and "editor" in unknown.message
        bad_key = gui.act("hotkey", a.HotkeyArgs(keys=["hyperspace"]))
        assert not bad_key.ok and "hyperspace" in bad_key.message
        desk.close()
        gone = gui.act("type_text", a.TypeTextArgs(text="x"))
        assert not gone.ok and gone.error_code == "DESKTOP_GONE"


def test_run_command_runs_inside_the_desktop(tmp_path: Path) -> None:
    with fresh_desktop(tmp_path) as desk:
        gui = GuiSession(desk, EDITOR)
        r = gui.act("run_command", a.RunCommandArgs(command="echo $HOME; id -u; echo hi > ~/f.txt"))
        assert r.ok and r.data["stdout"].split() == ["/home/user", "1000"]
        assert (tmp_path / "home" / "f.txt").read_text() == "hi\n"
