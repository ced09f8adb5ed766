"""The ``windows`` device kind: every action, setup op, getter and check, declared as data.

The actions are the shared GUI action space (:func:`gui_action_specs`), with the four
Wine apps as ``launch_app``'s choices and ``run_command`` running cmd.exe.
"""

from __future__ import annotations

from devicesworld.devices.base import DeviceKind, GetterSpec, NoArgs, OpSpec, by_name
from devicesworld.devices.desktop.actions import gui_action_specs, launch_args_model
from devicesworld.devices.windows import args as a
from devicesworld.devices.windows.checks import CHECKS
from devicesworld.devices.windows.device import factory
from devicesworld.devices.windows.state import STATE, with_writes

LAUNCH_MODEL = launch_args_model(list(a.APPS))

ACTIONS = gui_action_specs(
    list(a.APPS),
    terminal_doc=r"Run a cmd.exe command line in C:\Users\user (e.g. 'move Desktop\a.txt Documents'); returns exit code and output.",
)

SETUP_OPS = [
    OpSpec(
        name="write_text",
        doc="A text file (encoding ansi|utf-8|utf-8-bom|utf-16, CRLF line ends by default).",
        args_model=a.WriteTextOp,
    ),
    OpSpec(
        name="write_rtf",
        doc="A WordPad RTF document: paragraphs of text or styled runs.",
        args_model=a.WriteRtfOp,
    ),
    OpSpec(name="make_dir", doc="A folder.", args_model=a.PathArgs),
    OpSpec(
        name="launch", doc="Open an app (optionally on a file) before the task starts.", args_model=a.LaunchOp
    ),
]

GETTERS = [
    GetterSpec(name="file_info", doc="exists / is_dir / size of a Windows path.", args_model=a.PathArgs),
    GetterSpec(
        name="text",
        doc="A text file's content in any Notepad encoding (None if missing).",
        args_model=a.PathArgs,
    ),
    GetterSpec(
        name="raw_encoding",
        doc="ascii / ansi / utf-8 / utf-8-bom / utf-16 of a text file.",
        args_model=a.PathArgs,
    ),
    GetterSpec(name="rtf", doc="An RTF document's paragraphs and styled runs.", args_model=a.PathArgs),
    GetterSpec(name="listing", doc="Every file under a folder, relative.", args_model=a.ListingArgs),
    GetterSpec(name="windows", doc="The open windows: title, app, focused.", args_model=NoArgs),
    GetterSpec(
        name="element_texts",
        doc="Texts of the element tree's windows (optionally of a class / window).",
        args_model=a.ElementTextsArgs,
    ),
    GetterSpec(name="drive", doc="Every file on the shared drive (N:).", args_model=NoArgs),
    GetterSpec(name="files", doc="Every user file on C: and N: by Windows path.", args_model=NoArgs),
]

KIND = DeviceKind(
    name="windows",
    doc=r"A Windows desktop on Wine (Notepad, WordPad, Explorer, cmd) with C:\Users\user\Desktop|Documents and the network drive N:.",
    factory=factory,
    actions=by_name(ACTIONS),
    setup_ops=by_name(SETUP_OPS),
    getters=by_name(GETTERS),
    checks=by_name(with_writes(CHECKS)),
    profile_model=a.WindowsProfile,
    state=STATE,
)
