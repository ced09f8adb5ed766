"""The Windows element list: the helper's HWND tree turned into numbered, visible elements.

Why a list of its own: Wine has no AT-SPI and no MSAA, so the only structure is the
Win32 window tree that ``wintree.exe`` prints (class, text, screen rectangle, states,
and list-view items). This module validates that JSON (pydantic, so a garbled dump is
a clear error), keeps what an agent can see — visible windows with a non-empty box on
the screen whose centre is not covered by a window above them in Z order — and numbers
the result in tree order. List-view items become ``ListItem`` elements and toolbar
buttons ``ToolbarButton`` elements (no name: a toolbar button's name is its tooltip,
which only the app can give; ``checked`` says a toggle such as Bold is on). The fields follow the GUI element contract: ``role`` (the
Win32 class, ``ListItem`` for a list-view item), ``name`` (the window text), ``text``
(an edit control's content), ``box`` and ``states``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

TEXT_CLASSES = frozenset({"edit", "richedit20w", "richedit20a", "richedit50w", "richedit"})
"""Classes whose window text is their editable content."""


class TreeError(Exception):
    """The helper's output could not be read."""


class RawItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    k: str = "list"
    """``list`` (a list-view item) or ``button`` (a toolbar button)."""
    id: int = 0
    text: str = ""
    r: tuple[int, int, int, int]
    sel: int = 0
    en: int = 1


class RawNode(BaseModel):
    model_config = ConfigDict(extra="ignore")

    h: int
    p: int = 0
    d: int = 0
    pid: int = 0
    cls: str = ""
    text: str = ""
    r: tuple[int, int, int, int]
    vis: int = 1
    en: int = 1
    chk: int = -1
    mod: int = -1
    """A document control's modification flag (1 changed since opened or saved, 0 not, -1 no flag)."""
    con: str | None = None
    """A console window's visible characters (its screen buffer's rows), or None for other windows."""
    items: list[RawItem] = Field(default_factory=list)


class RawTree(BaseModel):
    model_config = ConfigDict(extra="ignore")

    foreground: int = 0
    focus: int = 0
    windows: list[RawNode]
    truncated: int = 0


class Element(BaseModel):
    """One element the agent sees, numbered by ``index``."""

    model_config = ConfigDict(frozen=True)

    index: int
    role: str = Field(description="Win32 class (Edit, Button, SysListView32, ...) or ListItem.")
    name: str = Field("", description="Window text (a button's label, a window's title).")
    text: str | None = Field(None, description="Content of an edit control.")
    box: tuple[int, int, int, int] = Field(description="x, y, width, height in screen pixels.")
    states: list[str] = Field(default_factory=list)
    depth: int = 0
    window: int = Field(description="Handle of the top-level window the element belongs to.")
    hwnd: int = Field(0, description="The element's own window handle (0 for a list item).")

    @property
    def center(self) -> tuple[int, int]:
        x, y, w, h = self.box
        return x + w // 2, y + h // 2

    def line(self) -> str:
        """The element as one line of the observation: ``[3] Button "&Save" (402,380 75x23) focused``."""
        label = f'"{self.name}"' if self.name else ""
        if self.text is not None and self.text != self.name:
            shown = self.text if len(self.text) <= 200 else self.text[:200] + "…"
            label = (label + " " if label else "") + "text=" + json.dumps(shown, ensure_ascii=False)
        x, y, w, h = self.box
        states = " ".join(self.states)
        return f"[{self.index}] {self.role} {label} ({x},{y} {w}x{h}) {states}".replace("  ", " ").rstrip()


def parse(raw: str | bytes) -> RawTree:
    """Validate the helper's JSON; raises :class:`TreeError` with what was wrong."""
    try:
        return RawTree.model_validate(json.loads(raw))
    except (ValueError, ValidationError) as exc:
        raise TreeError(f"the element-tree helper printed unreadable output: {str(exc)[:300]}") from None


def _box(r: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    left, top, right, bottom = r
    return left, top, max(0, right - left), max(0, bottom - top)


def _inside(point: tuple[int, int], r: tuple[int, int, int, int]) -> bool:
    return r[0] <= point[0] < r[2] and r[1] <= point[1] < r[3]


def _center(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return box[0] + box[2] // 2, box[1] + box[3] // 2


def _on_screen(box: tuple[int, int, int, int], screen: tuple[int, int]) -> bool:
    x, y, w, h = box
    return w > 0 and h > 0 and x < screen[0] and y < screen[1] and x + w > 0 and y + h > 0


def elements(tree: RawTree, screen: tuple[int, int] = (1280, 800)) -> list[Element]:
    """The visible elements in tree order, numbered from 0."""
    tops: list[tuple[int, tuple[int, int, int, int]]] = []  # (hwnd, rect), Z order, top first
    top_of: dict[int, int] = {}
    out: list[Element] = []
    for node in tree.windows:
        top = node.h if node.p == 0 else top_of.get(node.p, node.p)
        top_of[node.h] = top
        if node.p == 0:
            tops.append((node.h, node.r))
    z = {h: i for i, (h, _) in enumerate(tops)}

    def covered(point: tuple[int, int], top: int) -> bool:
        mine = z.get(top, len(tops))
        return any(_inside(point, r) for h, r in tops[:mine])

    def add(
        role: str, name: str, text: str | None, box: Any, states: list[str], depth: int, top: int, h: int
    ) -> None:
        el = Element(
            index=len(out),
            role=role,
            name=name,
            text=text,
            box=box,
            states=states,
            depth=depth,
            window=top,
            hwnd=h,
        )
        if not _on_screen(el.box, screen) or covered(el.center, top):
            return
        out.append(el)

    for node in tree.windows:
        if not node.vis:
            continue
        top = top_of[node.h]
        states = ["visible"]
        if not node.en:
            states.append("disabled")
        if node.h == tree.focus:
            states.append("focused")
        if node.p == 0 and node.h == tree.foreground:
            states.append("active")
        if node.chk == 1:
            states.append("checked")
        elif node.chk == 0:
            states.append("unchecked")
        if node.mod >= 0:
            states.append("modified" if node.mod else "unmodified")
        editable = node.cls.lower() in TEXT_CLASSES
        # Whole texts: the session lists them cut with a note and read_element reads the rest.
        text = node.text if editable else node.con
        name = "" if editable else node.text
        if editable:
            states.append("editable")
        add(node.cls, name, text, _box(node.r), states, node.d, top, node.h)
        for item in node.items:
            if not _inside(_center(_box(item.r)), node.r):
                continue  # scrolled out of the list view
            if item.k == "button":
                item_states = [
                    "visible",
                    *(["checked"] if item.sel else []),
                    *([] if item.en else ["disabled"]),
                ]
                add("ToolbarButton", item.text, None, _box(item.r), item_states, node.d + 1, top, 0)
                continue
            item_states = ["visible", "selected"] if item.sel else ["visible"]
            add("ListItem", item.text, None, _box(item.r), item_states, node.d + 1, top, 0)
    return out
