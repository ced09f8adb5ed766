"""The desktop as the collateral-damage guard sees it: files under the home and what the local web recorded.

Paths:

- ``files/<path under /home/user>``: every file's content hash (mail drafts are files in
  ``~/Mail/Drafts``); caches, configuration and shell history under dot-folders,
  ``__pycache__`` and test-runner caches, the mail client's own configuration and address
  book (``~/.claws-mail``, and its index files in each mail folder), and browser
  screenshots are harmless (a message the mail client queued or sent is not: it lands in
  ``~/Mail/.queue`` or ``~/Mail/.sent``);
- ``drive/<path>``: the shared drive (``~/Drive``), the same on every device of the task;
  a new file may appear there (it is how files cross devices), none may change or vanish;
- ``web/<host>/<form>/<n>``: the n-th form submission the task's local sites recorded,
  also shared (the local web is one internet). Page visits are browser history: not a change.

A check names the file it reads (``~/Documents/x.csv`` -> ``files/Documents/x.csv``), a
project folder or a drafts folder whole, or the form it expects a submission of.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devicesworld.devices.base import WritesFn
from devicesworld.devices.filehash import hash_files
from devicesworld.devices.linux import args as la
from devicesworld.devices.linux.sandbox import HOME
from devicesworld.devices.state import Snapshot, StateSpec, StrayKind, digest, literal

if TYPE_CHECKING:
    from devicesworld.devices.linux.device import LinuxDevice

DRIVE_DIR = "Drive"


def _hash_tree(root: Path, prefix: str, out: Snapshot, skip: str | None = None) -> None:
    if root.is_dir():
        hash_files(root, prefix, out, skip=skip)


def snapshot(device: LinuxDevice) -> Snapshot:
    out: Snapshot = {}
    home = device.sandbox.paths.home
    _hash_tree(home, "files", out, skip=DRIVE_DIR)
    _hash_tree(device.drive.root, "drive", out)
    if device.sites_started():
        counts: dict[tuple[str, str], int] = {}
        for s in device.sites.submissions():
            key = (s["host"], s["form"])
            n = counts.get(key, 0)
            counts[key] = n + 1
            out[f"web/{s['host']}/{s['form']}/{n}"] = digest([s["path"], s["fields"], s["accepted"]])
    return out


def state_path(path: str) -> str | None:
    """A sandbox path (``~/x``, ``/home/user/x``, ``x`` under the home) as a literal snapshot path;
    ``None`` outside the home (``/tmp`` is scratch space, not state)."""
    p = path.strip()
    if p == "~" or p.startswith("~/"):
        p = HOME + p[1:]
    if not p.startswith("/"):
        p = f"{HOME}/{p}"
    p = posixpath.normpath(p)
    if p != HOME and not p.startswith(HOME + "/"):
        return None
    rel = p[len(HOME) + 1 :]
    if rel == DRIVE_DIR or rel.startswith(DRIVE_DIR + "/"):
        return "drive/" + literal(rel[len(DRIVE_DIR) + 1 :]) if rel != DRIVE_DIR else "drive"
    return "files/" + literal(rel) if rel else "files"


def _file(a: Any, get: Any) -> list[str]:
    """The path a check reads and, when it is a folder (one to delete), everything in it."""
    where = state_path(a.path)
    return [where, where + "/*"] if where else []


def _folder(path: str) -> list[str]:
    where = state_path(path)
    return [where + "/*"] if where else []


WRITES: dict[str, WritesFn] = {
    name: _file
    for name in (
        "file_exists",
        "file_contains",
        "file_equals",
        "json_field_equals",
        "table_cell_equals",
        "table_has_row",
        "table_row_count",
        "docx_contains",
        "docx_paragraph",
        "pdf_contains",
        "image_size",
        "wav_matches",
        "archive_contains",
        "docx_text_format",
        "xlsx_formula",
    )
} | {
    "project_tests_pass": lambda a, get: _folder(a.path),
    "email_draft": lambda a, get: _folder(a.folder) if a.present else [],
    "form_submitted": lambda a, get: [f"web/{literal(a.host)}/{literal(a.form)}/*"] if a.present else [],
}
"""Guards (``file_unchanged``, a draft or submission that must *not* exist) and page
visits (browser history) name nothing."""


STRAY_FILE = "~/Documents/reminder-from-grandma.txt"


def stray(device: LinuxDevice, allowed: Callable[[str], bool], kind: StrayKind) -> str | None:
    """Delete a file the task never mentions (``remove``), or write a new one (``add``)."""
    if kind == "remove":
        for path in sorted(snapshot(device)):
            if not path.startswith("files/") or allowed(path):
                continue
            shown = f"{HOME}/{path.removeprefix('files/')}"
            if device.act("delete_file", la.DeleteArgs(path=shown)).ok:
                return f"deleted {shown}"
    where = state_path(STRAY_FILE)
    if where is None or allowed(where):
        return None
    result = device.act("write_file", la.WriteFileArgs(path=STRAY_FILE, content="Call grandma on Sunday.\n"))
    return f"wrote {STRAY_FILE}" if result.ok else None


STATE = StateSpec(
    snapshot=snapshot,
    stray=stray,
    harmless=(
        "files/.cache/*",
        "files/.config/*",
        "files/.local/*",
        "files/.pki/*",
        "files/.claws-mail/*",
        "files/Mail/*/.claws_cache",
        "files/Mail/*/.claws_mark",
        "files/Mail/*/.mh_sequences",
        "files/.*history",
        "files/.lesshst",
        "*/__pycache__/*",
        "*.pyc",
        "*/.pytest_cache/*",
        "*.~lock.*#",
    ),
    harmless_added=("files/Pictures/Screenshots/*", "drive/*"),
    shared=("drive/*", "web/*"),
    doc="Files under the home (content hashes), the shared drive, local-site form submissions.",
)

__all__ = ["STATE", "WRITES", "snapshot", "state_path"]
