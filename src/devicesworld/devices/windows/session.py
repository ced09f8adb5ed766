"""The GUI session of a Wine desktop: the shared :class:`GuiSession` with a Win32 element list and cmd.

Everything about input, settling, targets and selectors is the shared layer's
(:mod:`devicesworld.devices.desktop.gui`). Two things differ on Wine and are overridden
here: the element list comes from our HWND-tree helper (:mod:`.elements`; Wine has no
AT-SPI tree), and ``run_command`` runs a ``cmd.exe`` command line in
``C:\\Users\\user``, not bash.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from devicesworld.devices.base import ActionResult
from devicesworld.devices.desktop import actions as da
from devicesworld.devices.desktop.client import Desktop, DesktopError
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.elements import shown_text
from devicesworld.devices.desktop.gui import App, GuiSession
from devicesworld.devices.listing import tree_cut
from devicesworld.devices.windows import elements as we
from devicesworld.devices.windows.paths import PROFILE

HELPER = r"C:\windows\wintree.exe"
PROFILE_DIR = "/home/user/.wine/drive_c/users/user"
SCRIPT = r"C:\windows\temp\dw-command.cmd"
"""Where ``run_command`` puts the agent's command line (Wine's own folder: not the task's state)."""
TYPED = r"C:\windows\temp\dw-type.txt"
"""Where ``type_text`` puts text for the helper to type (Wine's own folder: not the task's state)."""
PREBOUND = "éèàüöäßçñáóíÉ"
"""Letters bound to spare keycodes right after the desktop starts, before any Wine app reads
the keymap, so XTest types them exactly."""
KEYMAP_SAFE = frozenset("".join(chr(c) for c in range(0x20, 0x7F)) + "\n\t" + PREBOUND)
"""Characters XTest types exactly into Wine: ASCII and ``PREBOUND``. Any other text goes
through the helper's ``--type``."""
WORDPAD = r"C:\Program Files\Windows NT\Accessories\wordpad.exe"
APP_OF_CLASS = {
    "notepad": "notepad",
    "wordpadtop": "wordpad",
    "explorerwclass": "explorer",
    "cabinetwclass": "explorer",
    "consolewindowclass": "cmd",
    "wineconsoleclass": "cmd",
}
"""Top-level window classes of the apps (elements carry the app's name in ``app``)."""


def wine_apps() -> dict[str, App]:
    """What ``launch_app`` opens: the four apps of the kind, started the way Wine 8 needs."""
    return {
        "notepad": App("notepad", ["wine", "notepad"], window="notepad.exe", idle_s=0.3),
        "wordpad": App("wordpad", ["wine", WORDPAD], window="wordpad.exe", idle_s=0.3),
        "explorer": App("explorer", ["wine", "explorer"], window="explorer.exe", idle_s=0.4),
        "cmd": App(
            "cmd",
            ["wineconsole", "cmd", "/k", f"cd /d {PROFILE}"],
            window="conhost.exe",
            takes_path=False,
            idle_s=0.3,
            titled_by_agent=True,  # ``title`` sets it, and the console shows whatever the agent echoes
        ),
    }


TREE_TEXT = 8000
"""Characters of a window's text the tree helper reads (its own default is 2,000); a text that
long is listed as possibly longer, and ``read_element`` says where the tree stops."""


