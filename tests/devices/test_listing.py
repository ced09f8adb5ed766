"""Every device-side cut says what it cut and how to get the rest, and the way it names gets it.

One test per limit: an element's text in a desktop's element list (300 chars, ``read_element``),
a Win32 element's name or text (the same), the chunks of ``read_element`` (2,000 chars), the
pages of ``list_elements`` (40 elements). Each reads the rest the note names and checks that
nothing was lost.
"""

from __future__ import annotations

import re
from typing import Any

from devicesworld.devices.desktop.elements import MAX_TEXT, element_list, element_texts, shown_text
from devicesworld.devices.desktop.gui import GuiSession
from devicesworld.devices.desktop.messages import Node
from devicesworld.devices.listing import (
    CUT_PREFIX,
    LIST_PAGE,
    READ_CHUNK,
    ListElementsArgs,
    ReadElementArgs,
    clip,
    index_ranges,
    list_elements,
    read_element,
)

RULE = "".join(f"Rule {i}: a page's rule number {i} says something long enough. " for i in range(120))


def _read_all(texts: list[str], index: int) -> str:
    """Follow read_element's notes from offset 0 to the end."""
    out: str = ""
    offset = 0
    while True:
        result = read_element(texts, ReadElementArgs(index=index, offset=offset))
        assert result.ok, result.message
        out += str(result.data["text"])
        more = result.data.get("more")
        if more is None:
            return out
        assert more.startswith(CUT_PREFIX)
        offset = int(re.search(r'"offset": (\d+)', more).group(1))  # type: ignore[union-attr]


def test_clip_says_what_it_cut_and_how_to_get_the_rest() -> None:
    text = "x" * 5000
    shown = clip(text, 1000, "do this")
    assert len(shown) <= 1000
    assert shown.endswith("; do this]") and "4,0" in shown and CUT_PREFIX in shown
    assert clip("short", 1000, "never") == "short"


def test_a_desktop_element_text_cut_names_read_element_which_reads_the_whole_text() -> None:
    nodes = [
        Node(role="filler"),  # a layout container without text: not an element
        Node(role="document page", name="Page 1", text=RULE, app="pdf_viewer", window="rules.pdf"),
    ]
    elements = element_list(nodes)
    assert len(elements) == 1 and elements[0]["index"] == 0
    text = elements[0]["text"]
    assert text.startswith(RULE[:MAX_TEXT]) and CUT_PREFIX in text
    assert f"of {len(RULE):,} chars not shown" in text and '"index": 0' in text and "read_element" in text
    assert _read_all(element_texts(nodes), 0) == RULE


def test_a_walk_that_read_less_than_the_whole_text_says_so() -> None:
    # the tree walk ships 8,000 characters of a text and its full length
    node = Node(role="terminal", text="y" * 8000, text_len=20_000)
    assert "12,000" not in shown_text(0, node.text or "", node.text_len)
    assert "19,700 of 20,000 chars not shown" in shown_text(0, node.text or "", node.text_len)

    class NoDesktop:
        pass

    session = GuiSession(NoDesktop(), {})  # type: ignore[arg-type]
    session.elements = element_list([node])
    session.texts = element_texts([node])
    session.text_lens = [node.text_len]
    offset, more = 0, None
    while True:
        result = session.act("read_element", ReadElementArgs(index=0, offset=offset))
        assert result.ok
        more = result.data.get("more")
        if more is None or "past what the element tree reads" in more:
            break
        offset = int(re.search(r'"offset": (\d+)', more).group(1))  # type: ignore[union-attr]
    assert more is not None and "chars 8,000-20,000 is past" in more and "scroll" in more
    session.text_lens = [0]  # a length the walk does not know (the Win32 helper's cap)
    last = session.act("read_element", ReadElementArgs(index=0, offset=6000))
    assert "what follows char 8,000 (if anything) is past what the element tree reads" in last.data["more"]


def test_a_win32_name_or_text_is_cut_the_same_way() -> None:
    shown = shown_text(3, RULE)
    assert shown.startswith(RULE[:MAX_TEXT]) and '"index": 3' in shown and CUT_PREFIX in shown
    assert shown_text(3, "OK") == "OK"


def test_read_element_fails_clearly_on_a_stale_index_or_offset() -> None:
    assert read_element(["a"], ReadElementArgs(index=4)).error_code == "STALE_ELEMENT"
    assert read_element(["a"], ReadElementArgs(index=0, offset=9)).error_code == "OUT_OF_RANGE"
    whole = read_element(["a" * READ_CHUNK], ReadElementArgs(index=0))
    assert whole.ok and "more" not in whole.data


def _page(els: list[dict[str, Any]], **args: Any) -> dict[str, Any]:
    result = list_elements(
        len(els),
        lambda i: f"[{i}] {els[i]['role']} {els[i]['name']!r}",
        lambda i: str(els[i]["name"]),
        lambda i: str(els[i]["role"]),
        ListElementsArgs(**args),
    )
    assert result.ok
    return dict(result.data)


def test_list_elements_pages_name_the_next_page_until_every_element_is_listed() -> None:
    els = [{"role": "entry" if i % 3 else "label", "name": f"Field {i}"} for i in range(130)]
    seen: list[str] = []
    start = 0
    while True:
        data = _page(els, start=start)
        assert len(data["elements"]) <= LIST_PAGE
        seen += data["elements"]
        if "more" not in data:
            break
        assert data["more"].startswith(CUT_PREFIX)
        start = int(re.search(r'"start": (\d+)', data["more"]).group(1))  # type: ignore[union-attr]
    assert [int(x[1 : x.index("]")]) for x in seen] == list(range(130))
    labels = _page(els, role="label", limit=100)
    assert labels["matching"] == 44 and "more" not in labels
    found = _page(els, contains="field 12")["elements"]
    assert [x.split("]")[0] for x in found] == ["[12", *[f"[{i}" for i in range(120, 130)]]


def test_index_ranges() -> None:
    assert index_ranges([5, 3, 4, 9, 12, 11]) == "[3]-[5], [9], [11]-[12]"


def test_command_output_cuts_say_how_to_get_the_rest() -> None:
    from devicesworld.devices.desktop.gui import _ends
    from devicesworld.devices.linux.sandbox import truncate

    text = "".join(f"line {i}\n" for i in range(5000))
    shown, cut = truncate(text, 8000)
    assert cut and len(shown) < 8300 and CUT_PREFIX in shown and "sed -n" in shown
    assert shown.startswith("line 0\n") and shown.endswith("line 4999\n")
    desktop = _ends(text, 8000)
    assert CUT_PREFIX in desktop and "of " + f"{len(text):,}" in desktop and "grep" in desktop
    assert truncate("short")[0] == "short" and _ends("short", 10) == "short"


def test_a_tree_walk_that_stopped_early_says_so_and_what_to_do() -> None:
    from devicesworld.devices.listing import tree_cut

    note = tree_cut("node cap")
    assert note.startswith(CUT_PREFIX) and "node cap" in note and "observe again" in note
