"""What a person sees on a live Wine desktop reaches the element list: a document's saved state
(Notepad and WordPad clear their edit control's modification flag on a save) and the characters
of a console window (cmd's output), which Wine's conhost draws with no window text of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.devices.windows.windows_harness import require_windows_stack, windows_pc


@pytest.mark.parametrize(("app", "role"), [("notepad", "Edit"), ("wordpad", "RichEdit20W")])
def test_an_edit_reads_modified_and_a_save_reads_unmodified(tmp_path: Path, app: str, role: str) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path)

    def act(action: str, **args: Any) -> None:
        result = dev.act(action, kind.actions_for({})[action].parse_args(args))
        assert result.ok, result.message

    def states() -> list[str]:
        doc = next(e for e in dev.observe()["elements"] if e["role"] == role and e["app"] == app)
        return list(doc["states"])

    try:
        act("launch_app", app=app)
        act("type_text", text="Gate 4471\n")
        assert "modified" in states()
        act("hotkey", keys=["ctrl", "s"])
        act("wait", seconds=1)
        act("type_text", text=r"C:\Users\user\Documents\gate.txt" + "\n")
        act("wait", seconds=1)
        assert "unmodified" in states()
        act("type_text", text="more")
        assert "modified" in states()
        act("hotkey", keys=["ctrl", "s"])
        act("wait", seconds=1)
        assert "unmodified" in states()
    finally:
        dev.close()


def test_the_console_window_lists_what_cmd_printed(tmp_path: Path) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path)

    def act(action: str, **args: Any) -> None:
        result = dev.act(action, kind.actions_for({})[action].parse_args(args))
        assert result.ok, result.message

    try:
        act("launch_app", app="cmd")
        act("type_text", text="echo dw-%USERNAME%-ok\n")
        act("wait", seconds=1)
        console = next(e for e in dev.observe()["elements"] if e["role"] == "WineConsoleClass")
        lines = console["text"].splitlines()
        assert "dw-user-ok" in lines, lines  # the output line, not only the typed command
        assert lines[-1].endswith(">")  # the prompt after it
    finally:
        dev.close()
