"""The desktop's task-file macros: web sites from presets, and browser steps by label, not element number.

A task file describes a local web site by its preset pages
(``site: {host, title, pages: [{verification: {code: "582914"}}]}``) rather than the
full page model, and fills a form by its labels
(``fill_form: {url: http://accounts.test/verify, values: {Email: ..., Verification code: ...}}``)
rather than by the numbers the browser gives its elements. The numbers are read off
the page with the built-in engine when the task is compiled (both browser backends
number pages alike), from the site the task's setup put on the same desktop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from devicesworld.devices.linux.browser.builtin import view_of_html
from devicesworld.devices.linux.sites import presets
from devicesworld.devices.linux.sites.model import Page, Site
from devicesworld.devices.linux.sites.render import page_html
from devicesworld.macros import MacroContext, MacroError, mapping_args, register

KIND = "linux"

PAGES: dict[str, Callable[..., Page]] = {
    "registration": presets.registration_page,
    "verification": presets.verification_page,
    "booking": presets.booking_page,
    "order": presets.order_page,
    "feedback": presets.feedback_page,
    "policy": presets.policy_page,
    "product_list": presets.product_list_page,
    "timetable": presets.timetable_page,
}
"""Preset pages a ``site`` macro may list, each ``{NAME: {its arguments}}``."""


def element_index(site: Site, path: str, label: str, kind: str | None = None) -> int:
    """The number the browser gives the element labelled ``label`` on ``path``."""
    page = site.page(path)
    if page is None:
        raise KeyError(f"{site.host} has no page {path}")
    view = view_of_html(f"http://{site.host}{path}", page_html(site, page))
    for el in view.elements:
        if el.label.casefold() == label.casefold() and (kind is None or el.kind == kind):
            return el.index
    raise KeyError(f"no element {label!r} on {site.host}{path}: {[e.label for e in view.elements]}")


def fill_steps(site: Site, path: str, values: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Open a form page, type/select each labelled value, submit: ``{action, args}`` steps."""
    steps: list[dict[str, Any]] = [{"action": "browser_open", "args": {"url": f"http://{site.host}{path}"}}]
    page = site.page(path)
    if page is None or page.form is None:
        raise KeyError(f"{site.host}{path} has no form")
    kinds = {f.label: f.type for f in page.form.fields}
    for label, value in values:
        kind = kinds.get(label)
        if kind == "select":
            args: dict[str, Any] = {"index": element_index(site, path, label, "select"), "option": value}
            steps.append({"action": "browser_select", "args": args})
        elif kind == "radio":
            steps.append(
                {"action": "browser_click", "args": {"index": element_index(site, path, value, "radio")}}
            )
        elif kind == "checkbox":
            steps.append(
                {"action": "browser_click", "args": {"index": element_index(site, path, label, "checkbox")}}
            )
        else:
            steps.append(
                {"action": "browser_type", "args": {"index": element_index(site, path, label), "text": value}}
            )
    steps.append({"action": "browser_submit", "args": {}})
    return steps


def _site_at(url: Any, ctx: MacroContext, macro: str) -> tuple[Site, str]:
    """The site the task's setup put on this desktop for ``url``, and the path of ``url``."""
    if not isinstance(url, str) or not url.startswith("http://"):
        raise MacroError(f"{macro}.url must be an http:// address, got {url!r}")
    host, _, rest = url.removeprefix("http://").partition("/")
    for op in ctx.setup:
        if op.get("device") == ctx.device and op.get("op") == "add_site":
            site = op.get("args", {}).get("site", {})
            if isinstance(site, Mapping) and site.get("host") == host:
                return Site.model_validate(site), "/" + rest
    raise MacroError(f"{macro}: no site {host!r} in the setup of {ctx.device} (add it with `site:` first)")


