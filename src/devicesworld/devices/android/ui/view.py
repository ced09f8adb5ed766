"""The view tree: what an app screen is made of, rebuilt from state after every action.

Screens are built immediate-mode: each app turns its state (SQLite rows, the
screen's own field values) into a fresh tree of :class:`View` nodes. Event handlers
are plain closures over that state, so a tap runs the same code a person's tap would
and nothing can drift between what is shown and what is stored. Layout
(:mod:`layout`) then gives every node a rectangle; the accessibility-style element
list and the screenshot are both read from the laid-out tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

Handler = Callable[[], Any]
"""A tap handler. It may return a string: a note for the agent's feedback (rarely used)."""

TEXT = "android.widget.TextView"
BUTTON = "android.widget.Button"
IMAGE_BUTTON = "android.widget.ImageButton"
EDIT = "android.widget.EditText"
SWITCH = "android.widget.Switch"
CHECKBOX = "android.widget.CheckBox"
LIST = "androidx.recyclerview.widget.RecyclerView"
LINEAR = "android.widget.LinearLayout"
FRAME = "android.widget.FrameLayout"
IMAGE = "android.widget.ImageView"
SEEKBAR = "android.widget.SeekBar"
NUMBER_PICKER = "android.widget.NumberPicker"
TOAST = "android.widget.Toast"


@dataclass(eq=False)
class View:
    """One node. Sizes are in dp; :mod:`layout` turns them into pixels for the profile.

    ``height`` is a fixed height for leaves and rows; ``fill`` makes a node of a column
    take the space its siblings leave (at most one per column); ``weight`` splits a
    row's width. ``scroll_key`` makes a column a scrolling list whose offset lives in
    the owning screen's state under that key. ``field`` names the screen-state key of
    an editable text field.
    """

    class_name: str = LINEAR
    text: str = ""
    content_description: str = ""
    hint_text: str = ""
    resource_id: str = ""
    children: list[View] = field(default_factory=list)
    horizontal: bool = False
    height: float = 0.0
    fill: bool = False
    weight: float = 1.0
    on_click: Handler | None = None
    on_long_click: Handler | None = None
    on_enter: Handler | None = None
    on_tap_at: Callable[[float], Any] | None = None
    """For sliders: called with the tap's position along the node (0..1, in reading direction)."""
    value: float | None = None
    on_spin: Callable[[int], Any] | None = None
    """For wheels (a NumberPicker): turned ``n`` steps, up the values for ``n > 0``; scrolling or
    swiping on the wheel calls it."""
    on_page: Callable[[int], Any] | None = None
    """Pages sideways (calendar months): called with +1 for the next page, -1 for the previous one."""
    """A slider's position 0..1 (rendered as the thumb)."""
    editable: bool = False
    field: str | None = None
    multiline: bool = False
    checkable: bool = False
    checked: bool = False
    selected: bool = False
    enabled: bool = True
    scroll_key: str | None = None
    scroll_state: dict[str, Any] | None = None
    """The dict that holds this list's scroll offset (the owning screen's state)."""
    style: str = ""
    """A rendering hint: ``title``, ``primary``, ``icon``, ``chip``, ``bubble_in``, ``bubble_out``, ``dim``..."""
    package: str = ""

    # filled by layout
    rect: tuple[int, int, int, int] = (0, 0, 0, 0)
    visible: bool = True
    can_scroll_up: bool = False
    can_scroll_down: bool = False
    page: int = 1
    """How many items fit in a scrolling list's viewport (set by layout)."""

    def walk(self) -> list[View]:
        out: list[View] = [self]
        for child in self.children:
            out += child.walk()
        return out


def text(value: str, *, rid: str = "", height: float = 40, style: str = "", desc: str = "") -> View:
    return View(TEXT, text=value, resource_id=rid, height=height, style=style, content_description=desc)


def button(
    label: str,
    on_click: Handler | None,
    *,
    rid: str = "",
    height: float = 48,
    enabled: bool = True,
    style: str = "",
    weight: float = 1.0,
) -> View:
    return View(
        BUTTON,
        text=label,
        resource_id=rid,
        height=height,
        on_click=on_click,
        enabled=enabled,
        style=style,
        weight=weight,
    )


