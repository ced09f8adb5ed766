"""A real Wine desktop: Notepad saves a file on the C drive through GUI actions only; bad input fails cleanly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from devicesworld.devices.base import SupportsScreenshot
from tests.devices.windows.windows_harness import require_windows_stack, windows_pc

PATH = r"C:\Users\user\Documents\visit.txt"


def test_notepad_saves_on_the_c_drive_and_the_tree_shows_it(tmp_path: Path) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path, {"desktop": "hybrid"})

    def act(action: str, **args: Any) -> Any:
        return dev.act(action, kind.actions_for({"desktop": "hybrid"})[action].parse_args(args))

    try:
        assert act("launch_app", app="notepad").ok
        assert act("type_text", text="Visit Zürich café on Friday\n").ok
        assert act("hotkey", keys=["ctrl", "s"]).ok
        obs = dev.observe()
        save = [e for e in obs["elements"] if e["role"] == "Button" and e["name"] == "&Save"]
        assert save, [e["name"] for e in obs["elements"]]
        assert act("type_text", text=PATH + "\n").ok
        titles = [w["title"] for w in dev.observe()["windows"]]
        assert any("visit.txt - Notepad" in t for t in titles), titles
        got = dev.get("text", kind.getters["text"].parse_args({"path": PATH}))
        assert got == "Visit Zürich café on Friday\n"
        assert isinstance(dev, SupportsScreenshot)
        shot = dev.screenshot()
        assert shot is not None and shot[:8] == b"\x89PNG\r\n\x1a\n"
        obs = dev.observe()
        edit = next(e for e in obs["elements"] if e["role"] == "Edit" and e["app"] == "notepad")
        assert edit["text"] == "Visit Zürich café on Friday\r\n"
        # bad input: a stale index and an unknown app are failed results, not exceptions
        stale = act("click", element=999)
        assert not stale.ok and stale.error_code == "STALE_ELEMENT"
        unknown = act("launch_app", app="paint")
        assert not unknown.ok and "no app" in unknown.message
        run = act("run_command", command=r"type Documents\visit.txt")
        assert run.ok and "Visit Z" in run.data["stdout"]
    finally:
        dev.close()
    assert not (tmp_path / "windows_0" / "home").exists()
