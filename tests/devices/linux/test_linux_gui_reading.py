"""A real GUI desktop: a long text is listed cut with a note, and ``read_element`` reads it on."""

from __future__ import annotations

import re

from devicesworld.devices.listing import CUT_PREFIX
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)

TEXT = "".join(f"Line {i:04d}: the rule of this line is rule number {i}.\n" for i in range(250))


def test_a_long_editor_text_is_cut_with_a_note_and_read_element_reads_on(gui: GuiDesk) -> None:  # noqa: F811
    gui.setup("write_text", path="~/rules.txt", content=TEXT)
    gui.setup("open_app", app="text_editor", path="~/rules.txt")
    obs = gui.device.observe()
    el = next(e for e in obs["elements"] if (e.get("text") or "").startswith("Line 0000"))
    assert (
        CUT_PREFIX in el["text"] and "read_element" in el["text"] and f"of {len(TEXT):,} chars" in el["text"]
    )
    assert len(TEXT) > 8000  # more than the walk reads of one text
    read, offset, past = "", 0, False
    while True:
        result = gui.ok("read_element", index=el["index"], offset=offset)
        read += result.data["text"]
        more = result.data.get("more")
        if more is None:
            break
        assert more.startswith(CUT_PREFIX)
        found = re.search(r'"offset": (\d+)', more)
        if found is None:  # past what the tree walk reads: the note says so, with the whole length
            assert f"{len(TEXT):,}" in more and "scroll" in more
            past = True
            break
        offset = int(found.group(1))
    assert past and TEXT.startswith(read) and len(read) == 8000
    listed = gui.ok("list_elements", contains="Line 0000")
    assert listed.data["matching"] >= 1
