"""A tool-style desktop step done through the GUI: the steps that replace it on a ``desktop: gui`` device.

A scenario family writes its desktop steps once, in the tool vocabulary of the ``api``
profile (``read_file``, ``write_file``, ``list_dir``, ``read_document``); a family that
runs its desktops as GUI desktops (``gui: [role]``, docs/scenarios.md) gets each of those
steps translated here into what a person does at the screen: open the file in the text
editor, Writer, Calc or the PDF viewer, or the folder in the file manager; select all, type the new
text and save. A ``run_command`` step is typed into the terminal app's window (open the
terminal, type the command and Enter, let it run, ``exit``): the terminal is an app of the
GUI action space, so the reference solution needs no shell action and the desktop can be
declared ``desktop: gui`` (issue #34).

The built-in browser's steps (open a page, type into a field, pick an option, submit) go
to Chromium through :mod:`.by_browser`, which needs the task's sites and the page the
browser is on, so :func:`gui_solution` translates a device's steps in order, with its
setup. What cannot be done faithfully through these apps raises :class:`NoGuiWay` with the
reason, and the compiler turns it into a family error. A mail draft is written in the
mail client (:mod:`.by_mail`); a saved ``.eml`` message reads in the text editor (it is
plain text), and an archive's members are listed in the terminal app (there is no
archive manager).

Opening a file names it on the command line (``launch_app`` with ``path``); the text
editor opens a missing path as a new, empty file that ``ctrl+s`` creates, so writing
needs no file dialog. Every translated step closes the window it opened (``ctrl+w``,
after saving), as a person does when done with a file: an app asked to open a file it
already shows only raises that window, so a step that left it open would make the next
step on the same file wait for a window that never comes, and each step's GUI steps
would depend on the ones before them.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from devicesworld.devices.linux.gui.by_browser import BROWSER_ACTIONS, BrowserSteps, sites_of
from devicesworld.devices.linux.gui.by_mail import draft_steps
from devicesworld.devices.linux.resources.writers import archive_format
from devicesworld.spec.models import Step

GUI_PROFILE: dict[str, Any] = {"desktop": "gui"}
"""The profile of a desktop a family runs through the GUI."""

TEXT_SUFFIXES = frozenset({".txt", ".md", ".json", ".log", ".conf", ".ini", ".py", ".yaml", ".yml", ".csv"})
"""Files the text editor shows as they are (a ``.csv`` too: Calc would stop at its import dialog)."""

VIEWER_APPS = {".docx": "writer", ".odt": "writer", ".xlsx": "calc", ".ods": "calc", ".pdf": "pdf_viewer"}
"""Documents an app other than the text editor shows, by extension: LibreOffice, and Evince for a
PDF (its page text is in the element list)."""

MESSAGE_SUFFIXES = frozenset({".eml"})
"""Saved mail messages: the desktop writes them as plain UTF-8 text (8bit, no encoding), so with no
mail client on the desktop they read in the text editor as the file they are, headers first."""

ARCHIVE_LISTERS = {"zip": "unzip -l", "tar": "tar -tvf", "tar.gz": "tar -tvzf"}
"""Archive formats (:func:`archive_format`, as the desktop writes them) -> the terminal command that
lists their members (no archive manager on the desktop; the command is typed into the terminal app)."""

SAVE_WAIT_S = 1.0
"""Time for the editor to finish writing a saved file before the next step."""

COMMAND_WAIT_S = 1.0
"""Time for a command typed into the terminal to run before its window is closed (``exit`` is read by
the shell only once the command is done, so a slow command still finishes first)."""


class NoGuiWay(KeyError):
    """A tool step that has no faithful GUI equivalent on the Linux desktop."""


def _suffix(path: str) -> str:
    return PurePosixPath(path).suffix.lower()


def _open(app: str, path: str, device: str | None) -> Step:
    return Step(device=device, action="launch_app", args={"app": app, "path": path})


def _close(device: str | None) -> Step:
    return Step(device=device, action="hotkey", args={"keys": ["ctrl", "w"]})


def _look(app: str, path: str, device: str | None) -> list[Step]:
    """Open ``path`` in ``app`` (its content is on the screen for the next observation), then close it."""
    return [_open(app, path, device), _close(device)]


def _viewer(path: str, device: str | None, action: str) -> list[Step]:
    suffix = _suffix(path)
    if suffix in VIEWER_APPS:
        return _look(VIEWER_APPS[suffix], path, device)
    if suffix in TEXT_SUFFIXES or suffix in MESSAGE_SUFFIXES or suffix == "":
        return _look("text_editor", path, device)
    if action == "read_document":
        try:
            lister = ARCHIVE_LISTERS[archive_format(Path(path))]
        except ValueError:
            pass
        else:
            return _terminal(f"{lister} {_shell_path(path)}", device)
    raise NoGuiWay(f"{action} {path}: no app of the GUI desktop shows {suffix or 'this'} files")


def _terminal(command: str, device: str | None) -> list[Step]:
    """``command`` typed into a new terminal window, run, and the window closed with ``exit``."""
    return [
        Step(device=device, action="launch_app", args={"app": "terminal"}),
        Step(device=device, action="type_text", args={"text": command.rstrip("\n") + "\n"}),
        Step(device=device, action="wait", args={"seconds": COMMAND_WAIT_S}),
        Step(device=device, action="type_text", args={"text": "exit\n"}),
    ]


def _shell_path(path: str) -> str:
    """``path`` quoted for the shell, ``~/`` kept as the home it means."""
    if path == "~" or path.startswith("~/"):
        return '"$HOME"' + (shlex.quote(path[1:]) if len(path) > 1 else "")
    return shlex.quote(path)


def _write_text(path: str, text: str, device: str | None, *, append: bool = False) -> list[Step]:
    """Replace the file's text (select all, type) or, with ``append``, type at its end."""
    return [
        _open("text_editor", path, device),
        Step(device=device, action="hotkey", args={"keys": ["ctrl", "End" if append else "a"]}),
        Step(device=device, action="type_text", args={"text": text}),
        Step(device=device, action="hotkey", args={"keys": ["ctrl", "s"]}),
        Step(device=device, action="wait", args={"seconds": SAVE_WAIT_S}),
        _close(device),
    ]


