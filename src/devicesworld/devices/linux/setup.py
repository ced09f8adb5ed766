"""Setup ops of the ``linux`` kind: how a task puts files, projects, mail and sites on a desktop.

Each op is declared on its handler (:mod:`devicesworld.devices.declare`); every file is
written through the device's :meth:`~LinuxDevice._host` (never through a link) with the
office writers of :mod:`.resources.writers`.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING

from devicesworld.devices.base import DeviceError
from devicesworld.devices.declare import OpTable
from devicesworld.devices.desktop.actions import LaunchAppArgs
from devicesworld.devices.desktop.client import DesktopError
from devicesworld.devices.linux import args as a
from devicesworld.devices.linux.resources import writers

if TYPE_CHECKING:
    from devicesworld.devices.linux.device import LinuxDevice

SETUP_OPS: OpTable[LinuxDevice] = OpTable("linux")


def slug(text: str) -> str:
    """A file name made from a subject line."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:60] or "draft"


@SETUP_OPS.register("write_text", doc="A UTF-8 text file.", args=a.WriteTextOp)
def write_text(d: LinuxDevice, o: a.WriteTextOp) -> None:
    writers.write_text(d._host(o.path), o.content)


@SETUP_OPS.register("write_csv", doc="A CSV file from rows.", args=a.WriteCsvOp)
def write_csv(d: LinuxDevice, o: a.WriteCsvOp) -> None:
    writers.write_csv(d._host(o.path), o.rows)


@SETUP_OPS.register("write_json", doc="A JSON file (pretty-printed).", args=a.WriteJsonOp)
def write_json(d: LinuxDevice, o: a.WriteJsonOp) -> None:
    writers.write_json(d._host(o.path), o.data)


@SETUP_OPS.register("write_xlsx", doc="An xlsx workbook: sheet name -> rows.", args=a.WriteXlsxOp)
def write_xlsx(d: LinuxDevice, o: a.WriteXlsxOp) -> None:
    writers.write_xlsx(d._host(o.path), o.sheets)


@SETUP_OPS.register(
    "write_docx", doc="A docx document: optional title, paragraphs, optional table.", args=a.WriteDocxOp
)
def write_docx(d: LinuxDevice, o: a.WriteDocxOp) -> None:
    writers.write_docx(d._host(o.path), o.paragraphs, o.title, o.table)


@SETUP_OPS.register("write_pdf", doc="A PDF: optional title and paragraphs.", args=a.WritePdfOp)
def write_pdf(d: LinuxDevice, o: a.WritePdfOp) -> None:
    writers.write_pdf(d._host(o.path), o.paragraphs, o.title)


@SETUP_OPS.register(
    "write_image",
    doc="An image (PNG/JPEG by extension) of a size and colour, with optional text.",
    args=a.WriteImageOp,
)
def write_image(d: LinuxDevice, o: a.WriteImageOp) -> None:
    writers.write_image(d._host(o.path), o.width, o.height, o.color, o.text, o.description)


@SETUP_OPS.register("write_wav", doc="A WAV tone of a duration.", args=a.WriteWavOp)
def write_wav(d: LinuxDevice, o: a.WriteWavOp) -> None:
    writers.write_wav(d._host(o.path), o.seconds, o.frequency, o.sample_rate, o.channels)


@SETUP_OPS.register(
    "write_archive", doc="A zip or tar(.gz) archive of text files (format by extension).", args=a.WriteTreeOp
)
def write_archive(d: LinuxDevice, o: a.WriteTreeOp) -> None:
    writers.write_archive(d._host(o.path), o.files)


@SETUP_OPS.register(
    "write_project", doc="A folder of text files, e.g. a Python package with tests.", args=a.WriteTreeOp
)
def write_project(d: LinuxDevice, o: a.WriteTreeOp) -> None:
    writers.write_tree(d._host(o.path), o.files)


SEEDED_MAIL_AGE = timedelta(hours=1)
"""How long before the task's clock a mail the task seeds is dated (a received mail or a draft
saved earlier that day; issue #33: every seeded ``.eml`` read 1 Jan 2026)."""


@SETUP_OPS.register(
    "write_eml", doc="An email .eml (by default a draft in ~/Mail/Drafts).", args=a.WriteEmlOp
)
def write_eml(d: LinuxDevice, o: a.WriteEmlOp) -> None:
    path = o.path or f"~/Mail/Drafts/{slug(o.subject)}.eml"
    # dated by the task's clock, an hour before the task starts (it was 1 Jan 2026 in every task)
    when = d.context.clock.now - SEEDED_MAIL_AGE
    writers.write_eml(d._host(path), o.to, o.subject, o.body, o.sender or d.owner_address, o.cc, when=when)


@SETUP_OPS.register("make_dir", doc="A folder.", args=a.PathArgs)
def make_dir(d: LinuxDevice, o: a.PathArgs) -> None:
    at = d._host(o.path)
    at.root.mkdir(at.rel)


@SETUP_OPS.register("run", doc="Run a shell command in the sandbox (must exit 0).", args=a.RunOp)
def run(d: LinuxDevice, o: a.RunOp) -> None:
    result = d.sandbox.run(o.command, timeout=o.timeout_s, keep_cwd=False)
    if result.exit_code != 0:
        raise DeviceError(
            "SETUP_COMMAND_FAILED",
            f"`{o.command}` exited {result.exit_code}: {result.stderr.strip()[-500:]}",
        )


@SETUP_OPS.register(
    "add_site", doc="Serve a local web site for this task at http://<host>.test/.", args=a.AddSiteOp
)
def add_site(d: LinuxDevice, o: a.AddSiteOp) -> None:
    d.sites.add(o.site)


@SETUP_OPS.register(
    "open_app",
    doc="GUI desktops: start with an app open (and idle), optionally on a file or folder.",
    args=a.OpenAppOp,
)
def open_app(d: LinuxDevice, o: a.OpenAppOp) -> None:
    if d.gui is None:
        raise DeviceError("UNSUPPORTED", 'open_app needs a GUI desktop (profile {"desktop": "gui"})')
    d.gui.opened(o.app)  # first: the spare the pool is starting meanwhile then keeps this app warm
    try:
        result = d.gui.session.act("launch_app", LaunchAppArgs(app=o.app, path=o.path))
    except DesktopError as exc:
        raise DeviceError(exc.code, f"the desktop did not start: {exc.message}") from None
    if not result.ok:
        raise DeviceError(result.error_code or "SETUP_FAILED", f"open_app {o.app}: {result.message}")
