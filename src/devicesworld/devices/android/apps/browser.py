"""Browser: an address bar and local pages the task serves (setup op ``add_page``); no internet.

A page's text is shown line by line; a line ``-> http://...`` is a link. The current
address and the visit history are app preferences (``current_url``, ``history``), so
verifiers can tell which page an agent reached.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice
    from devicesworld.devices.android.setup import PageArgs

PACKAGE = "com.android.chrome"
_SCHEMA = "CREATE TABLE IF NOT EXISTS pages (url TEXT PRIMARY KEY, title TEXT, text TEXT)"


def _norm(url: str) -> str:
    url = url.strip()
    if url and "://" not in url:
        url = "http://" + url
    return url.rstrip("/")


def setup_page(device: AndroidDevice, args: PageArgs) -> None:
    """What the ``add_page`` setup op does (declared in :mod:`devicesworld.devices.android.setup`)."""
    a = args
    conn = device.storage.db(PACKAGE, "app.db")
    conn.execute(_SCHEMA)
    conn.execute("INSERT OR REPLACE INTO pages VALUES (?,?,?)", (_norm(a.url), a.title, a.text))


class BrowserApp(App):
    package = PACKAGE
    label_key = "app.browser"

    def _page(self, url: str) -> dict[str, Any] | None:
        conn = self.storage.db(PACKAGE, "app.db")
        conn.execute(_SCHEMA)
        row = conn.execute("SELECT * FROM pages WHERE url=?", (url,)).fetchone()
        return dict(row) if row else None

    def go(self, screen: Screen, url: str) -> None:
        url = _norm(url)
        screen.state["url"] = screen.state["bar"] = url
        screen.state["lines"] = 0
        self.phone.keyboard = False
        self.storage.put_pref(PACKAGE, "current_url", url)
        history = list(self.storage.pref(PACKAGE, "history", []))
        self.storage.put_pref(PACKAGE, "history", [*history, url])

    def screen_main(self, screen: Screen) -> View:
        st = screen.state
        url = str(st.get("url", ""))
        rows: list[View] = []
        if url:
            page = self._page(url)
            if self.phone.flag("global", "airplane_mode_on"):
                rows = [v.text(self.t("br.offline"), height=56, style="title")]
            elif page is None:
                rows = [v.text(self.t("br.not_found"), height=56, style="title"), v.text(url, style="dim")]
            else:
                rows = [v.text(page["title"], rid=self.rid("page_title"), height=56, style="title")]
                for line in str(page["text"]).splitlines():
                    if line.startswith("-> "):
                        target = line[3:].strip()
                        rows.append(
                            View(
                                v.TEXT,
                                text=target,
                                on_click=partial(self.go, screen, target),
                                height=40,
                                resource_id=self.rid("link"),
                                style="link",
                            )
                        )
                    else:
                        rows.append(v.text(line, rid=self.rid("page_text"), height=32))
        return self.page(
            v.row(
                self.edit_field(
                    st,
                    "bar",
                    hint="br.url_hint",
                    rid="url_bar",
                    on_enter=lambda: self.go(screen, str(st.get("bar", ""))),
                    weight=5,
                ),
                height=56,
            ),
            self.scroll("lines", rows, st, rid="compositor_view_holder"),
        )
