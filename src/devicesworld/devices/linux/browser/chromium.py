"""Headless Chromium through Playwright, using the system's ``/usr/bin/chromium``: one context per device.

Never a downloaded browser: the executable is Debian's ``chromium`` package. The
browser process is shared by every device of the Python process
(:mod:`~devicesworld.devices.linux.browser.shared`); a device gets its own fresh
browser *context* — its own cookies, storage and pages — created on its first
browser action and closed when the device closes, so episodes stay isolated.

Routing: the context's HTTP proxy is the device's site server, so ``http://shop.test/``
reaches the task's own local sites (the server picks the site by ``Host``), and a
route handler aborts every request for a host that is not one of those sites. Every
request carries the task's site secret as an extra header, without which the site
server refuses it (so no other local process can forge a visit or a submission). All
Playwright calls run on the shared browser's worker thread; callers may come from
any thread. If the shared browser crashes, the device's next action reports
``BROWSER_RESTARTED`` and gets a new context in a relaunched browser.
"""

from __future__ import annotations

import contextlib
import importlib.util
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from devicesworld.devices.linux.browser.base import (
    READING_RULES,
    BrowserError,
    PageView,
    format_page,
    normalise_url,
)
from devicesworld.devices.linux.browser.shared import LAUNCH_ARGS, SharedChromium, shared_chromium
from devicesworld.devices.linux.sites.server import TOKEN_HEADER, SiteService

__all__ = ["LAUNCH_ARGS", "ChromiumBrowser", "chromium_path"]

CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
T = TypeVar("T")

# Same reading rules as the built-in engine: the page becomes segments, elements are numbered.
_READ_JS = """
([blockTags, skipTags, cellTags, cellEnd]) => {
  const block = new Set(blockTags), skip = new Set(skipTags), cells = new Set(cellTags);
  document.querySelectorAll('[data-dw-idx]').forEach(e => e.removeAttribute('data-dw-idx'));
  const segs = []; let n = 0;
  const labels = {};
  document.querySelectorAll('label[for]').forEach(l => { labels[l.htmlFor] = l.textContent.trim(); });
  const interactive = el => el.matches('a[href], button, select, textarea, input:not([type=hidden])');
  const describe = el => {
    const tag = el.tagName.toLowerCase();
    const label = labels[el.id] || el.getAttribute('aria-label') || el.getAttribute('placeholder') || '';
    if (tag === 'a') return {kind: 'link', label: el.textContent.trim(), href: el.getAttribute('href')};
    if (tag === 'button') return {kind: 'button', label: el.textContent.trim()};
    if (tag === 'textarea') return {kind: 'text area', label: label || el.name, value: el.value};
    if (tag === 'select') {
      const opts = [...el.options].filter(o => o.value).map(o => o.text.trim());
      const sel = el.selectedOptions[0];
      return {kind: 'select', label: label || el.name, value: sel && sel.value ? sel.text.trim() : '', options: opts};
    }
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    if (['submit', 'button', 'image', 'reset'].includes(type)) return {kind: 'button', label: el.value || type};
    if (type === 'checkbox' || type === 'radio') {
      const wrap = el.closest('label');
      return {kind: type, label: label || (wrap ? wrap.textContent.trim() : '') || el.value, checked: el.checked};
    }
    return {kind: type + ' field', label: label || el.name, value: el.value};
  };
  const visit = node => {
    if (node.nodeType === 3) { segs.push(node.textContent); return; }
    if (node.nodeType !== 1) return;
    const tag = node.tagName.toLowerCase();
    if (skip.has(tag) || (tag === 'label' && node.hasAttribute('for'))) return;
    const st = getComputedStyle(node);
    if (st.display === 'none' || st.visibility === 'hidden') return;
    const isBlock = block.has(tag);
    if (isBlock) segs.push('\\n');
    if (interactive(node)) {
      n += 1; node.setAttribute('data-dw-idx', String(n)); segs.push(describe(node));
    } else if (tag !== 'option') {
      node.childNodes.forEach(visit);
    }
    if (cells.has(tag)) segs.push(cellEnd);
    if (isBlock) segs.push('\\n');
  };
  visit(document.documentElement);
  return {title: document.title, segments: segs};
}
"""


def chromium_path() -> str | None:
    """Debian's Chromium, if installed and Playwright is importable; else ``None``."""
    if importlib.util.find_spec("playwright") is None:
        return None
    for path in CHROMIUM_PATHS:
        if Path(path).exists():
            return path
    found = shutil.which("chromium")
    return found


