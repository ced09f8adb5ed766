"""``AndroidWorldEnv``: our phone behind AndroidWorld's environment interface.

An agent written for AndroidWorld (T3A, M3A, SeeAct) drives a phone through
``reset()``, ``get_state()`` (``pixels``, ``ui_elements``) and
``execute_action(JSONAction)``. This class offers that interface over one phone of
a task, with AndroidWorld's semantics (see docs/android.md, "AndroidWorld
compatibility"):

* ``click``/``double_tap``/``long_press`` by ``index`` hit the element of the
  *current* screen's AndroidWorld list (re-read at execution, as AndroidWorld does);
* ``input_text`` taps the target first, types, then presses Enter, keeping any
  script (AndroidWorld's adb typing drops non-ASCII; we keep it);
* ``scroll`` moves content as AndroidWorld's drag from the centre to the edge does
  (``down`` reveals what is below, half a page); ``swipe`` uses AndroidWorld's
  convention (``down``/``up`` start at the top/bottom edge and move that way:
  notifications, home; ``left``/``right`` move the finger the *other* way);
* ``wait`` lets one second of virtual time pass (no real sleep);
* ``open_app`` accepts AndroidWorld's app names ("Simple SMS Messenger");
* ``answer`` is stored (``interaction_cache`` and the episode's answer that the
  ``answer_contains`` check reads); ``status`` ends the episode: ``complete`` is
  ``finish``, ``infeasible`` is ``report_infeasible`` with the action's ``text``,
  else the last answer, else a default reason;
* ``unknown`` (and actions AndroidWorld would fail, like an index off the screen)
  execute nothing but cost a step.

Every action is one counted step of a :class:`~devicesworld.compat.session.RecordedSession`,
recorded in ``steps.jsonl`` with the original action under ``agent_notes.androidworld``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devicesworld.compat.androidworld.actions import AWAction, parse_action
from devicesworld.compat.androidworld.apps import package_for
from devicesworld.compat.androidworld.controller import AdbController
from devicesworld.compat.androidworld.elements import UIElement, listed_views, to_ui_element
from devicesworld.compat.session import RecordedSession, SessionError
from devicesworld.devices.android.device import AndroidDevice
from devicesworld.devices.android.system.phone import Phone
from devicesworld.devices.android.ui.view import View
from devicesworld.devices.base import ActionResult
from devicesworld.spec.models import Task
from devicesworld.spec.records import EpisodeResult
from devicesworld.verify.evaluate import EvaluationResult

if TYPE_CHECKING:
    import numpy as np

WAIT_SECONDS = 1.0
"""AndroidWorld's ``wait`` sleeps one second."""
SCROLL_DISTANCE = 0.5
"""AndroidWorld's scroll drags from the centre of the element to its edge: half a page."""
DEFAULT_INFEASIBLE_REASON = "The agent reported the task infeasible without giving a reason."
SWIPES: dict[str, dict[str, Any]] = {
    "down": {"direction": "down", "from_edge": True},
    "up": {"direction": "up", "from_edge": True},
    "left": {"direction": "right"},
    "right": {"direction": "left"},
}
"""AndroidWorld swipe direction -> our finger swipe (its left/right move the finger the other way)."""


@dataclass(frozen=True)
class State:
    """AndroidWorld's ``State``: ``pixels`` (RGB, H x W x 3), ``forest``, ``ui_elements``, ``auxiliaries``.

    There is no accessibility forest behind our phone, so ``forest`` is ``None``;
    ``auxiliaries`` holds the foreground activity, the screen size and whether the
    keyboard is up.
    """

    pixels: np.ndarray[Any, Any] | None
    forest: Any
    ui_elements: list[UIElement]
    auxiliaries: dict[str, Any] = field(default_factory=dict)


