"""Touch and keyboard input: what each agent action does to the phone, and when it fails.

Taps resolve to the innermost clickable node (a tap on a list row's title opens the
row), an editable field takes focus and raises the keyboard, and typed text goes
only to the focused field. What a person would see as "nothing happened" is a
failed :class:`ActionResult` here, with a message that says why: a tap on empty
space, an index the current screen does not have, typing with no focused field, a
disabled button.
"""

from __future__ import annotations

from typing import Literal

from devicesworld.devices.android.system.phone import Phone
from devicesworld.devices.android.ui.view import View
from devicesworld.devices.base import ActionResult

Direction = Literal["up", "down", "left", "right"]
EDGE = 0.04
TAP_DISTANCE = 0.04


def describe(node: View) -> str:
    label = node.text or node.content_description or node.hint_text or node.resource_id or ""
    short = node.class_name.rsplit(".", 1)[-1]
    return f"{short} {label!r}" if label else short


def element(phone: Phone, index: int) -> View | ActionResult:
    if 0 <= index < len(phone.elements):
        return phone.elements[index]
    return ActionResult.failure(
        "STALE_INDEX",
        f"the current screen has no element {index} (it has {len(phone.elements)}: 0..{len(phone.elements) - 1});"
        " read the latest observation",
    )


def hit(phone: Phone, x: float, y: float) -> View | ActionResult:
    """The topmost listed element at pixel ``(x, y)`` that reacts to touch."""
    if not (0 <= x < phone.width and 0 <= y < phone.height):
        return ActionResult.failure(
            "OUT_OF_SCREEN", f"({x:.0f}, {y:.0f}) is outside the {phone.width}x{phone.height} screen"
        )
    best: View | None = None
    for node in phone.elements:
        x0, y0, x1, y1 = node.rect
        if x0 <= x < x1 and y0 <= y < y1 and _reacts(phone, node):
            best = node  # later elements are drawn on top / nested deeper
    if best is None:
        return ActionResult.failure("NOTHING_THERE", f"nothing to tap at ({x:.0f}, {y:.0f})")
    return best


def _reacts(phone: Phone, node: View) -> bool:
    return any(
        n.on_click is not None or n.editable or n.on_tap_at is not None for n in phone.ancestors(node)[:3]
    )


def tap(phone: Phone, node: View, at: tuple[float, float] | None = None) -> ActionResult:
    if node.on_tap_at is not None and node.enabled:
        x0, _, x1, _ = node.rect
        frac = 0.5 if at is None or x1 <= x0 else min(max((at[0] - x0) / (x1 - x0), 0.0), 1.0)
        node.on_tap_at(1.0 - frac if phone.rtl else frac)
        return ActionResult.success(f"tapped {describe(node)} at {round(frac * 100)}% of its length")
    for target in phone.ancestors(node):
        if not target.enabled:
            return ActionResult.failure("DISABLED", f"{describe(target)} is disabled; nothing happened")
        if target.editable:
            phone.focus_field(phone.screen_state_for(target), target.field or "")
            return ActionResult.success(f"tapped {describe(target)}; it has focus and the keyboard is up")
        if target.on_click is not None:
            note = target.on_click()
            extra = f"; {note}" if isinstance(note, str) else ""
            return ActionResult.success(f"tapped {describe(target)}{extra}")
        if target.scroll_key is not None:
            break
    return ActionResult.failure("NOT_CLICKABLE", f"{describe(node)} is not clickable; nothing happened")


def long_press(phone: Phone, node: View) -> ActionResult:
    for target in phone.ancestors(node)[:3]:
        if target.on_long_click is not None:
            if not target.enabled:
                return ActionResult.failure("DISABLED", f"{describe(target)} is disabled")
            target.on_long_click()
            return ActionResult.success(f"long-pressed {describe(target)}")
    return ActionResult.failure("NOT_LONG_CLICKABLE", f"{describe(node)} does nothing on a long press")


def type_text(phone: Phone, text: str, clear: bool) -> ActionResult:
    if phone.focus is None:
        return ActionResult.failure(
            "NO_FOCUS", "no text field has focus; tap a field first (or pass its index to input_text)"
        )
    node = next((n for n in phone.elements if n.editable and n.field == phone.focus.key), None)
    multiline = node.multiline if node is not None else False
    if not multiline:
        text = text.replace("\n", " ")
    state, key = phone.focus.state, phone.focus.key
    state[key] = text if clear else str(state.get(key, "")) + text
    phone.keyboard = True
    return ActionResult.success(f"typed {text!r} into {describe(node) if node else key}")


