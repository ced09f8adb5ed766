"""The document formats of the Windows apps: Notepad text and WordPad RTF.

Notepad on Wine saves ANSI (cp1252) by default, or UTF-8/UTF-16 with a byte-order mark
when the user picks it, with CRLF line ends: :func:`decode_text` reads any of them back
as ``str`` with ``\\n`` line ends, so checks compare text, not bytes.

RTF is WordPad's own format. :func:`write_rtf` makes a small, valid RTF document from
paragraphs of runs (bold, italic, underline); :func:`read_rtf` is a reader of our own
for what WordPad writes — groups, the font/colour/style tables and ``\\*`` destinations
skipped, ``\\b``/``\\i``/``\\ul`` and their ``0`` forms, ``\\plain``, ``\\par``, ``\\'hh``
(cp1252) and ``\\uN`` escapes — returning paragraphs and styled runs for the checks.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

ENCODINGS = ("ansi", "utf-8", "utf-8-bom", "utf-16")


def encode_text(content: str, encoding: str = "ansi", crlf: bool = True) -> bytes:
    """Bytes of a text file as Notepad would save it."""
    text = content.replace("\r\n", "\n")
    if crlf:
        text = text.replace("\n", "\r\n")
    if encoding == "ansi":
        return text.encode("cp1252", errors="strict")
    if encoding == "utf-8":
        return text.encode("utf-8")
    if encoding == "utf-8-bom":
        return codecs.BOM_UTF8 + text.encode("utf-8")
    if encoding == "utf-16":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    raise ValueError(f"unknown encoding {encoding!r} (one of {', '.join(ENCODINGS)})")


def decode_text(data: bytes) -> str:
    """Text of a file in any encoding Notepad writes, with ``\\n`` line ends."""
    if data.startswith(codecs.BOM_UTF8):
        text = data[3:].decode("utf-8", errors="replace")
    elif data.startswith(codecs.BOM_UTF16_LE):
        text = data[2:].decode("utf-16-le", errors="replace")
    elif data.startswith(codecs.BOM_UTF16_BE):
        text = data[2:].decode("utf-16-be", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False
    underline: bool = False


@dataclass
class RtfDoc:
    paragraphs: list[list[Run]] = field(default_factory=list)

    def texts(self) -> list[str]:
        return ["".join(r.text for r in p) for p in self.paragraphs]

    def as_json(self) -> dict[str, object]:
        return {
            "paragraphs": self.texts(),
            "runs": [
                {"paragraph": i, "text": r.text, "bold": r.bold, "italic": r.italic, "underline": r.underline}
                for i, p in enumerate(self.paragraphs)
                for r in p
                if r.text
            ],
        }


def _escape(text: str) -> str:
    out: list[str] = []
    for ch in text:
        if ch in "\\{}":
            out.append("\\" + ch)
        elif ch == "\t":
            out.append("\\tab ")
        elif ord(ch) < 128:
            out.append(ch)
        else:
            code = ord(ch)
            if code > 0xFFFF:
                units = ch.encode("utf-16-le")
                for i in range(0, len(units), 2):
                    unit = int.from_bytes(units[i : i + 2], "little")
                    out.append(f"\\u{unit - 65536 if unit > 32767 else unit}?")
            else:
                out.append(f"\\u{code - 65536 if code > 32767 else code}?")
    return "".join(out)


def write_rtf(paragraphs: list[list[Run]], font: str = "Arial", size_pt: int = 12) -> bytes:
    """A small RTF document (ASCII bytes) that WordPad opens."""
    lines = [
        "{\\rtf1\\ansi\\ansicpg1252\\deff0",
        "{\\fonttbl{\\f0\\fswiss " + _escape(font) + ";}}",
        f"\\viewkind4\\uc1\\pard\\f0\\fs{size_pt * 2}",
    ]
    for runs in paragraphs:
        body = []
        for r in runs:
            on = ("\\b" if r.bold else "") + ("\\i" if r.italic else "") + ("\\ul" if r.underline else "")
            off = (
                ("\\b0" if r.bold else "")
                + ("\\i0" if r.italic else "")
                + ("\\ulnone" if r.underline else "")
            )
            body.append(f"{on} {_escape(r.text)}{off} " if on else _escape(r.text))
        lines.append("".join(body) + "\\par")
    lines.append("}")
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


_TOKEN = re.compile(rb"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}\r\n]+)|[\r\n]+", re.S)
_SKIP_DESTINATIONS = {
    b"fonttbl",
    b"colortbl",
    b"stylesheet",
    b"info",
    b"pict",
    b"header",
    b"footer",
    b"listtable",
    b"listoverridetable",
    b"generator",
}


@dataclass
class _State:
    bold: bool = False
    italic: bool = False
    underline: bool = False
    skip: bool = False
    uc: int = 1

    def copy(self) -> _State:
        return _State(self.bold, self.italic, self.underline, self.skip, self.uc)


class RtfError(ValueError):
    """Not an RTF document."""


def _printable(text: str) -> str:
    return "".join(c for c in text if c >= " " or c == "\t")


def read_rtf(data: bytes) -> RtfDoc:
    """Paragraphs and styled runs of an RTF document; raises :class:`RtfError` when it is not RTF."""
    if not data.lstrip().startswith(b"{\\rtf"):
        raise RtfError("not an RTF document (it does not start with {\\rtf)")
    doc = RtfDoc()
    current: list[Run] = []
    stack: list[_State] = []
    st = _State()
    pending_skip = 0  # characters to drop after a \uN
    first_in_group = False

    def emit(text: str) -> None:
        if st.skip or not text:
            return
        if current and (current[-1].bold, current[-1].italic, current[-1].underline) == (
            st.bold,
            st.italic,
            st.underline,
        ):
            current[-1] = Run(current[-1].text + text, st.bold, st.italic, st.underline)
        else:
            current.append(Run(text, st.bold, st.italic, st.underline))

    for m in _TOKEN.finditer(data):
        word, num, hexch, sym, brace, text = m.groups()
        if brace == b"{":
            stack.append(st.copy())
            first_in_group = True
            continue
        if brace == b"}":
            st = stack.pop() if stack else st
            first_in_group = False
            continue
        was_first, first_in_group = first_in_group, False
        if word is not None:
            if was_first and word in _SKIP_DESTINATIONS:
                st.skip = True
                continue
            value = int(num) if num is not None else None
            if word in (b"b", b"i", b"ul"):
                on = value != 0
                if word == b"b":
                    st.bold = on
                elif word == b"i":
                    st.italic = on
                else:
                    st.underline = on
            elif word in (b"ulnone",):
                st.underline = False
            elif word == b"plain":
                st.bold = st.italic = st.underline = False
            elif word in (b"par", b"line"):
                if not st.skip:
                    doc.paragraphs.append(current)
                    current = []
            elif word == b"tab":
                emit("\t")
            elif word == b"uc" and value is not None:
                st.uc = value
            elif word == b"u" and value is not None:
                emit(chr(value + 65536 if value < 0 else value))
                pending_skip = st.uc
            continue
        if sym is not None:
            if was_first and sym == b"*":
                st.skip = True
            elif sym in (b"\\", b"{", b"}"):
                emit(sym.decode())
            elif sym == b"~":
                emit("\u00a0")
            continue
        if hexch is not None:
            if pending_skip:
                pending_skip -= 1
                continue
            emit(bytes([int(hexch, 16)]).decode("cp1252", errors="replace"))
            continue
        if text is not None:
            chunk = text.decode("cp1252", errors="replace")
            if pending_skip:
                drop = min(pending_skip, len(chunk))
                chunk = chunk[drop:]
                pending_skip -= drop
            emit(chunk)
    if current:
        doc.paragraphs.append(current)
    # WordPad ends its document with a NUL; control characters are not text
    for p in doc.paragraphs:
        p[:] = [Run(_printable(r.text), r.bold, r.italic, r.underline) for r in p if _printable(r.text)]
    while doc.paragraphs and not doc.paragraphs[-1]:
        doc.paragraphs.pop()
    # surrogate pairs written as two \u escapes
    for p in doc.paragraphs:
        for i, r in enumerate(p):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in r.text):
                p[i] = Run(
                    r.text.encode("utf-16", "surrogatepass").decode("utf-16", "replace"),
                    r.bold,
                    r.italic,
                    r.underline,
                )
    return doc
