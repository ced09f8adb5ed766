"""A persona world's desktop surface on a Linux device, and the desktop's census counters.

Documents are rendered once per world into memory (docx, xlsx and PDF writing is
the slow part: hundreds of milliseconds for a lived home), and each reset only
writes the prepared bytes into the fresh home, with the files' modification times
and the sandbox user as owner. That is the per-seed template of issue #13, kept in
the process instead of a folder, and on disk (:mod:`devicesworld.diskcache`, namespace
``desktop-templates``): the rendered bytes are stored under a hash of the world's
desktop, this module's and the writers' source and the document libraries' versions,
so each persona world is rendered once per machine, not once per process (a build of
``full`` proves thousands of tasks in several processes). A hit gives the same bytes
a render gives (the writers pin every timestamp).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from devicesworld import diskcache
from devicesworld.devices.base import GetterFn, WorldSupport
from devicesworld.devices.filehash import content_hash, remember_stat
from devicesworld.devices.linux.resources import writers
from devicesworld.worlds.desktop import mail_message
from devicesworld.worlds.model import DesktopFile, World
from devicesworld.worlds.prepared import PerWorld

if TYPE_CHECKING:
    from pathlib import Path

    from devicesworld.devices.linux.device import LinuxDevice

MAIL_INBOX = "Mail/Inbox"
MAIL_DRAFTS = "Mail/Drafts"


@dataclass
class _Memory:
    """A writer target that keeps the bytes (what :mod:`.resources.writers` writes into)."""

    rel: str
    data: dict[str, bytes] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return PurePosixPath(self.rel).name

    @property
    def suffix(self) -> str:
        return PurePosixPath(self.rel).suffix

    def joinpath(self, rel: str) -> _Memory:
        return _Memory(f"{self.rel}/{rel}", self.data)

    def write_bytes(self, data: bytes) -> int:
        self.data[self.rel] = data
        return len(data)


@dataclass(frozen=True)
class Template:
    """A world's home folder as bytes: folders (parents first) and files with their mtimes."""

    folders: tuple[str, ...]
    files: tuple[tuple[str, bytes, int, str], ...]
    """(path under the home, bytes, mtime ns, content hash)."""


def _received(f: DesktopFile) -> bytes:
    return bytes(mail_message(f))


def _render(f: DesktopFile) -> bytes:
    out = _Memory(f.path)
    if f.format == "text":
        writers.write_text(out, f.text)
    elif f.format == "csv":
        writers.write_csv(out, f.rows)
    elif f.format == "json":
        writers.write_json(out, [dict(zip(("name", "email", "phone"), r, strict=False)) for r in f.rows])
    elif f.format == "xlsx":
        writers.write_xlsx(out, {f.sheet: f.rows})
    elif f.format == "docx":
        writers.write_docx_sections(out, f.title, f.sections, f.rows)
    elif f.format == "pdf":
        paragraphs = [
            p for heading, paras in f.sections for p in ([heading] if heading else []) + list(paras)
        ]
        writers.write_pdf(out, paragraphs, f.title or None)
    elif f.format == "image":
        seed = sum(map(ord, f.path))
        color = f"#{40 + seed % 160:02x}{60 + seed * 7 % 150:02x}{80 + seed * 13 % 140:02x}"
        writers.write_image(out, 160, 120, color, f.title, f"Photo: {f.title}")
    elif f.format == "eml":
        if f.headers.get("X-Unsent"):
            to = [t.strip() for t in f.headers.get("To", "").split(",") if t.strip()]
            out.write_bytes(
                writers.email_bytes(
                    to, f.headers.get("Subject", ""), f.text, f.headers.get("From", ""), when=f.mtime
                )
            )
        else:
            out.write_bytes(_received(f))
    return out.data[f.path]


_TEMPLATES: PerWorld[Template] = PerWorld()


def template(world: World) -> Template:
    """The world's home folder rendered once per process (a pre-warming thread may ask too)."""
    return _TEMPLATES.get(world, _rendered)


def _rendered(world: World) -> Template:
    """The world's home folder from the disk cache, else rendered and put there."""
    disk_key = _disk_key(world)
    found = _from_disk(disk_key)
    if found is None:
        found = render_template(world)
        diskcache.write(_NAMESPACE, disk_key, _to_disk(found))
    return found


def clear_cache() -> None:
    """Forget the templates kept in this process (tests; the disk cache stays)."""
    _TEMPLATES.clear()


def render_template(world: World) -> Template:
    """The world's home folder rendered from scratch (what :func:`template` caches)."""
    desk = world.desktop
    files = [(f.path, _render(f), int(f.mtime.replace(tzinfo=UTC).timestamp() * 1e9)) for f in desk.files]
    history = "".join(line + "\n" for line in desk.shell_history).encode()
    bookmarks = json.dumps([{"title": t, "url": u} for t, u in desk.bookmarks], indent=2).encode()
    stamp = int(world.start.replace(tzinfo=UTC).timestamp() * 1e9)
    files += [(".bash_history", history, stamp), (".config/browser/bookmarks.json", bookmarks, stamp)]
    folders: set[str] = {MAIL_INBOX, MAIL_DRAFTS, "Desktop", "Downloads", "Music", "Pictures"}
    for rel, _, _ in files:
        parts = rel.split("/")[:-1]
        folders.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    expanded = {"/".join(f.split("/")[: i + 1]) for f in folders for i in range(f.count("/") + 1)}
    return Template(
        tuple(sorted(expanded, key=lambda f: (f.count("/"), f))),
        tuple((rel, data, mtime, content_hash(data)) for rel, data, mtime in files),
    )


