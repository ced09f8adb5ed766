"""Getters of the ``linux`` kind: JSON views of a desktop's files, sites and history for verifiers.

Each getter is declared on its handler (:mod:`devicesworld.devices.declare`). Documents
are parsed through :mod:`.resources.isolate` (size, time and memory caps); a missing
file reads as ``None``, so checks report it instead of failing.
"""

from __future__ import annotations

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


@GETTERS.register("text", doc="A text file's content (None if missing).", args=a.PathArgs)
def text(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "text")


@GETTERS.register("json", doc="A JSON file's value.", args=a.PathArgs)
def json(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "json")


@GETTERS.register("csv", doc="A CSV file's rows.", args=a.PathArgs)
def csv(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "csv")


@GETTERS.register("xlsx", doc="An xlsx sheet's rows (first sheet by default).", args=a.SheetArgs)
def xlsx(d: LinuxDevice, g: a.SheetArgs) -> object:
    return d._read(g.path, "xlsx", g.sheet)


@GETTERS.register("docx", doc="A docx's paragraphs and table rows.", args=a.PathArgs)
def docx(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "docx")


@GETTERS.register("pdf_text", doc="A PDF's extracted text.", args=a.PathArgs)
def pdf_text(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "pdf")


@GETTERS.register("image", doc="An image's width, height, mode, format.", args=a.PathArgs)
def image(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "image")


@GETTERS.register("wav", doc="A WAV file's channels, sample rate, frames, seconds.", args=a.PathArgs)
def wav(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "wav")


@GETTERS.register("archive", doc="An archive's member names.", args=a.PathArgs)
def archive(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "archive")


@GETTERS.register("email_drafts", doc="Parsed .eml drafts in a folder.", args=a.DraftsArgs)
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


@GETTERS.register(
    "docx_runs", doc="A docx's paragraphs with their runs' bold/italic/underline.", args=a.PathArgs
)
def docx_runs(d: LinuxDevice, g: a.PathArgs) -> object:
    return d._read(g.path, "docx_runs")


@GETTERS.register("xlsx_formulas", doc="An xlsx sheet's rows with formulas as text.", args=a.SheetArgs)
def xlsx_formulas(d: LinuxDevice, g: a.SheetArgs) -> object:
    return d._read(g.path, "xlsx_formulas", g.sheet)


@GETTERS.register("windows", doc="GUI desktops: the open windows (title, app, focused).", args=NoArgs)
def windows(d: LinuxDevice, g: NoArgs) -> object:
    """``None`` on a desktop without a GUI, ``[]`` before its desktop has started."""
    if d.gui is None or not d.gui.started:
        return [] if d.gui is not None else None
    try:
        return [
            {"title": w.title, "app": w.app, "focused": w.focused}
            for w in d.gui.session.desktop.windows()
            if w.mapped
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
        return list(d.gui.session.observe().get("elements", []))
    except DesktopError as exc:
        raise DeviceError(exc.code, exc.message) from None