class WineSession(GuiSession):
    """A :class:`GuiSession` whose elements are Win32 windows and whose terminal is cmd."""

    def __init__(
        self,
        desktop: Desktop,
        *,
        tree: bool = True,
        write_script: Callable[[str, bytes], None] | None = None,
        **kw: Any,
    ) -> None:
        # Wine's dialogs (Save As enumerates the folder through the shell) work in bursts
        # with short pauses: a longer quiet time than the shared default before a step ends.
        kw.setdefault("settle_s", 0.4)
        super().__init__(desktop, wine_apps(), **kw)
        self.write_script = write_script
        self.tree_enabled = tree
        self.raw: we.RawTree | None = None
        self.tree_error: str | None = None
        self._handlers["run_command"] = self._run_cmd
        self._handlers["type_text"] = self._type_any
        self.helper_typed = 0
        """How many ``type_text`` steps went through the helper (for tests and benchmarks)."""

    # ---------------------------------------------------------------- tree
    def win_tree(self) -> we.RawTree:
        """The current HWND tree (one run of the helper in the desktop); raises ``DesktopError``."""
        r = self.desktop.run(
            f"wine {shlex.quote(HELPER)} --max-text {TREE_TEXT}", timeout_s=30, output_bytes=8 << 20
        )
        if r.exit_code != 0:
            raise DesktopError(
                "DESKTOP_ERROR", f"the element-tree helper failed (exit {r.exit_code}): {r.stderr[-300:]}"
            )
        try:
            return we.parse(r.stdout)
        except we.TreeError as exc:
            raise DesktopError("DESKTOP_ERROR", str(exc)) from None

    def element_dicts(self, tree: we.RawTree) -> list[dict[str, Any]]:
        ready = self.desktop.ready
        screen = (ready.width, ready.height) if ready else (1280, 800)
        apps_by_pid: dict[int, str] = {}
        for node in tree.windows:
            app = APP_OF_CLASS.get(node.cls.lower())
            if node.p == 0 and app:
                apps_by_pid.setdefault(node.pid, app)
        pid_of = {n.h: n.pid for n in tree.windows}
        title_of = {n.h: n.text for n in tree.windows if n.p == 0}
        out: list[dict[str, Any]] = []
        self.texts = []
        self.text_lens = []
        for el in we.elements(tree, screen):
            # Long names and texts are listed cut, with a note naming read_element (whole in self.texts).
            d: dict[str, Any] = {"index": el.index, "role": el.role, "name": shown_text(el.index, el.name)}
            whole = el.text if el.text is not None else el.name
            self.texts.append(whole)
            # a text as long as the helper reads may be longer: say so (its full length is unknown)
            self.text_lens.append(0 if len(whole) >= TREE_TEXT else None)
            if el.text is not None:
                d["text"] = shown_text(el.index, el.text)
            d["states"] = el.states
            d["box"] = list(el.box)
            d["app"] = apps_by_pid.get(pid_of.get(el.window, 0), "")
            # the top-level window's title, as on Linux: prompts list a dialog's elements first
            d["window"] = title_of.get(el.window, "")
            out.append(d)
        return out

    def observe(self) -> dict[str, Any]:
        try:
            wins = [w for w in self.desktop.windows() if w.mapped]
        except DesktopError as exc:
            self.elements = []
            return {"error": f"the desktop did not answer: {exc.message}", "windows": [], "elements": []}
        self.tree_error = None
        if self.tree_enabled:
            try:
                self.raw = self.win_tree()
                self.elements = self.element_dicts(self.raw)
            except DesktopError as exc:
                self.raw, self.elements, self.tree_error = None, [], exc.message
        else:
            self.elements = []
        focused = next((w for w in wins if w.focused), None)
        ready = self.desktop.ready
        obs: dict[str, Any] = {
            "screen": {"width": ready.width, "height": ready.height} if ready else None,
            "focused_window": _shown(focused) if focused else None,
            "windows": [_shown(w) for w in wins],
            "elements": self.elements,
        }
        if self.tree_error:
            obs["tree_incomplete"] = tree_cut(self.tree_error)
        elif self.raw is not None and self.raw.truncated:
            obs["tree_incomplete"] = tree_cut("node cap")
        return obs

    # ---------------------------------------------------------------- typing
    def _type_any(self, g: da.TypeTextArgs) -> ActionResult:
        # A running Wine app misses most keymap changes made after it started, so XTest can
        # only type what the keymap held at start-up. Other text goes to the Windows side:
        # the helper sends each UTF-16 unit with SendInput(KEYEVENTF_UNICODE) to the focused
        # window, which needs no keysym at all.
        if set(g.text) <= KEYMAP_SAFE or self.write_script is None:
            return super()._type(g)
        self.write_script(TYPED, g.text.encode("utf-8"))
        r = self.desktop.run(
            f"wine {shlex.quote(HELPER)} --type {shlex.quote(TYPED)} </dev/null",
            timeout_s=60 + len(g.text) * 0.05,
            cwd=PROFILE_DIR,
        )
        self.settle()
        if r.exit_code != 0:
            return ActionResult.failure(
                "DESKTOP_ERROR", f"typing through the helper failed (exit {r.exit_code}): {r.stderr[-300:]}"
            )
        self.helper_typed += 1
        return ActionResult.success(f"typed {len(g.text)} characters")

    # ---------------------------------------------------------------- cmd
    def _run_cmd(self, g: da.RunCommandArgs) -> ActionResult:
        # The command line goes into a batch file: passed as an argument, Wine would quote it
        # for a Windows command line (inner quotes become \") and cmd would misread it.
        if self.write_script is None:
            return ActionResult.failure("UNSUPPORTED", "this desktop has no command prompt")
        body = f"@echo off\r\ncd /d {PROFILE}\r\n{g.command}\r\nexit /b %errorlevel%\r\n"
        try:
            self.write_script(SCRIPT, body.encode("cp1252"))
        except UnicodeEncodeError:
            return ActionResult.failure(
                "INVALID_ARGS", "the command has characters cmd.exe cannot read (use ANSI/cp1252 text)"
            )
        if Path(WINE_LOADER).is_file():
            # Wine's loader itself, not the ``wine`` shell script: under the Landlock fence only
            # Wine may run, so ``start /unix /bin/sh`` and ``\\?\unix\`` outside the home fail
            r = self.desktop.run(
                argv=[WINE_LOADER, "cmd", "/c", SCRIPT],
                timeout_s=g.timeout_s,
                cwd=PROFILE_DIR,
                landlock=cmd_fence(),
                env={**self.env, "WINELOADER": WINE_LOADER},  # the task's clock (GuiSession.env)
            )
        else:
            r = self.desktop.run(
                f"wine cmd /c {shlex.quote(SCRIPT)} </dev/null",
                timeout_s=g.timeout_s,
                cwd=PROFILE_DIR,
                env=self.env,
            )
        return self.command_result(g, r)


