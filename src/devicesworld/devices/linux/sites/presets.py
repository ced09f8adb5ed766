"""Ready-made site pages for the paper's web surfaces, as :class:`Page` data.

Forms: registration, verification-code entry, booking, order, feedback (their wording and
fields are data, ``data/form_pages.json``). Read-only pages: a policy, a product list, a
timetable. Task builders combine them into a
:class:`Site`; the values a task depends on (a code, a price, a departure) are
arguments, so the page is generated from the task spec.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from devicesworld.devices.linux.sites.model import FormField, Page, Site


@cache
def _form_pages() -> dict[str, Any]:
    """The form pages' wording and fields (data/form_pages.json), by preset name."""
    text = (
        resources.files("devicesworld.devices.linux.sites")
        .joinpath("data/form_pages.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def _form_page(
    name: str,
    path: str,
    *,
    options: Mapping[str, Sequence[str]] | None = None,
    expected: Mapping[str, str] | None = None,
    extra: Sequence[FormField] = (),
) -> Page:
    """The form page ``name`` at ``path``, with the task's values: the ``options`` of its choice
    fields and the value a field must be ``expected`` to have, by field name; ``extra`` fields last."""
    spec = copy.deepcopy(_form_pages()[name])
    fields: list[Any] = spec["form"]["fields"]
    for field in fields:
        if options and field["name"] in options:
            field["options"] = list(options[field["name"]])
        if expected and field["name"] in expected:
            field["expected"] = expected[field["name"]]
    fields.extend(extra)
    return Page.model_validate({"path": path, **spec})


def registration_page(path: str = "/register", extra: Sequence[FormField] = ()) -> Page:
    return _form_page("registration", path, extra=extra)


def verification_page(code: str, path: str = "/verify") -> Page:
    return _form_page("verification", path, expected={"code": code})


def booking_page(slots: Sequence[str], services: Sequence[str], path: str = "/book") -> Page:
    return _form_page("booking", path, options={"service": services, "slot": slots})


def order_page(products: Sequence[str], path: str = "/order") -> Page:
    return _form_page("order", path, options={"product": products})


def feedback_page(topics: Sequence[str] = ("service", "product", "website"), path: str = "/feedback") -> Page:
    return _form_page("feedback", path, options={"topic": topics})


def policy_page(title: str, rules: Sequence[str], path: str = "/policy") -> Page:
    return Page(path=path, title=title, paragraphs=list(rules))


def product_list_page(rows: Sequence[Sequence[str]], path: str = "/products") -> Page:
    """``rows`` start with the header, e.g. ``[["Product", "Price", "Stock"], ...]``."""
    return Page(path=path, title="Products", table=[list(r) for r in rows])


def timetable_page(rows: Sequence[Sequence[str]], title: str = "Timetable", path: str = "/timetable") -> Page:
    return Page(path=path, title=title, table=[list(r) for r in rows])


def site(host: str, title: str, pages: Sequence[Page], welcome: str | None = None) -> Site:
    """A site whose ``/`` page welcomes the visitor and links every page."""
    from devicesworld.devices.linux.sites.model import Link

    pages = list(pages)
    if not any(p.path == "/" for p in pages):
        home = Page(
            path="/",
            title=title,
            paragraphs=[welcome or f"Welcome to {title}."],
            links=[Link(text=p.title, href=p.path) for p in pages],
        )
        pages.insert(0, home)
    return Site(host=host, title=title, pages=pages)
