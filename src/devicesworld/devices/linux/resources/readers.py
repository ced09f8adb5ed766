"""Readers: files back to plain JSON-able data for getters and checks.

Each reader raises :class:`FormatError` with a readable message when the file is not
a valid instance of its format, so a verifier reports "not a valid xlsx" instead of
crashing.
"""

from __future__ import annotations

import csv
import io
import json
import tarfile
import wave
import zipfile
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any


class FormatError(ValueError):
    """The file exists but is not valid in the expected format."""


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path.name} is not UTF-8 text") from exc


def read_json(path: Path) -> Any:
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise FormatError(f"{path.name} is not valid JSON: {exc}") from exc


def read_csv(path: Path) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(read_text(path))) if row]


def read_xlsx(path: Path, sheet: str | None = None) -> list[list[Any]]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:
        raise FormatError(f"{path.name} is not a valid xlsx workbook: {exc}") from exc
    try:
        if sheet is not None and sheet not in wb.sheetnames:
            raise FormatError(f"{path.name} has no sheet {sheet!r}; sheets: {', '.join(wb.sheetnames)}")
        ws = wb[sheet] if sheet is not None else wb.worksheets[0]
        rows = [[_cell(v) for v in row] for row in ws.iter_rows(values_only=True)]
    finally:
        wb.close()
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    return rows


def xlsx_sheets(path: Path) -> list[str]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True)
    except Exception as exc:
        raise FormatError(f"{path.name} is not a valid xlsx workbook: {exc}") from exc
    names = list(wb.sheetnames)
    wb.close()
    return names


def _cell(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def read_docx(path: Path) -> list[str]:
    """Paragraph texts, then each table row as one tab-joined line."""
    from docx import Document

    try:
        doc = Document(str(path))
    except Exception as exc:
        raise FormatError(f"{path.name} is not a valid docx document: {exc}") from exc
    lines = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        lines += ["\t".join(cell.text for cell in row.cells) for row in table.rows]
    return lines


def read_pdf(path: Path) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except (PdfReadError, ValueError, OSError) as exc:
        raise FormatError(f"{path.name} is not a valid PDF: {exc}") from exc


def image_info(path: Path) -> dict[str, Any]:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as img:
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
    except (UnidentifiedImageError, OSError) as exc:
        raise FormatError(f"{path.name} is not a readable image: {exc}") from exc


def wav_info(path: Path) -> dict[str, Any]:
    try:
        with wave.open(str(path), "rb") as w:
            frames, rate = w.getnframes(), w.getframerate()
            return {
                "channels": w.getnchannels(),
                "sample_rate": rate,
                "frames": frames,
                "seconds": round(frames / rate, 3) if rate else 0.0,
            }
    except (wave.Error, EOFError, OSError) as exc:
        raise FormatError(f"{path.name} is not a valid WAV file: {exc}") from exc


def archive_names(path: Path) -> list[str]:
    """Member file names of a zip or tar archive (folders left out), sorted."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            return sorted(n for n in zf.namelist() if not n.endswith("/"))
    try:
        with tarfile.open(path) as tf:
            return sorted(m.name.removeprefix("./") for m in tf.getmembers() if m.isfile())
    except (tarfile.TarError, OSError) as exc:
        raise FormatError(f"{path.name} is not a zip or tar archive") from exc


def read_eml(path: Path) -> dict[str, Any]:
    try:
        msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    except Exception as exc:
        raise FormatError(f"{path.name} is not a valid email message: {exc}") from exc
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
