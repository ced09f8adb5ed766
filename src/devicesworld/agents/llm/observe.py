"""One device's observation as prompt text, within a budget, with nothing cut silently.

Why elements are lines and ordered: an element list as JSON spent most of a prompt on keys and
quotes, and a list cut at a fixed length dropped whatever came last — a desktop's Save dialog,
a web form's last fields. So every element becomes one short line (its index first: indices
stay the ones actions take), and the lines that matter now come first: elements of a dialog,
then those that changed since the agent's previous observation, then the focused window's,
then the rest in screen order. When the budget runs out, the note at the cut names the
indices left out and the call that lists them (``list_elements``); see
:mod:`devicesworld.devices.listing` for the cut-note wording every part of the product shares.

Nothing here names a device kind: the renderer reads the shapes devices publish (a
``screen_text`` string with one ``[i] ...`` line per element, or an ``elements`` list of
dicts with ``index``/``role``/``name``/``text``/``states``/``box``/``window``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from devicesworld.devices.listing import clip, cut_note, index_ranges

OBSERVATION_CHARS = 6000
"""Characters of one device's observation in a prompt."""

DIALOG_ROLES = frozenset({"dialog", "alert", "file chooser", "#32770"})
"""Element roles that mark their window as a dialog (AT-SPI roles; Win32's dialog class)."""

WINDOW_HEADINGS = ("dialog ", "focused window ")
"""Group headings that already name the window of their elements."""

NOTE_CHARS = 300
"""The most characters of index ranges a cut note lists (then "…"; list_elements finds the rest)."""

_INDEX = re.compile(r"^\[(\d+)\] ")


def element_line(el: dict[str, Any]) -> str:
    """``[i] role 'name' text='...' value=v (states) @x,y,w,h``: one element, short."""
    parts = [f"[{el.get('index')}] {el.get('role', '')}"]
    if el.get("name"):
        parts.append(repr(el["name"]))
    if el.get("text") and el.get("text") != el.get("name"):
        parts.append(f"text={el['text']!r}")
    if el.get("value") is not None:
        parts.append(f"value={el['value']}")
    if el.get("states"):
        parts.append("(" + ", ".join(str(s) for s in el["states"]) + ")")
    if el.get("box"):
        parts.append("@" + ",".join(str(v) for v in el["box"]))
    return " ".join(parts)


def _signature(line: str) -> str:
    """A line without its index: the same element content at another index is not a change."""
    return _INDEX.sub("", line)


def _window_groups(view: dict[str, Any], elements: list[dict[str, Any]]) -> tuple[set[str], str | None]:
    dialogs = {
        str(el.get("window") or "") for el in elements if str(el.get("role", "")).lower() in DIALOG_ROLES
    }
    focused = view.get("focused_window")
    title = focused.get("title") if isinstance(focused, dict) else None
    return {d for d in dialogs if d}, title if isinstance(title, str) and title else None


def _ordered(
    lines: list[tuple[int, str, str]], first: list[tuple[str, set[int]]]
) -> list[tuple[str, list[tuple[int, str]]]]:
    """Lines in groups: each ``(heading, indices)`` of ``first`` in turn, then the rest."""
    used: set[int] = set()
    groups: list[tuple[str, list[tuple[int, str]]]] = []
    for heading, wanted in first:
        chosen = [(i, text) for i, text, _ in lines if i in wanted and i not in used]
        if chosen:
            used.update(i for i, _ in chosen)
            groups.append((heading, chosen))
    rest = [(i, text) for i, text, _ in lines if i not in used]
    if rest:
        groups.append(("other elements, in screen order" if groups else "", rest))
    return groups


