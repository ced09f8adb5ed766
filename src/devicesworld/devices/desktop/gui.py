"""Executes the GUI action space on a :class:`~.client.Desktop` and builds its observation.

A kind supplies what differs between desktops — its apps (:class:`App`: argv, how to
recognise its window, whether to wait for it to go idle) and how a path the agent
writes becomes a path inside the sandbox — and gets ``act``/``observe``/``screenshot``
with the same semantics everywhere:

* every step returns an :class:`ActionResult`; bad arguments, a stale element index, a
  selector that matches nothing, or a desktop that stopped answering are failed results
  with a typed code, never exceptions;
* after each input the desktop is given a moment to settle (``settle``: no redraw
  reported by the X server's DAMAGE events and no app working for a short quiet time,
  bounded), so the next observation shows the effect and a replay is deterministic;
  an input that changes nothing costs only the quiet time;
* the observation is the window list, the focused window and the numbered element list
  (:mod:`.elements`), with ``tree_incomplete`` saying why the walk stopped early;
* the time of each phase (input, settle, tree, screenshot, encode, launch, command,
  wait) is summed until :meth:`GuiSession.take_phases` hands it to the step's record.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from devicesworld.devices.base import ActionResult
from devicesworld.devices.desktop import actions as a
from devicesworld.devices.desktop.client import Desktop, DesktopError
from devicesworld.devices.desktop.elements import centre, element_list, element_texts, listed, resolve
from devicesworld.devices.desktop.messages import RunResult, Window
from devicesworld.devices.limits import limit_hit
from devicesworld.devices.listing import (
    ListElementsArgs,
    ReadElementArgs,
    cut_note,
    list_elements,
    read_element,
    tree_cut,
)


@dataclass(frozen=True)
class App:
    """One app ``launch_app`` can open."""

    name: str
    argv: list[str]
    window: str = ""
    """Text in the new window's class or title that marks it as this app's."""
    env: dict[str, str] = field(default_factory=dict)
    clock: Literal["follow", "pinned", "host"] = "follow"
    """``follow``: the app reads the task's clock from its offset file and follows its advances;
    ``pinned``: the offset at launch is in its environment (``FAKETIME``), so it ticks on from the
    task's time but does not follow a later advance (Chromium: its sandboxed renderers cannot open
    the offset file); ``host``: the host's clock, without the session's extra environment."""
    takes_path: bool = True
    idle_s: float = 0.3
    """Quiet time after the window maps before the app counts as ready (LibreOffice needs more)."""
    start_timeout_s: float = 60.0
    settle_s: float | None = None
    """The quiet time after an input while this app's window has the focus (None: the session's)."""
    command_settle_s: float | None = None
    """The same after a key combination or a click, which may run a command some time later
    (LibreOffice runs ctrl+b's command and redraws its toolbar ~0.35 s after the key)."""
    ready_role: str = ""
    """An element role that shows the app's content is drawn (LibreOffice: ``document text``);
    with it, a launch also waits until the window's element tree has that role and is the
    same in two walks in a row (bounded by :data:`TREE_SETTLE_S`)."""
    ready_text: str = ""
    """A pattern (``re.search``) the ``ready_role`` element's text must show before the app counts
    as ready (a terminal: a printed character, its shell's prompt). xfce4-terminal maps its window
    before its shell runs, and keys typed until the terminal has the shell's pty are dropped: a
    ``type_text`` right after the launch lost its first line. Such a window is one widget, so one
    read from the controller's event-refreshed cache that shows the text is enough (no two equal
    fresh walks); its title is read again at every walk (the shell may set it)."""
    titled_by_agent: bool = False
    """The window's title is whatever the agent makes it (a terminal: any program prints an escape
    sequence that sets it; Windows' cmd: ``title``): checks never count this app's windows."""


@dataclass(frozen=True)
class WarmApp:
    """An app a pooled desktop started before its task, showing what a launch of it without a file shows
    (LibreOffice: its empty "Untitled 1" document, idle and drawn).

    The task's first launch of ``app`` adopts that window (no file) or hands it the file, which
    LibreOffice loads into the untouched empty document's window, replacing it: the same window,
    box and title as a cold start's, in a fraction of the time (:meth:`GuiSession._swap_in`). A
    launch of another app of ``shares`` (served by the same process) stops it first, and so does
    the device when the task's setup did not ask for it (:meth:`GuiSession.drop_warm`).

    With ``document``, the app was started on that file, as the task's launch would start it
    (the kind wrote the file it expects the task to open): a launch of ``app`` on that path adopts
    the window as it is; any other launch stops it first and starts cold."""

    app: str
    pid: int
    window: int
    title: str
    shares: tuple[str, ...] = ()
    leftovers: tuple[str, ...] = ()
    """Glob patterns, inside the sandbox, of what the app leaves behind when it is killed."""
    document: str | None = None
    """The sandbox path the app was started on (``None``: started without a file)."""


WARM_IDLE_S = 0.3
"""Quiet time after a warm app loaded a file (its cold start needs ``App.idle_s``: LibreOffice drops
keys while it starts up, not while an already running instance lays out a loaded document)."""

SETTLE_QUIET_S = 0.05
"""How long the screen and the apps must stay quiet after an input (measured: a GTK or LibreOffice
redraw follows its input within a frame or two, and every redraw restarts the window)."""

PHASE_OF_ACTION = {"launch_app": "launch", "run_command": "command", "wait": "wait"}
"""The phase an action's own time counts as (every other action: ``input``)."""

HANDOFF_S = 10.0
"""How long ``launch_app`` waits for a new window of an app that is already open before it takes
the running window as the answer (:meth:`GuiSession._handed_off`)."""

CLOSED_GRACE_S = 1.5
"""How long a launch waits for a new window once the app's running windows have all closed before
it launches again (the first launch went to the instance that was quitting)."""

TREE_SETTLE_S = 20.0
"""The longest a launch waits for its window's element tree to settle (``App.ready_role``)."""


@dataclass
class TreeBudget:
    """Bounds of one accessibility walk (see docs/gui.md)."""

    budget_s: float = 4.0
    max_nodes: int = 500
    max_children: int = 200
    max_cells: int = 120


def element_line(el: dict[str, Any]) -> str:
    """One element as a short line: ``[i] role 'name' text=... value=... (states) @x,y,w,h``."""
    parts = [f"[{el.get('index')}] {el.get('role', '')}"]
    if el.get("name"):
        parts.append(repr(el["name"]))
    if el.get("text"):
        parts.append(f"text={el['text']!r}")
    if el.get("value") is not None:
        parts.append(f"value={el['value']}")
    if el.get("states"):
        parts.append("(" + ", ".join(el["states"]) + ")")
    if el.get("box"):
        parts.append("@" + ",".join(str(v) for v in el["box"]))
    if el.get("window"):
        parts.append(f"in {el['window']!r}")
    return " ".join(parts)


def _shown_window(w: Window) -> dict[str, Any]:
    return {"title": w.title, "app": w.app, "box": list(w.box), "focused": w.focused}


class GuiSession:
    """The GUI half of one desktop device."""

    def __init__(
        self,
        desktop: Desktop,
        apps: Mapping[str, App],
        *,
        to_sandbox_path: Callable[[str], str] = lambda p: p,
        budget: TreeBudget | None = None,
        settle_s: float = SETTLE_QUIET_S,
        settle_timeout_s: float = 4.0,
        env: Mapping[str, str] | None = None,
        warm: WarmApp | None = None,
        pinned_env: Callable[[], Mapping[str, str]] | None = None,
    ) -> None:
        """``env``: more environment of every app and command (e.g. the task's clock); ``warm``: an app
        the desktop started ahead of the task (see :class:`WarmApp`); ``pinned_env``: what a ``pinned``
        app gets instead, asked at its launch (the clock as it is then)."""
        self.desktop = desktop
        self.warm = warm
        self.env = dict(env or {})
        self.pinned_env = pinned_env
        self.apps = dict(apps)
        self.to_sandbox_path = to_sandbox_path
        self.budget = budget or TreeBudget()
        self.settle_s = settle_s
        self.settle_timeout_s = settle_timeout_s
        self.elements: list[dict[str, Any]] = []
        self.texts: list[str] = []
        """Each element's whole text as read (``read_element``), by index."""
        self.text_lens: list[int | None] = []
        """An element's full length when the walk read less of it (None: read whole; 0: it may
        go on, length unknown)."""
        self.incomplete: str | None = None
        self.commands: list[dict[str, Any]] = []
        self.phases: dict[str, float] = {}
        """Seconds per phase since the last :meth:`take_phases`."""
        self._handlers: dict[str, Callable[[Any], ActionResult]] = {
            "move_to": self._move_to,
            "click": self._click,
            "double_click": lambda g: self._click_n(g, 2, "left"),
            "right_click": lambda g: self._click_n(g, 1, "right"),
            "mouse_down": lambda g: self._button(g, "down"),
            "mouse_up": lambda g: self._button(g, "up"),
            "drag_to": self._drag,
            "scroll": self._scroll,
            "type_text": self._type,
            "key_down": lambda g: self._key(g, "down"),
            "key_up": lambda g: self._key(g, "up"),
            "hotkey": self._hotkey,
            "wait": self._wait,
            "launch_app": self._launch,
            "run_command": self._run,
            "read_element": self._read_element,
            "list_elements": self._list_elements,
        }

    # ---------------------------------------------------------------- protocol
    def handles(self, action: str) -> bool:
        return action in self._handlers

    def take_phases(self) -> dict[str, float]:
        """The seconds spent per phase since the last call (and start again from zero)."""
        out = {k: round(v, 6) for k, v in self.phases.items()}
        self.phases = {}
        return out

    @contextmanager
    def _timed(self, phase: str) -> Iterator[None]:
        """Adds the block's time to ``phase``, less the time of the phases timed inside it."""
        inner = sum(self.phases.values())
        t0 = time.perf_counter()
        try:
            yield
        finally:
            own = time.perf_counter() - t0 - (sum(self.phases.values()) - inner)
            self.phases[phase] = self.phases.get(phase, 0.0) + max(own, 0.0)

    def act(self, action: str, args: Any) -> ActionResult:
        handler = self._handlers.get(action)
        if handler is None:
            return ActionResult.failure("UNSUPPORTED", f"this desktop has no action {action!r}")
        try:
            with self._timed(PHASE_OF_ACTION.get(action, "input")):
                return handler(args)
        except _Refused as exc:
            return ActionResult.failure(exc.code, exc.message)
        except DesktopError as exc:
            return ActionResult.failure(exc.code, f"the desktop failed: {exc.message}")
        except ValueError as exc:
            return ActionResult.failure("INVALID_ARGS", str(exc))

    def observe(self) -> dict[str, Any]:
        """Windows, focused window and the numbered elements (refreshes the index table)."""
        try:
            with self._timed("tree"):
                wins = [w for w in self.desktop.windows() if w.mapped]
                b = self.budget
                tree = self.desktop.tree(
                    budget_s=b.budget_s,
                    max_nodes=b.max_nodes,
                    max_children=b.max_children,
                    max_cells=b.max_cells,
                )
        except DesktopError as exc:
            self.elements = []
            return {"error": f"the desktop did not answer: {exc.message}", "windows": [], "elements": []}
        self.elements = element_list(tree.nodes)
        kept = listed(tree.nodes)
        self.texts = element_texts(tree.nodes)
        self.text_lens = [n.text_len for n in kept]
        self.incomplete = tree.incomplete
        focused = next((w for w in wins if w.focused), None)
        ready = self.desktop.ready
        obs: dict[str, Any] = {
            "screen": {"width": ready.width, "height": ready.height} if ready else None,
            "focused_window": _shown_window(focused) if focused else None,
            "windows": [_shown_window(w) for w in wins],
            "elements": self.elements,
        }
        if tree.incomplete:
            obs["tree_incomplete"] = tree_cut(tree.incomplete)
        return obs

    def screenshot(self) -> bytes | None:
        t0 = time.perf_counter()
        try:
            png = self.desktop.screenshot()
        except DesktopError:
            return None
        encode = self.desktop.last_encode_s
        spent = time.perf_counter() - t0
        self.phases["screenshot"] = self.phases.get("screenshot", 0.0) + max(spent - encode, 0.0)
        self.phases["encode"] = self.phases.get("encode", 0.0) + encode
        return png

    def settle(
        self, quiet_s: float | None = None, timeout_s: float | None = None, *, command: bool = True
    ) -> None:
        """Wait for the effect of an input: see ``Desktop.settle`` (X damage and app CPU, bounded).

        Without ``quiet_s``, the focused app's quiet time (``App.command_settle_s`` after a
        ``command``: a key combination or a click; else ``App.settle_s``), or the session's."""
        per_app: list[tuple[str, float]] = []
        if quiet_s is None:
            for app in self.apps.values():
                q = app.command_settle_s if command and app.command_settle_s is not None else app.settle_s
                if q is not None and app.window:
                    per_app.append((app.window, q))
        with self._timed("settle"):
            self.desktop.settle(
                timeout_s=timeout_s if timeout_s is not None else self.settle_timeout_s,
                quiet_s=quiet_s if quiet_s is not None else self.settle_s,
                per_app=per_app,
            )

    # ---------------------------------------------------------------- targets
    def _element(self, ref: a.ElementRef) -> dict[str, Any]:
        if isinstance(ref, a.Selector):
            if not self.elements:
                self.observe()
            index = resolve(ref, self.elements)
            if index is None:
                self.observe()  # the screen may have moved on since the last observation
                index = resolve(ref, self.elements)
            if index is None:
                raise _Refused("NOT_FOUND", f"no element matches {ref.model_dump(exclude_defaults=True)}")
            return self.elements[index]
        if not 0 <= ref < len(self.elements):
            raise _Refused(
                "STALE_ELEMENT",
                f"element [{ref}] is not in the last observation ({len(self.elements)} elements); observe again",
            )
        return self.elements[ref]

    def _point(self, t: a.Target) -> tuple[int, int] | None:
        if t.x is not None and t.y is not None:
            return t.x, t.y
        if t.element is None:
            return None
        el = self._element(t.element)
        at = centre(el)
        if at is None:
            raise _Refused(
                "NO_BOX", f"element [{el['index']}] ({el['role']} {el['name']!r}) has no screen box"
            )
        return at

    def _where(self, at: tuple[int, int] | None) -> str:
        return f" at ({at[0]}, {at[1]})" if at else ""

    # ---------------------------------------------------------------- reading
    def _read_element(self, g: ReadElementArgs) -> ActionResult:
        texts = (
            self.texts
            if len(self.texts) == len(self.elements)
            else [str(el.get("text") or el.get("name") or "") for el in self.elements]
        )
        result = read_element(texts, g)
        full = self.text_lens[g.index] if g.index < len(self.text_lens) else None
        if result.ok and full is not None and isinstance(result.data, dict) and "more" not in result.data:
            end = g.offset + len(result.data["text"])
            past = f"chars {end:,}-{full:,}" if full > end else f"what follows char {end:,} (if anything)"
            result.data["more"] = cut_note(
                f"{past} is past what the element tree reads",
                "scroll that part into view (or open the file another way) and observe again",
            )
        return result

    def _list_elements(self, g: ListElementsArgs) -> ActionResult:
        els = self.elements

        def line(i: int) -> str:
            return element_line(els[i])

        def haystack(i: int) -> str:
            el = els[i]
            return " ".join(str(el.get(k) or "") for k in ("name", "text", "value", "window", "app"))

        return list_elements(len(els), line, haystack, lambda i: str(els[i].get("role", "")), g)

    # ---------------------------------------------------------------- actions
    def _move_to(self, g: a.PointArgs) -> ActionResult:
        at = self._point(g)
        assert at is not None
        self.desktop.pointer("move", x=at[0], y=at[1])
        return ActionResult.success(f"pointer moved{self._where(at)}")

    def _click(self, g: a.ClickArgs) -> ActionResult:
        return self._click_n(g, g.clicks, g.button)

    def _click_n(self, g: a.NeedTarget, clicks: int, button: str) -> ActionResult:
        at = self._point(g)
        assert at is not None
        self.desktop.pointer("click", x=at[0], y=at[1], button=button, clicks=clicks)
        self.settle()
        what = {1: "clicked", 2: "double-clicked", 3: "triple-clicked"}[clicks]
        return ActionResult.success(
            f"{button} {what}{self._where(at)}" if button != "left" else f"{what}{self._where(at)}"
        )

    def _button(self, g: a.ButtonArgs, op: str) -> ActionResult:
        at = self._point(g)
        extra = {"x": at[0], "y": at[1]} if at else {}
        self.desktop.pointer(op, button=g.button, **extra)
        if op == "up":
            self.settle()
        return ActionResult.success(f"{g.button} button {op}{self._where(at)}")

    def _drag(self, g: a.DragArgs) -> ActionResult:
        to = self._point(g)
        assert to is not None
        if g.from_x is not None and g.from_y is not None:
            start: tuple[int, int] | None = (g.from_x, g.from_y)
        elif g.from_element is not None:
            start = centre(self._element(g.from_element))
        else:
            start = None
        if start is None:
            self.desktop.pointer("up", button=g.button)  # a drag from where the pointer is
            self.desktop.pointer("down", button=g.button)
            self.desktop.pointer("move", x=to[0], y=to[1])
            self.desktop.pointer("up", button=g.button)
        else:
            self.desktop.pointer("drag", **{"from": list(start), "to": list(to)}, button=g.button)
        self.settle()
        return ActionResult.success(f"dragged to ({to[0]}, {to[1]})")

    def _scroll(self, g: a.ScrollArgs) -> ActionResult:
        at = self._point(g)
        extra = {"x": at[0], "y": at[1]} if at else {}
        self.desktop.pointer("scroll", dx=g.dx, dy=g.dy, **extra)
        self.settle()
        return ActionResult.success(f"scrolled dy={g.dy} dx={g.dx}{self._where(at)}")

    def _type(self, g: a.TypeTextArgs) -> ActionResult:
        self.desktop.type_text(g.text)
        self.settle(command=False)
        return ActionResult.success(f"typed {len(g.text)} characters")

    def _key(self, g: a.KeyArgs, mode: str) -> ActionResult:
        self.desktop.keys([g.key], mode)
        if mode == "up":
            self.settle()
        return ActionResult.success(f"key {g.key} {mode}")

    def _hotkey(self, g: a.HotkeyArgs) -> ActionResult:
        self.desktop.keys(list(g.keys), "press")
        self.settle()
        return ActionResult.success("pressed " + "+".join(g.keys))

    def _wait(self, g: a.WaitArgs) -> ActionResult:
        time.sleep(g.seconds)
        self.settle()
        return ActionResult.success(f"waited {g.seconds:g} s")

    def drop_warm(self) -> None:
        """Stop the warm app if no launch took it (the task opened something else, or nothing)."""
        warm, self.warm = self.warm, None
        if warm is not None:
            with self._timed("launch"):
                self.desktop.stop_app(warm.pid, list(warm.leftovers))

    def _swap_in(self, app: App, warm: WarmApp, argv: list[str], path: str | None) -> ActionResult | None:
        """Launch ``app`` into the warm window (see :class:`WarmApp`); ``None`` if that window is no longer
        as it was started (then the warm app is stopped and the launch is a cold one)."""
        now = next((w for w in self.desktop.windows() if w.id == warm.window and w.mapped), None)
        if now is None or now.title != warm.title:
            return None
        win: Window | None = now
        if path is not None:

            def loaded(w: Window) -> bool:
                mine = app.window.lower() in (w.app + " " + w.title).lower()
                return w.mapped and mine and (w.id != warm.window or w.title != warm.title)

            self.desktop.launch(argv, env={**self._clock_env(app.clock), **app.env})
            win = self.desktop.wait_window(loaded, app.start_timeout_s)
            if win is None:
                return ActionResult.failure(
                    "TIMEOUT", f"{app.name} did not open {path} within {app.start_timeout_s:g} s"
                )
            if win.id != warm.window:  # opened beside the empty document, not into it: close that one
                self.desktop.close_window(warm.window)
            self.desktop.wait_idle(timeout_s=max(app.start_timeout_s / 2, 5), quiet_s=WARM_IDLE_S)
            if app.ready_role:
                self._wait_tree(app, self._title_now(win), fresh=False)
        assert win is not None
        self._wait_focus(win)
        title = self._title_now(win)
        return ActionResult.success(f"{app.name} opened: {title!r}", {"window": title})

    def _adopt(self, app: App, warm: WarmApp) -> ActionResult | None:
        """The warm app already shows the launch's file (see :class:`WarmApp`): its window, as started;
        ``None`` if that window is no longer as it was (then the launch is a cold one)."""
        now = next((w for w in self.desktop.windows() if w.id == warm.window and w.mapped), None)
        if now is None or now.title != warm.title:
            return None
        self._wait_focus(now)
        title = self._title_now(now)
        return ActionResult.success(f"{app.name} opened: {title!r}", {"window": title})

    def _launch(self, g: a.LaunchAppArgs) -> ActionResult:
        app = self.apps.get(g.app)
        if app is None:
            return ActionResult.failure("NOT_FOUND", f"no app {g.app!r}; apps: {', '.join(self.apps)}")
        argv = list(app.argv)
        # the sandbox sees the host's /usr: a missing app would only time out waiting for its window
        if shutil.which(argv[0]) is None:
            return ActionResult.failure(
                "UNSUPPORTED", f"{g.app} ({argv[0]}) is not installed on this machine"
            )
        if g.path is not None:
            if not app.takes_path:
                return ActionResult.failure("INVALID_ARGS", f"{g.app} does not open files")
            argv.append(g.path if "://" in g.path else self.to_sandbox_path(g.path))  # a URL as it is
        warm = self.warm
        if warm is not None and warm.document is not None:
            self.warm = None
            if g.app == warm.app and g.path is not None and argv[-1] == warm.document:
                adopted = self._adopt(app, warm)
                if adopted is not None:
                    return adopted
            self.warm = warm
            self.drop_warm()  # started on another file: this launch is a cold one
            warm = None
        if warm is not None and g.app == warm.app:
            self.warm = None
            swapped = self._swap_in(app, warm, argv, g.path)
            if swapped is not None:
                return swapped
            self.warm = warm
        if warm is not None and g.app in (warm.app, *warm.shares):
            self.drop_warm()  # the same process would take the launch: start it cold

        def mine(w: Window) -> bool:
            return w.mapped and app.window.lower() in (w.app + " " + w.title).lower()

        windows = self.desktop.windows()
        before = {w.id for w in windows}
        # LibreOffice opens a window per document even when running; the others may hand off
        running = [] if app.ready_role else [w.id for w in windows if mine(w)]
        env = {**self._clock_env(app.clock), **app.env}
        launched = self.desktop.launch(argv, env=env)
        win = self._new_window(lambda w: w.id not in before and mine(w), mine, app, running)
        if win is None and running and not self._still_open(running):
            # the running window was closing (an app may take half a second to close a window after
            # ctrl+w, drawing nothing): the launch was handed to an instance on its way out
            launched = self.desktop.launch(argv, env=env)
            win = self.desktop.wait_window(mine, app.start_timeout_s)  # a hidden window may come back
        if win is None and running:
            return self._handed_off(g.app, running)
        if win is None:
            return ActionResult.failure(
                "TIMEOUT",
                f"{g.app} did not open a window within {app.start_timeout_s:g} s",
                {"pid": launched.pid},
            )
        self.desktop.wait_idle(timeout_s=max(app.start_timeout_s / 2, 5), quiet_s=app.idle_s)
        if app.ready_role:
            self._wait_tree(app, win.title, fresh=not app.ready_text, win=win.id)
        self._wait_focus(win)
        title = self._title_now(win)
        return ActionResult.success(f"{g.app} opened: {title!r}", {"window": title})

    def _wait_focus(self, win: Window) -> None:
        """Leave the new window with the keyboard focus, as a desktop does: on a loaded machine the
        window manager may not have given it yet when the app went idle, and the agent's first
        ``type_text`` would go nowhere (the controller's ``focus_window`` waits for it, bounded)."""
        now = next((w for w in self.desktop.windows() if w.id == win.id), None)
        if now is not None and now.mapped and not now.focused:
            self.desktop.focus_window(win.id)

    def _new_window(
        self, is_new: Callable[[Window], bool], mine: Callable[[Window], bool], app: App, running: list[int]
    ) -> Window | None:
        """The launch's new window; with the app already running, ``None`` also once every running
        window has been gone for :data:`CLOSED_GRACE_S` without a new one (see ``_launch``), and
        any window of the app once they were all gone (Mousepad hides a window it closes and
        shows the same window again for the next file)."""
        end = time.monotonic() + (min(app.start_timeout_s, HANDOFF_S) if running else app.start_timeout_s)
        gone: float | None = None
        while True:
            wins = self.desktop.windows()
            found = next((w for w in wins if is_new(w) or (gone is not None and mine(w))), None)
            if found is not None:
                return found
            now = time.monotonic()
            if running and not any(w.id in running and w.mapped for w in wins):
                gone = gone if gone is not None else now
                if now - gone >= CLOSED_GRACE_S:
                    return None
            if now >= end:
                return None
            time.sleep(0.05)

    def _still_open(self, running: list[int]) -> bool:
        return any(w.id in running and w.mapped for w in self.desktop.windows())

    def _clock_env(self, clock: Literal["follow", "pinned", "host"]) -> dict[str, str]:
        if clock == "host":
            return {}
        if clock == "pinned" and self.pinned_env is not None:
            return {**self.env, **self.pinned_env()}
        return dict(self.env)

    def _title_now(self, win: Window) -> str:
        """``win``'s title as it is now, not as it was when found: Chromium maps "Untitled -
        Chromium" and names the window after the page once it is in."""
        return next((w.title for w in self.desktop.windows() if w.id == win.id), win.title)

    def _handed_off(self, name: str, running: list[int]) -> ActionResult:
        """The app was open and opened no new window: a single-instance app (Chromium, Mousepad on a
        file it shows, the mail client) handed the request to its running instance, which opened a
        tab or raised its window. That window is raised and named, instead of a long wait and a
        timeout for a window that never comes."""
        still = [w for w in self.desktop.windows() if w.id in running and w.mapped]
        if not still:
            return ActionResult.failure("TIMEOUT", f"{name} did not open a window within {HANDOFF_S:g} s")
        win = next((w for w in still if w.focused), still[0])
        self.desktop.focus_window(win.id)
        self.settle()
        title = self._title_now(win)
        return ActionResult.success(
            f"{name} was already open and opened no new window: its window {title!r} is in front",
            {"window": title, "already_open": True},
        )

    def _wait_tree(self, app: App, title: str, *, fresh: bool = True, win: int | None = None) -> bool:
        """Wait until ``title``'s elements include ``app.ready_role`` and two walks agree; bounded.

        An app can be idle on CPU while its window is still being filled in (LibreOffice
        maps a frame, then its toolbars and document): an agent's first observation must
        not be a half-drawn window. True when the tree settled, False at the bound.
        ``fresh=False`` (a file swapped into a warm window, drawn and settled before): one read
        from the controller's event-refreshed cache (the observation's own) that shows the
        document is enough — the frame, its toolbars and its root pane were there before the
        file came, and two cached reads of a window LibreOffice is still announcing may keep
        differing for seconds on a loaded machine. ``win``: the window's id, whose title is read
        again before every walk (an app whose title changes as it starts: a shell sets its terminal's).
        """
        end = time.monotonic() + TREE_SETTLE_S
        last: list[tuple[str, str, tuple[int, int, int, int] | None]] | None = None
        b = self.budget
        while time.monotonic() < end:
            try:
                tree = (
                    self.desktop.tree(budget_s=2.0, max_nodes=400, max_children=200, max_cells=4, fresh=True)
                    if fresh
                    else self.desktop.tree(
                        budget_s=b.budget_s,
                        max_nodes=b.max_nodes,
                        max_children=b.max_children,
                        max_cells=b.max_cells,
                    )
                )
            except DesktopError:
                return False
            if win is not None:
                title = next((w.title for w in self.desktop.windows() if w.id == win), title)
            mine = [n for n in tree.nodes if n.window == title]
            sig = [(n.role, n.name, n.box) for n in mine]
            drawn = any(
                n.role == app.ready_role and n.box and re.search(app.ready_text, n.text or "") for n in mine
            )
            cut = [p for p in (tree.incomplete or "").split("; ") if p in ("time budget", "node cap")]
            if drawn and (sig == last or not fresh) and not cut:  # a capped table is the same each walk
                return True
            last = sig if drawn else None
            time.sleep(0.1)
        return False

    def _run(self, g: a.RunCommandArgs) -> ActionResult:
        r = self.desktop.run(g.command, timeout_s=g.timeout_s, env=self.env)
        return self.command_result(g, r)

    def command_result(self, g: a.RunCommandArgs, r: RunResult) -> ActionResult:
        """The agent's view of one command: ``RESOURCE_LIMIT`` naming a hit limit, as in tool mode."""
        self.commands.append({"command": g.command, "exit_code": r.exit_code})
        data = {"exit_code": r.exit_code, "stdout": _ends(r.stdout, 8000), "stderr": _ends(r.stderr, 4000)}
        self.settle()
        if reached_process_limit(r):
            lim = self.desktop.config.limits
            late = f"; timed out after {g.timeout_s:g} s" if r.timed_out else ""
            return ActionResult.failure(
                "RESOURCE_LIMIT", lim.hit_message("processes", r.exit_code) + late, data
            )
        if r.timed_out:
            return ActionResult.failure("TIMEOUT", f"timed out after {g.timeout_s:g} s", data)
        limit = None if r.exit_code in (None, 0) else limit_hit(r.exit_code, r.stderr)
        if limit is not None:
            lim = self.desktop.config.limits
            return ActionResult.failure("RESOURCE_LIMIT", lim.hit_message(limit, r.exit_code), data)
        cut = f" (output cut: {r.cut_bytes:,} bytes not shown)" if r.cut_bytes else ""
        if r.exit_code != 0:
            return ActionResult(
                ok=True, message=f"exit code {r.exit_code} (the command failed){cut}", data=data
            )
        return ActionResult.success(f"exit code {r.exit_code}{cut}", data)

    # ---------------------------------------------------------------- state
    def window_titles(self) -> list[str]:
        return [w.title for w in self.desktop.windows() if w.mapped]

    def owned_windows(self) -> list[Window]:
        """Mapped windows of apps the device launched: what checks may count (not the agent's own)."""
        return [w for w in self.desktop.windows() if w.mapped and w.launched]

    def checkable_windows(self) -> list[Window]:
        """The windows a check may count: launched by the device, and not of an app whose title the agent
        writes (``App.titled_by_agent``; matched on the window's class, which the agent cannot change)."""
        agent_titled = [
            app.window.lower() for app in self.apps.values() if app.titled_by_agent and app.window
        ]
        return [
            w
            for w in self.owned_windows()
            if not any(k in f"{w.app} {w.instance}".lower() for k in agent_titled)
        ]

    def owned_elements(self) -> list[dict[str, Any]]:
        """A fresh element list of the launched apps only (for checks; the agent's own windows left out)."""
        b = self.budget
        tree = self.desktop.tree(
            budget_s=b.budget_s,
            max_nodes=b.max_nodes,
            max_children=b.max_children,
            max_cells=b.max_cells,
            fresh=True,
        )
        return element_list([n for n in tree.nodes if n.launched], whole_texts=True)

    def reset_apps(self) -> None:
        """Kill every app (the desktop itself keeps running) and forget the element list."""
        self.desktop.kill_apps()
        self.elements = []


def reached_process_limit(r: RunResult) -> bool:
    """The command's tree held (nearly) as many tasks as the process limit allows, as the jail sampled it.

    A fork that fails prints whatever its program chooses (bash: ``fork: retry``; Wine's ``start``:
    ``File not found.``), so the jail's count is the kernel-side fact; the margin covers the
    samples (twice a second) missing the exact peak and a program that needs several threads at once."""
    jail = r.jail or {}
    peak, limit = jail.get("peak_tasks"), jail.get("processes_limit")
    if not isinstance(peak, int) or not isinstance(limit, int) or limit <= 0:
        return False
    return peak >= limit - max(8, limit // 16)


def _ends(text: str, limit: int) -> str:
    """``text`` whole, or its head and tail with the cut stated (the head holds what a command printed first)."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4], text[-(limit // 4) :]
    what = f"{len(text) - len(head) - len(tail):,} of {len(text):,} characters not shown"
    return f"{head}\n{cut_note(what, 'print less at a time (head, tail, grep, sed -n)')}\n{tail}"


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
