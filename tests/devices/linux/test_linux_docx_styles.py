"""A docx's paragraph styles as the readers give them: the same names python-docx's ``p.style`` gives,
from a lookup made once per document (the collateral guard reads every docx at each snapshot)."""

from __future__ import annotations

import io

from docx import Document
from docx.enum.style import WD_STYLE_TYPE

from devicesworld.devices.linux.resources.readers import Blob, read_docx_runs


def _docx() -> bytes:
    doc = Document()
    doc.add_heading("Plan", level=1)
    doc.add_paragraph("Plain")
    doc.add_paragraph("Quoted", style="Quote")
    doc.add_paragraph("Listed", style="List Bullet")
    doc.styles.add_style("Mine", WD_STYLE_TYPE.PARAGRAPH)
    doc.add_paragraph("Custom", style="Mine")
    odd = doc.add_paragraph("Character style id")  # a paragraph naming a character style: the default
    odd._p.style = doc.styles["Strong"].style_id
    gone = doc.add_paragraph("Unknown id")  # a style id no style has: the default
    gone._p.style = "NoSuchStyle"
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def test_paragraph_styles_are_the_names_python_docx_gives() -> None:
    data = _docx()
    expected = [p.style.name if p.style is not None else None for p in Document(io.BytesIO(data)).paragraphs]
    got = [p["style"] for p in read_docx_runs(Blob("plan.docx", data))]
    assert got == expected
    assert got[:5] == ["Heading 1", "Normal", "Quote", "List Bullet", "Mine"]
    assert got[5:] == ["Normal", "Normal"]