_NAMESPACE = "desktop-templates"
_RENDERERS = (__name__, "devicesworld.devices.linux.resources.writers")
_LIBRARIES = ("python-docx", "openpyxl", "reportlab", "pillow", "lxml")


def _disk_key(world: World) -> str:
    code = diskcache.code_digest(_RENDERERS, _LIBRARIES)
    return diskcache.key_of(world.desktop.model_dump_json(), world.start.isoformat(), code)


def _to_disk(made: Template) -> bytes:
    meta = {
        "folders": list(made.folders),
        "files": [[rel, mtime, digest] for rel, _, mtime, digest in made.files],
    }
    return diskcache.pack(meta, [data for _, data, _, _ in made.files])


def _from_disk(key: str) -> Template | None:
    """The stored template, or ``None`` when absent or not one (each file's hash is checked)."""
    payload = diskcache.read(_NAMESPACE, key)
    if payload is None:
        return None
    try:
        meta, blobs = diskcache.unpack(payload)
        rows = meta["files"]
        files = tuple(
            (str(rel), data, int(mtime), str(h)) for (rel, mtime, h), data in zip(rows, blobs, strict=True)
        )
        folders = tuple(str(f) for f in meta["folders"])
    except (ValueError, KeyError, TypeError):
        return None
    if any(content_hash(data) != h for _, data, _, h in files):
        return None
    return Template(folders, files)


def apply(device: LinuxDevice, world: World) -> None:
    """Write the world's home folder into the device's fresh home (before the task's own setup); the
    device's user is the world's persona, whose address their mail is from."""
    device.owner_address = world.persona.person.email
    made = template(world)
    home = device.sandbox.paths.home
    ids = device.sandbox.host_ids
    for rel in made.folders:
        folder = home / rel
        folder.mkdir(exist_ok=True)
        if ids is not None:
            os.chown(folder, *ids, follow_symlinks=False)
    for rel, data, mtime, digest in made.files:
        fd = os.open(home / rel, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        try:
            os.write(fd, data)
            if ids is not None:
                os.fchown(fd, *ids)
            os.utime(fd, ns=(mtime, mtime))
            remember_stat(home, rel, os.fstat(fd), digest)
        finally:
            os.close(fd)
    _date_folders(home, made)


def _date_folders(home: Path, made: Template) -> None:
    """Date each world folder by the newest file under it, as if saved there over time: written now,
    the folders showed the host's date in a task's file manager and ``ls -l`` (issue #33: project
    folders dated December in a task on 2 March)."""
    newest: dict[str, int] = {}
    for rel, _, mtime, _ in made.files:
        parent = rel.rpartition("/")[0]
        while parent:
            newest[parent] = max(newest.get(parent, mtime), mtime)
            parent = parent.rpartition("/")[0]
    for rel in made.folders:
        if rel in newest:
            os.utime(home / rel, ns=(newest[rel], newest[rel]), follow_symlinks=False)


def census(get: GetterFn) -> dict[str, int]:
    """What a desktop holds under the home (the shared drive is the drive's), read through its getters."""
    listing: list[str] = [f for f in (get("listing", {"path": "~"}) or []) if not f.startswith("Drive/")]
    visible = [f for f in listing if not any(part.startswith(".") for part in f.split("/"))]
    suffix = [PurePosixPath(f).suffix.lower() for f in visible]
    projects = {f.split("/")[1] for f in visible if f.startswith("Projects/") and f.count("/") >= 2}
    return {
        "files": len(visible),
        "documents": sum(s in (".docx", ".pdf", ".odt") for s in suffix),
        "spreadsheets": sum(s in (".xlsx", ".csv") for s in suffix),
        "pictures": sum(s in (".png", ".jpg", ".jpeg") for s in suffix),
        "mail": sum(f.startswith(MAIL_INBOX + "/") for f in visible),
        "drafts": len(get("email_drafts", {"folder": "~/" + MAIL_DRAFTS}) or []),
        "projects": len(projects),
    }


def items(get: GetterFn) -> dict[str, list[str]]:
    """The visible files under the home, each spelled by its path under the home and its name."""
    listing: list[str] = [f for f in (get("listing", {"path": "~"}) or []) if not f.startswith("Drive/")]
    visible = [f for f in listing if not any(part.startswith(".") for part in f.split("/"))]
    return {f"~/{f}": [f, PurePosixPath(f).name] for f in visible}


WORLD = WorldSupport(apply=apply, census=census, items=items, members=("work", "partner"))
"""A second desktop is the persona's own other machine ("my work desktop and my laptop"), a third the partner's."""

__all__ = ["WORLD", "Template", "apply", "census", "clear_cache", "items", "render_template", "template"]
