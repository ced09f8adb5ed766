"""A persona world's desktop surface on a Windows device, and the Windows census counters.

The world describes its home folder by content (:class:`~devicesworld.worlds.model.DesktopFile`);
this module writes it into the fresh Windows profile, in the formats the Wine apps open:

* the world's ``Desktop``, ``Documents``, ``Downloads`` and ``Pictures`` become
  ``C:\\Users\\user\\Desktop``, ``Documents``, ``Downloads`` and ``Pictures`` (the four profile
  folders that live in the device home, :mod:`.paths`); code projects go to
  ``Documents\\Projects`` and mail to ``Documents\\Mail\\Inbox`` and ``Documents\\Mail\\Drafts``
  (Windows keeps neither in the profile's root); the music playlist, the shell history and the
  browser bookmarks are a Linux desktop's and stay out;
* text stays text (Notepad's CRLF, ANSI unless a character needs UTF-8 with a byte-order mark);
  reports (``.docx``) and PDFs become WordPad RTF (``.rtf``: the title and headings bold, the
  table as tab-separated lines); workbooks become ``.csv``; pictures small PNGs; mail ``.eml``
  (an unsent draft keeps Outlook's ``X-Unsent: 1``).

The files are rendered once per world and kept in the process (:func:`template`); a reset writes
the prepared bytes through the device's safe root (:mod:`.files`: the sandbox user owns them,
links are never followed) with each file's own modification time. The environment applies the
world before the task's own setup, so a task that writes a file the world also has overwrites
it: the task's file wins (a name is matched case-insensitively, as Windows does).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC
from email import policy
from pathlib import PureWindowsPath
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from devicesworld.devices.base import GetterFn, WorldSupport
from devicesworld.devices.windows.docs import Run, encode_text, write_rtf
from devicesworld.devices.windows.paths import PROFILE, SHELL_FOLDERS
from devicesworld.worlds.desktop import mail_message
from devicesworld.worlds.model import DesktopFile, World
from devicesworld.worlds.prepared import PerWorld

if TYPE_CHECKING:
    from devicesworld.devices.windows.device import WindowsDevice

FOLDERS = {
    "Desktop": "Desktop",
    "Documents": "Documents",
    "Downloads": "Downloads",
    "Pictures": "Pictures",
    "Projects": r"Documents\Projects",
    "Mail": r"Documents\Mail",
}
"""The world's top folder -> where it goes under ``C:\\Users\\user`` (others stay out)."""
SHOWN = tuple(SHELL_FOLDERS.values())
"""The profile folders the census reads: the four that live in the device home."""
INBOX, DRAFTS, PROJECTS = r"Documents\Mail\Inbox", r"Documents\Mail\Drafts", r"Documents\Projects"
SUFFIX = {"docx": ".rtf", "pdf": ".rtf", "xlsx": ".csv", "image": ".png"}
"""The world's format -> the extension of its Windows rendering (others keep theirs)."""

DOCUMENTS = frozenset({".rtf", ".doc", ".docx", ".pdf", ".odt", ".wri"})
SPREADSHEETS = frozenset({".csv", ".xlsx", ".xls", ".ods"})
PICTURES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".gif"})
TEXTS = frozenset({".txt", ".md", ".json", ".log", ".ini", ".py"})


def windows_path(rel: str, fmt: str) -> str | None:
    """Where a world file (``Documents/Atlas/report_v1.docx``) goes, relative to the profile
    (``Documents\\Atlas\\report_v1.rtf``), or ``None`` when the Windows slice leaves it out."""
    top, _, rest = rel.partition("/")
    base = FOLDERS.get(top)
    if base is None or not rest:
        return None
    parts = rest.split("/")
    suffix = SUFFIX.get(fmt)
    if suffix is not None:
        stem = parts[-1].rsplit(".", 1)[0] if "." in parts[-1] else parts[-1]
        parts[-1] = stem + suffix
    return "\\".join([base, *parts])


def text_bytes(text: str) -> bytes:
    """Text as Notepad saves it: CRLF, ANSI (cp1252) when it fits, else UTF-8 with a byte-order mark."""
    try:
        return encode_text(text, "ansi")
    except UnicodeEncodeError:
        return encode_text(text, "utf-8-bom")


