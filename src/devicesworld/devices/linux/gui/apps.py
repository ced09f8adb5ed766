"""The apps of a Linux GUI desktop, by the names ``launch_app`` takes.

Why these flags: LibreOffice with ``--norestore`` never offers document recovery;
xfce4-terminal with ``--disable-server`` is its own process (so it dies with its
window and is found by its pid); Chromium exposes its accessibility tree only with
``ACCESSIBILITY_ENABLED=1`` and ``--force-renderer-accessibility``, and its own sandbox
works inside bubblewrap's user namespace. LibreOffice drops keystrokes until it is
idle, so it waits longer before it counts as ready; it first maps a bare "LibreOffice
7.4" window, so the window looked for is the document's ("… - LibreOffice Writer"),
and its launch also waits for the document in a settled element tree (``ready_role``).
xfce4-terminal maps its window before its shell has a pty and drops keys typed until then, so
its launch waits for the shell's prompt in the terminal's text (``ready_text``): a line typed
right after ``launch_app terminal`` is read by the shell.
Claws Mail is the mail client: one instance per desktop (a second launch only raises its
window), configured in the template home (:mod:`.template`) with a local mailbox whose
Drafts folder is ``~/Mail/Drafts``, so a draft it saves is what the ``email_draft`` check reads.
"""

from __future__ import annotations

from devicesworld.devices.desktop.gui import App

CHROMIUM_FLAGS = [
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-sync",
    "--disable-background-networking",
    "--disable-component-update",
    "--password-store=basic",
    "--force-renderer-accessibility",
    "--disable-gpu",
    "--window-position=0,0",
    "--window-size=1280,760",
    "--proxy-server=http://127.0.0.1:8080",
    "--user-data-dir=/home/user/.config/chromium",
]
"""The proxy is the in-sandbox end of :mod:`.sites_relay`: the task's local sites, nothing else."""

LO_SETTLE_S, LO_COMMAND_SETTLE_S = 0.12, 0.45
"""Measured (docs/performance.md): LibreOffice redraws a typed key ~45 ms after it, and runs a key
combination's command (ctrl+b) with its toolbar redraw ~0.35 s after the key, drawing nothing in
between; text typed before then misses the command's effect."""


def _libreoffice(module: str, ready_role: str) -> App:
    """A LibreOffice module (``writer``, ``calc``), ready once its document (``ready_role``) is in
    the element tree and settled as LibreOffice needs."""
    return App(
        module,
        ["soffice", f"--{module}", "--norestore", "--nologo"],
        window=f"LibreOffice {module.title()}",
        idle_s=1.0,
        start_timeout_s=120,
        ready_role=ready_role,
        settle_s=LO_SETTLE_S,
        command_settle_s=LO_COMMAND_SETTLE_S,
    )


APPS: dict[str, App] = {
    "writer": _libreoffice("writer", "document text"),
    "calc": _libreoffice("calc", "document spreadsheet"),
    "text_editor": App("text_editor", ["mousepad", "--opening-mode=window"], window="mousepad"),
    "files": App("files", ["thunar"], window="thunar"),
    "terminal": App(
        "terminal",
        ["xfce4-terminal", "--disable-server"],
        window="terminal",
        takes_path=False,
        titled_by_agent=True,
        ready_role="terminal",
        ready_text=r"\S",
    ),
    "browser": App(
        "browser",
        ["chromium", *CHROMIUM_FLAGS],
        window="chromium",
        clock="pinned",
        env={"ACCESSIBILITY_ENABLED": "1"},
        idle_s=0.6,
        start_timeout_s=120,
    ),
    "mail": App("mail", ["claws-mail"], window="Claws Mail", takes_path=False, idle_s=0.6),
    "image_viewer": App("image_viewer", ["ristretto"], window="ristretto"),
    "pdf_viewer": App("pdf_viewer", ["evince"], window="evince", idle_s=0.6),
    # Evince exposes each page's text to AT-SPI (a ``page`` element), so the element list reads a PDF
}
"""``launch_app`` names -> how to start them (``path`` is appended: a file, folder or URL)."""