def enter(phone: Phone) -> ActionResult:
    if phone.focus is None:
        return ActionResult.failure("NO_FOCUS", "no text field has focus; Enter did nothing")
    node = next((n for n in phone.elements if n.editable and n.field == phone.focus.key), None)
    if node is not None and node.on_enter is not None:
        node.on_enter()
        return ActionResult.success(f"pressed Enter in {describe(node)}")
    if node is not None and node.multiline:
        state = phone.focus.state
        state[phone.focus.key] = str(state.get(phone.focus.key, "")) + "\n"
        return ActionResult.success("new line")
    phone.keyboard = False
    return ActionResult.success("pressed Enter; the keyboard closed")


def _lists(phone: Phone) -> list[View]:
    top = phone.dialog_view if phone.dialog_view is not None else phone.root
    return [n for n in top.walk() if n.visible and n.scroll_key is not None]


def scroll(
    phone: Phone, direction: Direction, node: View | None = None, distance: float = 1.0
) -> ActionResult:
    """Scroll content ``direction`` (``down`` reveals what is below), as AndroidWorld's scroll.

    ``distance`` is the fraction of a page the content moves: 1 moves a page less one
    row (the last row stays in view, as a fling does), 0.5 the half page that
    AndroidWorld's drag from the list's centre to its edge moves.
    """
    if direction in ("left", "right"):
        top = phone.dialog_view if phone.dialog_view is not None else phone.root
        pagers = [n for n in top.walk() if n.visible and n.on_page is not None]
        if node is not None:
            pagers = [n for n in phone.ancestors(node) if n.on_page is not None] or pagers
        if not pagers:
            return ActionResult.failure("NOT_SCROLLABLE", "nothing on this screen scrolls sideways")
        step = 1 if (direction == "right") != phone.rtl else -1
        turn = pagers[0].on_page
        if turn is not None:
            turn(step)
        return ActionResult.success(f"scrolled {direction}")
    target: View | None = None
    wheel = next((n for n in phone.ancestors(node) if n.on_spin is not None), None) if node else None
    if wheel is not None and wheel.enabled and wheel.on_spin is not None:
        # a wheel's values run up the wheel: content moving down (scroll "up") brings the higher value
        # above into the centre; a fling turns it two values, a half page one
        steps = max(round(2 * distance), 1)
        note = wheel.on_spin(steps if direction == "up" else -steps)
        return ActionResult.success(f"scrolled {direction}" + (f"; {note}" if isinstance(note, str) else ""))
    if node is not None:
        target = next((n for n in phone.ancestors(node) if n.scroll_key is not None), None)
        if target is None:
            return ActionResult.failure("NOT_SCROLLABLE", f"{describe(node)} does not scroll")
    else:
        lists = _lists(phone)
        if not lists:
            return ActionResult.failure("NOT_SCROLLABLE", "nothing on this screen scrolls")
        target = next((n for n in lists if n.can_scroll_up or n.can_scroll_down), lists[0])
    state = target.scroll_state if target.scroll_state is not None else {}
    key = target.scroll_key or ""
    first = int(state.get(key, 0))
    step = max(round((target.page - 1) * distance), 1)
    if direction == "down":
        if not target.can_scroll_down:
            return ActionResult.success("already at the bottom of the list")
        state[key] = first + step
    else:
        if not target.can_scroll_up:
            return ActionResult.success("already at the top of the list")
        state[key] = max(first - step, 0)
    return ActionResult.success(f"scrolled {direction}")


def swipe(phone: Phone, finger: Direction, from_edge: bool, at: View | None = None) -> ActionResult:
    """A finger swipe: down from the top edge opens notifications; otherwise content scrolls against it."""
    if from_edge and finger == "down":
        phone.clear_focus()
        phone.overlay = "shade"
        return ActionResult.success("opened the notification shade")
    if from_edge and finger == "up":
        phone.home()
        return ActionResult.success("went home")
    opposite: dict[str, Direction] = {"up": "down", "down": "up", "left": "right", "right": "left"}
    if at is not None and not any(
        n.scroll_key is not None or n.on_spin is not None for n in phone.ancestors(at)
    ):
        at = None
    return scroll(phone, opposite[finger], at)


def gesture(phone: Phone, touch: tuple[float, float], lift: tuple[float, float]) -> ActionResult:
    """B-MoCA's dual gesture: normalised (y, x) touch and lift points; close points are a tap."""
    (ty, tx), (ly, lx) = touch, lift
    dy, dx = ly - ty, lx - tx
    if (dy * dy + dx * dx) ** 0.5 < TAP_DISTANCE:
        found = hit(phone, tx * phone.width, ty * phone.height)
        point = (tx * phone.width, ty * phone.height)
        return found if isinstance(found, ActionResult) else tap(phone, found, point)
    finger: Direction = (
        ("down" if dy > 0 else "up") if abs(dy) >= abs(dx) else ("right" if dx > 0 else "left")
    )
    under = hit(phone, tx * phone.width, ty * phone.height)
    return swipe(phone, finger, from_edge=ty < EDGE, at=under if isinstance(under, View) else None)
