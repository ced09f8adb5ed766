"""Readers: files back to plain JSON-able data for getters and checks.

Each reader raises :class:`FormatError` with a readable message when the file is not
a valid instance of its format, so a verifier reports "not a valid xlsx" instead of
crashing. A reader takes either a host :class:`~pathlib.Path` (files the harness
wrote itself, e.g. quality control after setup) or a :class:`Blob` — the bytes a
device read through :mod:`devicesworld.devices.safefs` — so no reader ever opens a
path an agent could have turned into a link. Readers bound their own output (cells
of a workbook, members of an archive); :mod:`.isolate` bounds their time and memory.
"""

from __future__ import annotations

import csv
import io
import json
import tarfile
import wave
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from devicesworld.devices.safefs import FsError

MAX_CELLS = 200_000
"""A workbook read stops with ``RESOURCE_LIMIT`` past this many cells (empty padding included)."""
MAX_MEMBERS = 20_000
"""An archive listing stops with ``RESOURCE_LIMIT`` past this many members."""
MAX_PATH_READ_BYTES = 256 * 1024 * 1024
"""Even a harness-written file read by path is refused past this size."""


class FormatError(ValueError):
    """The file exists but is not valid in the expected format."""


@dataclass(frozen=True)
class Blob:
    """A file's name and bytes, read by the device without following links."""

    name: str
    data: bytes


Source = Path | Blob


def blob(src: Source) -> Blob:
    """``src`` as bytes in memory (a path is read with a size cap)."""
    if isinstance(src, Blob):
        return src
    with src.open("rb") as fh:
        data = fh.read(MAX_PATH_READ_BYTES + 1)
    if len(data) > MAX_PATH_READ_BYTES:
        raise FsError("RESOURCE_LIMIT", f"{src.name} is over {MAX_PATH_READ_BYTES:,} bytes")
    return Blob(src.name, data)


def _stream(src: Source) -> tuple[str, io.BytesIO]:
    b = blob(src)
    return b.name, io.BytesIO(b.data)


def read_text(path: Source) -> str:
    b = blob(path)
    try:
        return b.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{b.name} is not UTF-8 text") from exc


def read_json(path: Source) -> Any:
    b = blob(path)
    try:
        return json.loads(read_text(b))
    except json.JSONDecodeError as exc:
        raise FormatError(f"{b.name} is not valid JSON: {exc}") from exc
    except RecursionError:
        raise FormatError(f"{b.name}: JSON nested too deeply") from None


def read_csv(path: Source) -> list[list[str]]:
    b = blob(path)
    try:
        return [row for row in csv.reader(io.StringIO(read_text(b))) if row]
    except csv.Error as exc:
        raise FormatError(f"{b.name} is not valid CSV: {exc}") from exc


def _open_workbook(path: Source, data_only: bool = True) -> Any:
    from openpyxl import load_workbook

    name, stream = _stream(path)
    try:
        return load_workbook(stream, read_only=True, data_only=data_only)
    except Exception as exc:
        raise FormatError(f"{name} is not a valid xlsx workbook: {exc}") from exc


def _sheet_rows(name: str, ws: Any, budget: list[int]) -> list[list[Any]]:
    rows: list[list[Any]] = []
    try:
        for row in ws.iter_rows(values_only=True):
            budget[0] -= len(row) + 1
            if budget[0] < 0:
                raise FsError(
                    "RESOURCE_LIMIT", f"{name}: more than {MAX_CELLS:,} cells; too large to read here"
                )
            rows.append([_cell(v) for v in row])
    except FsError:
        raise
    except Exception as exc:
        raise FormatError(f"{name} is not a valid xlsx workbook: {exc}") from exc
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    return rows


def read_xlsx(path: Source, sheet: str | None = None) -> list[list[Any]]:
    return _read_sheet(path, sheet, data_only=True)


def read_xlsx_formulas(path: Source, sheet: str | None = None) -> list[list[Any]]:
    """A sheet's rows as stored: formulas as their text (``=SUM(B2:B4)``), not their cached values."""
    return _read_sheet(path, sheet, data_only=False)


def _read_sheet(path: Source, sheet: str | None, *, data_only: bool) -> list[list[Any]]:
    """One sheet's rows (the first sheet by default), as cached values or as stored."""
    name = path.name
    wb = _open_workbook(path, data_only=data_only)
    try:
        if sheet is not None and sheet not in wb.sheetnames:
            raise FormatError(f"{name} has no sheet {sheet!r}; sheets: {', '.join(wb.sheetnames)}")
        ws = wb[sheet] if sheet is not None else wb.worksheets[0]
        return _sheet_rows(name, ws, [MAX_CELLS])
    finally:
        wb.close()


def read_workbook(path: Source) -> dict[str, list[list[Any]]]:
    """Every sheet's rows, in one opening of the workbook and one cell budget for all."""
    name = path.name
    wb = _open_workbook(path)
    budget = [MAX_CELLS]
    try:
        return {sheet: _sheet_rows(name, wb[sheet], budget) for sheet in wb.sheetnames}
    finally:
        wb.close()


def xlsx_sheets(path: Source) -> list[str]:
    wb = _open_workbook(path, data_only=False)
    names = list(wb.sheetnames)
    wb.close()
    return names


