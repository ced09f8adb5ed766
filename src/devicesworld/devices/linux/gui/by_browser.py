"""The built-in browser's steps done in the GUI desktop's Chromium: open, type, select, click, submit.

A family's tool steps name a page element by the number the built-in engine gives it
(``browser_type {index: 3}``); Chromium's accessibility tree numbers its elements in
another way, and a GUI agent names them by role and label. So the translation reads the
page as the built-in engine would (the task's own ``add_site`` setup, rendered by
:func:`page_html`), finds the element the number stands for, and clicks the Chromium
element of the same label and the role Chromium gives that kind of field. That needs the
page the browser is on, so this translates a device's browser steps in order
(:class:`BrowserSteps` keeps the page).

How a person does each step, as measured on Chromium (docs/gui.md): a text, email or phone
field is an ``entry``, a password field ``password text``, a number field a ``spin
button``; a ``select`` is a ``combo box`` whose options are ``menu item`` elements of the
popup it opens; a date field is three spin buttons (month, day, year in the sandbox's
en-US locale) that take the digits in that order. The first page opens the browser with
the URL; a later one is typed into the address bar (clicking it also raises the browser
above a window a step before left behind).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from devicesworld.devices.linux.browser.base import Element
from devicesworld.devices.linux.browser.builtin import view_of_html
from devicesworld.devices.linux.sites.model import Page, Site
from devicesworld.devices.linux.sites.render import page_html
from devicesworld.spec.models import Step

BROWSER_ACTIONS = frozenset(
    {"browser_open", "browser_type", "browser_select", "browser_click", "browser_submit"}
)
"""The built-in browser's steps this module translates."""

ADDRESS_BAR: dict[str, Any] = {"role": "entry", "name": "Address and search bar", "app": "Chromium"}
"""Chromium's address bar in the element list."""

PAGE_WAIT_S = 1.0
"""Time for a page (a typed URL, a submitted form) to load before the next step."""

FIELD_ROLES = {"password field": "password text", "number field": "spin button"}
"""Chromium roles of the built-in engine's field kinds that are not a plain ``entry``."""

CLICK_ROLES = {"link": "link", "button": "push button", "checkbox": "check box", "radio": "radio button"}
"""Chromium roles of the elements ``browser_click`` presses."""

ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


class NoBrowserWay(KeyError):
    """A browser step that has no faithful GUI way in Chromium (the reason is its message)."""


def sites_of(setup: Sequence[Any]) -> dict[str, Site]:
    """The local sites a device's setup serves, by host (``add_site`` ops)."""
    sites: dict[str, Site] = {}
    for op in setup:
        if getattr(op, "op", None) == "add_site":
            site = Site.model_validate(op.args["site"])
            sites[site.host] = site
    return sites


class BrowserSteps:
    """Translates one device's browser steps in order; it knows the page each one acts on."""

    def __init__(self, sites: Mapping[str, Site], device: str | None) -> None:
        self.sites = sites
        self.device = device
        self.opened = False
        self.page: tuple[str, Page, dict[int, Element]] | None = None
        """Where the browser is: the URL's host and path, the page and its elements by number."""

    def _step(self, action: str, **args: Any) -> Step:
        return Step(device=self.device, action=action, args=args)

    def translate(self, step: Step) -> list[Step]:
        """The GUI steps that do ``step`` (one of :data:`BROWSER_ACTIONS`) on the current page."""
        args = step.args
        if step.action == "browser_open":
            return self._open(str(args["url"]))
        if step.action == "browser_submit":
            return self._submit()
        element = self._element(int(args["index"]), step.action)
        if step.action == "browser_type":
            return self._type(element.kind, element.label, str(args["text"]))
        if step.action == "browser_select":
            if element.kind != "select":
                raise NoBrowserWay(f"browser_select [{element.index}] is a {element.kind}, not a list")
            return [
                self._step("click", element={"role": "combo box", "name": element.label}),
                self._step("click", element={"role": "menu item", "name": str(args["option"])}),
            ]
        if step.action == "browser_click" and element.kind in CLICK_ROLES:
            return [self._step("click", element={"role": CLICK_ROLES[element.kind], "name": element.label})]
        raise NoBrowserWay(f"{step.action} on a {element.kind} has no GUI way in Chromium yet")

    def _open(self, url: str) -> list[Step]:
        parts = urlsplit(url)
        site = self.sites.get(parts.hostname or "")
        page = site.page(parts.path or "/") if site is not None else None
        self.page = None
        if site is not None and page is not None:  # numbered once, as the built-in engine would
            view = view_of_html(f"http://{site.host}{page.path}", page_html(site, page))
            self.page = (f"{site.host}{page.path}", page, {el.index: el for el in view.elements})
        if not self.opened:
            self.opened = True
            return [self._step("launch_app", app="browser", path=url)]
        return [
            self._step("click", element=dict(ADDRESS_BAR)),
            self._step("hotkey", keys=["ctrl", "a"]),
            self._step("type_text", text=url + "\n"),
            self._step("wait", seconds=PAGE_WAIT_S),
        ]

    def _element(self, index: int, action: str) -> Element:
        if self.page is None:
            raise NoBrowserWay(f"{action} [{index}]: the browser is not on a page of the task's sites")
        where, _, elements = self.page
        if index not in elements:
            raise NoBrowserWay(f"{action}: {where} has no element [{index}]")
        return elements[index]

    def _type(self, kind: str, label: str, text: str) -> list[Step]:
        if kind == "date field":
            iso = ISO_DATE.fullmatch(text)
            if iso is None:
                raise NoBrowserWay(f"a date field takes YYYY-MM-DD, not {text!r}")
            year, month, day = iso.groups()
            return [
                self._step("click", element={"role": "spin button", "name": f"Month {label}"}),
                self._step("type_text", text=month + day + year),
            ]
        if not kind.endswith(" field") or kind == "time field":
            raise NoBrowserWay(f"browser_type into a {kind} has no GUI way in Chromium yet")
        return [
            self._step("click", element={"role": FIELD_ROLES.get(kind, "entry"), "name": label}),
            self._step("hotkey", keys=["ctrl", "a"]),
            self._step("type_text", text=text),
        ]

    def _submit(self) -> list[Step]:
        if self.page is None or self.page[1].form is None:
            raise NoBrowserWay("browser_submit: the browser is not on a page with a form")
        label = self.page[1].form.submit_label
        self.page = None  # the answer page: nothing of the form is on it
        return [
            self._step("click", element={"role": "push button", "name": label}),
            self._step("wait", seconds=PAGE_WAIT_S),
        ]
