"""A mail draft written through the GUI desktop's mail client (Claws Mail, :mod:`.mail_client`).

What a person does: open the mail client, press Compose, fill in the subject, the body
and the recipient, press Draft (the draft is saved in ``~/Mail/Drafts`` and the compose
window closes) and quit the client. The compose window's text fields have no names, so
the steps find them by their place among the window's text fields: the recipient entry,
the entry of its To/Cc selector, From, Subject, then the body. The recipient goes last
because typing it adds an empty recipient row, which would shift the places after it.
Several recipients go into one entry, comma-separated, as a person types them; a Cc needs
the row's selector switched and has no translation yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.spec.models import Step

COMPOSE_WINDOW = "Compose message"
"""Part of the compose window's title ("[no subject] - Compose message")."""

RECIPIENT, SUBJECT, BODY = 0, 3, 4
"""Places of the compose window's text fields (``nth`` among its ``text`` elements)."""

COMPOSE_WAIT_S = 1.5
"""Time for the compose window to map after Compose is pressed."""

SAVE_WAIT_S = 1.0
"""Time for the draft to be written and the compose window to close."""


class NoMailWay(KeyError):
    """A draft the mail client's steps cannot write faithfully."""


def _field(device: str | None, nth: int) -> Step:
    return Step(
        device=device,
        action="click",
        args={"element": {"role": "text", "window": COMPOSE_WINDOW, "nth": nth}},
    )


def draft_steps(args: Mapping[str, Any], device: str | None) -> list[Step]:
    """The GUI steps that save the draft ``write_email_draft`` would (to, subject, body)."""
    if args.get("cc"):
        raise NoMailWay("write_email_draft with cc: the mail client's Cc row has no GUI translation yet")
    if args.get("filename"):
        raise NoMailWay("write_email_draft with a filename: the mail client names its draft files itself")

    def step(action: str, **a: Any) -> Step:
        return Step(device=device, action=action, args=a)

    return [
        step("launch_app", app="mail"),
        step("click", element={"role": "push button", "name": "Compose", "app": "claws-mail"}),
        step("wait", seconds=COMPOSE_WAIT_S),
        _field(device, SUBJECT),
        step("type_text", text=str(args["subject"])),
        _field(device, BODY),
        step("type_text", text=str(args["body"])),
        _field(device, RECIPIENT),
        step("type_text", text=", ".join(str(x) for x in args["to"])),
        step("click", element={"role": "push button", "name": "Draft", "window": COMPOSE_WINDOW}),
        step("wait", seconds=SAVE_WAIT_S),
        step("hotkey", keys=["ctrl", "q"]),
    ]