def _cell(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def read_docx(path: Source) -> list[str]:
    """Paragraph texts, then each table row as one tab-joined line."""
    from docx import Document

    name, stream = _stream(path)
    try:
        doc = Document(stream)
        lines = [p.text for p in doc.paragraphs]
        for table in doc.tables:
            lines += ["\t".join(cell.text for cell in row.cells) for row in table.rows]
    except Exception as exc:
        raise FormatError(f"{name} is not a valid docx document: {exc}") from exc
    return lines


def read_docx_runs(path: Source) -> list[dict[str, Any]]:
    """Each paragraph's text and its runs with their character formatting (bold, italic, underline)."""
    from docx import Document

    name, stream = _stream(path)
    try:
        doc = Document(stream)
        style_of = _paragraph_style_names(doc)
        return [
            {
                "text": p.text,
                "style": style_of(p),
                "runs": [
                    {
                        "text": r.text,
                        "bold": bool(r.bold),
                        "italic": bool(r.italic),
                        "underline": bool(r.underline),
                    }
                    for r in p.runs
                ],
            }
            for p in doc.paragraphs
        ]
    except Exception as exc:
        raise FormatError(f"{name} is not a valid docx document: {exc}") from exc


def _paragraph_style_names(doc: Any) -> Callable[[Any], str | None]:
    """``p.style.name`` of a paragraph of ``doc`` (``None`` without a default paragraph style), the
    styles read once: python-docx looks each paragraph's style up among all the document's styles
    again, which was most of the time a collateral snapshot spent on a docx (measured: 4.6 of 6 s
    over a task's validation). Same answer: the first style with the paragraph's id, if it is a
    paragraph style, else the default one."""
    from docx.enum.style import WD_STYLE_TYPE
    from docx.styles.style import StyleFactory

    default = doc.styles.default(WD_STYLE_TYPE.PARAGRAPH)
    default_name: str | None = default.name if default is not None else None
    by_id: dict[str, str | None] = {}
    for st in doc.styles.element.style_lst:
        sid = st.styleId
        if sid and sid not in by_id:
            by_id[sid] = StyleFactory(st).name if st.type == WD_STYLE_TYPE.PARAGRAPH else default_name

    def style_of(p: Any) -> str | None:
        sid = p._p.style
        return by_id.get(sid, default_name) if sid else default_name

    return style_of


def read_pdf(path: Source) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    name, stream = _stream(path)
    try:
        reader = PdfReader(stream)
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except (PyPdfError, ValueError, OSError, KeyError, TypeError, RecursionError) as exc:
        raise FormatError(f"{name} is not a valid PDF: {exc}") from exc


def image_info(path: Source) -> dict[str, Any]:
    from PIL import Image, UnidentifiedImageError

    name, stream = _stream(path)
    try:
        with Image.open(stream) as img:
            info: dict[str, Any] = {
                "width": img.width,
                "height": img.height,
                "mode": img.mode,
                "format": img.format,
            }
            described = img.info.get("Description") or img.getexif().get(0x010E)
            if described:
                info["description"] = str(described)
            return info
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise FormatError(f"{name} is not a readable image: {exc}") from exc


def wav_info(path: Source) -> dict[str, Any]:
    name, stream = _stream(path)
    try:
        with wave.open(stream, "rb") as w:
            frames, rate = w.getnframes(), w.getframerate()
            return {
                "channels": w.getnchannels(),
                "sample_rate": rate,
                "frames": frames,
                "seconds": round(frames / rate, 3) if rate else 0.0,
            }
    except (wave.Error, EOFError, OSError) as exc:
        raise FormatError(f"{name} is not a valid WAV file: {exc}") from exc


def archive_names(path: Source) -> list[str]:
    """Member file names of a zip or tar archive (folders left out), sorted."""
    name, stream = _stream(path)
    if zipfile.is_zipfile(stream):
        try:
            with zipfile.ZipFile(stream) as zf:
                infos = zf.infolist()
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
            raise FormatError(f"{name} is not a valid zip archive: {exc}") from exc
        if len(infos) > MAX_MEMBERS:
            raise FsError("RESOURCE_LIMIT", f"{name}: more than {MAX_MEMBERS:,} members; not listed")
        return sorted(i.filename for i in infos if not i.filename.endswith("/"))
    stream.seek(0)
    names: list[str] = []
    try:
        with tarfile.open(fileobj=stream, mode="r|*") as tf:
            for m in tf:
                if len(names) >= MAX_MEMBERS:
                    raise FsError("RESOURCE_LIMIT", f"{name}: more than {MAX_MEMBERS:,} members; not listed")
                if m.isfile():
                    names.append(m.name.removeprefix("./"))
    except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
        raise FormatError(f"{name} is not a zip or tar archive") from exc
    return sorted(names)


def read_eml(path: Source) -> dict[str, Any]:
    b = blob(path)
    try:
        msg = BytesParser(policy=policy.default).parsebytes(b.data)
        body_part = msg.get_body(preferencelist=("plain",)) if msg.is_multipart() else msg
        body = body_part.get_content() if body_part is not None else ""

        def addresses(header: str) -> list[str]:
            value = msg.get(header)
            if value is None:
                return []
            return [a.addr_spec.lower() for a in getattr(value, "addresses", ())]

        return {
            "from": str(msg.get("From", "")),
            "to": addresses("To"),
            "cc": addresses("Cc"),
            "subject": str(msg.get("Subject", "")),
            "body": str(body).strip(),
        }
    except Exception as exc:
        raise FormatError(f"{b.name} is not a valid email message: {exc}") from exc
