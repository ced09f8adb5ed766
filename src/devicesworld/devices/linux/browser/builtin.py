"""The built-in HTML engine: forms and links, no JavaScript, no dependencies beyond the stdlib.

Used when Chromium is absent (or asked for). It parses pages with :mod:`html.parser`
into a small tree, reads it to the shared page text, keeps form values itself, and
submits forms like a browser would (``application/x-www-form-urlencoded``). Requests
go straight to the task's site server with the site's name in the ``Host`` header,
so nothing else on the network is reachable.
"""

from __future__ import annotations

import http.client
import io
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from devicesworld.devices.linux.browser.base import (
    BLOCK_TAGS,
    CELL_END,
    CELL_TAGS,
    SKIP_TAGS,
    BrowserError,
    PageView,
    format_page,
    normalise_url,
)
from devicesworld.devices.linux.sites.server import TOKEN_HEADER, SiteService

_VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
)


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)
    value: str = ""
    checked: bool = False

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> list[Node]:
        out: list[Node] = [self]
        for c in self.children:
            if isinstance(c, Node):
                out += c.walk()
        return out

    def ancestor(self, tag: str) -> Node | None:
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.cur = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.cur)
        self.cur.children.append(node)
        if tag not in _VOID:
            self.cur = node

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.cur = node.parent

    def handle_data(self, data: str) -> None:
        self.cur.children.append(data)


def _interactive(n: Node) -> bool:
    if n.tag == "a":
        return "href" in n.attrs
    if n.tag == "input":
        return n.attrs.get("type", "text") != "hidden"
    return n.tag in ("button", "select", "textarea")


