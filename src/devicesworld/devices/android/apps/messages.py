"""Messages (Simple SMS Messenger, as in AndroidWorld): threads, compose, send, incoming texts.

Sending takes the real steps: start a chat, type or pick a recipient, confirm with
*Next*, type into the message field (which must have focus), press *Send*. A text
sent in airplane mode fails with a toast and stays in the field.
"""

from __future__ import annotations

from functools import partial

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.simplemobiletools.smsmessenger"


class MessagesApp(App):
    package = PACKAGE
    label_key = "app.messages"
    permission = "sms"

    def _who(self, address: str) -> str:
        return p.name_for(self.storage, address) or address

    # --- conversation list ---------------------------------------------------------------
    def screen_main(self, screen: Screen) -> View:
        rows = []
        who = p.namer(self.storage)
        for th in p.threads(self.storage):
            unread = not th["read"]
            rows.append(
                v.item(
                    (who(th["address"]) or th["address"]) + (" •" if unread else ""),
                    th["snippet"],
                    on_click=partial(self.open_thread, th["address"]),
                    on_long_click=partial(self._ask_delete, th["_id"]),
                    rid=self.rid("conversation"),
                )
            )
        return self.page(
            self.appbar(self.t("app.messages"), up=False),
            self.scroll("threads", rows, screen.state, rid="conversations_list", empty="msg.no_threads"),
            v.button(
                self.t("msg.start_chat"),
                partial(self.phone.start, PACKAGE, "new"),
                rid=self.rid("conversations_fab"),
                style="primary",
            ),
        )

    def _ask_delete(self, thread_id: int) -> None:
        def delete() -> None:
            p.delete_thread(self.storage, thread_id)
            self.phone.dismiss()

        self.confirm(self.t("msg.delete_thread"), "sys.delete", delete)

    def receive_share(self, text: str, subject: str) -> None:
        """Shared text: a new conversation whose message field already holds it (Simple SMS Messenger)."""
        self.phone.start(PACKAGE, "new", draft=text)

    def open_thread(self, address: str, draft: str = "") -> None:
        tid = p.thread_for(self.storage, address, create=False)
        if tid is not None:
            p.mark_read(self.storage, tid)
        key = p.digits(address)
        self.phone.notifications = [
            n for n in self.phone.notifications if not (n.package == PACKAGE and p.same_number(n.key, key))
        ]
        screen = self.phone.start(PACKAGE, "thread", address=address, msgs=10**9)
        if draft:
            screen.state["body"] = draft

    # --- new conversation ----------------------------------------------------------------
    def screen_new(self, screen: Screen) -> View:
        query = str(screen.state.get("to", ""))
        draft = str(screen.state.get("draft", ""))

        def go() -> None:
            address = str(screen.state.get("to", "")).strip()
            if not address:
                self.phone.show_toast(self.t("msg.no_recipient"))
                return
            self.phone.finish()
            self.open_thread(address, draft)

        def pick(number: str) -> None:
            self.phone.finish()
            self.open_thread(number, draft)

        matches = [
            c
            for c in p.contacts(self.storage)
            if c["phone"]
            and (
                not query
                or query.casefold() in str(c["name"]).casefold()
                or (p.digits(query) and p.digits(query) in p.digits(c["phone"]))
            )
        ]
        rows = [
            v.item(c["name"], c["phone"], on_click=partial(pick, c["phone"]), rid=self.rid("contact"))
            for c in matches
        ]
        return self.page(
            self.appbar(self.t("msg.start_chat")),
            v.row(
                v.text(self.t("msg.to"), height=56, style="label"),
                v.edit(
                    "to",
                    query,
                    hint=self.t("msg.recipient_hint"),
                    # no Enter handler: Simple SMS Messenger's "To" field has none, so Enter
                    # closes the keyboard; only a contact row or the confirm button opens a chat
                    rid=self.rid("new_conversation_address"),
                    weight=4,
                ),
                v.button(
                    self.t("msg.next"),
                    go,
                    rid=self.rid("new_conversation_confirm"),
                    enabled=bool(query.strip()),
                ),
                height=56,
            ),
            self.scroll("contacts", rows, screen.state, rid="contacts_list"),
        )

    # --- a thread ------------------------------------------------------------------------
    def screen_thread(self, screen: Screen) -> View:
        address = str(screen.state["address"])
        tid = p.thread_for(self.storage, address, create=False)
        msgs = p.thread_messages(self.storage, tid) if tid is not None else []
        bubbles = []
        name = self._who(address)
        for m in msgs:
            when = p.from_ms(m["date"])
            # direction and sender are in the element list, not only in the bubble's side and colour
            way = self.t("msg.sent_to" if m["type"] == 2 else "msg.received_from", who=name)
            bubbles.append(
                View(
                    v.TEXT,
                    text=m["body"],
                    content_description=f"{way} · {when.strftime('%b %d %H:%M')}",
                    resource_id=self.rid("thread_message_body"),
                    height=_bubble_height(m["body"]),
                    style="bubble_out" if m["type"] == 2 else "bubble_in",
                )
            )

        def send() -> None:
            # the app sends the field's trimmed value (a trailing Enter adds no newline)
            text = str(screen.state.get("body", "")).strip()
            if not text:
                return
            if self.phone.flag("global", "airplane_mode_on"):
                self.phone.show_toast(self.t("msg.airplane_failed"))
                return
            p.add_sms(self.storage, address, text, self.phone.clock.now, sent=True)
            self.phone.send_sms(address, text)
            screen.state["body"] = ""
            screen.state["msgs"] = 10**9
            self.phone.show_toast(self.t("msg.sent"))

        return self.page(
            self.appbar(self._who(address)),
            self.scroll("msgs", bubbles, screen.state, rid="thread_messages_list"),
            v.row(
                self.edit_field(
                    screen.state,
                    "body",
                    hint="msg.text_hint",
                    rid="thread_type_message",
                    multiline=True,
                    weight=5,
                ),
                v.icon_button(self.t("msg.send"), send, rid=self.rid("thread_send_message")),
                height=56,
            ),
        )


def _bubble_height(body: str) -> float:
    return 40.0 + 20.0 * (len(body) // 36)


__all__ = ["PACKAGE", "MessagesApp"]
