"""The PC's task-file macros: its Wine dialogs and console as steps a task file names, not spells out.

Source families (``tasks/data/sources``) write ``macro('windows', 'save_as', DEV, path=...)``
rather than the keys and the waits, which are knowledge of this kind (how long Wine's
Save As dialog takes to take focus, how the console is closed).
"""

from __future__ import annotations

from typing import Any

from devicesworld.macros import MacroContext, MacroError, register

KIND = "windows"

CMD_WAIT_S = 2.0
"""Time for a command typed into the console to run before ``exit`` is typed (cmd reads ``exit`` only
once the command is done, so a slow one still finishes first)."""

SAVE_WAIT_S = 3.0
"""The Save As dialog takes a second or more to appear on a loaded machine, and keys typed before it
has focus go into the document: wait for it first."""


def _text(args: Any, macro: str, key: str) -> str:
    if not isinstance(args, dict) or set(args) != {key} or not isinstance(args[key], str):
        raise MacroError(f"{macro} takes {{{key}: text}}, got {args!r}")
    return str(args[key])


@register(
    KIND,
    "solution",
    "save_as",
    "save_as: {path} — ctrl+s in a new file, then the path into the Save As dialog",
)
def _save_as(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    path = _text(args, "save_as", "path")
    return [
        {"action": "hotkey", "args": {"keys": ["ctrl", "s"]}},
        {"action": "wait", "args": {"seconds": SAVE_WAIT_S}},
        {"action": "type_text", "args": {"text": path + "\n"}},
    ]


@register(
    KIND, "solution", "cmd", "cmd: {command} — type a command into a new command prompt, run it, close it"
)
def _cmd(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    """The console is an app of the GUI action space, so a reference solution that uses it needs no
    ``run_command`` and the PC is declared GUI-only (issue #34); it opens in the user's profile folder."""
    command = _text(args, "cmd", "command")
    return [
        {"action": "launch_app", "args": {"app": "cmd"}},
        {"action": "type_text", "args": {"text": command + "\n"}},
        {"action": "wait", "args": {"seconds": CMD_WAIT_S}},
        {"action": "type_text", "args": {"text": "exit\n"}},
    ]
