# ruff: noqa: RUF001  (an en dash between times, as the app shows)
"""Calendar (Simple Calendar Pro): month grid, agenda, search, day list, event details, editor.

The month grid marks busy days with a dot only; the agenda (the app's "simple event
list" view) lists every event from today on with its date and time, and search finds
events past and future by title, location or description, as the real app's search.

Creating an event means filling the title, choosing dates in the date picker and
times in the time picker (each needs its *OK*), then pressing *Save*; an empty title
or an end before the start is refused with a toast, as in the real app. Moving the
start keeps the event's length.
"""

from __future__ import annotations

import calendar as pycal
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.pickers import date_picker, format_time, time_picker
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.simplemobiletools.calendar.pro"
FIELDS = ("title", "location", "description")


class CalendarApp(App):
    package = PACKAGE
    label_key = "app.calendar"

    def months(self) -> list[str]:
        return self.t("cal.months").split(",")

    def fmt_date(self, d: date) -> str:
        return f"{d.day} {self.months()[d.month - 1]} {d.year}"

    def on_start(self, screen: Screen) -> None:
        today = self.phone.clock.now.date()
        screen.state.update(year=today.year, month=today.month)

    # --- month view ----------------------------------------------------------------------
    def screen_main(self, screen: Screen) -> View:
        st = screen.state
        today = self.phone.clock.now.date()
        y, m = int(st.get("year", today.year)), int(st.get("month", today.month))

        def shift(delta: int) -> None:
            k = m - 1 + delta
            st["year"], st["month"] = y + k // 12, k % 12 + 1

        busy = p.event_days(self.storage, f"{y:04d}-{m:02d}")
        header = v.row(
            v.icon_button(self.t("pick.prev_month"), partial(shift, -1), rid=self.rid("top_left_arrow")),
            View(
                v.TEXT,
                text=f"{self.months()[m - 1]} {y}",
                resource_id=self.rid("top_value"),
                height=48,
                weight=4,
                style="title",
            ),
            v.icon_button(self.t("pick.next_month"), partial(shift, 1), rid=self.rid("top_right_arrow")),
            height=48,
        )
        rows = [v.row(*[v.text(w, height=28, style="dim") for w in self.t("ck.days").split(",")], height=28)]
        for week in pycal.Calendar(firstweekday=6).monthdatescalendar(y, m):
            cells = []
            for d in week:
                if d.month != m:
                    cells.append(View(v.FRAME, height=56))
                    continue
                iso = d.isoformat()
                desc = self.fmt_date(d) + (" •" if iso in busy else "")
                cells.append(
                    View(
                        v.TEXT,
                        text=str(d.day) + (" •" if iso in busy else ""),
                        content_description=desc,
                        on_click=partial(self.phone.start, PACKAGE, "day", day=iso),
                        height=56,
                        selected=d == today,
                        resource_id=self.rid("month_day"),
                        style="day_selected" if d == today else "day",
                    )
                )
            rows.append(v.row(*cells, height=56))
        return self.page(
            self.appbar(self.t("app.calendar"), up=False),
            header,
            self._grid(rows, shift),
            # the view switch and search come after the New-event button so the indexes of
            # the older elements stay as recorded solutions have them
            v.row(
                v.button(
                    self.t("cal.new_event"),
                    partial(self.open_editor, None, today),
                    rid=self.rid("calendar_fab"),
                    style="primary",
                    weight=2,
                ),
                v.icon_button(
                    self.t("cal.agenda"),
                    partial(self.phone.start, PACKAGE, "agenda"),
                    rid=self.rid("agenda_view"),
                ),
                v.icon_button(
                    self.t("cal.search"), partial(self.phone.start, PACKAGE, "search"), rid=self.rid("search")
                ),
                height=48,
            ),
        )

    # --- agenda and search -----------------------------------------------------------------
    def _event_row(self, e: dict[str, Any]) -> View:
        start, end = datetime.fromisoformat(e["dtstart"]), datetime.fromisoformat(e["dtend"])
        span = (
            f"{self.fmt_date(start.date())} {format_time(self.phone, start.hour, start.minute)}"
            f" – {format_time(self.phone, end.hour, end.minute)}"
        )
        sub = span + (f" · {e['eventLocation']}" if e["eventLocation"] else "")
        return v.item(
            e["title"],
            sub,
            on_click=partial(self.phone.start, PACKAGE, "event", eid=e["_id"]),
            rid=self.rid("event_item"),
        )

    def screen_agenda(self, screen: Screen) -> View:
        today = self.phone.clock.now.date().isoformat()
        rows = [self._event_row(e) for e in p.events(self.storage) if e["dtend"][:10] >= today]
        return self.page(
            self.appbar(self.t("cal.agenda")),
            self.scroll("events", rows, screen.state, rid="calendar_events_list", empty="cal.no_upcoming"),
        )

    def screen_search(self, screen: Screen) -> View:
        query = str(screen.state.get("query", "")).strip().casefold()
        found = [
            e
            for e in p.events(self.storage)
            if query and any(query in str(e[k]).casefold() for k in ("title", "eventLocation", "description"))
        ]
        rows = [self._event_row(e) for e in found]
        return self.page(
            self.appbar(self.t("cal.search")),
            self.edit_field(screen.state, "query", hint="cal.search_hint", rid="search_query"),
            self.scroll(
                "results",
                rows,
                screen.state,
                rid="search_results_list",
                empty="mp.no_results" if query else "",
            ),
        )

    def _grid(self, rows: list[View], shift: Callable[[int], None]) -> View:
        grid = v.column(*rows, fill=True, rid=self.rid("month_grid"))
        grid.on_page = shift
        return grid

    # --- day agenda ----------------------------------------------------------------------
    def screen_day(self, screen: Screen) -> View:
        day = date.fromisoformat(str(screen.state["day"]))
        rows = []
        for e in p.events(self.storage, day.isoformat()):
            start, end = datetime.fromisoformat(e["dtstart"]), datetime.fromisoformat(e["dtend"])
            span = f"{format_time(self.phone, start.hour, start.minute)} – {format_time(self.phone, end.hour, end.minute)}"
            sub = span + (f" · {e['eventLocation']}" if e["eventLocation"] else "")
            rows.append(
                v.item(
                    e["title"],
                    sub,
                    on_click=partial(self.phone.start, PACKAGE, "event", eid=e["_id"]),
                    rid=self.rid("event_item"),
                )
            )
        return self.page(
            self.appbar(self.fmt_date(day)),
            self.scroll("events", rows, screen.state, rid="day_events", empty="cal.no_events"),
            v.button(
                self.t("cal.new_event"),
                partial(self.open_editor, None, day),
                rid=self.rid("calendar_fab"),
                style="primary",
            ),
        )

    # --- details -------------------------------------------------------------------------
    def screen_event(self, screen: Screen) -> View:
        eid = int(screen.state["eid"])
        e = next((x for x in p.events(self.storage) if x["_id"] == eid), None)
        if e is None:
            return self.page(self.appbar(""), v.text(self.t("cal.no_events"), style="dim"))
        start, end = datetime.fromisoformat(e["dtstart"]), datetime.fromisoformat(e["dtend"])

        def ask_delete() -> None:
            def delete() -> None:
                p.delete_event(self.storage, eid)
                self.leave()

            self.confirm(self.t("cal.delete_q"), "sys.delete", delete)

        rows = [
            v.text(e["title"], rid=self.rid("event_title"), height=64, style="headline"),
            v.item(
                f"{self.fmt_date(start.date())} {format_time(self.phone, start.hour, start.minute)}",
                self.t("cal.start"),
                rid=self.rid("event_start"),
            ),
            v.item(
                f"{self.fmt_date(end.date())} {format_time(self.phone, end.hour, end.minute)}",
                self.t("cal.end"),
                rid=self.rid("event_end"),
            ),
        ]
        if e["eventLocation"]:
            rows.append(v.item(e["eventLocation"], self.t("cal.location"), rid=self.rid("event_location")))
        if e["description"]:
            rows.append(
                v.item(e["description"], self.t("cal.description"), rid=self.rid("event_description"))
            )
        return self.page(
            self.appbar(
                "",
                actions=[
                    v.icon_button(
                        self.t("sys.edit"), partial(self.open_editor, eid, start.date()), rid=self.rid("edit")
                    ),
                    v.icon_button(self.t("sys.delete"), ask_delete, rid=self.rid("delete")),
                ],
            ),
            v.column(*rows, fill=True),
        )

    # --- editor --------------------------------------------------------------------------
    def open_editor(self, eid: int | None, day: date) -> None:
        if eid is not None:
            e = next(x for x in p.events(self.storage) if x["_id"] == eid)
            start, end = datetime.fromisoformat(e["dtstart"]), datetime.fromisoformat(e["dtend"])
            state: dict[str, Any] = {
                "title": e["title"],
                "location": e["eventLocation"],
                "description": e["description"],
            }
        else:
            hour = min(self.phone.clock.now.hour + 1, 23)
            start = datetime(day.year, day.month, day.day, hour)
            end = start + timedelta(hours=1)
            state = {k: "" for k in FIELDS}
        state.update(eid=eid, start=start.isoformat(), end=end.isoformat())
        state["orig"] = {k: state[k] for k in (*FIELDS, "start", "end")}
        self.phone.start(PACKAGE, "edit", **state)

    def screen_edit(self, screen: Screen) -> View:
        st = screen.state
        start, end = datetime.fromisoformat(st["start"]), datetime.fromisoformat(st["end"])

        def set_start(new: datetime) -> None:
            length = datetime.fromisoformat(st["end"]) - datetime.fromisoformat(st["start"])
            st["start"], st["end"] = new.isoformat(), (new + length).isoformat()

        def set_end(new: datetime) -> None:
            st["end"] = new.isoformat()

        def pick_date(which: str) -> None:
            cur = datetime.fromisoformat(st[which])
            setter = set_start if which == "start" else set_end
            self.phone.show_dialog(
                date_picker(
                    self.phone,
                    cur.date(),
                    lambda d: setter(datetime(d.year, d.month, d.day, cur.hour, cur.minute)),
                )
            )

        def pick_time(which: str) -> None:
            cur = datetime.fromisoformat(st[which])
            setter = set_start if which == "start" else set_end
            self.phone.show_dialog(
                time_picker(
                    self.phone, cur.hour, cur.minute, lambda h, m: setter(cur.replace(hour=h, minute=m))
                )
            )

        def when_row(which: str, at: datetime) -> View:
            return v.row(
                v.text(self.t("cal." + which), height=48, style="label"),
                View(
                    v.BUTTON,
                    text=self.fmt_date(at.date()),
                    on_click=partial(pick_date, which),
                    height=48,
                    weight=2,
                    resource_id=self.rid(f"event_{which}_date"),
                ),
                View(
                    v.BUTTON,
                    text=format_time(self.phone, at.hour, at.minute),
                    on_click=partial(pick_time, which),
                    height=48,
                    weight=1.4,
                    resource_id=self.rid(f"event_{which}_time"),
                ),
                height=52,
            )

        title = self.t("cal.new_event") if st.get("eid") is None else self.t("sys.edit")
        return self.page(
            self.form_bar(title, partial(self._save, screen), "save"),
            v.column(
                self.edit_field(st, "title", hint="cal.title", rid="event_title"),
                when_row("start", start),
                when_row("end", end),
                self.edit_field(st, "location", hint="cal.location", rid="event_location"),
                self.edit_field(
                    st,
                    "description",
                    hint="cal.description",
                    rid="event_description",
                    multiline=True,
                    height=88,
                ),
                fill=True,
            ),
        )

    def _save(self, screen: Screen) -> None:
        st = screen.state
        title = str(st["title"]).strip()
        if not title:
            self.phone.show_toast(self.t("cal.title_required"))
            return
        start, end = datetime.fromisoformat(st["start"]), datetime.fromisoformat(st["end"])
        if end < start:
            self.phone.show_toast(self.t("cal.end_before_start"))
            return
        location, description = str(st["location"]).strip(), str(st["description"]).strip()
        if st.get("eid") is None:
            p.add_event(self.storage, title, start, end, location, description)
        else:
            p.update_event(self.storage, int(st["eid"]), title, start, end, location, description)
        self.phone.finish()

    def on_back(self, screen: Screen) -> bool:
        if screen.activity != "edit":
            return False
        if {k: screen.state.get(k) for k in (*FIELDS, "start", "end")} == screen.state.get("orig"):
            return False

        self.confirm_discard()
        return True
