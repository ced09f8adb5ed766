"""Contacts (Google Contacts): list with search, a contact's card, create and edit with Save.

The editor keeps typed values in its screen state until *Save*; leaving with unsaved
changes asks "Discard your changes?" — a two-button dialog agents must answer.
"""

from __future__ import annotations

from functools import partial

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.system.share import share_text
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.google.android.contacts"
FIELDS = ("first", "last", "phone", "email", "company", "notes")


class ContactsApp(App):
    package = PACKAGE
    label_key = "app.contacts"
    permission = "contacts"

    def screen_main(self, screen: Screen) -> View:
        query = str(screen.state.get("q", "")).strip().casefold()
        rows = []
        for c in p.contacts(self.storage):
            hay = " ".join(str(c[k]) for k in ("name", "phone", "email", "company")).casefold()
            if (
                query
                and query not in hay
                and not (p.digits(query) and p.digits(query) in p.digits(c["phone"]))
            ):
                continue
            rows.append(
                v.item(
                    c["name"],
                    on_click=partial(self.phone.start, PACKAGE, "view", cid=c["id"]),
                    rid=self.rid("contact_name"),
                )
            )
        return self.page(
            self.appbar(self.t("app.contacts"), up=False),
            self.edit_field(screen.state, "q", hint="ct.search", rid="search_view", height=48),
            self.scroll("list", rows, screen.state, rid="contact_list", empty="ct.none"),
            v.button(
                self.t("ct.create"),
                partial(self.open_editor, None),
                rid=self.rid("floating_action_button"),
                style="primary",
            ),
        )

    def open_editor(self, cid: int | None) -> None:
        state: dict[str, object] = {k: "" for k in FIELDS}
        if cid is not None:
            c = p.contact(self.storage, cid) or {}
            first, _, last = str(c.get("name", "")).partition(" ")
            state.update(
                first=first,
                last=last,
                phone=c.get("phone", ""),
                email=c.get("email", ""),
                company=c.get("company", ""),
                notes=c.get("notes", ""),
            )
        state["cid"] = cid
        state["orig"] = {k: state[k] for k in FIELDS}
        self.phone.start(PACKAGE, "edit", **state)

    # --- a contact's card ----------------------------------------------------------------
    def screen_view(self, screen: Screen) -> View:
        c = p.contact(self.storage, int(screen.state["cid"]))
        if c is None:
            return self.page(self.appbar(""), v.text(self.t("ct.none"), style="dim"))
        rows: list[View] = [v.text(c["name"], rid=self.rid("large_title"), style="headline", height=64)]
        if c["phone"]:
            rows.append(
                v.row(
                    v.text(c["phone"], rid=self.rid("phone_number"), height=56, style="item_title"),
                    v.icon_button(
                        self.t("ct.call"),
                        partial(self._call, c["phone"]),
                        rid=self.rid("call_button"),
                        weight=0.6,
                    ),
                    v.icon_button(
                        self.t("ct.text"),
                        partial(self._text, c["phone"]),
                        rid=self.rid("sms_button"),
                        weight=0.6,
                    ),
                    height=56,
                )
            )
        for key, label in (("email", "ct.email"), ("company", "ct.company"), ("notes", "ct.notes")):
            if c[key]:
                rows.append(v.item(str(c[key]), self.t(label), rid=self.rid(key)))
        # last on the card, so the indexes of the older elements stay as recorded solutions have them
        card = "\n".join(str(x) for x in (c["name"], c["phone"], c["email"]) if x)
        rows.append(
            v.button(
                self.t("sys.share"),
                partial(share_text, self.phone, card, str(c["name"]), source=self.package),
                rid=self.rid("menu_share"),
            )
        )

        def more() -> None:
            self.confirm(self.t("ct.delete_q"), "sys.delete", partial(self._delete, c["id"]))

        return self.page(
            self.appbar(
                "",
                actions=[
                    v.icon_button(
                        self.t("sys.edit"),
                        partial(self.open_editor, c["id"]),
                        rid=self.rid("menu_edit"),
                        weight=0.8,
                    ),
                    v.icon_button(self.t("sys.delete"), more, rid=self.rid("menu_delete"), weight=0.8),
                ],
            ),
            v.column(*rows, fill=True),
        )

    def _delete(self, cid: int) -> None:
        p.delete_contact(self.storage, cid)
        self.phone.dismiss()
        self.phone.finish()

    def _call(self, number: str) -> None:
        from devicesworld.devices.android.apps.dialer import place_call

        place_call(self.phone, number)

    def _text(self, number: str) -> None:
        from devicesworld.devices.android.apps.messages import PACKAGE as SMS

        app = self.phone.apps[SMS]
        self.phone.open_app(SMS)
        app.open_thread(number)  # type: ignore[attr-defined]

    # --- editor --------------------------------------------------------------------------
    def screen_edit(self, screen: Screen) -> View:
        st = screen.state
        labels = {
            "first": "ct.first",
            "last": "ct.last",
            "phone": "ct.phone",
            "email": "ct.email",
            "company": "ct.company",
            "notes": "ct.notes",
        }
        fields = [self.edit_field(st, k, hint=labels[k], rid=f"editor_{k}") for k in FIELDS]
        title = self.t("ct.create") if st.get("cid") is None else self.t("ct.edit")
        return self.page(
            self.form_bar(title, partial(self._save, screen), "menu_save"),
            self.scroll("form", fields, st, rid="editor_form"),
        )

    def _save(self, screen: Screen) -> None:
        st = screen.state
        name = " ".join(x for x in (str(st["first"]).strip(), str(st["last"]).strip()) if x)
        if not name:
            self.phone.show_toast(self.t("ct.name_required"))
            return
        fields = {k: str(st[k]).strip() for k in ("phone", "email", "company", "notes")}
        cid = st.get("cid")
        if cid is None:
            new_id = p.add_contact(self.storage, name, fields)
            self.phone.finish()
            self.phone.start(PACKAGE, "view", cid=new_id)
        else:
            p.update_contact(self.storage, int(cid), name, fields)
            self.phone.finish()
        self.phone.show_toast(self.t("ct.saved"))

    def on_back(self, screen: Screen) -> bool:
        if screen.activity != "edit":
            return False
        if {k: screen.state.get(k) for k in FIELDS} == screen.state.get("orig"):
            return False

        self.confirm_discard()
        return True
