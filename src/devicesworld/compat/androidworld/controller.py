"""``AndroidWorldEnv.controller``: the adb calls AndroidWorld's agents make, answered by our phone.

AndroidWorld's environment hands its agents a ``controller`` (android_env's
``AndroidEnvInterface``), and some agents talk to it directly through
``adb_utils`` instead of through ``execute_action``:

* T3A marks the element it clicks on the screenshot and asks for the frame
  boundary (``shell dumpsys input | grep physicalFrame``) and the orientation
  (``shell dumpsys window | grep mCurrentRotation``);
* SeeAct executes every action through ``actuation.execute_adb_action``: taps
  (``AdbRequest.tap``), buttons (``press_button`` HOME/BACK/ENTER), typing
  (``input_text``, one request per word, spaces sent as ``%s``, adb escapes),
  ``shell input swipe`` (scrolls, swipes, a long press is a 1 s swipe on one
  point), ``shell input keyevent``, the clear-field key combination, app launches
  (``start_activity`` with AndroidWorld's activity table, ``shell monkey -p PKG``,
  ``shell am start -d URI`` for its default apps);
* helpers ask ``get_current_activity``, ``get_orientation``, ``shell wm size``.

:meth:`AdbController.execute_adb_call` takes android_env's ``AdbRequest`` (or the
same shape as a dict: ``{"generic": {"args": [...]}}``) and answers with android_env's
``AdbResponse`` when android_env is installed, else an object with the same fields
(``status`` 1 = OK, ``error_message``, ``generic.output``, ...). Queries are
answered from the phone and cost nothing; every input is one counted, recorded
step of the session, with the adb request under ``agent_notes.androidworld.adb``.
Typing is the exception: AndroidWorld types word by word, so consecutive words are
gathered and sent as *one* ``input_text`` step (with ``enter`` when Enter follows),
flushed before anything else happens (the next input, a ``get_state``, the end of
an agent step) — a sentence costs one step, not one per word. Commands with no
counterpart here answer ``UNKNOWN_COMMAND`` and change nothing.
"""

from __future__ import annotations

import importlib
import itertools
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android.system.input import EDGE, TAP_DISTANCE, hit
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.compat.androidworld.env import AndroidWorldEnv
    from devicesworld.devices.android.system.phone import Phone

OK, UNKNOWN_COMMAND, FAILED_PRECONDITION = 1, 2, 3
"""android_env's ``AdbResponse.Status`` values used here."""
BUTTONS = {0: "navigate_home", 1: "navigate_back", 2: "keyboard_enter"}
"""``AdbRequest.PressButton.Button``: HOME, BACK, ENTER."""
KEYEVENTS = {
    "3": "navigate_home",
    "KEYCODE_HOME": "navigate_home",
    "4": "navigate_back",
    "KEYCODE_BACK": "navigate_back",
    "66": "keyboard_enter",
    "KEYCODE_ENTER": "keyboard_enter",
}
LONG_PRESS_MS = 500
"""A swipe that stays on one point for at least this long is a long press (Android's is ~400 ms)."""
DEFAULT_APP_URIS = {
    "content://com.android.calendar": "com.simplemobiletools.calendar.pro",
    "http://": "com.android.chrome",
    "https://": "com.android.chrome",
    "content://contacts/people/": "com.google.android.contacts",
}
"""``adb shell am start -d URI``: the app that opens AndroidWorld's default-app URIs here."""
_ESCAPED = re.compile(r"\\(.)")


@dataclass
class _Generic:
    output: bytes = b""


@dataclass
class _Activity:
    full_activity: str = ""


@dataclass
class _Orientation:
    orientation: int = 0


@dataclass
class AdbReply:
    """``AdbResponse``'s fields, for when android_env is not installed."""

    status: int = OK
    error_message: str = ""
    generic: _Generic = field(default_factory=_Generic)
    get_current_activity: _Activity = field(default_factory=_Activity)
    get_orientation: _Orientation = field(default_factory=_Orientation)


def _response(
    status: int = OK,
    *,
    output: str = "",
    error: str = "",
    activity: str | None = None,
    orientation: int | None = None,
) -> Any:
    """android_env's ``AdbResponse`` if it is installed, else an :class:`AdbReply`."""
    try:
        adb_pb2: Any = importlib.import_module("android_env.proto.adb_pb2")
    except ImportError:
        reply = AdbReply(status=status, error_message=error, generic=_Generic(output.encode()))
        if activity is not None:
            reply.get_current_activity.full_activity = activity
        if orientation is not None:
            reply.get_orientation.orientation = orientation
        return reply
    response = adb_pb2.AdbResponse(status=status, error_message=error)
    response.generic.output = output.encode()
    if activity is not None:
        response.get_current_activity.full_activity = activity
    if orientation is not None:
        response.get_orientation.orientation = orientation
    return response


