"""Getters of the ``linux`` kind: JSON views of a desktop's files, sites and history for verifiers.

Each getter is declared on its handler (:mod:`devicesworld.devices.declare`). Documents
are parsed through :mod:`.resources.isolate` (size, time and memory caps); a missing
file reads as ``None``, so checks report it instead of failing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from devicesworld.devices.base import DeviceError, NoArgs
from devicesworld.devices.declare import GetterTable
from devicesworld.devices.desktop.client import DesktopError
from devicesworld.devices.linux import args as a

if TYPE_CHECKING:
    from devicesworld.devices.linux.device import LinuxDevice

GETTERS: GetterTable[LinuxDevice] = GetterTable("linux")


@GETTERS.register("file_info", doc="exists / is_dir / size of a path.", args=a.PathArgs)
def file_info(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._file_info(g.path)


_FileArgs = a.PathArgs | a.SheetArgs


def _document(fmt: str) -> Callable[[LinuxDevice, _FileArgs], object]:
    """A getter that parses one file in ``fmt`` (and, for a sheet format, the sheet asked for)."""

    def getter(d: LinuxDevice, g: _FileArgs) -> object:
        return d._read(g.path, fmt, g.sheet if isinstance(g, a.SheetArgs) else None)

    return getter


_DOCUMENTS: tuple[tuple[str, str, str, type[_FileArgs]], ...] = (
    ("text", "A text file's content (None if missing).", "text", a.PathArgs),
    ("json", "A JSON file's value.", "json", a.PathArgs),
    ("csv", "A CSV file's rows.", "csv", a.PathArgs),
    ("xlsx", "An xlsx sheet's rows (first sheet by default).", "xlsx", a.SheetArgs),
    ("docx", "A docx's paragraphs and table rows.", "docx", a.PathArgs),
    ("pdf_text", "A PDF's extracted text.", "pdf", a.PathArgs),
    ("image", "An image's width, height, mode, format.", "image", a.PathArgs),
    ("wav", "A WAV file's channels, sample rate, frames, seconds.", "wav", a.PathArgs),
    ("archive", "An archive's member names.", "archive", a.PathArgs),
)
"""Getters that parse one file each: name, doc, the format :mod:`.resources.isolate` reads, args."""

for _name, _doc, _fmt, _args in _DOCUMENTS:
    GETTERS.register(_name, doc=_doc, args=_args)(_document(_fmt))


@GETTERS.register(
    "email_drafts",
    doc="Parsed drafts in a folder (.eml files and a mail client's numbered message files).",
    args=a.DraftsArgs,
)
def email_drafts(d: LinuxDevice, g: a.DraftsArgs) -> object:
    return d._drafts(g.folder)


@GETTERS.register("listing", doc="Every file under a folder, relative.", args=a.PathArgs)
def listing(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._listing(g.path)


@GETTERS.register(
    "run",
    doc="Run a command in the sandbox: exit code and output (e.g. a project's tests).",
    args=a.CommandGetterArgs,
)
def run(d: LinuxDevice, g: a.CommandGetterArgs) -> object:
    saved = d.sandbox.cwd
    try:
        d.sandbox.cwd = d._shown(g.cwd)
        result = d.sandbox.run(g.command, timeout=g.timeout_s, keep_cwd=False)
    finally:
        d.sandbox.cwd = saved
    return {"exit_code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}


@GETTERS.register(
    "site_submissions", doc="Form submissions recorded by the local sites.", args=a.SiteFilterArgs
)
def site_submissions(d: LinuxDevice, g: a.SiteFilterArgs) -> object:
    return d.sites.submissions(g.host, g.form, g.path)


@GETTERS.register("site_visits", doc="Page views recorded by the local sites.", args=a.SiteFilterArgs)
def site_visits(d: LinuxDevice, g: a.SiteFilterArgs) -> object:
    return d.sites.visits(g.host, g.path)


@GETTERS.register("browser", doc="The browser's current URL and title (None before any page).", args=NoArgs)
def browser(d: LinuxDevice, g: NoArgs) -> object:
    return d.browser_page()


@GETTERS.register("shell_history", doc="Commands the agent ran, with exit codes.", args=NoArgs)
def shell_history(d: LinuxDevice, g: NoArgs) -> object:
    return list(d.history)


@GETTERS.register("drive", doc="Every file on the shared drive.", args=NoArgs)
def drive(d: LinuxDevice, g: NoArgs) -> object:
    return d.drive.listing()


GETTERS.register(
    "docx_runs", doc="A docx's paragraphs with their runs' bold/italic/underline.", args=a.PathArgs
)(_document("docx_runs"))
GETTERS.register("xlsx_formulas", doc="An xlsx sheet's rows with formulas as text.", args=a.SheetArgs)(
    _document("xlsx_formulas")
)


@GETTERS.register("windows", doc="GUI desktops: the open windows (title, app, focused).", args=NoArgs)
def windows(d: LinuxDevice, g: NoArgs) -> object:
    """``None`` on a desktop without a GUI, ``[]`` before its desktop has started."""
    if d.gui is None or not d.gui.started:
        return [] if d.gui is not None else None
    try:
        # only windows of apps the device launched, and not the terminal's (its title is the agent's):
        # one the agent's shell made, or a title it printed, cannot satisfy a check
        return [
            {"title": w.title, "app": w.app, "focused": w.focused} for w in d.gui.session.checkable_windows()
        ]
    except DesktopError as exc:
        raise DeviceError(exc.code, exc.message) from None


@GETTERS.register("elements", doc="GUI desktops: the current accessibility element list.", args=NoArgs)
def elements(d: LinuxDevice, g: NoArgs) -> object:
    """``None`` on a desktop without a GUI, ``[]`` before its desktop has started."""
    if d.gui is None:
        return None
    if not d.gui.started:
        return []
    try:
        return d.gui.session.owned_elements()
    except DesktopError as exc:
        raise DeviceError(exc.code, exc.message) from None
