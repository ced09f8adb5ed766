"""Layout: dp sizes to pixel rectangles for one screen size and density, with clipping.

A deliberately small model of Android's measure/layout passes: columns stack their
children (one child may ``fill`` the rest), rows split their width by weight and
mirror in right-to-left languages, and scrolling lists show only the items that fit
entirely in their viewport. Everything is measured in dp and multiplied by the
profile's density (``dpi / 160``), so a Pixel 4 XL lays out the same screen with
bigger pixels than a Pixel 3, and a tablet shows more rows.
"""

from __future__ import annotations

from devicesworld.devices.android.ui.view import View

DEFAULT_LEAF_DP = 40.0


def measure(node: View) -> float:
    """The node's natural height in dp."""
    if node.height > 0:
        return node.height
    if not node.children:
        return DEFAULT_LEAF_DP
    if node.horizontal:
        return max(measure(c) for c in node.children)
    return sum(measure(c) for c in node.children)


def layout(root: View, x: int, y: int, w: int, h: int, density: float, rtl: bool) -> None:
    """Give every node of ``root`` a pixel rectangle inside ``(x, y, w, h)``."""
    _place(root, x, y, w, h, density, rtl)


def _hide(node: View) -> None:
    for n in node.walk():
        n.visible = False


def _place(node: View, x: int, y: int, w: int, h: int, d: float, rtl: bool) -> None:
    node.rect = (x, y, x + w, y + h)
    node.visible = True
    if not node.children:
        return
    if node.horizontal:
        total = sum(c.weight for c in node.children) or 1.0
        cursor = 0.0
        for child in node.children:
            cw = w * child.weight / total
            left = x + (w - cursor - cw if rtl else cursor)
            _place(child, round(left), y, round(cw), h, d, rtl)
            cursor += cw
        return
    if node.scroll_key is not None:
        _place_scrolling(node, x, y, w, h, d, rtl)
        return
    heights = [measure(c) * d for c in node.children]
    fill_idx = next((i for i, c in enumerate(node.children) if c.fill), None)
    if fill_idx is not None:
        rest = h - (sum(heights) - heights[fill_idx])
        heights[fill_idx] = max(rest, 0.0)
    cy = float(y)
    for child, ch in zip(node.children, heights, strict=True):
        if cy + ch > y + h + 0.5:  # does not fit on screen: not visible, as on a phone
            _hide(child)
            child.rect = (x, round(cy), x + w, round(cy + ch))
        else:
            _place(child, x, round(cy), w, round(ch), d, rtl)
        cy += ch


def _place_scrolling(node: View, x: int, y: int, w: int, h: int, d: float, rtl: bool) -> None:
    heights = [measure(c) * d for c in node.children]
    # the largest first index whose tail still fits decides how far one can scroll
    max_first, tail = len(heights), 0.0
    for i in range(len(heights) - 1, -1, -1):
        if tail + heights[i] > h + 0.5:
            break
        tail += heights[i]
        max_first = i
    max_first = min(max_first, max(len(heights) - 1, 0))
    state = node.scroll_state if node.scroll_state is not None else {}
    first = min(max(int(state.get(node.scroll_key or "", 0)), 0), max_first)
    state[node.scroll_key or ""] = first
    cy = float(y)
    shown = 0
    for i, (child, ch) in enumerate(zip(node.children, heights, strict=True)):
        if i < first or cy + ch > y + h + 0.5:
            _hide(child)
            continue
        _place(child, x, round(cy), w, round(ch), d, rtl)
        cy += ch
        shown += 1
    node.page = max(shown, 1)
    node.can_scroll_up = first > 0
    node.can_scroll_down = first + shown < len(node.children)
