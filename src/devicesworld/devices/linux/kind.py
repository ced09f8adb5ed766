"""The ``linux`` device kind: every action, setup op, getter and check, declared as data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.devices.base import ActionSpec, DeviceKind, GetterSpec, NoArgs, OpSpec, by_name
from devicesworld.devices.desktop.actions import gui_action_specs
from devicesworld.devices.linux import args as a
from devicesworld.devices.linux.checks import CHECKS
from devicesworld.devices.linux.device import factory
from devicesworld.devices.linux.gui.apps import APPS
from devicesworld.devices.linux.gui.checks import GUI_CHECKS
from devicesworld.devices.linux.state import STATE, with_writes

ACTIONS = [
    ActionSpec(
        name="run_command",
        doc="Run a bash command in the current folder; returns exit code, stdout, stderr.",
        args_model=a.RunCommandArgs,
    ),
    ActionSpec(name="read_file", doc="Read a text file.", args_model=a.ReadFileArgs),
    ActionSpec(
        name="write_file",
        doc="Write (or append to) a text file, creating folders as needed.",
        args_model=a.WriteFileArgs,
    ),
    ActionSpec(name="list_dir", doc="List a folder.", args_model=a.ListDirArgs),
    ActionSpec(name="delete_file", doc="Delete a file or folder.", args_model=a.DeleteArgs),
    ActionSpec(
        name="read_document",
        doc="Open a document and show its content: xlsx sheets, docx paragraphs, PDF text, CSV/JSON, image/audio info, archive members, .eml.",
        args_model=a.PathArgs,
    ),
    ActionSpec(
        name="write_document",
        doc="Save a document; the format follows the extension (.xlsx/.csv rows, .docx/.pdf paragraphs, .json data).",
        args_model=a.WriteDocumentArgs,
    ),
    ActionSpec(
        name="write_email_draft",
        doc="Save an email draft (.eml) in ~/Mail/Drafts.",
        args_model=a.WriteEmailArgs,
    ),
    ActionSpec(
        name="browser_open",
        doc="Open a URL in the browser (only the task's local sites are reachable).",
        args_model=a.OpenUrlArgs,
    ),
    ActionSpec(
        name="browser_read", doc="Read the current page as text; interactive elements are numbered [n]."
    ),
    ActionSpec(
        name="browser_click",
        doc="Click element [n] (follow a link, press a button, tick a box).",
        args_model=a.ElementArgs,
    ),
    ActionSpec(
        name="browser_type",
        doc="Type text into field [n] (replacing its content unless clear=false).",
        args_model=a.TypeArgs,
    ),
    ActionSpec(name="browser_select", doc="Choose an option of select [n].", args_model=a.SelectArgs),
    ActionSpec(
        name="browser_submit",
        doc="Submit the form that holds element [n] (or the page's only form).",
        args_model=a.SubmitArgs,
    ),
    ActionSpec(name="browser_back", doc="Go back to the previous page."),
    ActionSpec(
        name="browser_screenshot",
        doc="Take a screenshot of the browser page; it is saved in ~/Pictures/Screenshots.",
    ),
]

SETUP_OPS = [
    OpSpec(name="write_text", doc="A UTF-8 text file.", args_model=a.WriteTextOp),
    OpSpec(name="write_csv", doc="A CSV file from rows.", args_model=a.WriteCsvOp),
    OpSpec(name="write_json", doc="A JSON file (pretty-printed).", args_model=a.WriteJsonOp),
    OpSpec(name="write_xlsx", doc="An xlsx workbook: sheet name -> rows.", args_model=a.WriteXlsxOp),
    OpSpec(
        name="write_docx",
        doc="A docx document: optional title, paragraphs, optional table.",
        args_model=a.WriteDocxOp,
    ),
    OpSpec(name="write_pdf", doc="A PDF: optional title and paragraphs.", args_model=a.WritePdfOp),
    OpSpec(
        name="write_image",
        doc="An image (PNG/JPEG by extension) of a size and colour, with optional text.",
        args_model=a.WriteImageOp,
    ),
    OpSpec(name="write_wav", doc="A WAV tone of a duration.", args_model=a.WriteWavOp),
    OpSpec(
        name="write_archive",
        doc="A zip or tar(.gz) archive of text files (format by extension).",
        args_model=a.WriteTreeOp,
    ),
    OpSpec(
        name="write_project",
        doc="A folder of text files, e.g. a Python package with tests.",
        args_model=a.WriteTreeOp,
    ),
    OpSpec(
        name="write_eml", doc="An email .eml (by default a draft in ~/Mail/Drafts).", args_model=a.WriteEmlOp
    ),
    OpSpec(name="make_dir", doc="A folder.", args_model=a.PathArgs),
    OpSpec(name="run", doc="Run a shell command in the sandbox (must exit 0).", args_model=a.RunOp),
    OpSpec(
        name="open_app",
        doc="GUI desktops: start with an app open (and idle), optionally on a file or folder.",
        args_model=a.OpenAppOp,
    ),
    OpSpec(
        name="add_site",
        doc="Serve a local web site for this task at http://<host>.test/.",
        args_model=a.AddSiteOp,
    ),
]

GETTERS = [
    GetterSpec(name="file_info", doc="exists / is_dir / size of a path.", args_model=a.PathArgs),
    GetterSpec(name="text", doc="A text file's content (None if missing).", args_model=a.PathArgs),
    GetterSpec(name="json", doc="A JSON file's value.", args_model=a.PathArgs),
    GetterSpec(name="csv", doc="A CSV file's rows.", args_model=a.PathArgs),
    GetterSpec(name="xlsx", doc="An xlsx sheet's rows (first sheet by default).", args_model=a.SheetArgs),
    GetterSpec(name="docx", doc="A docx's paragraphs and table rows.", args_model=a.PathArgs),
    GetterSpec(
        name="docx_runs",
        doc="A docx's paragraphs with their runs' bold/italic/underline.",
        args_model=a.PathArgs,
    ),
    GetterSpec(
        name="xlsx_formulas", doc="An xlsx sheet's rows with formulas as text.", args_model=a.SheetArgs
    ),
    GetterSpec(
        name="windows", doc="GUI desktops: the open windows (title, app, focused).", args_model=NoArgs
    ),
    GetterSpec(
        name="elements", doc="GUI desktops: the current accessibility element list.", args_model=NoArgs
    ),
    GetterSpec(name="pdf_text", doc="A PDF's extracted text.", args_model=a.PathArgs),
    GetterSpec(name="image", doc="An image's width, height, mode, format.", args_model=a.PathArgs),
    GetterSpec(name="wav", doc="A WAV file's channels, sample rate, frames, seconds.", args_model=a.PathArgs),
    GetterSpec(name="archive", doc="An archive's member names.", args_model=a.PathArgs),
    GetterSpec(name="email_drafts", doc="Parsed .eml drafts in a folder.", args_model=a.DraftsArgs),
    GetterSpec(name="listing", doc="Every file under a folder, relative.", args_model=a.PathArgs),
    GetterSpec(
        name="run",
        doc="Run a command in the sandbox: exit code and output (e.g. a project's tests).",
        args_model=a.CommandGetterArgs,
    ),
    GetterSpec(
        name="site_submissions",
        doc="Form submissions recorded by the local sites.",
        args_model=a.SiteFilterArgs,
    ),
    GetterSpec(
        name="site_visits", doc="Page views recorded by the local sites.", args_model=a.SiteFilterArgs
    ),
    GetterSpec(
        name="browser", doc="The browser's current URL and title (None before any page).", args_model=NoArgs
    ),
    GetterSpec(name="shell_history", doc="Commands the agent ran, with exit codes.", args_model=NoArgs),
    GetterSpec(name="drive", doc="Every file on the shared drive.", args_model=NoArgs),
]

GUI_ACTIONS: Mapping[str, ActionSpec] = by_name(
    gui_action_specs(
        list(APPS),
        terminal_doc="Run a bash command in the desktop's terminal session; returns exit code, stdout and stderr.",
    )
)
"""The action space of a ``desktop: gui`` device: JarvisGUI's unified space (docs/gui.md)."""


def profile_actions(profile: Mapping[str, Any]) -> Mapping[str, ActionSpec]:
    """GUI desktops publish and accept the GUI space; the tool-style actions stay with ``api``."""
    return GUI_ACTIONS if profile.get("desktop") == "gui" else ACTION_TABLE


ACTION_TABLE: Mapping[str, ActionSpec] = by_name(ACTIONS)

KIND = DeviceKind(
    name="linux",
    doc="A Linux desktop in a bubblewrap sandbox: shell, files, office documents, mail drafts, a browser on local sites, ~/Drive.",
    factory=factory,
    actions=ACTION_TABLE,
    setup_ops=by_name(SETUP_OPS),
    getters=by_name(GETTERS),
    checks=by_name(with_writes([*CHECKS, *GUI_CHECKS])),
    profile_model=a.LinuxProfile,
    state=STATE,
    profile_actions=profile_actions,
)