def unescape_adb_text(text: str) -> str:
    """What ``adb shell input text`` types for AndroidWorld's formatted word (``%s`` is a space)."""
    return _ESCAPED.sub(r"\1", text.replace("%s", " "))


def _request(request: Any) -> tuple[str | None, Any]:
    """(which command, its message) of an ``AdbRequest`` or its dict shape."""
    if isinstance(request, Mapping):
        kinds = [k for k in request if k != "timeout_sec"]
        return (kinds[0], request[kinds[0]]) if kinds else (None, None)
    which = getattr(request, "WhichOneof", None)
    if callable(which):
        kind = which("command")
        return (kind, getattr(request, kind)) if kind else (None, None)
    return None, None


def _get(message: Any, name: str, default: Any = None) -> Any:
    if isinstance(message, Mapping):
        return message.get(name, default)
    return getattr(message, name, default)


class AdbController:
    """The ``controller`` of :class:`~devicesworld.compat.androidworld.env.AndroidWorldEnv` (module docstring)."""

    def __init__(self, env: AndroidWorldEnv) -> None:
        self._env = env
        self._typed: list[str] = []
        self._clear = False
        self._requests: list[Any] = []

    # ------------------------------------------------------------------ typing buffer
    def flush(self, *, enter: bool = False) -> Any:
        """Send the gathered words as one ``input_text`` step; its response, or None if nothing was gathered."""
        if not self._typed and not self._clear:
            return None
        text, clear, requests = "".join(self._typed), self._clear, self._requests
        self._typed, self._clear, self._requests = [], False, []
        return self._step("input_text", {"text": text, "clear": clear, "enter": enter}, requests)

    def _step(self, action: str, args: dict[str, Any], requests: Sequence[Any]) -> Any:
        env = self._env
        native = {"device": env.device_id, "action": action, "args": args}
        notes = {"androidworld": {"adb": [_describe(r) for r in requests]}}
        outcome = env.session.step(native, notes=notes)
        env.last_result = outcome.result
        if outcome.result.ok:
            return _response(OK, output=outcome.result.message)
        return _response(FAILED_PRECONDITION, error=outcome.result.message)

    def _act(self, action: str, args: dict[str, Any], request: Any) -> Any:
        self.flush()
        return self._step(action, args, [request])

    # ------------------------------------------------------------------ the interface
    def execute_adb_call(self, request: Any) -> Any:
        """Answer one ``AdbRequest`` (see the module docstring)."""
        kind, message = _request(request)
        phone = self._env.current_phone()
        if kind == "tap":
            return self._act("click", {"x": _get(message, "x"), "y": _get(message, "y")}, request)
        if kind == "press_button":
            button = BUTTONS.get(int(_get(message, "button", -1)))
            if button is None:
                return _response(UNKNOWN_COMMAND, error="unknown button")
            if button == "keyboard_enter" and (self._typed or self._clear):
                self._requests.append(request)
                return self.flush(enter=True)
            return self._act(button, {}, request)
        if kind == "input_text":
            self._typed.append(unescape_adb_text(str(_get(message, "text", ""))))
            self._requests.append(request)
            return _response(OK)
        if kind == "start_activity":
            activity = str(_get(message, "full_activity", ""))
            return self._act("open_app", {"app_name": activity.split("/")[0]}, request)
        if kind == "get_current_activity":
            return _response(OK, activity=phone.foreground_activity)
        if kind == "get_orientation":
            return _response(OK, orientation=self._env.orientation)
        if kind == "generic":
            args = [str(a) for a in _get(message, "args", [])]
            return self._generic(args, request, phone)
        return _response(UNKNOWN_COMMAND, error=f"adb request {kind!r} has no counterpart on this phone")

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(
            f"AndroidWorldEnv.controller answers execute_adb_call only; {name!r} has no counterpart here"
        )

    # ------------------------------------------------------------------ shell commands
    def _generic(self, args: list[str], request: Any, phone: Phone) -> Any:
        words = args[1:] if args[:1] == ["shell"] else args
        grep = None
        if "|" in words:
            cut = words.index("|")
            words, piped = words[:cut], words[cut + 1 :]
            grep = piped[1] if len(piped) >= 2 and piped[0] == "grep" else None
        if "&&" in words:  # AndroidWorld's clear-field: keycombination CTRL+A && keyevent DEL
            cut = words.index("&&")
            if words[:4] == ["input", "keycombination", "113", "29"] and words[cut + 1 :] == [
                "input",
                "keyevent",
                "67",
            ]:
                self.flush()
                self._clear = True
                self._requests.append(request)
                return _response(OK)
            return _response(UNKNOWN_COMMAND, error=f"not simulated: {' '.join(args)}")
        query = self._query(words, phone)
        if query is not None:
            lines = query.splitlines()
            if grep is not None:
                lines = [line for line in lines if grep in line]
            return _response(OK, output="\n".join(lines) + ("\n" if lines else ""))
        command = self._command(words, phone)
        if command is None:
            return _response(UNKNOWN_COMMAND, error=f"not simulated: {' '.join(args)}")
        action, action_args = command
        return self._act(action, action_args, request)

    def _query(self, words: list[str], phone: Phone) -> str | None:
        width, height = phone.width, phone.height
        frame = f"[0, 0, {width}, {height}]"
        if words == ["dumpsys", "input"]:
            return f"  Viewport INTERNAL: displayId=0, orientation=0, logicalFrame={frame}, physicalFrame={frame}, deviceWidth={width}, deviceHeight={height}"
        if words == ["dumpsys", "window"]:
            return f"  mCurrentRotation=ROTATION_{self._env.orientation * 90}\n  mCurrentFocus={phone.foreground_activity}"
        if words == ["wm", "size"]:
            return f"Physical size: {width}x{height}"
        return None

    def _command(self, words: list[str], phone: Phone) -> tuple[str, dict[str, Any]] | None:
        if words[:2] == ["input", "tap"] and len(words) == 4:
            return "click", {"x": float(words[2]), "y": float(words[3])}
        if words[:2] == ["input", "swipe"] and len(words) >= 6:
            points = [float(w) for w in words[2:6]]
            duration = int(words[6]) if len(words) > 6 and words[6].isdigit() else 0
            return self._drag(phone, points, duration)
        if words[:2] == ["input", "keyevent"] and len(words) == 3:
            action = KEYEVENTS.get(words[2])
            return (action, {}) if action else None
        if words[:2] == ["input", "text"] and len(words) >= 3:
            return "input_text", {"text": unescape_adb_text(" ".join(words[2:]))}
        if words[:2] == ["monkey", "-p"] and len(words) >= 3:
            return "open_app", {"app_name": words[2]}
        if words[:2] == ["am", "start"]:
            return self._am_start(words[2:])
        return None

    @staticmethod
    def _am_start(words: list[str]) -> tuple[str, dict[str, Any]] | None:
        for flag, value in itertools.pairwise(words):
            if flag == "-n":
                return "open_app", {"app_name": value.split("/")[0]}
            if flag == "-d":
                uri = shlex.split(value)[0] if value else value
                package = next((p for u, p in DEFAULT_APP_URIS.items() if uri.startswith(u)), None)
                return "open_app", {"app_name": package or uri}
        return None

    @staticmethod
    def _drag(phone: Phone, points: list[float], duration_ms: int) -> tuple[str, dict[str, Any]]:
        """A finger from (x0, y0) to (x1, y1): tap, long press, edge swipe, or a scroll of that length."""
        x0, y0, x1, y1 = points
        width, height = phone.width, phone.height
        dx, dy = (x1 - x0) / width, (y1 - y0) / height
        if (dx * dx + dy * dy) ** 0.5 < TAP_DISTANCE:
            action = "long_press" if duration_ms >= LONG_PRESS_MS else "click"
            return action, {"x": min(max(x0, 0), width - 1), "y": min(max(y0, 0), height - 1)}
        vertical = abs(dy) >= abs(dx)
        finger = ("down" if dy > 0 else "up") if vertical else ("right" if dx > 0 else "left")
        if vertical and finger == "down" and y0 < EDGE * height:
            return "swipe", {"direction": "down", "from_edge": True}
        if vertical and finger == "up" and y0 >= (1 - EDGE) * height:
            return "swipe", {"direction": "up", "from_edge": True}
        content = {"up": "down", "down": "up", "left": "right", "right": "left"}[finger]
        distance = min(max(abs(dy) if vertical else abs(dx), 0.05), 1.0)
        args: dict[str, Any] = {"direction": content, "distance": round(distance, 3)}
        under = hit(phone, min(max(x0, 0), width - 1), min(max(y0, 0), height - 1))
        if isinstance(under, View) and any(n.scroll_key is not None for n in phone.ancestors(under)):
            args["index"] = next(i for i, n in enumerate(phone.elements) if n is under)
        return "scroll", args


def _describe(request: Any) -> Any:
    """A JSON-friendly copy of a request for the step's notes."""
    if isinstance(request, Mapping):
        return dict(request)
    try:
        json_format: Any = importlib.import_module("google.protobuf.json_format")
        return json_format.MessageToDict(request)
    except (ImportError, AttributeError, TypeError):
        return str(request)


__all__ = ["AdbController", "AdbReply", "unescape_adb_text"]