def icon_button(
    desc: str, on_click: Handler | None, *, rid: str = "", weight: float = 1.0, enabled: bool = True
) -> View:
    return View(
        IMAGE_BUTTON,
        content_description=desc,
        resource_id=rid,
        height=48,
        on_click=on_click,
        weight=weight,
        enabled=enabled,
        style="icon",
    )


class EditOptions(TypedDict, total=False):
    """What a caller may set on an :func:`edit` field beyond its text, hint and id."""

    on_enter: Handler | None
    multiline: bool
    height: float
    weight: float


def edit(
    key: str,
    value: str,
    *,
    hint: str,
    rid: str = "",
    on_enter: Handler | None = None,
    multiline: bool = False,
    height: float = 56,
    weight: float = 1.0,
) -> View:
    return View(
        EDIT,
        text=value,
        hint_text=hint,
        resource_id=rid,
        height=height,
        editable=True,
        field=key,
        on_enter=on_enter,
        multiline=multiline,
        weight=weight,
    )


def dialog_buttons(
    cancel: str, on_cancel: Handler, answer: str = "", on_answer: Handler | None = None
) -> list[View]:
    """A dialog's buttons as Android's alert dialogs lay them out: the one that backs out
    (``android:id/button2``), then the answer (``android:id/button1``) when there is one."""
    out = [button(cancel, on_cancel, rid="android:id/button2")]
    if answer:
        out.append(button(answer, on_answer, rid="android:id/button1"))
    return out


def switch(label: str, checked: bool, on_click: Handler, *, rid: str = "", enabled: bool = True) -> View:
    return View(
        SWITCH,
        text=label,
        resource_id=rid,
        height=56,
        checkable=True,
        checked=checked,
        on_click=on_click,
        enabled=enabled,
    )


def checkbox(label: str, checked: bool, on_click: Handler, *, rid: str = "", weight: float = 1.0) -> View:
    return View(
        CHECKBOX,
        text=label,
        resource_id=rid,
        height=48,
        checkable=True,
        checked=checked,
        on_click=on_click,
        weight=weight,
    )


def slider(label: str, value: float, on_tap_at: Callable[[float], Any], *, rid: str = "") -> View:
    """A SeekBar: tapping at a point along it sets the value there (a tap by index hits the middle)."""
    return View(
        SEEKBAR,
        content_description=label,
        text=f"{round(value * 100)}%",
        resource_id=rid,
        height=56,
        on_tap_at=on_tap_at,
        value=value,
    )


def row(*children: View, height: float = 48, rid: str = "", on_click: Handler | None = None) -> View:
    return View(
        LINEAR, children=list(children), horizontal=True, height=height, resource_id=rid, on_click=on_click
    )


def column(*children: View, rid: str = "", fill: bool = False, height: float = 0.0) -> View:
    return View(LINEAR, children=list(children), resource_id=rid, fill=fill, height=height)


def scroll_list(
    key: str, items: list[View], state: dict[str, Any], *, rid: str = "", empty: str = ""
) -> View:
    """A vertically scrolling list that fills the free space; only what fits is visible.

    The offset (index of the first shown item) lives in ``state[key]``, so it survives
    rebuilds and going back to the screen, as on a phone.
    """
    if not items and empty:
        items = [text(empty, style="dim", height=56)]
    return View(LIST, children=items, resource_id=rid, fill=True, scroll_key=key, scroll_state=state)


def item(
    title: str,
    subtitle: str = "",
    *,
    on_click: Handler | None = None,
    on_long_click: Handler | None = None,
    rid: str = "",
    selected: bool = False,
    height: float = 0.0,
) -> View:
    """A two-line list row: a clickable container with a title and an optional subtitle."""
    kids = [text(title, rid=rid + "_title" if rid else "", height=28, style="item_title")]
    if subtitle:
        kids.append(text(subtitle, rid=rid + "_subtitle" if rid else "", height=24, style="dim"))
    return View(
        LINEAR,
        children=kids,
        resource_id=rid,
        height=height or (64 if subtitle else 52),
        on_click=on_click,
        on_long_click=on_long_click,
        selected=selected,
    )
