"""What a local web site is, as data: pages with text, tables, links and at most one form each.

Tasks describe sites with these models (in the ``add_site`` setup op); the server
renders them to plain HTML that both browser backends understand. The five form
flavours of the paper (registration, verification code, booking, order, feedback)
and the read-only pages (policy, product list, timetable) are all instances of this
one shape; :mod:`devicesworld.devices.linux.sites.presets` builds them.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from devicesworld.devices.base import Args

HOST_RE = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.test$")

FieldType = Literal[
    "text", "email", "tel", "number", "date", "time", "password", "textarea", "select", "checkbox", "radio"
]


class FormField(Args):
    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$")
    label: str
    type: FieldType = "text"
    options: list[str] = Field(default_factory=list, description="Choices of a select or radio field.")
    required: bool = True
    expected: str | None = Field(
        default=None,
        description="If set, a submission is rejected unless this field equals it (verification codes).",
    )

    @model_validator(mode="after")
    def _options_fit(self) -> FormField:
        if self.type in ("select", "radio") and not self.options:
            raise ValueError(f"field {self.name}: a {self.type} needs options")
        return self


class Form(Args):
    id: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$")
    fields: list[FormField] = Field(min_length=1)
    submit_label: str = "Submit"
    success_message: str = "Thank you, your submission was received."


class Link(Args):
    text: str
    href: str


class Page(Args):
    path: str = Field(pattern=r"^/[A-Za-z0-9_./-]*$")
    title: str
    paragraphs: list[str] = Field(default_factory=list)
    table: list[list[str]] = Field(default_factory=list, description="First row is the header.")
    links: list[Link] = Field(default_factory=list)
    form: Form | None = None


class Site(Args):
    host: str = Field(description="A host name under .test, e.g. `clinic.test`.")
    title: str
    pages: list[Page] = Field(min_length=1)

    @field_validator("host")
    @classmethod
    def _host_is_test(cls, v: str) -> str:
        if not HOST_RE.match(v):
            raise ValueError("host must be a lower-case name ending in .test, e.g. clinic.test")
        return v

    @model_validator(mode="after")
    def _paths_unique(self) -> Site:
        paths = [p.path for p in self.pages]
        if len(set(paths)) != len(paths):
            raise ValueError("page paths must be unique")
        return self

    def page(self, path: str) -> Page | None:
        """The page at ``path``; at ``/`` of a site that declares no page there, its front page."""
        found = next((p for p in self.pages if p.path == path), None)
        return self.front_page() if found is None and path == FRONT else found

    def front_page(self) -> Page:
        """A front page for a site whose pages are all deeper (``/checkout``, ``/faq``): the site's
        name and a link to each page. A person who types only the host name lands on it, as on a
        real shop's home page, instead of on a "Page not found" whose Home link loops to itself."""
        return Page(
            path=FRONT,
            title="Home",
            paragraphs=[f"Welcome to {self.title}."],
            links=[Link(text=p.title, href=p.path) for p in self.pages],
        )


FRONT = "/"
"""The path a host name alone opens."""
