"""Files (DocumentsUI): browse /sdcard and the shared Drive, open, rename, move, copy, delete.

A long press on an entry opens its action menu; *Rename* asks for the name in a
second dialog, *Delete* asks for confirmation, *Move*/*Copy* put the file on a clip
and the browser shows *Move here*/*Copy here* until the user chooses a folder —
possibly in the other root, which is how files reach the Drive that desktops see.
"""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path
from typing import Any

from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.google.android.documentsui"


def _size(n: int) -> str:
    return f"{n} B" if n < 1024 else f"{n / 1024:.1f} kB"


class FilesApp(App):
    package = PACKAGE
    label_key = "app.files"

    def __init__(self, phone: Any) -> None:
        super().__init__(phone)
        self.clip: tuple[str, str, str] | None = None  # (op, root, path)

    def root_label(self, root: str) -> str:
        return self.t("fl.drive") if root == "drive" else self.t("fl.internal")

    def path(self, root: str, rel: str) -> Path:
        return self.phone.locate(root, rel)

    def screen_main(self, screen: Screen) -> View:
        roots = [
            v.item(
                self.root_label(r),
                "/sdcard" if r == "sdcard" else "",
                rid=self.rid(f"root_{r}"),
                on_click=partial(self.phone.start, PACKAGE, "browse", root=r, path=""),
            )
            for r in ("sdcard", "drive")
        ]
        return self.page(self.appbar(self.t("app.files"), up=False), v.column(*roots, fill=True))

    def screen_browse(self, screen: Screen) -> View:
        root, rel = str(screen.state["root"]), str(screen.state["path"])
        folder = self.path(root, rel)
        entries = (
            sorted(folder.iterdir(), key=lambda x: (not x.is_dir(), x.name.casefold()))
            if folder.is_dir()
            else []
        )
        rows = []
        for entry in entries:
            child = f"{rel}/{entry.name}".strip("/")
            if entry.is_dir():
                click = partial(self.phone.start, PACKAGE, "browse", root=root, path=child)
                sub = self.t("fl.empty") if not any(entry.iterdir()) else "▸"
            else:
                click = partial(self.phone.start, PACKAGE, "viewer", root=root, path=child)
                sub = _size(entry.stat().st_size)
            rows.append(
                v.item(
                    entry.name,
                    sub,
                    on_click=click,
                    on_long_click=partial(self._menu, root, child),
                    rid=self.rid("item"),
                )
            )
        title = folder.name if rel else self.root_label(root)
        kids: list[View] = [
            self.appbar(title),
            v.scroll_list("entries", rows, screen.state, rid=self.rid("dir_list"), empty=self.t("fl.empty")),
        ]
        if self.clip is not None:
            op = self.clip[0]
            kids.append(
                v.row(
                    v.button(self.t("sys.cancel"), self._cancel_clip, rid=self.rid("clip_cancel")),
                    v.button(
                        self.t("fl.move_here") if op == "move" else self.t("fl.copy_here"),
                        partial(self._paste, root, rel),
                        rid=self.rid("clip_paste"),
                        style="primary",
                    ),
                    height=56,
                )
            )
        return self.page(*kids)

    def screen_viewer(self, screen: Screen) -> View:
        root, rel = str(screen.state["root"]), str(screen.state["path"])
        target = self.path(root, rel)
        try:
            body = target.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            body = f"({_size(target.stat().st_size)})"
        except OSError:
            body = self.t("fl.empty")
        lines = body.splitlines() or [""]
        rows = [v.text(line, height=28, rid=self.rid("content")) for line in lines]
        return self.page(
            self.appbar(target.name), v.scroll_list("lines", rows, screen.state, rid=self.rid("viewer"))
        )

    # --- actions -------------------------------------------------------------------------
    def _menu(self, root: str, rel: str) -> None:
        name = rel.rsplit("/", 1)[-1]

        def then(fn: partial[None]) -> None:
            self.phone.dismiss()
            fn()

        actions = [
            ("sys.rename", partial(self._rename_dialog, root, rel), "action_rename"),
            ("sys.move", partial(self._set_clip, "move", root, rel), "action_move"),
            ("fl.copy", partial(self._set_clip, "copy", root, rel), "action_copy"),
            ("sys.delete", partial(self._delete_dialog, root, rel), "action_delete"),
        ]
        self.phone.show_dialog(
            Dialog(
                title=name,
                body=lambda d: [
                    v.button(self.t(key), partial(then, fn), rid=self.rid(rid)) for key, fn, rid in actions
                ],
                buttons=lambda d: [
                    v.button(self.t("sys.cancel"), self.phone.dismiss, rid="android:id/button2")
                ],
            )
        )

    def _rename_dialog(self, root: str, rel: str) -> None:
        src = self.path(root, rel)

        def ok(d: Dialog) -> None:
            new = str(d.state.get("name", "")).strip()
            if not new or "/" in new:
                return
            dst = src.with_name(new)
            if dst.exists():
                self.phone.show_toast(self.t("fl.exists"))
                return
            src.rename(dst)
            self.phone.dismiss()

        self.phone.show_dialog(
            Dialog(
                title=self.t("sys.rename"),
                state={"name": src.name},
                body=lambda d: [
                    v.edit(
                        "name",
                        str(d.state.get("name", "")),
                        hint=self.t("fl.new_name"),
                        rid=self.rid("rename_input"),
                    )
                ],
                buttons=lambda d: [
                    v.button(self.t("sys.cancel"), self.phone.dismiss, rid="android:id/button2"),
                    v.button(self.t("sys.ok"), partial(ok, d), rid="android:id/button1"),
                ],
            )
        )

    def _delete_dialog(self, root: str, rel: str) -> None:
        target = self.path(root, rel)

        def delete() -> None:
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink(missing_ok=True)
            self.phone.dismiss()

        self.phone.show_dialog(
            Dialog(
                title=self.t("fl.delete_q", name=target.name),
                body=lambda d: [],
                buttons=lambda d: [
                    v.button(self.t("sys.cancel"), self.phone.dismiss, rid="android:id/button2"),
                    v.button(self.t("sys.delete"), delete, rid="android:id/button1"),
                ],
            )
        )

    def _set_clip(self, op: str, root: str, rel: str) -> None:
        self.clip = (op, root, rel)

    def _cancel_clip(self) -> None:
        self.clip = None

    def _paste(self, root: str, rel: str) -> None:
        if self.clip is None:
            return
        op, src_root, src_rel = self.clip
        src = self.path(src_root, src_rel)
        dst = self.path(root, rel) / src.name
        if dst.exists():
            self.phone.show_toast(self.t("fl.exists"))
            return
        if op == "move":
            shutil.move(str(src), str(dst))
        elif src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)
        self.clip = None
