"""The share sheet: a note, a file or a contact sent to another app, as Android's ``ACTION_SEND``.

An app that shares calls :func:`share_text` with what it sends; the sheet lists the
apps that take text (Messages, Markor) and the chosen one receives it the way the
real app does: Messages opens a new conversation whose message field holds the text
(pick a recipient, then *Send*), Markor asks for a file name and saves the text as a
new note. Nothing is sent or written before that app's own step.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

from devicesworld.devices.android.apps.base import Dialog
from devicesworld.devices.android.ui import view as v

if TYPE_CHECKING:
    from devicesworld.devices.android.system.phone import Phone

SHEET_RID: Final = "android:id/resolver_list"
TARGET_RID: Final = "android:id/resolver_item"


@runtime_checkable
class ShareTarget(Protocol):
    """An app that accepts shared text (its ``receive_share`` is called after the sheet closes)."""

    package: str
    label_key: str

    def receive_share(self, text: str, subject: str) -> None: ...


def targets(phone: Phone, exclude: str = "") -> list[ShareTarget]:
    return [app for app in phone.apps.values() if isinstance(app, ShareTarget) and app.package != exclude]


def share_text(phone: Phone, text: str, subject: str = "", *, source: str = "") -> None:
    """Open the share sheet for ``text`` (``subject``: a suggested name, e.g. the note's file name)."""

    def pick(target: ShareTarget) -> None:
        phone.dismiss()
        target.receive_share(text, subject)

    def body(_: Dialog) -> list[v.View]:
        return [
            v.item(phone.t(t.label_key), on_click=partial(pick, t), rid=TARGET_RID)
            for t in targets(phone, exclude=source)
        ]

    phone.show_dialog(
        Dialog(
            title=phone.t("sys.share_via"),
            body=body,
            buttons=lambda d: v.dialog_buttons(phone.t("sys.cancel"), phone.dismiss),
            resource_id=SHEET_RID,
        )
    )