class ChromiumBrowser:
    """One tab in the device's own context of the process's shared headless Chromium."""

    backend = "chromium"

    def __init__(self, sites: SiteService, executable: str | None = None) -> None:
        exe = executable or chromium_path()
        if exe is None:
            raise BrowserError(
                "NO_BROWSER", "Chromium is not available: install the `chromium` package and playwright"
            )
        self.sites = sites
        self._shared: SharedChromium = shared_chromium(exe)
        self._ctx: Any = None
        self._page: Any = None
        self._launch_no = 0
        self.status = 200
        self.opened = False
        self._closed = False
        self._shared.call(self._new_context)

    def _new_context(self) -> None:
        browser = self._shared.browser()
        self._launch_no = self._shared.launches
        ctx = browser.new_context(
            proxy={"server": f"http://127.0.0.1:{self.sites.port}"},
            viewport={"width": 1024, "height": 768},
            extra_http_headers={TOKEN_HEADER: self.sites.token},
        )
        try:
            ctx.route("**/*", self._route)
            page = ctx.new_page()
            page.set_default_timeout(10_000)
        except BaseException:
            with contextlib.suppress(Exception):
                ctx.close()
            raise
        self._ctx, self._page = ctx, page
        self.status, self.opened = 200, False

    def _alive(self) -> bool:
        return (
            self._ctx is not None
            and self._launch_no == self._shared.launches
            and self._shared.connected()
            and not self._page.is_closed()
        )

    def _call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the browser thread; a lost context is replaced and reported, never a traceback."""

        def guarded() -> T:
            from playwright.sync_api import Error as PlaywrightError

            if self._closed:
                raise BrowserError("INVALID_IN_STATE", "this browser has been closed")
            if not self._alive():
                self._drop_context()
                self._new_context()
                raise BrowserError(
                    "BROWSER_RESTARTED",
                    "the browser had stopped and was restarted; its pages are gone: open the page again",
                )
            try:
                return fn()
            except PlaywrightError as exc:
                if not self._alive():
                    raise BrowserError(
                        "BROWSER_CRASHED", "the browser stopped; it restarts on the next browser action"
                    ) from None
                first = (exc.message or str(exc)).strip().splitlines()
                raise BrowserError("BROWSER_ERROR", first[0] if first else type(exc).__name__) from None

        return self._shared.call(guarded)

    def _drop_context(self) -> None:
        ctx, self._ctx, self._page = self._ctx, None, None
        if ctx is not None:
            with contextlib.suppress(Exception):
                ctx.close()

    def _route(self, route: Any) -> None:
        host = (urlsplit(route.request.url).hostname or "").lower()
        if host in self.sites.sites:
            route.continue_()
        else:
            route.abort("blockedbyclient")

    # -------------------------------------------------------------- reading
    def _read(self) -> PageView:
        if not self.opened:
            raise BrowserError("NO_PAGE", "no page is open; use browser_open first")
        data = self._page.evaluate(_READ_JS, list(READING_RULES))
        return format_page(self._page.url, data["title"], data["segments"], self.status)

    def read(self) -> PageView:
        return self._call(self._read)

    def current(self) -> dict[str, Any] | None:
        """The page's URL and title; ``None`` before any page or when the browser was lost (observations never fail)."""
        if not self.opened:
            return None
        try:
            return self._call(lambda: {"url": self._page.url, "title": self._page.title()})
        except BrowserError:
            return None

    def _locator(self, index: int) -> Any:
        if not self.opened:
            raise BrowserError("NO_PAGE", "no page is open; use browser_open first")
        loc = self._page.locator(f'[data-dw-idx="{index}"]')
        if loc.count() == 0:
            self._read()
            loc = self._page.locator(f'[data-dw-idx="{index}"]')
            if loc.count() == 0:
                raise BrowserError("STALE_ELEMENT", f"no element [{index}] on this page; read the page again")
        return loc.first

    def _navigated(self, action: Callable[[], Any], expect: bool = False) -> PageView:
        """Run an action that may load a page; remember the HTTP status of what loaded.

        With ``expect`` (form submissions) it waits for the navigation the action starts.
        """
        responses: list[Any] = []

        def handler(response: Any) -> None:
            responses.append(response)

        self._page.on("response", handler)
        try:
            if expect:
                with self._page.expect_navigation(wait_until="load"):
                    action()
            else:
                action()
                self._page.wait_for_load_state("load")
        finally:
            self._page.remove_listener("response", handler)
        docs = [r for r in responses if r.request.resource_type == "document"]
        if docs:
            self.status = docs[-1].status
        return self._read()

    # -------------------------------------------------------------- actions
    def open(self, url: str) -> PageView:
        def go() -> PageView:
            target = normalise_url(url, set(self.sites.sites), self._page.url if self.opened else None)
            response = self._page.goto(target, wait_until="load")
            self.opened = True
            self.status = response.status if response is not None else 200
            return self._read()

        return self._call(go)

    def click(self, index: int) -> PageView:
        def go() -> PageView:
            loc = self._locator(index)
            href = loc.get_attribute("href")
            if href is not None:
                target = normalise_url(href, set(self.sites.sites), self._page.url)
                return self._navigated(lambda: self._page.goto(target, wait_until="load"))
            submits = loc.evaluate(
                "el => !!(el.form || el.closest('form')) && ((el.tagName === 'BUTTON' && (el.type || 'submit') === 'submit')"
                " || (el.tagName === 'INPUT' && ['submit', 'image'].includes(el.type)))"
            )
            if submits:
                return self._navigated(
                    lambda: loc.evaluate(
                        "el => { const f = el.form || el.closest('form'); f.noValidate = true; setTimeout(() => f.requestSubmit(el), 0); }"
                    ),
                    expect=True,
                )
            return self._navigated(loc.click)

        return self._call(go)

    def type(self, index: int, text: str, clear: bool = True) -> PageView:
        def go() -> PageView:
            loc = self._locator(index)
            editable = loc.evaluate(
                "el => (el.tagName === 'TEXTAREA') || (el.tagName === 'INPUT' && "
                "!['checkbox','radio','submit','button','image','reset'].includes((el.type||'').toLowerCase()))"
            )
            if not editable:
                raise BrowserError("NOT_EDITABLE", f"element [{index}] is not a text field")
            if clear:
                loc.fill(text)
            else:
                loc.fill(loc.input_value() + text)
            return self._read()

        return self._call(go)

    def select(self, index: int, option: str) -> PageView:
        def go() -> PageView:
            loc = self._locator(index)
            if loc.evaluate("el => el.tagName") != "SELECT":
                raise BrowserError("NOT_SELECT", f"element [{index}] is not a select")
            options = loc.evaluate("el => [...el.options].map(o => [o.text.trim(), o.value])")
            want = option.strip().casefold()
            value = next((v for t, v in options if t.casefold() == want), None) or next(
                (v for _, v in options if v.casefold() == want), None
            )
            if value is None:
                choices = ", ".join(t for t, v in options if v)
                raise BrowserError(
                    "NO_SUCH_OPTION", f"element [{index}] has no option {option!r}; options: {choices}"
                )
            loc.select_option(value=value)
            return self._read()

        return self._call(go)

    def submit(self, index: int | None) -> PageView:
        def go() -> PageView:
            if index is None:
                if not self.opened:
                    raise BrowserError("NO_PAGE", "no page is open; use browser_open first")
                count = self._page.locator("form").count()
                if count != 1:
                    raise BrowserError(
                        "NO_FORM",
                        f"this page has {count} forms; give the index of a field of the one to submit",
                    )
                form = self._page.locator("form").first
            else:
                loc = self._locator(index)
                if not loc.evaluate("el => !!(el.form || el.closest('form'))"):
                    raise BrowserError("NO_FORM", "that element is not inside a form")
                form = loc
            # Submit like a person pressing the form's button: no client-side validation, server decides.
            return self._navigated(
                lambda: form.evaluate(
                    "el => { const f = el.form || el.closest('form') || el; f.noValidate = true;"
                    " setTimeout(() => f.requestSubmit(), 0); }"
                ),
                expect=True,
            )

        return self._call(go)

    def back(self) -> PageView:
        def go() -> PageView:
            if not self.opened:
                raise BrowserError("NO_HISTORY", "there is no previous page")
            response = self._page.go_back(wait_until="load")
            if response is None:
                raise BrowserError("NO_HISTORY", "there is no previous page")
            self.status = response.status
            return self._read()

        return self._call(go)

    def screenshot(self) -> bytes:
        return self._call(lambda: bytes(self._page.screenshot()))

    def close(self) -> None:
        """Close this device's context; the shared browser keeps running for the next device."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self._shared.call(self._drop_context, timeout=30)
