"""The screen as text: what ``devicesworld play`` prints and what text-only agents may read.

One line per listed element with its index, kind, text and state flags, indented by
nothing and ordered as in ``ui_elements``, under a header with the device, time,
foreground app and keyboard state.
"""

from __future__ import annotations

from devicesworld.devices.android.system.chrome import clock_text
from devicesworld.devices.android.system.phone import Phone
from devicesworld.devices.android.ui.view import View


def element_line(i: int, node: View, focused: bool) -> str:
    kind = node.class_name.rsplit(".", 1)[-1]
    parts = [f"[{i}] {kind}"]
    if not (node.text or node.content_description or node.hint_text) and node.resource_id:
        parts.append("#" + node.resource_id.rsplit("/", 1)[-1])
    if node.text:
        parts.append(repr(node.text) if not node.editable else f"text={node.text!r}")
    if node.content_description and node.content_description != node.text:
        parts.append(f"desc={node.content_description!r}")
    if node.editable and node.hint_text:
        parts.append(f"hint={node.hint_text!r}")
    flags = []
    if node.checkable:
        flags.append("on" if node.checked else "off")
    elif node.selected:
        flags.append("selected")
    if focused:
        flags.append("focused")
    if not node.enabled:
        flags.append("disabled")
    if node.scroll_key is not None:
        if node.can_scroll_up:
            flags.append("more above")
        if node.can_scroll_down:
            flags.append("more below")
    if flags:
        parts.append("(" + ", ".join(flags) + ")")
    return " ".join(parts)


def screen_text(phone: Phone, device_name: str) -> str:
    header = f"{device_name} · {clock_text(phone)} · {phone.foreground_activity}"
    lines = [header]
    for i, node in enumerate(phone.elements):
        lines.append(element_line(i, node, phone.is_focused(node)))
    if phone.keyboard:
        lines.append("(keyboard is up)")
    return "\n".join(lines)
