"""AndroidWorld's ``UIElement`` list, read from our phone's laid-out view tree.

AndroidWorld's agents index into a list built from the accessibility forest: every
visible node that is a leaf, has a content description, or is scrollable. Clickable
containers (a list row holding a title and a subtitle) are therefore *not* listed;
their children are, and those children say ``is_clickable=False`` because on a real
device the touch goes to the row. Our native element list keeps such rows, so
indexes differ: this module builds AndroidWorld's list from the same tree, with
the same field names and meanings (``representation_utils.UIElement``):

* ``bbox_pixels`` is the node's screen rectangle; ``bbox`` the same normalised to
  0..1 of the screen (AndroidWorld fills it when it knows the screen size).
* ``resource_name`` is the view id resource name (``package:id/name``), which
  AndroidWorld reads from ``view_id_resource_name``; ``resource_id`` stays ``None``
  as in AndroidWorld's converter (SeeAct and others key on ``resource_name``).
* ``is_focusable`` is true for fields and for anything clickable, as Android's
  widgets are; ``tooltip`` and ``metadata`` are ``None``.

Leaves that carry nothing at all (spacers of our layout with no text, description,
id or handler) have no counterpart on a real screen and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from devicesworld.devices.android.system.phone import Phone
from devicesworld.devices.android.ui.element import is_listed
from devicesworld.devices.android.ui.view import View


@dataclass
class BoundingBox:
    """AndroidWorld's box: fields in its order (``x_min, x_max, y_min, y_max``)."""

    x_min: float | int
    x_max: float | int
    y_min: float | int
    y_max: float | int

    @property
    def center(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2.0, (self.y_min + self.y_max) / 2.0

    @property
    def width(self) -> float | int:
        return self.x_max - self.x_min

    @property
    def height(self) -> float | int:
        return self.y_max - self.y_min

    @property
    def area(self) -> float | int:
        return self.width * self.height


@dataclass
class UIElement:
    """One listed node, with exactly AndroidWorld's ``UIElement`` fields, in its order."""

    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox: BoundingBox | None = None
    bbox_pixels: BoundingBox | None = None
    hint_text: str | None = None
    is_checked: bool | None = None
    is_checkable: bool | None = None
    is_clickable: bool | None = None
    is_editable: bool | None = None
    is_enabled: bool | None = None
    is_focused: bool | None = None
    is_focusable: bool | None = None
    is_long_clickable: bool | None = None
    is_scrollable: bool | None = None
    is_selected: bool | None = None
    is_visible: bool | None = None
    package_name: str | None = None
    resource_name: str | None = None
    tooltip: str | None = None
    resource_id: str | None = None
    metadata: dict[str, object] | None = None


def _scrollable(node: View) -> bool:
    return (node.scroll_key is not None and (node.can_scroll_up or node.can_scroll_down)) or (
        node.on_page is not None
    )


def _kept(node: View) -> bool:
    """AndroidWorld's filter: a visible leaf, a node with a description, or a scrollable one."""
    if not node.visible:
        return False
    if node.children:
        return bool(node.content_description) or _scrollable(node)
    return is_listed(node)


def listed_views(phone: Phone) -> list[View]:
    """The nodes AndroidWorld would list, in drawing order (what a modal dialog hides is left out)."""
    layers = list(phone.root.children)
    if phone.dialog_view is not None and len(layers) > 1:
        layers[1] = phone.dialog_view
    return [n for layer in layers for n in layer.walk() if _kept(n)]


def to_ui_element(phone: Phone, node: View) -> UIElement:
    x0, y0, x1, y1 = node.rect
    w, h = phone.width, phone.height
    clickable = node.on_click is not None or node.editable or node.on_tap_at is not None
    return UIElement(
        text=node.text or None,
        content_description=node.content_description or None,
        class_name=node.class_name or None,
        bbox=BoundingBox(x0 / w, x1 / w, y0 / h, y1 / h),
        bbox_pixels=BoundingBox(x0, x1, y0, y1),
        hint_text=node.hint_text or None,
        is_checked=node.checked,
        is_checkable=node.checkable,
        is_clickable=clickable,
        is_editable=node.editable,
        is_enabled=node.enabled,
        is_focused=phone.is_focused(node),
        is_focusable=node.editable or clickable,
        is_long_clickable=node.on_long_click is not None,
        is_scrollable=_scrollable(node),
        is_selected=node.selected,
        is_visible=True,
        package_name=node.package or None,
        resource_name=node.resource_id or None,
        tooltip=None,
        resource_id=None,
        metadata=None,
    )


__all__ = ["BoundingBox", "UIElement", "listed_views", "to_ui_element"]
