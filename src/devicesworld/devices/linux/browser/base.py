"""The browser interface both backends implement, and the page text format they share.

A page is read as text in which every interactive element carries a number
(``[3] link "Policy" -> /policy``); the agent acts on those numbers. Both backends
first reduce the page to the same *segments* — text runs, line breaks and element
records — and :func:`format_page` turns segments into text, so an agent sees the same
page whichever backend runs.

Only the task's sites are reachable: URLs must name a host served by the task's
:class:`~devicesworld.devices.linux.sites.SiteService`; anything else is refused with
a message listing the reachable sites.
"""

from __future__ import annotations

import re
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

from pydantic import BaseModel, Field


class BrowserError(Exception):
    """A browser action that cannot be done (unknown element, unreachable site)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Element(BaseModel):
    index: int
    kind: str = Field(description="link, button, text field, select, checkbox, radio, text area, ...")
    label: str = ""
    value: str = ""
    href: str | None = None
    options: list[str] = Field(default_factory=list)
    checked: bool | None = None


class PageView(BaseModel):
    url: str
    title: str
    text: str
    elements: list[Element]
    status: int = 200


class Browser(Protocol):
    """One device's browser window (a single tab)."""

    backend: str

    def open(self, url: str) -> PageView: ...

    def read(self) -> PageView: ...

    def click(self, index: int) -> PageView: ...

    def type(self, index: int, text: str, clear: bool = True) -> PageView: ...

    def select(self, index: int, option: str) -> PageView: ...

    def submit(self, index: int | None) -> PageView: ...

    def back(self) -> PageView: ...

    def screenshot(self) -> bytes: ...

    def current(self) -> dict[str, Any] | None: ...

    def close(self) -> None: ...


def normalise_url(url: str, allowed: set[str], base: str | None = None) -> str:
    """An absolute ``http://host/path`` URL on an allowed host, or :class:`BrowserError`."""
    raw = url.strip()
    if (
        base is not None
        and not re.match(r"^[a-z]+://", raw)
        and (raw.startswith(("/", "?", "#", ".")) or "." not in raw.split("/")[0])
    ):
        raw = urljoin(base, raw)
    if not re.match(r"^[a-z]+://", raw):
        raw = "http://" + raw
    parts = urlsplit(raw)
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or host not in allowed:
        reachable = ", ".join(f"http://{h}/" for h in sorted(allowed)) or "none (this task has no web sites)"
        raise BrowserError(
            "NETWORK_BLOCKED", f"cannot reach {url!r}: only the task's sites are reachable: {reachable}"
        )
    path = parts.path or "/"
    return f"http://{host}{path}" + (f"?{parts.query}" if parts.query else "")


def _describe(e: Element) -> str:
    label = f' "{e.label}"' if e.label else ""
    if e.kind == "link":
        return f"[{e.index}] link{label}" + (f" -> {e.href}" if e.href else "")
    if e.kind == "button":
        return f"[{e.index}] button{label}"
    if e.kind in ("checkbox", "radio"):
        return f"[{e.index}] {e.kind}{label} ({'checked' if e.checked else 'unchecked'})"
    if e.kind == "select":
        return f'[{e.index}] select{label} = "{e.value}" options: {", ".join(e.options)}'
    return f'[{e.index}] {e.kind}{label} = "{e.value}"'


def format_page(url: str, title: str, segments: list[Any], status: int = 200) -> PageView:
    """Segments (``str`` text, ``"\\n"`` breaks, ``dict`` elements) to the shared page text."""
    elements: list[Element] = []
    lines: list[str] = []
    current: list[str] = []

    def flush() -> None:
        line = re.sub(r"\s+", " ", "".join(current)).strip().removesuffix(" |").removesuffix("|").strip()
        if line:
            lines.append(line)
        current.clear()

    for seg in segments:
        if isinstance(seg, dict):
            el = Element.model_validate({**seg, "index": len(elements) + 1})
            elements.append(el)
            current.append(" " + _describe(el) + " ")
        elif seg == "\n":
            flush()
        elif seg == CELL_END:
            current.append(" | ")
        else:
            current.append(str(seg))
    flush()
    header = f"URL: {url}\nTitle: {title}" + (f"\nHTTP status: {status}" if status != 200 else "")
    return PageView(
        url=url, title=title, text=header + "\n\n" + "\n".join(lines), elements=elements, status=status
    )


BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "thead",
        "tr",
        "ul",
        "legend",
    ]
)
CELL_TAGS = frozenset({"td", "th"})
CELL_END = "\x1f"
"""Segment pushed after each table cell: cells read as ``a | b | c``."""
SKIP_TAGS = frozenset({"script", "style", "head", "noscript", "template", "title"})
READING_RULES = (sorted(BLOCK_TAGS), sorted(SKIP_TAGS), sorted(CELL_TAGS), CELL_END)
"""The same reading rules as the in-page reader of the Chromium engine takes them (JSON)."""
