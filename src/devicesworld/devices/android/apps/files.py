"""Files (DocumentsUI): browse /sdcard and the shared Drive, open, rename, move, copy, delete.

A long press on an entry opens its action menu; *Rename* asks for the name in a
second dialog, *Delete* asks for confirmation, *Move*/*Copy* put the file on a clip
and the browser shows *Move here*/*Copy here* until the user chooses a folder —
possibly in the other root, which is how files reach the Drive that desktops see.

Desktops' agents can plant links in the Drive, so every access goes through the
phone's :class:`~devicesworld.devices.safefs.SafeRoot` for the root: a link shows as
an entry that opens nothing, a refused operation is a toast, and no host path or
exception ever reaches the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.system.share import share_text
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View
from devicesworld.devices.safefs import Entry, FsError, SafeRoot

PACKAGE = "com.google.android.documentsui"
MAX_VIEW_BYTES = 1024 * 1024
"""The viewer shows text files up to this size; a bigger one shows its size."""
MAX_COPY_BYTES = 64 * 1024 * 1024


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

    def fs(self, root: str) -> SafeRoot:
        fs: SafeRoot = self.phone.fs(root)
        return fs

    def _entries(self, root: str, rel: str) -> list[Entry]:
        try:
            return self.fs(root).listdir(rel) if self.fs(root).is_dir(rel) else []
        except FsError:
            return []

    def _guarded(self, fn: Any, *args: Any) -> bool:
        """Run a file operation; a refusal becomes a toast. True when it worked."""
        try:
            fn(*args)
        except FsError as exc:
            self.phone.show_toast(exc.message)
            return False
        return True

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
        entries = sorted(self._entries(root, rel), key=lambda x: (x.kind != "dir", x.name.casefold()))
        rows = []
        for entry in entries:
            child = f"{rel}/{entry.name}".strip("/")
            if entry.kind == "dir":
                click = partial(self.phone.start, PACKAGE, "browse", root=root, path=child)
                sub = self.t("fl.empty") if not self._entries(root, child) else "▸"
            else:
                click = partial(self.phone.start, PACKAGE, "viewer", root=root, path=child)
                sub = _size(entry.size) if entry.kind == "file" else "↪"
            rows.append(
                v.item(
                    entry.name,
                    sub,
                    on_click=click,
                    on_long_click=partial(self._menu, root, child),
                    rid=self.rid("item"),
                )
            )
        title = rel.rsplit("/", 1)[-1] if rel else self.root_label(root)
        kids: list[View] = [
            self.appbar(title),
            self.scroll("entries", rows, screen.state, rid="dir_list", empty="fl.empty"),
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
        fs = self.fs(root)
        try:
            st = fs.lstat(rel) if fs.is_file(rel) else None
            if st is None:
                body = self.t("fl.empty")
            elif st.st_size > MAX_VIEW_BYTES:
                body = f"({_size(st.st_size)})"
            else:
                data = fs.read_bytes(rel, MAX_VIEW_BYTES)
                try:
                    body = data.decode("utf-8")
                except UnicodeDecodeError:
                    body = f"({_size(len(data))})"
        except FsError:
            body = self.t("fl.empty")
        lines = body.splitlines() or [""]
        rows = [v.text(line, height=28, rid=self.rid("content")) for line in lines]
        return self.page(
            self.appbar(rel.rsplit("/", 1)[-1]),
            self.scroll("lines", rows, screen.state, rid="viewer"),
        )

    # --- actions -------------------------------------------------------------------------
    def _menu(self, root: str, rel: str) -> None:
        name = rel.rsplit("/", 1)[-1]

        actions: list[tuple[str, Callable[[], None], str]] = [
            ("sys.rename", partial(self._rename_dialog, root, rel), "action_rename"),
            ("sys.move", partial(self._set_clip, "move", root, rel), "action_move"),
            ("fl.copy", partial(self._set_clip, "copy", root, rel), "action_copy"),
            ("sys.delete", partial(self._delete_dialog, root, rel), "action_delete"),
            ("sys.share", partial(self._share, root, rel), "action_share"),
        ]
        self.action_menu(name, actions)

    def _share(self, root: str, rel: str) -> None:
        """A text file's content goes to the share sheet; other files cannot be shared as text."""
        fs = self.fs(root)
        try:
            data = fs.read_bytes(rel, MAX_VIEW_BYTES) if fs.is_file(rel) else None
            text = data.decode("utf-8") if data is not None else None
        except (FsError, UnicodeDecodeError):
            text = None
        if text is None:
            self.phone.show_toast(self.t("fl.cant_share"))
            return
        share_text(self.phone, text, rel, source=self.package)

    def _rename_dialog(self, root: str, rel: str) -> None:
        fs = self.fs(root)
        parent, _, name = rel.rpartition("/")

        def ok(d: Dialog) -> None:
            new = str(d.state.get("name", "")).strip()
            if not new or "/" in new or new in (".", ".."):
                return
            dst = f"{parent}/{new}".strip("/")
            if fs.lstat(dst) is not None:
                self.phone.show_toast(self.t("fl.exists"))
                return
            if self._guarded(fs.rename, rel, dst):
                self.phone.dismiss()

        self.ask_text(self.t("sys.rename"), "name", name, hint="fl.new_name", rid="rename_input", on_ok=ok)

    def _delete_dialog(self, root: str, rel: str) -> None:
        fs = self.fs(root)

        def delete() -> None:
            if fs.lstat(rel) is None or self._guarded(lambda: fs.remove(rel, recursive=True)):
                self.phone.dismiss()

        self.confirm(self.t("fl.delete_q", name=rel.rsplit("/", 1)[-1]), "sys.delete", delete)

    def _set_clip(self, op: str, root: str, rel: str) -> None:
        self.clip = (op, root, rel)

    def _cancel_clip(self) -> None:
        self.clip = None

    def _paste(self, root: str, rel: str) -> None:
        if self.clip is None:
            return
        op, src_root, src_rel = self.clip
        src, dst = self.fs(src_root), self.fs(root)
        dst_rel = f"{rel}/{src_rel.rsplit('/', 1)[-1]}".strip("/")
        if dst.lstat(dst_rel) is not None:
            self.phone.show_toast(self.t("fl.exists"))
            return
        if src_root == root and f"{rel}/".startswith(f"{src_rel}/"):
            return  # a folder cannot go into itself
        if op == "move" and src_root == root:
            done = self._guarded(src.rename, src_rel, dst_rel)
        else:
            done = self._guarded(lambda: src.copy_to(src_rel, dst, dst_rel, limit=MAX_COPY_BYTES))
            if done and op == "move":
                done = self._guarded(lambda: src.remove(src_rel, recursive=True))
        if done:
            self.clip = None