class BuiltinBrowser:
    """One tab of the built-in engine."""

    backend = "builtin"

    def __init__(self, sites: SiteService | None) -> None:
        self.sites = sites
        self.url: str | None = None
        self.status = 200
        self.root: Node | None = None
        self.title = ""
        self.elements: list[Node] = []
        self.history: list[str] = []

    # -------------------------------------------------------------- network
    def _request(self, url: str, method: str = "GET", body: str | None = None) -> None:
        parts = urlsplit(url)
        if self.sites is None:
            raise BrowserError("NETWORK_BLOCKED", "this browser has no network")
        conn = http.client.HTTPConnection("127.0.0.1", self.sites.port, timeout=10)
        try:
            headers = {
                "Host": parts.hostname or "",
                "User-Agent": "DevicesWorld-builtin/1",
                TOKEN_HEADER: self.sites.token,
            }
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            conn.request(method, target or "/", body=body, headers=headers)
            resp = conn.getresponse()
            html = resp.read().decode(errors="replace")
            self.status = resp.status
        except OSError as exc:
            raise BrowserError("NETWORK_ERROR", f"cannot load {url}: {exc}") from exc
        finally:
            conn.close()
        self.load_html(url, html)

    def load_html(self, url: str, html: str) -> None:
        """Show ``html`` as the page at ``url`` (also used offline, to number a page's elements)."""
        builder = _TreeBuilder()
        builder.feed(html)
        builder.close()
        self.root = builder.root
        self.url = url
        title = next((n for n in self.root.walk() if n.tag == "title"), None)
        self.title = title.text().strip() if title else url
        for n in self.root.walk():
            if n.tag == "textarea":
                n.value = n.text()
            elif n.tag == "input":
                n.value = n.attrs.get("value", "")
                n.checked = "checked" in n.attrs
            elif n.tag == "select":
                opts = [o for o in n.walk() if o.tag == "option"]
                chosen = next((o for o in opts if "selected" in o.attrs), opts[0] if opts else None)
                n.value = _option_value(chosen) if chosen else ""

    def _allowed(self) -> set[str]:
        return set(self.sites.sites) if self.sites is not None else set()

    # -------------------------------------------------------------- reading
    def _segments(self) -> list[Any]:
        assert self.root is not None
        labels = {
            n.attrs["for"]: n.text().strip()
            for n in self.root.walk()
            if n.tag == "label" and "for" in n.attrs
        }
        segs: list[Any] = []
        self.elements = []

        def visit(node: Node | str) -> None:
            if isinstance(node, str):
                segs.append(node)
                return
            if node.tag in SKIP_TAGS or (node.tag == "label" and "for" in node.attrs):
                return
            block = node.tag in BLOCK_TAGS
            if block:
                segs.append("\n")
            if _interactive(node):
                self.elements.append(node)
                segs.append(_element(node, labels))
            elif node.tag == "option":
                return
            else:
                for c in node.children:
                    visit(c)
            if node.tag in CELL_TAGS:
                segs.append(CELL_END)
            if block:
                segs.append("\n")

        visit(self.root)
        return segs

    def read(self) -> PageView:
        if self.url is None:
            raise BrowserError("NO_PAGE", "no page is open; use browser_open first")
        return format_page(self.url, self.title, self._segments(), self.status)

    def current(self) -> dict[str, Any] | None:
        return None if self.url is None else {"url": self.url, "title": self.title}

    def _element(self, index: int) -> Node:
        if self.url is None:
            raise BrowserError("NO_PAGE", "no page is open; use browser_open first")
        if not self.elements:
            self._segments()
        if not 1 <= index <= len(self.elements):
            raise BrowserError(
                "STALE_ELEMENT",
                f"no element [{index}] on this page ({len(self.elements)} elements); read the page again",
            )
        return self.elements[index - 1]

    # -------------------------------------------------------------- actions
    def open(self, url: str) -> PageView:
        target = normalise_url(url, self._allowed(), self.url)
        if self.url is not None:
            self.history.append(self.url)
        self._request(target)
        return self.read()

    def click(self, index: int) -> PageView:
        node = self._element(index)
        if node.tag == "a":
            return self.open(urljoin(self.url or "", node.attrs["href"]))
        kind = node.attrs.get("type", "text") if node.tag == "input" else node.tag
        if node.tag == "button" or kind in ("submit", "image"):
            if node.attrs.get("type", "submit") != "button":
                return self._submit_form(node)
            return self.read()
        if kind == "checkbox":
            node.checked = not node.checked
        elif kind == "radio":
            form = node.ancestor("form") or self.root
            assert form is not None
            for other in form.walk():
                if (
                    other.tag == "input"
                    and other.attrs.get("type") == "radio"
                    and other.attrs.get("name") == node.attrs.get("name")
                ):
                    other.checked = False
            node.checked = True
        return self.read()

    def type(self, index: int, text: str, clear: bool = True) -> PageView:
        node = self._element(index)
        kind = node.attrs.get("type", "text") if node.tag == "input" else node.tag
        if node.tag not in ("input", "textarea") or kind in (
            "checkbox",
            "radio",
            "submit",
            "button",
            "image",
        ):
            raise BrowserError("NOT_EDITABLE", f"element [{index}] is a {kind}, not a text field")
        node.value = text if clear else node.value + text
        return self.read()

    def select(self, index: int, option: str) -> PageView:
        node = self._element(index)
        if node.tag != "select":
            raise BrowserError("NOT_SELECT", f"element [{index}] is not a select")
        opts = [o for o in node.walk() if o.tag == "option"]
        want = option.strip().casefold()
        match = next((o for o in opts if o.text().strip().casefold() == want), None) or next(
            (o for o in opts if _option_value(o).casefold() == want), None
        )
        if match is None:
            choices = ", ".join(o.text().strip() for o in opts)
            raise BrowserError(
                "NO_SUCH_OPTION", f"element [{index}] has no option {option!r}; options: {choices}"
            )
        node.value = _option_value(match)
        return self.read()

    def submit(self, index: int | None) -> PageView:
        if self.root is None:
            raise BrowserError("NO_PAGE", "no page is open; use browser_open first")
        if index is not None:
            return self._submit_form(self._element(index))
        forms = [n for n in self.root.walk() if n.tag == "form"]
        if len(forms) != 1:
            raise BrowserError(
                "NO_FORM", f"this page has {len(forms)} forms; give the index of a field of the one to submit"
            )
        return self._submit_form(forms[0])

    def _submit_form(self, node: Node) -> PageView:
        form = node if node.tag == "form" else node.ancestor("form")
        if form is None:
            raise BrowserError("NO_FORM", "that element is not inside a form")
        pairs: list[tuple[str, str]] = []
        for n in form.walk():
            name = n.attrs.get("name")
            if not name or "disabled" in n.attrs:
                continue
            if n.tag == "input":
                kind = n.attrs.get("type", "text")
                if kind in ("submit", "button", "image", "reset"):
                    continue
                if kind in ("checkbox", "radio") and not n.checked:
                    continue
                pairs.append(
                    (name, n.value if kind not in ("checkbox", "radio") else n.attrs.get("value", "on"))
                )
            elif n.tag in ("textarea", "select"):
                pairs.append((name, n.value))
        assert self.url is not None
        action = urljoin(self.url, form.attrs.get("action") or self.url)
        target = normalise_url(action, self._allowed())
        data = urlencode(pairs)
        self.history.append(self.url)
        if form.attrs.get("method", "get").lower() == "post":
            self._request(target, "POST", data)
        else:
            self._request(target.split("?")[0] + "?" + data)
        return self.read()

    def back(self) -> PageView:
        if not self.history:
            raise BrowserError("NO_HISTORY", "there is no previous page")
        self._request(self.history.pop())
        return self.read()

    def screenshot(self) -> bytes:
        """The page text drawn on a white canvas: what a text-mode browser would show."""
        from PIL import Image, ImageDraw

        text = self.read().text if self.url else "(no page open)"
        lines = [ln[:140] for ln in text.splitlines()][:60]
        img = Image.new("RGB", (1024, 40 + 16 * len(lines)), "white")
        draw = ImageDraw.Draw(img)
        for i, line in enumerate(lines):
            draw.text((12, 12 + 16 * i), line, fill="black")
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        return buf.getvalue()

    def close(self) -> None:
        self.root, self.url, self.elements = None, None, []


