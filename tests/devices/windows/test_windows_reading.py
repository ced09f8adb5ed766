"""A real Wine desktop: a long Notepad text is listed cut with a note and read_element reads it
whole; the Save As dialog's elements carry its window, so prompts list the dialog first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from devicesworld.agents.llm.observe import render_device
from devicesworld.devices.listing import CUT_PREFIX
from tests.devices.windows.windows_harness import require_windows_stack, windows_pc

TEXT = "".join(f"Rule {i:03d} of the house.\n" for i in range(60))
PATH = r"C:\Users\user\Documents\rules.txt"


def test_a_long_notepad_text_is_cut_with_a_note_and_read_whole(tmp_path: Path) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path)

    def act(action: str, **args: Any) -> Any:
        return dev.act(action, kind.actions[action].parse_args(args))

    try:
        dev.setup(
            "write_text",
            kind.setup_ops["write_text"].parse_args({"path": PATH, "content": TEXT}),
        )
        assert act("launch_app", app="notepad", path=PATH).ok
        obs = dev.observe()
        edit = next(e for e in obs["elements"] if e["role"] == "Edit" and e["app"] == "notepad")
        assert CUT_PREFIX in edit["text"] and "read_element" in edit["text"]
        read, offset = "", 0
        while True:
            result = act("read_element", index=edit["index"], offset=offset)
            assert result.ok, result.message
            read += result.data["text"]
            if "more" not in result.data:
                break
            offset = len(read)
        assert read.replace("\r\n", "\n") == TEXT  # whole (Notepad shows CRLF line ends)
        assert act("hotkey", keys=["ctrl", "n"]).ok  # a new, untitled text: saving it asks where
        assert act("type_text", text="x").ok
        assert act("hotkey", keys=["ctrl", "s"]).ok
        obs = dev.observe()
        text = render_device("windows_0", obs)
        first = text.splitlines()[2]
        assert first.startswith("(dialog ") or first.startswith("(focused window "), text[:600]
        assert "&Save" in text.split("(other elements", 1)[0]
    finally:
        dev.close()