def csv_bytes(rows: list[list[str | int | float]]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return text_bytes(out.getvalue())


def rtf_paragraphs(f: DesktopFile) -> list[list[Run]]:
    """A document's title and headings (bold), its paragraphs, and its table as tab-separated lines
    (the header row bold)."""
    out: list[list[Run]] = [[Run(f.title, bold=True)]] if f.title else []
    for heading, paragraphs in f.sections:
        if heading:
            out.append([Run(heading, bold=True)])
        out += [[Run(p)] for p in paragraphs]
    for i, row in enumerate(f.rows):
        out.append([Run("\t".join(str(c) for c in row), bold=i == 0)])
    return out


def png_bytes(f: DesktopFile, width: int = 160, height: int = 120) -> bytes:
    """A small photo-like PNG: a colour of its own (drawn from the path) and its title."""
    seed = sum(map(ord, f.path))
    color = (40 + seed % 160, 60 + seed * 7 % 150, 80 + seed * 13 % 140)
    image = Image.new("RGB", (width, height), color)
    ImageDraw.Draw(image).text((8, height - 20), f.title, fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def eml_bytes(f: DesktopFile) -> bytes:
    """A mail file (CRLF, as Outlook and Windows Mail save ``.eml``); drafts carry ``X-Unsent: 1``."""
    return mail_message(f).as_bytes(policy=policy.SMTP)


def render(f: DesktopFile) -> bytes:
    """A world file's bytes as the Windows apps open them."""
    if f.format == "text":
        return text_bytes(f.text)
    if f.format in ("csv", "xlsx"):
        return csv_bytes(f.rows)
    if f.format == "json":
        people = [dict(zip(("name", "email", "phone"), r, strict=False)) for r in f.rows]
        return text_bytes(json.dumps(people, indent=2, ensure_ascii=False) + "\n")
    if f.format in ("docx", "pdf"):
        return write_rtf(rtf_paragraphs(f))
    if f.format == "image":
        return png_bytes(f)
    if f.format == "eml":
        return eml_bytes(f)
    raise ValueError(f"{f.path}: no Windows rendering for format {f.format!r}")


@dataclass(frozen=True)
class Template:
    """A world's Windows profile as bytes: (Windows path, bytes, mtime ns), sorted by path."""

    files: tuple[tuple[str, bytes, int], ...]

    def paths(self) -> list[str]:
        return [p for p, _, _ in self.files]


def render_template(world: World) -> Template:
    """The world's Windows files rendered from scratch (what :func:`template` caches)."""
    out: dict[str, tuple[str, bytes, int]] = {}
    for f in world.desktop.files:
        rel = windows_path(f.path, f.format)
        if rel is None:
            continue
        path = rf"{PROFILE}\{rel}"
        if path.casefold() in out:  # two world files rendered to one name (report.docx, report.pdf)
            p = PureWindowsPath(path)
            path = str(p.with_name(f"{p.stem} ({f.format}){p.suffix}"))
        mtime = int(f.mtime.replace(tzinfo=UTC).timestamp() * 1e9)
        out[path.casefold()] = (path, render(f), mtime)
    return Template(tuple(sorted(out.values(), key=lambda t: t[0].casefold())))


_TEMPLATES: PerWorld[Template] = PerWorld()


def template(world: World) -> Template:
    """The world's Windows files, rendered once per process."""
    return _TEMPLATES.get(world, render_template)


def clear_cache() -> None:
    """Forget the templates kept in this process (tests)."""
    _TEMPLATES.clear()


def apply(device: WindowsDevice, world: World) -> None:
    """Write the world's files into the device's fresh profile (before the task's own setup)."""
    for path, data, mtime in template(world).files:
        device.files.write_dated(path, data, mtime)


def profile_files(get: GetterFn) -> list[str]:
    """Every file in the profile's Desktop, Documents, Downloads and Pictures, relative to the profile
    (``Documents\\Atlas\\report_v1.rtf``), read through the ``listing`` getter."""
    out: list[str] = []
    for folder in SHOWN:
        listing = get("listing", {"path": rf"{PROFILE}\{folder}"}) or []
        out += [rf"{folder}\{f}" for f in listing]
    return out


def census(get: GetterFn) -> dict[str, int]:
    """What a Windows profile holds, read through the device's getters."""
    files = profile_files(get)
    suffix = [PureWindowsPath(f).suffix.lower() for f in files]
    low = [f.casefold() for f in files]
    projects = {
        f.split("\\")[2] for f in low if f.startswith(PROJECTS.casefold() + "\\") and f.count("\\") >= 3
    }
    return {
        "files": len(files),
        "documents": sum(s in DOCUMENTS for s in suffix),
        "spreadsheets": sum(s in SPREADSHEETS for s in suffix),
        "pictures": sum(s in PICTURES for s in suffix),
        "text": sum(s in TEXTS for s in suffix),
        "mail": sum(f.startswith(INBOX.casefold() + "\\") for f in low),
        "drafts": sum(f.startswith(DRAFTS.casefold() + "\\") for f in low),
        "projects": len(projects),
        "downloads": sum(f.startswith("downloads\\") for f in low),
    }


def items(get: GetterFn) -> dict[str, list[str]]:
    """The profile's files, each spelled by its Windows path and its file name."""
    return {rf"{PROFILE}\{f}": [rf"{PROFILE}\{f}", PureWindowsPath(f).name] for f in profile_files(get)}


WORLD = WorldSupport(apply=apply, census=census, items=items, members=("work", "partner"))
"""A second Windows PC is the persona's own other machine, a third the partner's (as for Linux desktops)."""

__all__ = [
    "WORLD",
    "Template",
    "apply",
    "census",
    "clear_cache",
    "items",
    "render",
    "render_template",
    "template",
    "windows_path",
]