def _option_value(o: Node) -> str:
    return o.attrs.get("value", o.text().strip())


def _element(n: Node, labels: dict[str, str]) -> dict[str, Any]:
    label = (
        labels.get(n.attrs.get("id", ""), "")
        or n.attrs.get("aria-label", "")
        or n.attrs.get("placeholder", "")
    )
    if n.tag == "a":
        return {"kind": "link", "label": n.text().strip(), "href": n.attrs.get("href")}
    if n.tag == "button":
        return {"kind": "button", "label": n.text().strip()}
    if n.tag == "textarea":
        return {"kind": "text area", "label": label or n.attrs.get("name", ""), "value": n.value}
    if n.tag == "select":
        opts = [o.text().strip() for o in n.walk() if o.tag == "option" and _option_value(o)]
        chosen = next(
            (
                o.text().strip()
                for o in n.walk()
                if o.tag == "option" and _option_value(o) == n.value and n.value
            ),
            "",
        )
        return {"kind": "select", "label": label or n.attrs.get("name", ""), "value": chosen, "options": opts}
    kind = n.attrs.get("type", "text")
    if kind in ("submit", "button", "image", "reset"):
        return {"kind": "button", "label": n.attrs.get("value", kind)}
    if kind in ("checkbox", "radio"):
        wrap = n.ancestor("label")
        text = label or (wrap.text().strip() if wrap else "") or n.attrs.get("value", "")
        return {"kind": kind, "label": text, "checked": n.checked}
    return {"kind": f"{kind} field", "label": label or n.attrs.get("name", ""), "value": n.value}


def view_of_html(url: str, html: str) -> PageView:
    """How a page reads in the browser, without a server: task builders use it to find element numbers."""
    browser = BuiltinBrowser(None)
    browser.load_html(url, html)
    return browser.read()
