"""Writers: content in, format-valid file out, the same bytes for the same content where the format allows.

Timestamps inside documents (xlsx/docx properties, PDF metadata, zip entries) are
pinned to :data:`FIXED_TIME` so that a task reproduces its files exactly.

Office files (xlsx, docx, PDF) are kept per process by their arguments: a task's setup
writes the same documents at every reset (its setup-alone, solution and near-miss
episodes), and rendering them is the slow part.

Every writer renders the file in memory and hands the bytes to its target once: a
host :class:`~pathlib.Path` (tests, tools) or a device's :class:`Target` that writes
through :mod:`devicesworld.devices.safefs`, so a document written on an agent's
behalf can never land on a link's destination.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import struct
import tarfile
import wave
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument

FIXED_TIME = datetime(2026, 1, 1, 9, 0, 0)
_ZIP_TIME = (2026, 1, 1, 9, 0, 0)


class Target(Protocol):
    """Where a writer puts its bytes: the parts of :class:`~pathlib.Path` the writers use."""

    @property
    def name(self) -> str: ...

    @property
    def suffix(self) -> str: ...

    def joinpath(self, rel: str) -> Target: ...

    def write_bytes(self, data: bytes) -> Any: ...


Dest = Path | Target


def _save(path: Dest, data: bytes) -> None:
    if isinstance(path, Path):
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


_RENDERED: OrderedDict[str, bytes] = OrderedDict()
MAX_RENDERED = 256
"""Office files kept per process (a task's setup writes the same documents at every reset)."""


def _remembered(args: tuple[Any, ...], make: Callable[[], bytes]) -> bytes:
    """``make()``, kept by the ``repr`` of its arguments (which tells ``1``, ``1.0``, ``True``,
    ``"1"`` and a date apart): the writers pin every timestamp, so the same arguments give
    the same bytes."""
    key = repr(args)
    if " at 0x" in key:  # an object without a value repr: its bytes are not kept
        return make()
    found = _RENDERED.get(key)
    if found is None:
        found = make()
        _RENDERED[key] = found
        if len(_RENDERED) > MAX_RENDERED:
            _RENDERED.popitem(last=False)
    else:
        _RENDERED.move_to_end(key)
    return found


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def _pin_office_zip(raw: bytes) -> bytes:
    """An Office file's zip rewritten with pinned entry times and modified stamp.

    openpyxl and python-docx stamp the zip entries, and openpyxl the document's
    "modified" property, with the wall clock at save time; pinning both makes the
    same content produce the same bytes.
    """
    with zipfile.ZipFile(io.BytesIO(raw)) as src:
        entries = [(info.filename, src.read(info)) for info in src.infolist()]
    stamp = FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in entries:
            if name == "docProps/core.xml":
                data = _MODIFIED.sub(rb"\g<1>" + stamp + rb"\g<2>", data)
            dst.writestr(zipfile.ZipInfo(name, date_time=_ZIP_TIME), data, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def write_bytes(path: Dest, data: bytes) -> None:
    """A file of bytes already rendered (an .eml from :func:`email_bytes`)."""
    _save(path, data)


def write_text(path: Dest, content: str) -> None:
    _save(path, content.encode("utf-8"))


def write_csv(path: Dest, rows: Sequence[Sequence[Any]]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    write_text(path, buf.getvalue())


def write_json(path: Dest, data: Any) -> None:
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def write_xlsx(path: Dest, sheets: Mapping[str, Sequence[Sequence[Any]]]) -> None:
    _save(path, _remembered(("xlsx", sheets), lambda: _xlsx_bytes(sheets)))


def _xlsx_bytes(sheets: Mapping[str, Sequence[Sequence[Any]]]) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    assert wb.active is not None
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(title=name)
        for row in rows:
            ws.append(list(row))
    wb.properties.created = FIXED_TIME
    wb.properties.modified = FIXED_TIME
    wb.properties.creator = "devicesworld"
    buf = io.BytesIO()
    wb.save(buf)
    return _pin_office_zip(buf.getvalue())


def write_docx(
    path: Dest, paragraphs: Sequence[str], title: str | None = None, table: Sequence[Sequence[str]] = ()
) -> None:
    _save(
        path, _remembered(("docx", paragraphs, title, table), lambda: _docx_bytes(paragraphs, title, table))
    )


def _docx_bytes(paragraphs: Sequence[str], title: str | None, table: Sequence[Sequence[str]]) -> bytes:
    from docx import Document

    doc = Document()
    if title:
        doc.add_heading(title, level=1)
    for text in paragraphs:
        doc.add_paragraph(text)
    return _docx_finished(doc, table)


def _docx_finished(doc: DocxDocument, table: Sequence[Sequence[Any]]) -> bytes:
    """A docx's bytes once its optional table (first row the header) is appended and its
    properties pinned: the common end of every docx writer."""
    if table:
        t = doc.add_table(rows=len(table), cols=max(len(r) for r in table))
        for i, row in enumerate(table):
            for j, cell in enumerate(row):
                t.cell(i, j).text = str(cell)
    props = doc.core_properties
    props.created = FIXED_TIME
    props.modified = FIXED_TIME
    props.author = "devicesworld"
    buf = io.BytesIO()
    doc.save(buf)
    return _pin_office_zip(buf.getvalue())


def write_docx_sections(
    path: Dest,
    title: str,
    sections: Sequence[tuple[str, Sequence[str]]],
    table: Sequence[Sequence[Any]] = (),
) -> None:
    """A multi-page docx: a title, one heading per section (each after the first on a new page),
    its paragraphs, then an optional table (first row the header)."""
    from docx import Document

    doc = Document()
    doc.add_heading(title, level=1)
    for i, (heading, paragraphs) in enumerate(sections):
        if i:
            doc.add_page_break()  # type: ignore[no-untyped-call]
        if heading:
            doc.add_heading(heading, level=2)
        for text in paragraphs:
            doc.add_paragraph(text)
    _save(path, _docx_finished(doc, table))


def write_pdf(path: Dest, paragraphs: Sequence[str], title: str | None = None) -> None:
    _save(path, _remembered(("pdf", paragraphs, title), lambda: _pdf_bytes(paragraphs, title)))


def _pdf_bytes(paragraphs: Sequence[str], title: str | None) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    story: list[Any] = []
    if title:
        story += [Paragraph(_escape(title), styles["Title"]), Spacer(1, 12)]
    for text in paragraphs:
        story += [Paragraph(_escape(text), styles["BodyText"]), Spacer(1, 6)]
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, invariant=1, title=title or "", author="devicesworld")
    doc.build(story)
    return buf.getvalue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_image(
    path: Dest,
    width: int,
    height: int,
    color: str = "#4a90d9",
    text: str | None = None,
    description: str | None = None,
) -> None:
    """An image; ``description`` goes into its metadata (PNG ``Description`` text chunk, JPEG EXIF
    ImageDescription), which ``read_document`` shows: text an agent can read without OCR."""
    from PIL import Image, ImageDraw, PngImagePlugin

    img = Image.new("RGB", (width, height), color)
    if text:
        ImageDraw.Draw(img).text((10, 10), text, fill="white")
    fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG", ".gif": "GIF", ".bmp": "BMP"}.get(
        path.suffix.lower(), "PNG"
    )
    extra: dict[str, Any] = {}
    if description is not None:
        if fmt == "PNG":
            info = PngImagePlugin.PngInfo()
            info.add_text("Description", description)
            extra["pnginfo"] = info
        elif fmt == "JPEG":
            exif = Image.Exif()
            exif[IMAGE_DESCRIPTION] = description
            extra["exif"] = exif.tobytes()
        else:
            raise ValueError(f"{path.name}: only PNG and JPEG images carry a description")
    buf = io.BytesIO()
    img.save(buf, format=fmt, **extra)
    _save(path, buf.getvalue())


IMAGE_DESCRIPTION = 0x010E
"""The EXIF tag of a JPEG's description."""


def write_wav(
    path: Dest, seconds: float, frequency: float = 440.0, sample_rate: int = 16000, channels: int = 1
) -> None:
    frames = round(seconds * sample_rate)
    samples = bytearray()
    for i in range(frames):
        value = int(12000 * math.sin(2 * math.pi * frequency * i / sample_rate))
        samples += struct.pack("<h", value) * channels
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(sample_rate)
        w.writeframes(bytes(samples))
    _save(path, buf.getvalue())


def archive_format(path: Dest) -> str:
    name = path.name.lower()
    for suffix, fmt in ((".zip", "zip"), (".tar.gz", "tar.gz"), (".tgz", "tar.gz"), (".tar", "tar")):
        if name.endswith(suffix):
            return fmt
    raise ValueError(f"{path.name}: archives must end in .zip, .tar, .tar.gz or .tgz")


def write_archive(path: Dest, files: Mapping[str, str]) -> None:
    fmt = archive_format(path)
    buf = io.BytesIO()
    if fmt == "zip":
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, text in files.items():
                zf.writestr(zipfile.ZipInfo(name, date_time=_ZIP_TIME), text)
    else:
        mode = "w:gz" if fmt == "tar.gz" else "w"
        with tarfile.open(fileobj=buf, mode=mode) as tf:  # type: ignore[call-overload]
            for name, text in files.items():
                data = text.encode()
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(data), int(FIXED_TIME.timestamp()), 0o644
                tf.addfile(info, io.BytesIO(data))
    _save(path, buf.getvalue())


def write_tree(root: Dest, files: Mapping[str, str]) -> None:
    """A folder of text files (a code project): ``files`` maps relative paths to contents."""
    for rel, text in files.items():
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if rel.startswith("/") or not parts or ".." in parts:
            raise ValueError(f"{rel!r} leaves the project folder")
        write_text(root.joinpath("/".join(parts)), text)


def email_bytes(
    to: Sequence[str],
    subject: str,
    body: str,
    sender: str,
    cc: Sequence[str] = (),
    when: datetime = FIXED_TIME,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["X-Unsent"] = "1"
    msg.set_content(body)
    return bytes(msg)
