"""The GUI action space (JarvisGUI's unified space) as data, shared by every desktop kind.

Why one declaration for all kinds: an agent that learned ``click``/``type_text``/``hotkey``
on one desktop uses them unchanged on another; only ``launch_app``'s list of apps
differs, so :func:`gui_action_table` takes the kind's app names and publishes them as an
enum in the JSON Schema.

Targets: a pointer action names either a point (``x``, ``y``, screen pixels) or an
``element`` of the last observation's numbered element list. ``element`` may also be a
*selector* ``{"role": ..., "name": ..., "text": ..., "nth": ...}``, resolved against the
current element list when the step runs (:mod:`.selectors`); reference solutions are
written that way and the oracle resolves them to indices before sending, so a replay
logs plain indices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, Protocol, Self, cast

from pydantic import Field, model_validator
from pydantic.config import JsonDict

from devicesworld.devices.base import ActionResult, ActionSpec, Args
from devicesworld.devices.declare import ActionTable
from devicesworld.devices.listing import LIST_DOC, READ_DOC, ListElementsArgs, ReadElementArgs

Button = Literal["left", "right", "middle"]


class Selector(Args):
    """An element of the current observation by what it is, not by its number."""

    role: str | None = Field(None, description="As listed, e.g. 'push button'.")
    name: str | None = Field(None, description="Exact name.")
    name_contains: str | None = None
    text_contains: str | None = None
    app: str | None = Field(None, description="Its application.")
    window: str | None = Field(None, description="Part of its window's title.")
    nth: int = Field(0, ge=0, description="Which match, in list order (0: the first).")


ElementRef = int | Selector


def _one_point(x: int | None, y: int | None, element: ElementRef | None, prefix: str = "") -> None:
    """A point is given by both coordinates or by an element, not both (the target of an action
    and the start of a drag alike); the fields are named ``<prefix>x``, ``<prefix>y``, ``<prefix>element``."""
    xn, yn, en = f"{prefix}x", f"{prefix}y", f"{prefix}element"
    if (x is None) != (y is None):
        raise ValueError(f"give both {xn} and {yn}, or neither")
    if x is not None and element is not None:
        raise ValueError(f"give {xn}/{yn} or {en}, not both")


class Target(Args):
    """A point on the screen or an element (index of the last observation, or a selector)."""

    x: int | None = Field(None, ge=0, le=10_000, description="Screen x in pixels (with y).")
    y: int | None = Field(None, ge=0, le=10_000, description="Screen y in pixels (with x).")
    element: ElementRef | None = Field(None, description="An element's index (its box's centre), or x/y.")

    @model_validator(mode="after")
    def _one_target(self) -> Self:
        _one_point(self.x, self.y, self.element)
        return self

    @property
    def has_target(self) -> bool:
        return self.x is not None or self.element is not None


class NeedTarget(Target):
    @model_validator(mode="after")
    def _needs(self) -> Self:
        if not self.has_target:
            raise ValueError("give x and y, or element")
        return self


class ClickArgs(NeedTarget):
    button: Button = "left"
    clicks: int = Field(1, ge=1, le=3, description="2 for a double click, 3 for a triple click.")


class PointArgs(NeedTarget):
    pass


class ButtonArgs(Target):
    button: Button = "left"


class DragArgs(NeedTarget):
    """Drag to the target; from ``from_x``/``from_y`` or ``from_element`` when given, else from the pointer."""

    from_x: int | None = Field(None, ge=0, le=10_000)
    from_y: int | None = Field(None, ge=0, le=10_000)
    from_element: ElementRef | None = None
    button: Button = "left"

    @model_validator(mode="after")
    def _from(self) -> Self:
        _one_point(self.from_x, self.from_y, self.from_element, prefix="from_")
        return self


class ScrollArgs(Target):
    dy: int = Field(0, ge=-50, le=50, description="Wheel notches down (negative: up).")
    dx: int = Field(0, ge=-50, le=50, description="Wheel notches right (negative: left).")

    @model_validator(mode="after")
    def _some(self) -> Self:
        if self.dx == 0 and self.dy == 0:
            raise ValueError("scroll needs a non-zero dx or dy")
        return self


class TypeTextArgs(Args):
    text: str = Field(min_length=1, max_length=20_000, description="Any Unicode text; '\\n' presses Enter.")


class KeyArgs(Args):
    key: str = Field(
        min_length=1, max_length=40, description="A key: 'ctrl', 'shift', 'alt', 'enter', 'a', 'F2', 'Left'."
    )


class HotkeyArgs(Args):
    keys: list[str] = Field(
        min_length=1, max_length=6, description="Pressed in order and released in reverse: ['ctrl', 's']."
    )


class WaitArgs(Args):
    seconds: float = Field(1.0, ge=0, le=30, description="The desktop keeps running meanwhile.")


class LaunchAppArgs(Args):
    app: str = Field(description="One of the desktop's apps.")
    path: str | None = Field(None, description="A file or folder to open, e.g. '~/report.docx'.")


class RunCommandArgs(Args):
    command: str = Field(min_length=1, max_length=20_000, description="A bash command line (the terminal).")
    timeout_s: float = Field(30.0, gt=0, le=300)


def launch_args_model(apps: list[str]) -> type[LaunchAppArgs]:
    """``LaunchAppArgs`` whose JSON Schema lists ``apps`` (validation against them is the device's)."""
    enum = list(apps)

    class LaunchApp(LaunchAppArgs):
        app: str = Field(
            description="One of: " + ", ".join(enum) + ".", json_schema_extra=cast(JsonDict, {"enum": enum})
        )

    LaunchApp.__name__ = "LaunchAppArgs"
    return LaunchApp


class GuiActor(Protocol):
    """A device whose GUI session runs the shared actions: every GUI action's handler calls this."""

    def gui_act(self, action: str, args: Args) -> ActionResult: ...


_GUI_DOCS: tuple[tuple[str, str, type[Args]], ...] = (
    ("move_to", "Move the mouse pointer to x/y or an element.", PointArgs),
    ("click", "Click at x/y or on an element.", ClickArgs),
    ("double_click", "Double-click at x/y or on an element.", PointArgs),
    ("right_click", "Right-click at x/y or on an element (context menu).", PointArgs),
    ("mouse_down", "Press and hold a mouse button, at x/y or an element if given.", ButtonArgs),
    ("mouse_up", "Release a mouse button, at x/y or an element if given.", ButtonArgs),
    (
        "drag_to",
        "Drag, button held, from from_x/from_y or from_element (else the pointer) to x/y or an element.",
        DragArgs,
    ),
    ("scroll", "Turn the mouse wheel, at x/y or an element if given.", ScrollArgs),
    ("type_text", "Type text into the focused element.", TypeTextArgs),
    ("key_down", "Press and hold one key.", KeyArgs),
    ("key_up", "Release a held key.", KeyArgs),
    ("hotkey", "Press a key combination.", HotkeyArgs),
    ("wait", "Wait for the desktop to catch up.", WaitArgs),
    # the ways to the rest of a cut element text or element list (devices/listing.py)
    ("read_element", READ_DOC, ReadElementArgs),
    ("list_elements", LIST_DOC, ListElementsArgs),
)

GUI_ACTION_NAMES = (*(name for name, _, _ in _GUI_DOCS), "launch_app")
"""The GUI-only space (``desktop: gui``): pointer, keyboard, wait and the ``launch_app`` convenience."""

SHELL_ACTION = "run_command"
"""The one action a ``hybrid`` desktop adds: a shell next to the GUI (the paper's Linux setting)."""

HYBRID_ACTION_NAMES = (*GUI_ACTION_NAMES, SHELL_ACTION)


def _forward(action: str) -> Callable[[GuiActor, Args], ActionResult]:
    """The handler of one GUI action: the device's session runs it by name."""

    def handler(device: GuiActor, args: Args) -> ActionResult:
        return device.gui_act(action, args)

    handler.__name__ = f"gui_{action}"
    return handler


def gui_action_table(owner: str, apps: list[str], *, shell_doc: str | None = None) -> ActionTable[GuiActor]:
    """The unified GUI action space of a desktop kind whose ``launch_app`` opens ``apps``.

    One :class:`~devicesworld.devices.declare.ActionTable` per kind and profile (its owner
    names the kind in messages); every handler forwards to the device's
    :meth:`GuiActor.gui_act`, since the GUI session, not the device class, knows how to
    click and type. Without ``shell_doc`` the table is GUI-only (``desktop: gui``: the
    terminal is an app whose window is typed into); with it, ``run_command`` is added
    under that doc (``desktop: hybrid``).
    """
    table: ActionTable[GuiActor] = ActionTable(owner)
    for name, doc, model in _GUI_DOCS:
        table.register(name, doc=doc, args=model)(_forward(name))
    table.register(
        "launch_app",
        doc="Open an app, on a file or folder if given (a convenience: a person would use the menu or icons).",
        args=launch_args_model(apps),
    )(_forward("launch_app"))
    if shell_doc is not None:
        table.register(SHELL_ACTION, doc=shell_doc, args=RunCommandArgs)(_forward(SHELL_ACTION))
    return table


def actions_by_desktop(
    default: Mapping[str, ActionSpec], **tables: Mapping[str, ActionSpec]
) -> Callable[[Mapping[str, Any]], Mapping[str, ActionSpec]]:
    """A desktop kind's ``profile_actions``: the action table named by the profile's ``desktop``
    (``gui``, ``hybrid``, ...), ``default`` for a profile that names none of them."""

    def profile_actions(profile: Mapping[str, Any]) -> Mapping[str, ActionSpec]:
        return tables.get(str(profile.get("desktop")), default)

    return profile_actions