def render_lines(
    device_id: str,
    head: str,
    lines: list[tuple[int, str, str]],
    first: list[tuple[str, set[int]]],
    limit: int,
    window_of: dict[int, str] | None = None,
) -> str:
    """``head`` then the element lines, priority groups first, cut at ``limit`` with a note;
    with ``window_of``, a ``(window 'X')`` line wherever the window changes within a group."""
    out = [head]
    size = len(head)
    left_out: list[int] = []
    reserve = NOTE_CHARS + 120  # room for the cut note
    windows = window_of or {}
    for heading, group in _ordered(lines, first):
        if heading and not left_out:
            out.append(f"({heading})")
            size += len(heading) + 3
        shown_window = windows.get(group[0][0]) if heading.startswith(WINDOW_HEADINGS) else None
        for i, text in group:
            window = windows.get(i)
            marker = f"(window {window!r})" if window and window != shown_window else ""
            if left_out or size + len(text) + len(marker) + 2 > limit - reserve:
                left_out.append(i)
                continue
            if marker:
                out.append(marker)
                size += len(marker) + 1
                shown_window = window
            out.append(text)
            size += len(text) + 1
    if left_out:
        ranges = index_ranges(left_out)
        if len(ranges) > NOTE_CHARS:
            ranges = ranges[: ranges.rfind(", ", 0, NOTE_CHARS)] + ", …"
        out.append(
            cut_note(
                f"{len(left_out)} elements not shown: {ranges}",
                f'{device_id} list_elements {{"start": {min(left_out)}}} lists them (filters: contains, role)',
            )
        )
    return "\n".join(out)


def render_device(
    device_id: str,
    view: dict[str, Any],
    previous: dict[str, Any] | None = None,
    limit: int = OBSERVATION_CHARS,
) -> str:
    """One device's observation as text within ``limit`` characters."""
    shown = {k: v for k, v in view.items() if not k.startswith("_")}
    screen = shown.pop("screen_text", None)
    elements = shown.get("elements")
    before = previous or {}
    shown.pop("kind", None)  # the prompt's device line names each device's kind
    for key in [k for k, v in shown.items() if v is None or v == [] or v == {}]:
        del shown[key]  # an absent field says the same as an empty one
    if isinstance(screen, str):
        shown.pop("ui_elements", None)
        raw = screen.splitlines()
        top = raw[0] if raw else ""
        for key in [k for k, v in shown.items() if isinstance(v, str) and len(v) >= 8 and v in top]:
            del shown[key]  # the screen's header line already shows it
        head = _dumps(shown) + "\nscreen:\n" + (raw[0] if raw and not _INDEX.match(raw[0]) else "")
        body = raw[1:] if raw and not _INDEX.match(raw[0]) else raw
        lines: list[tuple[int, str, str]] = []
        tail: list[str] = []
        for text in body:
            m = _INDEX.match(text)
            if m:
                lines.append((int(m.group(1)), text, _signature(text)))
            else:
                tail.append(text)
        old = before.get("screen_text")
        changed = _changed(lines, old.splitlines() if isinstance(old, str) else None)
        first = [("changed since your last look", changed)] if changed else []
        text = render_lines(device_id, head.rstrip("\n"), lines, first, limit - sum(len(t) + 1 for t in tail))
        return "\n".join([text, *tail])
    if isinstance(elements, list) and all(isinstance(e, dict) for e in elements):
        shown.pop("elements", None)
        lines = []
        window_of: dict[int, str] = {}
        for pos, el in enumerate(elements):
            index = el.get("index", pos)
            index = index if isinstance(index, int) else pos
            text = element_line(el)
            lines.append((index, text, _signature(text)))
            window_of[index] = str(el.get("window") or "")
        dialogs, focused = _window_groups(shown, elements)
        old_elements = before.get("elements")
        old_lines = (
            [element_line(e) for e in old_elements if isinstance(e, dict)]
            if isinstance(old_elements, list)
            else None
        )
        first = []
        for title in sorted(dialogs):
            first.append((f"dialog {title!r}", {i for i, w in window_of.items() if w == title}))
        changed = _changed(lines, old_lines)
        if changed:
            first.append(("changed since your last look", changed))
        if focused:
            first.append(
                (f"focused window {focused!r}", {i for i, w in window_of.items() if w and w in focused})
            )
        head = _dumps(shown) + f"\nelements ({len(lines)}):"
        return render_lines(device_id, head, lines, first, limit, window_of)
    return clip(
        _dumps(shown),
        limit,
        f"ask {device_id} for less at a time (its listing and reading actions take pages and filters)",
    )


def _changed(lines: list[tuple[int, str, str]], old: list[str] | None) -> set[int]:
    """Indices whose line is new since the previous observation (none on the first look, and
    none when everything is new: then screen order is the best order)."""
    if old is None:
        return set()
    before = {_signature(t) for t in old}
    new = {i for i, _, sig in lines if sig not in before}
    return set() if len(new) == len(lines) else new


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
