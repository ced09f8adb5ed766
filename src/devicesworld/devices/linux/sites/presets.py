"""Ready-made site pages for the paper's web surfaces, as :class:`Page` data.

Forms: registration, verification-code entry, booking, order, feedback. Read-only
pages: a policy, a product list, a timetable. Task builders combine them into a
:class:`Site`; the values a task depends on (a code, a price, a departure) are
arguments, so the page is generated from the task spec.
"""

from __future__ import annotations

from collections.abc import Sequence

from devicesworld.devices.linux.sites.model import Form, FormField, Page, Site


def registration_page(path: str = "/register", extra: Sequence[FormField] = ()) -> Page:
    return Page(
        path=path,
        title="Create an account",
        paragraphs=["Fill in your details to register."],
        form=Form(
            id="registration",
            fields=[
                FormField(name="full_name", label="Full name"),
                FormField(name="email", label="Email", type="email"),
                FormField(name="phone", label="Phone", type="tel", required=False),
                *extra,
            ],
            submit_label="Register",
            success_message="Registration complete. Welcome!",
        ),
    )


def verification_page(code: str, path: str = "/verify") -> Page:
    return Page(
        path=path,
        title="Verify your account",
        paragraphs=["Enter the 6-digit verification code we sent you."],
        form=Form(
            id="verification",
            fields=[
                FormField(name="email", label="Email", type="email"),
                FormField(name="code", label="Verification code", expected=code),
            ],
            submit_label="Verify",
            success_message="Your account is verified.",
        ),
    )


def booking_page(slots: Sequence[str], services: Sequence[str], path: str = "/book") -> Page:
    return Page(
        path=path,
        title="Book an appointment",
        form=Form(
            id="booking",
            fields=[
                FormField(name="name", label="Your name"),
                FormField(name="service", label="Service", type="select", options=list(services)),
                FormField(name="date", label="Date", type="date"),
                FormField(name="slot", label="Time slot", type="select", options=list(slots)),
                FormField(name="notes", label="Notes", type="textarea", required=False),
            ],
            submit_label="Book",
            success_message="Your appointment is booked.",
        ),
    )


def order_page(products: Sequence[str], path: str = "/order") -> Page:
    return Page(
        path=path,
        title="Place an order",
        form=Form(
            id="order",
            fields=[
                FormField(name="product", label="Product", type="select", options=list(products)),
                FormField(name="quantity", label="Quantity", type="number"),
                FormField(name="name", label="Name"),
                FormField(name="address", label="Delivery address", type="textarea"),
                FormField(name="delivery", label="Delivery", type="radio", options=["standard", "express"]),
            ],
            submit_label="Place order",
            success_message="Thank you, your order was placed.",
        ),
    )


def feedback_page(topics: Sequence[str] = ("service", "product", "website"), path: str = "/feedback") -> Page:
    return Page(
        path=path,
        title="Send us feedback",
        form=Form(
            id="feedback",
            fields=[
                FormField(name="topic", label="Topic", type="select", options=list(topics)),
                FormField(name="rating", label="Rating (1-5)", type="number"),
                FormField(name="message", label="Message", type="textarea"),
                FormField(name="contact_ok", label="You may contact me", type="checkbox", required=False),
            ],
            submit_label="Send",
            success_message="Thanks for your feedback!",
        ),
    )


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
