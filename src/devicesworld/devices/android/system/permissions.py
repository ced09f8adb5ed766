"""Runtime permissions: an app's first open asks for its permission, and the answer has consequences.

A phone in use has answered these long ago, so every app starts *granted* and no
existing task sees a prompt. A task that wants a first-use prompt sets an app to
``ask`` (setup op ``set_permission``): the next time that app comes to the front,
Android's permission dialog ("Allow Messages to send and view SMS messages?") sits
over it with *Don't allow* and *Allow*. Back on the dialog is *Don't allow*, as on a
phone. While the permission is not granted, the app shows only why it cannot work
and a *Grant permission* button that asks again; nothing of its data is listed.

The answer is kept in ``settings.db`` (``secure``, ``permission:<package>``), which
the ``permissions`` getter reads; the collateral snapshot leaves these rows out, since
answering a prompt is part of using the app, not a change to the user's data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from devicesworld.devices.android.apps.base import Dialog
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.apps.base import App
    from devicesworld.devices.android.system.phone import Phone

PermissionState = Literal["granted", "denied", "ask"]
PREFIX: Final = "permission:"
CONTROLLER: Final = "com.android.permissioncontroller"


def state_of(phone: Phone, package: str) -> PermissionState:
    value = phone.storage.setting("secure", PREFIX + package, "granted")
    return value if value in ("denied", "ask") else "granted"  # type: ignore[return-value]


def set_state(phone: Phone, package: str, state: PermissionState) -> None:
    phone.storage.put_setting("secure", PREFIX + package, state)


def blocked(phone: Phone, app: App) -> bool:
    """True when the app needs a permission it does not hold."""
    return bool(app.permission) and state_of(phone, app.package) != "granted"


def all_states(phone: Phone) -> dict[str, PermissionState]:
    """Each app that needs a permission: its package -> granted/denied/ask."""
    return {pkg: state_of(phone, pkg) for pkg, app in phone.apps.items() if app.permission}


def ask(phone: Phone, app: App) -> None:
    """Android's permission dialog over ``app``; Back counts as *Don't allow*."""

    def answer(state: PermissionState) -> None:
        set_state(phone, app.package, state)
        phone.dismiss()

    def on_dismiss() -> None:
        if state_of(phone, app.package) == "ask":
            set_state(phone, app.package, "denied")

    what = phone.t("perm." + app.permission)
    question = phone.t("perm.ask", app=phone.t(app.label_key), what=what)
    phone.show_dialog(
        Dialog(
            title="",
            body=lambda d: [
                v.text(question, rid=f"{CONTROLLER}:id/permission_message", height=72, style="wrap")
            ],
            buttons=lambda d: [
                v.button(
                    phone.t("perm.deny"),
                    lambda: answer("denied"),
                    rid=f"{CONTROLLER}:id/permission_deny_button",
                ),
                v.button(
                    phone.t("perm.allow"),
                    lambda: answer("granted"),
                    rid=f"{CONTROLLER}:id/permission_allow_button",
                ),
            ],
            resource_id=f"{CONTROLLER}:id/grant_dialog",
            on_dismiss=on_dismiss,
        )
    )


def on_open(phone: Phone, app: App) -> None:
    """Called when an app comes to the front: a first open (``ask``) raises the prompt."""
    if app.permission and state_of(phone, app.package) == "ask":
        ask(phone, app)


def needed_screen(phone: Phone, app: App) -> View:
    """What an app without its permission shows: why, and a button that asks again."""
    what = phone.t("perm." + app.permission)
    return app.page(
        app.appbar(phone.t(app.label_key), up=False),
        v.column(
            v.text(
                phone.t("perm.needed", app=phone.t(app.label_key), what=what),
                rid=app.rid("permission_rationale"),
                height=96,
                style="wrap",
            ),
            v.button(
                phone.t("perm.grant"),
                lambda: ask(phone, app),
                rid=app.rid("grant_permission"),
                style="primary",
            ),
            fill=True,
        ),
    )
