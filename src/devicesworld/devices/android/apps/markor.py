"""Markor: notes as files in ``/sdcard/Documents/Markor``; create through a file-name dialog, edit, save.

The editor works on a copy of the text: only *Save* writes the file. Leaving with
unsaved changes asks "Save changes?" (Save / Discard). A long press on a note opens
its menu: *Share* (the share sheet, with the note's text), *Rename* (a name dialog)
and *Delete* (after "Delete NAME?"). Text shared into Markor from another app becomes
a new note once its name is given.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.system.share import share_text
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "net.gsantner.markor"
FOLDER = "Documents/Markor"


class MarkorApp(App):
    package = PACKAGE
    label_key = "app.markor"
    permission = "storage"

    def _folder(self) -> list[str]:
        root = self.phone.locate("sdcard", FOLDER)
        root.mkdir(parents=True, exist_ok=True)
        return sorted((f.name for f in root.iterdir() if f.is_file()), key=str.casefold)

    def screen_main(self, screen: Screen) -> View:
        rows = [
            v.item(
                name,
                on_click=partial(self.open_note, name),
                on_long_click=partial(self._menu, name),
                rid=self.rid("ui__filesystem_item__title"),
            )
            for name in self._folder()
        ]
        return self.page(
            self.appbar(self.t("app.markor"), up=False),
            self.scroll("notes", rows, screen.state, rid="recycler_view", empty="mk.no_notes"),
            v.button(
                self.t("mk.new_file"), self._new_dialog, rid=self.rid("fab_add_new_item"), style="primary"
            ),
        )

    def open_note(self, name: str) -> None:
        path = self.phone.locate("sdcard", f"{FOLDER}/{name}")
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        self.phone.start(PACKAGE, "editor", name=name, text=text, saved=text)

    def _new_dialog(self, text: str = "", name: str = "") -> None:
        def ok(d: Dialog) -> None:
            name = str(d.state.get("name", "")).strip()
            if not name or "/" in name:
                return
            if "." not in name:
                name += ".md"
            path = self.phone.locate("sdcard", f"{FOLDER}/{name}")
            if path.exists():
                self.phone.show_toast(self.t("fl.exists"))
                return
            path.write_text(text, encoding="utf-8")
            self.phone.dismiss()
            self.open_note(name)

        self.ask_name(self.t("mk.new_file"), "new_file_dialog__name", ok)
        if name and self.phone.dialog is not None:
            self.phone.dialog.state["name"] = name

    def receive_share(self, text: str, subject: str) -> None:
        """Shared text becomes a new note: Markor opens and asks for its name (the subject, if any)."""
        self.phone.open_app(PACKAGE)
        if self.phone.dialog is None:  # not while the first-use permission prompt is up
            self._new_dialog(text, subject.rsplit("/", 1)[-1])

    # --- long-press menu -------------------------------------------------------------------
    def _menu(self, name: str) -> None:
        path = self.phone.locate("sdcard", f"{FOLDER}/{name}")

        def share() -> None:
            text = path.read_text(encoding="utf-8") if path.is_file() else ""
            share_text(self.phone, text, name, source=PACKAGE)

        def rename() -> None:
            def ok(d: Dialog) -> None:
                new = str(d.state.get("name", "")).strip()
                if not new or "/" in new or new in (".", ".."):
                    return
                dst = self.phone.locate("sdcard", f"{FOLDER}/{new}")
                if dst.exists():
                    self.phone.show_toast(self.t("fl.exists"))
                    return
                path.rename(dst)
                self.phone.dismiss()

            self.ask_name(self.t("sys.rename"), "new_file_dialog__name", ok, name)

        def delete() -> None:
            def really() -> None:
                path.unlink(missing_ok=True)
                self.phone.dismiss()

            self.confirm(self.t("fl.delete_q", name=name), "sys.delete", really)

        actions: list[tuple[str, Callable[[], None], str]] = [
            ("sys.share", share, "action_share"),
            ("sys.rename", rename, "action_rename"),
            ("sys.delete", delete, "action_delete"),
        ]
        self.action_menu(name, actions)

    def screen_editor(self, screen: Screen) -> View:
        st = screen.state
        return self.page(
            self.appbar(
                str(st["name"]),
                actions=[
                    v.icon_button(
                        self.t("sys.save"), partial(self._save, screen), rid=self.rid("action_save")
                    )
                ],
            ),
            self.edit_field(
                st,
                "text",
                hint="mk.content_hint",
                rid="document__fragment__edit__highlighting_editor",
                multiline=True,
                height=0,
            ),
        )

    def _save(self, screen: Screen) -> None:
        st = screen.state
        self.phone.locate("sdcard", f"{FOLDER}/{st['name']}").write_text(
            str(st.get("text", "")), encoding="utf-8"
        )
        st["saved"] = st.get("text", "")
        self.phone.show_toast(self.t("mk.saved"))

    def on_back(self, screen: Screen) -> bool:
        if screen.activity != "editor" or screen.state.get("text") == screen.state.get("saved"):
            return False

        def save_and_leave() -> None:
            self._save(screen)
            self.leave()

        self.confirm(
            self.t("mk.unsaved_q"), "sys.save", save_and_leave, cancel="sys.discard", on_cancel=self.leave
        )
        return True