def _pixels(phone: Phone) -> np.ndarray[Any, Any]:
    """The screen as AndroidWorld's ``pixels``: an RGB array, height x width x 3, uint8."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with the androidworld extra
        raise RuntimeError(
            "pixels need numpy: pip install 'devicesworld[androidworld]', or pass pixels=False"
        ) from None
    from devicesworld.devices.android.render import render

    image = render(phone)
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB"), dtype=np.uint8)


class AndroidWorldEnv:
    """AndroidWorld's ``AsyncEnv`` interface over one phone of a task (see the module docstring).

    ``task`` (with ``run_dir`` for a recorded run directory) or an existing ``session``;
    ``device`` picks the phone (default: the task's first). ``pixels=False`` skips
    rendering screenshots in ``get_state`` for text-only agents.
    """

    def __init__(
        self,
        task: Task | None = None,
        run_dir: Path | None = None,
        *,
        session: RecordedSession | None = None,
        device: str | None = None,
        seed: int = 0,
        agent: str = "androidworld",
        pixels: bool = True,
    ) -> None:
        if session is None:
            if task is None:
                raise ValueError("give a task (and optionally a run directory) or a RecordedSession")
            session = RecordedSession(task, run_dir, agent=agent, seed=seed)
        self.session = session
        phones = [d.id for d in session.task.devices if d.kind == "android"]
        if not phones:
            raise ValueError(f"task {session.task.id} has no android device")
        if device is not None and device not in phones:
            raise ValueError(
                f"task {session.task.id} has no phone {device!r}; its phones are {', '.join(phones)}"
            )
        self.device_id = device or phones[0]
        self.pixels = pixels
        self.interaction_cache = ""
        self.last_result: ActionResult | None = None
        self.controller = AdbController(self)
        """AndroidWorld's ``env.controller``: answers the adb calls agents make (see controller.py)."""

    def settle(self) -> None:
        """Send what the controller still holds (words typed through adb) as its step."""
        if self.session.started and not self.session.closed and not self.session.done:
            self.controller.flush()

    # ------------------------------------------------------------------ lifecycle
    def reset(self, go_home: bool = False) -> State:
        """Start the task (first call) and return the state; ``go_home`` later presses Home (a step)."""
        if not self.session.started:
            self.session.reset()
        elif go_home:
            self.settle()
            outcome = self.session.step(
                self._native("navigate_home"), notes={"androidworld": {"reset": {"go_home": True}}}
            )
            self.last_result = outcome.result
        self.interaction_cache = ""
        return self.get_state()

    def close(self) -> EpisodeResult:
        """Evaluate, record the result and close the phone; returns the episode's result."""
        self.settle()
        return self.session.close()

    def evaluate(self) -> EvaluationResult:
        return self.session.evaluate()

    @property
    def done(self) -> bool:
        return self.session.done

    # ---------------------------------------------------------------- observation
    def current_phone(self) -> Phone:
        """The phone as it is now (the task must be running)."""
        return self._phone()

    def _phone(self) -> Phone:
        if not self.session.started:
            raise SessionError("the environment has not started: call reset() first")
        if self.session.closed:
            raise SessionError(f"the episode of task {self.session.task.id} is closed")
        device = self.session.env.device(self.device_id)
        assert isinstance(device, AndroidDevice)
        return device.current_phone()

    def get_state(self, wait_to_stabilize: bool = False) -> State:
        """The current screen; ``wait_to_stabilize`` changes nothing (our screens are settled after each step)."""
        self.settle()
        phone = self._phone()
        elements = [to_ui_element(phone, n) for n in listed_views(phone)]
        pixels = _pixels(phone) if self.pixels else None
        return State(
            pixels=pixels,
            forest=None,
            ui_elements=elements,
            auxiliaries={
                "foreground_activity": phone.foreground_activity,
                "screen_size": (phone.width, phone.height),
                "keyboard_visible": phone.keyboard,
            },
        )

    @property
    def foreground_activity_name(self) -> str:
        return self._phone().foreground_activity

    @property
    def device_screen_size(self) -> tuple[int, int]:
        phone = self._phone()
        return phone.width, phone.height

    @property
    def logical_screen_size(self) -> tuple[int, int]:
        """(width, height) in the current orientation, as AndroidWorld's agents scale coordinates by."""
        return self.device_screen_size

    @property
    def orientation(self) -> int:
        """0: the screen is in its natural orientation (a landscape tablet profile is landscape by nature)."""
        return 0

    @property
    def physical_frame_boundary(self) -> tuple[int, int, int, int]:
        """The whole screen, in the same frame as ``pixels`` and the boxes (so agents convert nothing)."""
        width, height = self.device_screen_size
        return 0, 0, width, height

    def ask_question(self, question: str, timeout_seconds: float = -1.0) -> str | None:
        """AndroidWorld can ask the user; no user is here, so there is no reply."""
        return None

    def display_message(self, message: str, header: str = "") -> None:
        """AndroidWorld shows a banner on the device; nothing to show here."""

    def hide_automation_ui(self) -> None:
        """AndroidWorld turns off the pointer overlay; there is none here."""

    # -------------------------------------------------------------------- actions
    def execute_action(self, action: Any) -> None:
        """Run one ``JSONAction`` (or its dict) as one counted step; the outcome is in ``last_result``.

        A malformed action raises :class:`~devicesworld.compat.androidworld.actions.InvalidAction`
        (as ``JSONAction`` raises ``ValueError``) and costs nothing.
        """
        aw = parse_action(action)
        self.settle()
        notes = aw.model_dump(exclude_none=True)
        native = self._translate(aw)
        if isinstance(native, ActionResult):
            # recorded in our step shape, with AndroidWorld's own name and fields (nothing ran)
            args = {k: v for k, v in notes.items() if k != "action_type"}
            refused = {"device": self.device_id, "action": aw.action_type, "args": args}
            outcome = self.session.refuse(refused, native, notes={"androidworld": notes})
        else:
            outcome = self.session.step(native, notes={"androidworld": notes})
        self.last_result = outcome.result
        if aw.action_type == "answer" and outcome.result.ok:
            self.interaction_cache = aw.text or ""

    def _native(self, action: str, **args: Any) -> dict[str, Any]:
        return {"device": self.device_id, "action": action, "args": args}

    def _translate(self, aw: AWAction) -> dict[str, Any] | ActionResult:
        """Our step for an AndroidWorld action, or the failed result of one that executes nothing."""
        kind = aw.action_type
        if kind in ("click", "double_tap", "long_press"):
            target = self._target(aw)
            return target if isinstance(target, ActionResult) else self._native(kind, **target)
        if kind == "input_text":
            return self._input_text(aw)
        if kind in ("keyboard_enter", "navigate_home", "navigate_back"):
            return self._native(kind)
        if kind == "scroll":
            if aw.direction is None:
                return ActionResult.failure(
                    "INVALID_ACTION", "scroll needs a direction (up, down, left, right)"
                )
            args: dict[str, Any] = {"direction": aw.direction, "distance": SCROLL_DISTANCE}
            if aw.index:  # AndroidWorld scrolls the whole screen for index 0 or none
                native = self._native_index(aw.index)
                if isinstance(native, ActionResult):
                    return native
                if native is not None:
                    args["index"] = native
            return self._native("scroll", **args)
        if kind == "swipe":
            if aw.direction is None:
                return ActionResult.failure(
                    "INVALID_ACTION", "swipe needs a direction (up, down, left, right)"
                )
            return self._native("swipe", **SWIPES[aw.direction])
        if kind == "open_app":
            if not aw.app_name:
                return ActionResult.failure("INVALID_ACTION", "open_app needs an app_name")
            package = package_for(aw.app_name)
            phone = self._phone()
            name = package if package is not None and package in phone.apps else aw.app_name
            return self._native("open_app", app_name=name)
        if kind == "wait":
            return self._native("wait", seconds=WAIT_SECONDS)
        if kind == "answer":
            return {"action": "answer", "args": {"text": aw.text or ""}}
        if kind == "status":
            if aw.goal_status == "infeasible":
                reason = aw.text or self.interaction_cache or DEFAULT_INFEASIBLE_REASON
                return {"action": "report_infeasible", "args": {"reason": reason}}
            return {"action": "finish", "args": {}}
        return ActionResult.failure("UNKNOWN_ACTION", "AndroidWorld's 'unknown' action executes nothing")

    # -------------------------------------------------------------------- targets
    def _views(self) -> tuple[Phone, list[View]]:
        phone = self._phone()
        return phone, listed_views(phone)

    def _view_at(self, index: int) -> View | ActionResult:
        _, views = self._views()
        if not 0 <= index < len(views):
            return ActionResult.failure(
                "STALE_INDEX",
                f"invalid element index {index}: the screen has {len(views)} elements (0..{len(views) - 1})",
            )
        return views[index]

    def _native_index(self, index: int) -> int | ActionResult | None:
        """Our element index for AndroidWorld's ``index`` (``None``: the node is not in our list)."""
        node = self._view_at(index)
        if isinstance(node, ActionResult):
            return node
        phone = self._phone()
        return next((i for i, n in enumerate(phone.elements) if n is node), None)

    def _target(self, aw: AWAction) -> dict[str, Any] | ActionResult:
        """Our target arguments: the same node by our index, else the centre of its box (as AndroidWorld taps)."""
        if aw.index is not None:
            node = self._view_at(aw.index)
            if isinstance(node, ActionResult):
                return node
            native = self._native_index(aw.index)
            if isinstance(native, int):
                return {"index": native}
            x0, y0, x1, y1 = node.rect
            return {"x": (x0 + x1) // 2, "y": (y0 + y1) // 2}
        if aw.x is not None and aw.y is not None:
            return {"x": aw.x, "y": aw.y}
        return ActionResult.failure("INVALID_ACTION", f"{aw.action_type} needs an index or both x and y")

    def _input_text(self, aw: AWAction) -> dict[str, Any] | ActionResult:
        """Tap the target, type, press Enter: a field by our index, anything else by its point."""
        if not aw.text:
            return ActionResult.failure(
                "NO_TEXT", "input_text without text types nothing (as in AndroidWorld)"
            )
        target = self._target(aw)
        if isinstance(target, ActionResult):
            return target
        args: dict[str, Any] = {"text": aw.text, "clear": bool(aw.clear_text), "enter": True}
        if "index" in target:
            node = self._phone().elements[target["index"]]
            if node.editable:
                return self._native("input_text", index=target["index"], **args)
            x0, y0, x1, y1 = node.rect
            target = {"x": (x0 + x1) // 2, "y": (y0 + y1) // 2}
        return self._native("input_text", x=target["x"], y=target["y"], **args)


__all__ = ["DEFAULT_INFEASIBLE_REASON", "SWIPES", "AndroidWorldEnv", "State"]
