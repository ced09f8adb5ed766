"""Notepad text encodings and the RTF writer/reader of WordPad documents."""

from __future__ import annotations

import codecs

import pytest

from devicesworld.devices.windows.docs import RtfError, Run, decode_text, encode_text, read_rtf, write_rtf


@pytest.mark.parametrize("encoding", ["ansi", "utf-8", "utf-8-bom", "utf-16"])
def test_text_round_trips_in_every_notepad_encoding(encoding: str) -> None:
    content = "Café au lait\nsecond line\n"
    data = encode_text(content, encoding)
    assert "\r\n".encode("utf-16-le" if encoding == "utf-16" else "ascii") in data
    assert decode_text(data) == content


def test_ansi_refuses_what_cp1252_cannot_hold_and_boms_are_written() -> None:
    with pytest.raises(UnicodeEncodeError):
        encode_text("日本", "ansi")
    assert encode_text("x", "utf-8-bom").startswith(codecs.BOM_UTF8)
    assert decode_text("é".encode("cp1252")) == "é"


def test_rtf_round_trip_keeps_styles_and_unicode() -> None:
    paragraphs = [
        [Run("Dear "), Run("Sam", bold=True), Run(" — café ✓ {braces}")],
        [Run("Bye", italic=True, underline=True)],
    ]
    doc = read_rtf(write_rtf(paragraphs))
    assert doc.texts() == ["Dear Sam — café ✓ {braces}", "Bye"]
    runs = doc.as_json()["runs"]
    assert isinstance(runs, list)
    assert {"paragraph": 0, "text": "Sam", "bold": True, "italic": False, "underline": False} in runs
    assert runs[-1] == {"paragraph": 1, "text": "Bye", "bold": False, "italic": True, "underline": True}


def test_reader_handles_what_wordpad_writes() -> None:
    raw = (
        rb"{\rtf1\ansi\deff0{\fonttbl{\f0\fnil\fcharset0 Arial;}}{\colortbl ;\red0\green0\blue0;}"
        rb"{\*\generator Wine Riched20 2.0;}\pard\sa200\sl276\slmult1\f0\fs24\b Title\b0\par"
        b"\r\n" + rb"Caf\'e9 \plain\i x\i0 \u8364?\par" + b"\r\n" + rb"}" + b"\x00"
    )
    doc = read_rtf(raw)
    assert doc.texts() == ["Title", "Café x€"]
    assert doc.paragraphs[0][0].bold and not doc.paragraphs[1][0].bold
    assert [r.text for r in doc.paragraphs[1] if r.italic] == ["x"]


def test_reader_refuses_non_rtf() -> None:
    with pytest.raises(RtfError, match="not an RTF document"):
        read_rtf(b"plain text")
