"""Setup ops of the ``linux`` kind: how a task puts files, projects, mail and sites on a desktop.

Each op is declared on its handler (:mod:`devicesworld.devices.declare`); every file is
written through the device's :meth:`~LinuxDevice._host` (never through a link) with the
office writers of :mod:`.resources.writers`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

from devicesworld.devices.base import DeviceError
from devicesworld.devices.declare import OpTable
from devicesworld.devices.desktop.actions import LaunchAppArgs
from devicesworld.devices.desktop.client import DesktopError
from devicesworld.devices.linux import args as a
from devicesworld.devices.linux.resources import writers
from devicesworld.devices.safefs import RootedPath

if TYPE_CHECKING:
    from devicesworld.devices.linux.device import LinuxDevice

SETUP_OPS: OpTable[LinuxDevice] = OpTable("linux")
F = TypeVar("F", bound=a.FileOp)


def slug(text: str) -> str:
    """A file name made from a subject line."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:60] or "draft"


def _writes(name: str, doc: str, args: type[F], write: Callable[[RootedPath, F], None]) -> None:
    """Declare the setup op ``name``: it writes one file (or folder) at the op's ``path``, through
    the device's host view, with a writer of :mod:`.resources.writers`."""

    def handler(d: LinuxDevice, o: F) -> None:
        write(d._host(o.path), o)

    SETUP_OPS.register(name, doc=doc, args=args)(handler)


_writes("write_text", "A UTF-8 text file.", a.WriteTextOp, lambda at, o: writers.write_text(at, o.content))
_writes("write_csv", "A CSV file from rows.", a.WriteCsvOp, lambda at, o: writers.write_csv(at, o.rows))
_writes(
    "write_json", "A JSON file (pretty-printed).", a.WriteJsonOp, lambda at, o: writers.write_json(at, o.data)
)
_writes(
    "write_xlsx",
    "An xlsx workbook: sheet name -> rows.",
    a.WriteXlsxOp,
    lambda at, o: writers.write_xlsx(at, o.sheets),
)
_writes(
    "write_docx",
    "A docx document: optional title, paragraphs, optional table.",
    a.WriteDocxOp,
    lambda at, o: writers.write_docx(at, o.paragraphs, o.title, o.table),
)
_writes(
    "write_pdf",
    "A PDF: optional title and paragraphs.",
    a.WritePdfOp,
    lambda at, o: writers.write_pdf(at, o.paragraphs, o.title),
)
_writes(
    "write_image",
    "An image (PNG/JPEG by extension) of a size and colour, with optional text.",
    a.WriteImageOp,
    lambda at, o: writers.write_image(at, o.width, o.height, o.color, o.text, o.description),
)
_writes(
    "write_wav",
    "A WAV tone of a duration.",
    a.WriteWavOp,
    lambda at, o: writers.write_wav(at, o.seconds, o.frequency, o.sample_rate, o.channels),
)
_writes(
    "write_archive",
    "A zip or tar(.gz) archive of text files (format by extension).",
    a.WriteTreeOp,
    lambda at, o: writers.write_archive(at, o.files),
)
_writes(
    "write_project",
    "A folder of text files, e.g. a Python package with tests.",
    a.WriteTreeOp,
    lambda at, o: writers.write_tree(at, o.files),
)


@SETUP_OPS.register(
    "write_eml", doc="An email .eml (by default a draft in ~/Mail/Drafts).", args=a.WriteEmlOp
)
def write_eml(d: LinuxDevice, o: a.WriteEmlOp) -> None:
    """The mail is dated ``minutes_ago`` before the task's clock (an hour unless the op says), so
    "last month's booking" lists as last month's in the mail client, not as today's (issue #33:
    every seeded ``.eml`` read 1 Jan 2026, then every one read an hour ago). The file's own time
    stays the write's: a draft check orders drafts by it."""
    path = o.path or f"~/Mail/Drafts/{slug(o.subject)}.eml"
    when = d.context.clock.now - timedelta(minutes=o.minutes_ago)
    message = writers.email_bytes(o.to, o.subject, o.body, o.sender or d.owner_address, o.cc, when=when)
    writers.write_bytes(d._host(path), message)


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
    d.gui.opened(o.app, o.path)  # first: the spare the pool is starting meanwhile then keeps this app warm
    try:
        result = d.gui.session.act("launch_app", LaunchAppArgs(app=o.app, path=o.path))
    except DesktopError as exc:
        raise DeviceError(exc.code, f"the desktop did not start: {exc.message}") from None
    if not result.ok:
        raise DeviceError(result.error_code or "SETUP_FAILED", f"open_app {o.app}: {result.message}")