WINE_LOADER = "/usr/lib/wine/wine64"
"""Debian's Wine loader (``wine`` is a shell script that executes it)."""
# ``/mnt``, not ``/mnt/drive``: a pooled desktop's fence is made before the task's drive is bound
# over ``/mnt/drive``, and a Landlock rule holds the inode it was given, not the later mount on it;
# the rule on the parent covers whatever is mounted beneath (the sandbox's /mnt holds only the drive)
CMD_RW = ("/home/user", "/tmp", "/mnt", "/dev")
CMD_RO = ("/usr", "/etc", "/proc", "/sys", CLOCK_MOUNT)
"""(``CLOCK_MOUNT``: the task's clock, which libfaketime reads in every Wine process.)"""


# What the desktop needs of the system once its core runs, and no more: Wine's server opens files for
# every client (``type \\?\unix\etc\passwd`` is the server's open), so whatever this grants the
# agent can read through ``\\?\unix\``. Wine (loader, builtins, NLS, fonts), the shared libraries,
# the controller's Python, the X data Xlib reads, fonts and time zones; of ``/etc`` only the loader's
# cache, fontconfig and the local time. Not ``/etc/passwd``, not ``/usr/share`` at large, not ``/``.
# ``/proc`` and ``/sys`` stay: the controller and the jail count processes and map ids through them.
DESKTOP_EXEC = ("/usr/bin", "/usr/lib/wine")
DESKTOP_RO = (
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/python3",
    "/usr/lib/python3.11",
    "/usr/lib/locale",
    "/usr/share/wine",
    "/usr/share/fonts",
    "/usr/share/X11",
    "/usr/share/zoneinfo",
    "/usr/share/fontconfig",  # the configuration /etc/fonts/conf.d links to (without it other fonts: dialogs change size)
    "/var/cache/fontconfig",
    "/etc/ld.so.cache",
    "/etc/fonts",
    "/etc/localtime",
    CLOCK_MOUNT,  # the task's clock (libfaketime reads it in every Wine app)
    "/proc",
    "/sys",
    "/opt/dw/jail.py",
)


def desktop_fence() -> dict[str, list[str]]:
    """The whole Windows desktop's fence (its controller, Wine's server, the apps): the home, ``/tmp``,
    the drive and only the parts of the system Wine and the controller use; not ``/`` itself,
    ``/etc`` at large, the rest of ``/usr`` or ``/opt`` (the controller)."""
    loader = os.path.realpath("/lib64/ld-linux-x86-64.so.2")
    return {
        "exec": [*DESKTOP_EXEC, loader],
        "ro": list(DESKTOP_RO),
        "rw": list(CMD_RW),
        "hide": list(SERVER_HIDES),
    }


SERVER_HIDES = ("/proc", "/sys")
"""Covered by an empty tmpfs in ``wineserver``'s own mount namespace (the controller and the jail need
``/proc``; the server, which opens ``\\\\?\\unix\\proc\\...`` for the agent, does not)."""

SERVER_ARGV = ("/usr/lib/wine/wineserver64", "-f", "-p")
"""How the desktop starts Wine's persistent server: in the namespace that hides ``SERVER_HIDES``, in the
foreground (``-f``: measured, a server that daemonized itself there did not last)."""


def cmd_fence() -> dict[str, list[str]]:
    """What the agent's ``cmd`` may touch on the Linux side (Landlock): execute Wine only, write the
    home, ``/tmp`` and the drive, read the system. No Linux shell, no ``/opt`` or ``/``."""
    loader = os.path.realpath("/lib64/ld-linux-x86-64.so.2")
    return {"exec": [str(Path(WINE_LOADER).parent), loader], "ro": list(CMD_RO), "rw": list(CMD_RW)}


def _shown(w: Any) -> dict[str, Any]:
    return {"title": w.title, "app": w.app, "box": list(w.box), "focused": w.focused}


def element_texts(session: WineSession, role: str | None, title: str | None) -> list[str]:
    """Texts of the current tree's windows (every window, not only visible ones, but no console) for getters."""
    tree = session.win_tree()
    tops: Mapping[int, str] = {n.h: n.text for n in tree.windows if n.p == 0}
    consoles = {n.h for n in tree.windows if n.p == 0 and APP_OF_CLASS.get(n.cls.lower()) == "cmd"}
    top_of: dict[int, int] = {}
    out: list[str] = []
    for n in tree.windows:
        top = n.h if n.p == 0 else top_of.get(n.p, n.p)
        top_of[n.h] = top
        if top in consoles:  # a console's title and text are whatever the agent typed or echoed
            continue
        if role is not None and n.cls.lower() != role.lower():
            continue
        if title is not None and title.lower() not in tops.get(top, "").lower():
            continue
        out.append(n.text)
        out.extend(item.text for item in n.items)
    return out
