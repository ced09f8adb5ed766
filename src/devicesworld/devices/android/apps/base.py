"""What every app is made of: activities (screens) with their own state, dialogs, helpers.

An :class:`App` turns its stored data plus a :class:`Screen`'s state into a view tree;
the system (:mod:`..system.phone`) keeps one back stack of screens per app and one
dialog at a time. Screen state holds what a real activity keeps in its views: text
typed into fields, picker values, the scroll offset of a list. Nothing is saved to
the app's database until the user presses the app's own save/send button.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Unpack

from devicesworld.devices.android.storage import Storage
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.system.phone import Phone


@dataclass(eq=False)
class Screen:
    """One activity instance on a back stack."""

    package: str
    activity: str
    state: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Dialog:
    """A modal dialog: a title, a body built from its own state, and a row of buttons."""

    title: str
    body: Callable[[Dialog], list[View]]
    buttons: Callable[[Dialog], list[View]]
    state: dict[str, Any] = field(default_factory=dict)
    resource_id: str = "android:id/parentPanel"
    on_dismiss: Callable[[], None] | None = None


class App:
    """Base class: subclasses name their package and implement ``screen_<activity>`` builders."""

    package: ClassVar[str]
    label_key: ClassVar[str]
    main_activity: ClassVar[str] = "main"
    permission: ClassVar[str] = ""
    """The runtime permission the app asks for on first use (``perm.<name>`` strings), or none."""
    tabs: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The main screen's tabs as ``(name, label key)``, in order (none: no tab row)."""
    default_tab: ClassVar[str] = ""
    """The tab a new main screen shows; empty for the first."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone

    @property
    def storage(self) -> Storage:
        return self.phone.storage

    def t(self, key: str, **fmt: object) -> str:
        return self.phone.t(key, **fmt)

    def rid(self, name: str) -> str:
        return f"{self.package}:id/{name}"

    def build(self, screen: Screen) -> View:
        builder: Callable[[Screen], View] = getattr(self, "screen_" + screen.activity)
        return builder(screen)

    def on_back(self, screen: Screen) -> bool:
        """Handle back on this screen (e.g. ask about unsaved changes); True when handled."""
        return False

    def on_start(self, screen: Screen) -> None:
        """Called when the app's first screen is created."""

    # --- common building blocks ----------------------------------------------------------
    def appbar(self, title: str, *, up: bool = True, actions: list[View] | None = None) -> View:
        kids: list[View] = []
        if up:
            kids.append(
                v.icon_button(
                    self.t("sys.navigate_up"), self.phone.back, rid=self.rid("toolbar_up"), weight=0.6
                )
            )
        kids.append(View(v.TEXT, text=title, resource_id=self.rid("toolbar_title"), weight=4, style="title"))
        kids += actions or []
        return v.row(*kids, height=56, rid=self.rid("toolbar"))

    def form_bar(self, title: str, on_save: Callable[[], None], save_rid: str) -> View:
        """The app bar of an edit form: up, the title, and the primary Save button."""
        save = v.button(self.t("sys.save"), on_save, rid=self.rid(save_rid), weight=1.4, style="primary")
        return self.appbar(title, actions=[save])

    def page(self, *children: View) -> View:
        for node in children:
            for n in node.walk():
                n.package = self.package
        root = v.column(*children)
        root.package = self.package
        return root

    def edit_field(
        self, state: Mapping[str, Any], key: str, *, hint: str, rid: str, **options: Unpack[v.EditOptions]
    ) -> View:
        """An edit field whose text so far lives in ``state[key]`` (a screen's or a dialog's state).

        ``hint`` is a string key and ``rid`` the id within the app's package, as everywhere else.
        """
        return v.edit(key, str(state.get(key, "")), hint=self.t(hint), rid=self.rid(rid), **options)

    def scroll(self, key: str, rows: list[View], state: dict[str, Any], *, rid: str, empty: str = "") -> View:
        """A scrolling list of ``rows`` (see :func:`..ui.view.scroll_list`) with the app's id ``rid``.

        ``empty`` is the string key shown when there are no rows, or none.
        """
        return v.scroll_list(key, rows, state, rid=self.rid(rid), empty=self.t(empty) if empty else "")

    def tab(self, screen: Screen) -> str:
        """The name of the tab the screen shows (kept in ``screen.state["tab"]`` once chosen)."""
        return str(screen.state.get("tab", self.default_tab or self.tabs[0][0]))

    def tab_row(self, screen: Screen) -> View:
        """The row of :attr:`tabs`; each tab's id is ``tab_<name>``, as the recorded solutions know them."""
        chosen = self.tab(screen)

        def go(name: str) -> None:
            screen.state["tab"] = name

        return v.row(
            *(
                View(
                    v.TEXT,
                    text=self.t(label),
                    selected=chosen == name,
                    on_click=partial(go, name),
                    resource_id=self.rid(f"tab_{name}"),
                    height=48,
                    style="tab",
                )
                for name, label in self.tabs
            ),
            height=48,
        )

    # --- common dialogs ------------------------------------------------------------------
    def leave(self) -> None:
        """Close the dialog and then the screen under it (after a delete, or to drop an edit)."""
        self.phone.dismiss()
        self.phone.finish()

    def confirm(
        self,
        title: str,
        answer: str,
        on_answer: Callable[[], None],
        *,
        cancel: str = "sys.cancel",
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        """A question with no body and two buttons: ``cancel`` on the left, ``answer`` on the right.

        Both are string keys; the left button only closes the dialog unless ``on_cancel`` is given.
        """
        self.phone.show_dialog(
            Dialog(
                title=title,
                body=lambda d: [],
                buttons=lambda d: v.dialog_buttons(
                    self.t(cancel), on_cancel or self.phone.dismiss, self.t(answer), on_answer
                ),
            )
        )

    def confirm_discard(self) -> None:
        """The "discard your changes?" dialog that back raises on an edited, unsaved form."""
        self.confirm(self.t("ct.discard_q"), "sys.discard", self.leave, cancel="ct.keep_editing")

    def action_menu(self, title: str, actions: list[tuple[str, Callable[[], None], str]]) -> None:
        """The long-press menu of an item: one button per ``(label key, action, resource id)``, and Cancel.

        Choosing an action closes the menu first, so the action may open its own dialog.
        """

        def then(fn: Callable[[], None]) -> None:
            self.phone.dismiss()
            fn()

        self.phone.show_dialog(
            Dialog(
                title=title,
                body=lambda d: [
                    v.button(self.t(key), partial(then, fn), rid=self.rid(rid)) for key, fn, rid in actions
                ],
                buttons=lambda d: v.dialog_buttons(self.t("sys.cancel"), self.phone.dismiss),
            )
        )

    def ask_text(
        self, title: str, key: str, value: str, *, hint: str, rid: str, on_ok: Callable[[Dialog], None]
    ) -> None:
        """A dialog with one text field (``key`` of its state, starting at ``value``), Cancel and OK.

        ``on_ok`` reads the field and decides whether the dialog closes.
        """
        self.phone.show_dialog(
            Dialog(
                title=title,
                state={key: value},
                body=lambda d: [self.edit_field(d.state, key, hint=hint, rid=rid)],
                buttons=lambda d: v.dialog_buttons(
                    self.t("sys.cancel"), self.phone.dismiss, self.t("sys.ok"), partial(on_ok, d)
                ),
            )
        )

    def ask_name(self, title: str, field_rid: str, on_ok: Callable[[Dialog], None], name: str = "") -> None:
        """:meth:`ask_text` for a name (a new file or playlist, or a rename when ``name`` is given)."""
        self.ask_text(title, "name", name, hint="mk.name", rid=field_rid, on_ok=on_ok)
