"""The numbered element list an agent sees, and selectors resolved against it.

Why a filtered list rather than the raw tree: an agent acts on what it can point at, so
each element carries role, name, text/value, states and a screen box, and pure layout
containers (unnamed fillers, panels and scroll panes with no text) are dropped — they
were a third of a GTK tree and carry nothing to click. Indices are positions in this
list; they are only valid for the observation that produced them.

A selector (``{"role": "push button", "name": "Save"}``) finds an element by what it
is; reference solutions use selectors so they replay whatever the indices are, and the
oracle turns each into an index against the observation it was given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from devicesworld.devices.desktop.actions import Selector
from devicesworld.devices.desktop.messages import Node
from devicesworld.devices.listing import cut_note

_LAYOUT_ROLES = frozenset(
    {"filler", "panel", "scroll pane", "viewport", "layered pane", "split pane", "unknown"}
)
_KEEP_STATES = frozenset(
    {
        "focused",
        "selected",
        "checked",
        "pressed",
        "expanded",
        "editable",
        "active",
        "sensitive",
        "indeterminate",
    }
)
MAX_TEXT = 300
"""Characters of an element's text shown in the list; a longer text ends in a cut note naming
``read_element``, which reads the full text the session keeps (:func:`element_texts`)."""


def shown_text(index: int, text: str, full_len: int | None = None) -> str:
    """An element's text as listed: whole, or its first :data:`MAX_TEXT` characters and a cut note."""
    total = max(full_len or 0, len(text))
    if total <= MAX_TEXT:
        return text
    how = f'read_element {{"index": {index}, "offset": {MAX_TEXT}}} reads on'
    return text[:MAX_TEXT] + "…" + cut_note(f"{total - MAX_TEXT:,} of {total:,} chars not shown", how)


def listed(nodes: Sequence[Node]) -> list[Node]:
    """The nodes that become elements (layout containers without text are dropped)."""
    return [n for n in nodes if not (n.role in _LAYOUT_ROLES and not n.name and not (n.text or "").strip())]


def element_texts(nodes: Sequence[Node]) -> list[str]:
    """Each element's whole text as the walk shipped it (what ``read_element`` reads), by index."""
    return [n.text or n.name or "" for n in listed(nodes)]


def element_list(nodes: Sequence[Node], *, whole_texts: bool = False) -> list[dict[str, Any]]:
    """Nodes of a tree walk as the agent's numbered elements (index = position); texts cut at
    :data:`MAX_TEXT` with a note, or, for checks (``whole_texts``), as the walk read them."""
    out: list[dict[str, Any]] = []
    for node in listed(nodes):
        el: dict[str, Any] = {"index": len(out), "role": node.role, "name": node.name}
        if node.text:
            el["text"] = node.text if whole_texts else shown_text(len(out), node.text, node.text_len)
        if node.value is not None:
            el["value"] = node.value
        states = sorted(s for s in node.states if s in _KEEP_STATES)
        if "sensitive" in states:
            states.remove("sensitive")
        elif node.role not in ("frame", "window", "dialog", "label", "static", "text", "table cell"):
            states.append("disabled")
        el["states"] = states
        if node.box is not None:
            el["box"] = list(node.box)
        el["app"] = node.app
        el["window"] = node.window
        out.append(el)
    return out


def matches(el: Mapping[str, Any], sel: Selector) -> bool:
    if sel.role is not None and el.get("role") != sel.role:
        return False
    if sel.name is not None and (el.get("name") or "").strip() != sel.name:
        return False
    if sel.name_contains is not None and sel.name_contains not in (el.get("name") or ""):
        return False
    if sel.text_contains is not None and sel.text_contains not in (el.get("text") or ""):
        return False
    if sel.window is not None and sel.window not in (el.get("window") or ""):
        return False
    return not (sel.app is not None and el.get("app") != sel.app)


def resolve(sel: Selector | Mapping[str, Any], elements: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the ``nth`` element matching ``sel`` that has a box, or ``None``."""
    s = sel if isinstance(sel, Selector) else Selector.model_validate(dict(sel))
    found = [el for el in elements if el.get("box") and matches(el, s)]
    if len(found) <= s.nth:
        return None
    return int(found[s.nth]["index"])


def centre(el: Mapping[str, Any]) -> tuple[int, int] | None:
    box = el.get("box")
    if not box:
        return None
    x, y, w, h = box
    return int(x + max(w, 1) // 2), int(y + max(h, 1) // 2)


def resolve_step_selectors(args: Mapping[str, Any], elements: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``args`` with every selector under ``element``/``from_element`` replaced by its index.

    A selector that matches nothing is left as it is: the device then reports it, as a
    failed step, with what it was looking for.
    """
    out = dict(args)
    for key in ("element", "from_element"):
        value = out.get(key)
        if isinstance(value, Mapping):
            try:
                index = resolve(value, elements)
            except ValueError:
                continue
            if index is not None:
                out[key] = index
    return out
