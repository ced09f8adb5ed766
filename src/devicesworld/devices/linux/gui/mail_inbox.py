"""The mail client's Inbox: the task's received mail, as numbered copies the client lists.

Why: a task's mail is ``.eml`` files in ``~/Mail/Inbox`` (the world writes them, and setup's
``write_eml``), which checks, the tool profile and a terminal read as files. Claws Mail keeps
its Inbox as an MH folder (``~/Mail/.inbox``, :mod:`.mail_client`), which lists only files
named by a number, so without this its Inbox was empty and the GUI path a person takes
(open the mail app, read the mail) did not exist (issue #34).

When the episode starts (after the world and the task's setup wrote their files, before the
agent's first step), each message of ``~/Mail/Inbox`` is copied into the client's Inbox as
``1``, ``2``, … in the order the messages were received (their ``Date`` header, else the
file's time; ties by file name), so the client's message numbers follow the dates too. The
copies are the client's own (reading marks them in its index files, deleting moves one to
its Trash); the ``.eml`` files stay as they are. A pooled desktop's home is a fresh template
copy per device, so it shows its own task's mail, never the previous one's.
"""

from __future__ import annotations

from datetime import UTC
from email.utils import parsedate_to_datetime

from devicesworld.devices.linux.gui.mail_client import INBOX, MAILBOX
from devicesworld.devices.safefs import FsError, RootedPath

SOURCE = f"{MAILBOX}/Inbox"
"""The task's received mail, under the home."""
FOLDER = f"{MAILBOX}/{INBOX}"
"""The client's Inbox folder, under the home."""
MAX_MESSAGES = 5000
"""More than any world or task holds; a folder beyond it is cut to its newest messages."""
HEADER_BYTES = 64 * 1024
"""Where a message's ``Date`` header is looked for (headers come first)."""


def received_at(message: bytes, mtime_ns: int) -> float:
    """When a message was received: its ``Date`` header (a date without a zone is UTC), else
    the file's modification time (a message without a readable date)."""
    head = message[:HEADER_BYTES].split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    for line in head.decode("utf-8", "replace").replace("\r", "").split("\n"):
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == "date":
            try:
                when = parsedate_to_datetime(value.strip())
            except (TypeError, ValueError, IndexError):
                break
            return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp()
    return mtime_ns / 1e9


def fill_inbox(home: RootedPath, limit: int) -> int:
    """Copy the messages of ``~/Mail/Inbox`` into the client's Inbox, numbered by date; returns
    how many. Numbered files already there are replaced (the folder shows exactly the ``.eml``
    messages); a message larger than ``limit`` bytes or unreadable is left out."""
    root = home.root
    base = home.rel.strip("/")
    source = f"{base}/{SOURCE}" if base else SOURCE
    folder = f"{base}/{FOLDER}" if base else FOLDER
    if root.kind(source) != "dir":
        return 0
    found: list[tuple[float, str, bytes]] = []
    for entry in root.listdir(source):
        if entry.kind != "file" or not entry.name.lower().endswith(".eml") or entry.size > limit:
            continue
        try:
            data = root.read_bytes(f"{source}/{entry.name}", limit)
        except FsError:
            continue
        found.append((received_at(data, entry.mtime_ns), entry.name, data))
    found.sort(key=lambda m: (m[0], m[1]))
    found = found[-MAX_MESSAGES:]
    root.mkdir(folder)
    for old in root.listdir(folder):
        if old.name.isdigit():
            root.remove(f"{folder}/{old.name}")
    for number, (_, _, data) in enumerate(found, 1):
        root.write_bytes(f"{folder}/{number}", data, parents=False)
    return len(found)


__all__ = ["FOLDER", "SOURCE", "fill_inbox", "received_at"]