@register(
    KIND,
    "setup",
    "site",
    "site: {host, title, pages: [{PRESET: {args}}], welcome} — add a web site of preset pages",
)
def _site(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "site", ("host", "title", "pages"), ("welcome",))
    pages: list[Page] = []
    if not isinstance(spec["pages"], list):
        raise MacroError("site.pages must be a list of {PRESET: {arguments}}")
    for entry in spec["pages"]:
        if not (isinstance(entry, Mapping) and len(entry) == 1):
            raise MacroError(f"a site page is one {{PRESET: {{arguments}}}}, got {entry!r}")
        ((name, page_args),) = entry.items()
        if name not in PAGES:
            raise MacroError(f"unknown page preset {name!r}; known: {', '.join(PAGES)}")
        try:
            pages.append(PAGES[name](**dict(page_args or {})))
        except (TypeError, ValidationError) as exc:
            raise MacroError(f"page preset {name}: {exc}") from None
    site = presets.site(spec["host"], spec["title"], pages, spec.get("welcome"))
    return [{"op": "add_site", "args": {"site": site.model_dump()}}]


@register(
    KIND,
    "solution",
    "fill_form",
    "fill_form: {url, values: {LABEL: VALUE}} — open a form, fill it by labels, submit",
)
def _fill_form(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "fill_form", ("url", "values"))
    site, path = _site_at(spec["url"], ctx, "fill_form")
    values = spec["values"]
    if not isinstance(values, Mapping):
        raise MacroError("fill_form.values must be a mapping of field label to value")
    try:
        return fill_steps(site, path, [(str(k), str(v)) for k, v in values.items()])
    except KeyError as exc:
        raise MacroError(f"fill_form: {exc.args[0]}") from None


@register(
    KIND,
    "solution",
    "click_label",
    "click_label: {url, label, kind} — click the element with this label on the page",
)
def _click_label(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "click_label", ("url", "label"), ("kind",))
    site, path = _site_at(spec["url"], ctx, "click_label")
    try:
        index = element_index(site, path, str(spec["label"]), spec.get("kind"))
    except KeyError as exc:
        raise MacroError(f"click_label: {exc.args[0]}") from None
    return [{"action": "browser_click", "args": {"index": index}}]


# ----------------------------------------------------------------------------- GUI desktop steps
# A ``desktop: gui`` device's ways through its apps' dialogs, for source families
# (``tasks/data/sources``) to name instead of spelling the keys and waits out.
def _keys(keys: Any) -> list[str]:
    if isinstance(keys, str):
        return [keys]
    if not (isinstance(keys, list) and all(isinstance(k, str) for k in keys)):
        raise MacroError(f"keys must be a key or a list of keys, got {keys!r}")
    return list(keys)


@register(
    KIND,
    "solution",
    "save_as",
    "save_as: {path, key} — the Save As dialog: open it, type the full path, press Save",
)
def _save_as(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    """Enter is not used: the file chooser's completion popup may take it."""
    spec = mapping_args(args, "save_as", ("path",), ("key",))
    return [
        {"action": "hotkey", "args": {"keys": _keys(spec.get("key", ["ctrl", "s"]))}},
        {"action": "wait", "args": {"seconds": 1.5}},
        {"action": "type_text", "args": {"text": str(spec["path"])}},
        {"action": "wait", "args": {"seconds": 0.5}},
        {"action": "click", "args": {"element": {"role": "push button", "name": "Save", "window": "Save"}}},
        {"action": "wait", "args": {"seconds": 1}},
    ]


@register(
    KIND, "solution", "save_office", "save_office: {} — ctrl+s in LibreOffice and time to write the file"
)
def _save_office(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    return [{"action": "hotkey", "args": {"keys": ["ctrl", "s"]}}, {"action": "wait", "args": {"seconds": 2}}]


@register(
    KIND,
    "solution",
    "terminal",
    "terminal: {command} — type a command into a new terminal window, run it, exit",
)
def _terminal(args: Any, ctx: MacroContext) -> list[dict[str, Any]]:
    spec = mapping_args(args, "terminal", ("command",))
    return [
        {"action": "launch_app", "args": {"app": "terminal"}},
        {"action": "type_text", "args": {"text": str(spec["command"]) + "\n"}},
        {"action": "wait", "args": {"seconds": 1.0}},
        {"action": "type_text", "args": {"text": "exit\n"}},
    ]