def gui_steps(step: Step) -> list[Step]:
    """The GUI steps that do what ``step`` (a tool-style desktop step) does; :class:`NoGuiWay` if none."""
    device, args = step.device, step.args
    if step.action == "run_command":
        return _terminal(str(args["command"]), device)
    if step.action in ("read_file", "read_document"):
        return _viewer(str(args["path"]), device, step.action)
    if step.action == "list_dir":
        return _look("files", str(args.get("path", "~")), device)
    if step.action == "write_file":
        return _write_text(str(args["path"]), str(args["content"]), device, append=bool(args.get("append")))
    if step.action == "write_document" and _suffix(str(args["path"])) == ".json":
        text = json.dumps(args.get("data"), indent=2, ensure_ascii=False) + "\n"
        return _write_text(str(args["path"]), text, device)
    if step.action == "write_email_draft":
        return draft_steps(args, device)
    if step.action in BROWSER_ACTIONS:
        raise NoGuiWay(f"{step.action} needs the page the browser is on: translate it with gui_solution")
    raise NoGuiWay(f"{step.action} has no GUI way on the Linux desktop yet (docs/gui.md)")


def gui_solution(steps: Sequence[Step], setup: Sequence[Any]) -> list[list[Step]]:
    """One device's tool-style steps, in order, done through the GUI: for each step its GUI steps.

    ``setup`` is the device's setup ops (its ``add_site`` sites are the pages the browser
    steps act on). A step with no faithful GUI way raises ``KeyError`` with the reason.
    """
    browser = BrowserSteps(sites_of(setup), steps[0].device if steps else None)
    return [browser.translate(s) if s.action in BROWSER_ACTIONS else gui_steps(s) for s in steps]
