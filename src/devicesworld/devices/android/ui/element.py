"""The element list an agent sees: AndroidWorld's ``UIElement`` fields, read from the laid-out tree.

Only visible nodes that carry something (text, a description, a resource id, or an
interaction) are listed, in drawing order, and their list position is the index
that ``click``/``input_text``/``scroll`` refer to. ``bbox_pixels`` is in screen
pixels; ``bbox`` is the same box normalised to 0..1 of the screen, the coordinates
B-MoCA's dual gesture uses.
"""

from __future__ import annotations

from typing import Any

from devicesworld.devices.android.ui.view import View


def is_listed(node: View) -> bool:
    if not node.visible:
        return False
    return bool(
        node.text
        or node.content_description
        or node.resource_id
        or node.on_click
        or node.on_tap_at
        or node.editable
        or node.scroll_key
        or node.hint_text
    )


def listed_nodes(root: View) -> list[View]:
    return [n for n in root.walk() if is_listed(n)]


def to_element(node: View, width: int, height: int, focused: bool) -> dict[str, Any]:
    x0, y0, x1, y1 = node.rect
    return {
        "text": node.text or None,
        "content_description": node.content_description or None,
        "class_name": node.class_name,
        "bbox": {
            "x_min": round(x0 / width, 4),
            "y_min": round(y0 / height, 4),
            "x_max": round(x1 / width, 4),
            "y_max": round(y1 / height, 4),
        },
        "bbox_pixels": {"x_min": x0, "y_min": y0, "x_max": x1, "y_max": y1},
        "hint_text": node.hint_text or None,
        "is_checked": node.checked,
        "is_checkable": node.checkable,
        "is_clickable": node.on_click is not None or node.editable or node.on_tap_at is not None,
        "is_editable": node.editable,
        "is_enabled": node.enabled,
        "is_focused": focused,
        "is_focusable": node.editable,
        "is_long_clickable": node.on_long_click is not None,
        "is_scrollable": (node.scroll_key is not None and (node.can_scroll_up or node.can_scroll_down))
        or node.on_page is not None,
        "is_selected": node.selected,
        "is_visible": True,
        "package_name": node.package or None,
        "resource_id": node.resource_id or None,
    }
