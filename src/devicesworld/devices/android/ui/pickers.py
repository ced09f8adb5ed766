"""Date and time pickers: the dialogs agents find hard on real phones, made just as demanding.

The time picker is Android's TimePicker in its spinner mode: two wheels, hour and minute (plus
AM/PM in 12-hour locales), each a NumberPicker showing the value above and below the current one
(buttons: tapping one turns the wheel a step), turned by scrolling or swiping on it (two values a
fling, one a half page), with an editable centre value that takes typed digits. As the real
TimePicker, the minute wheel wrapping past 59 or 0 carries into the hour, and the hour wheel
passing 11/12 flips AM/PM. Nothing takes effect until the dialog's *OK* is pressed (issue #34: the
picker took typed digits only and showed no neighbouring values). The element order is the one
every recorded solution was written against (wheel above, value, wheel below; AM, PM; Cancel, OK),
so index-based solutions of shipped and frozen suites replay unchanged. The date picker shows one month
as a grid of day cells with previous/next-month buttons; its header (the chosen
date) opens the list of years, as the real picker's does. Both call ``on_set`` only on *OK*; *Cancel* and
Back leave everything as it was.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android.apps.base import Dialog
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.system.phone import Phone


def _parse(text: Any, lo: int, hi: int) -> int | None:
    try:
        n = int(str(text).strip())
    except ValueError:
        return None
    return n if lo <= n <= hi else None


def time_picker(phone: Phone, hour: int, minute: int, on_set: Callable[[int, int], None]) -> Dialog:
    h12 = not phone.time_24h
    state: dict[str, Any] = {"hour": hour, "minute": minute}

    def shown_hour() -> int:
        h = int(state["hour"])
        return (h % 12 or 12) if h12 else h

    def sync() -> None:
        state["hour_text"] = f"{shown_hour():02d}" if not h12 else str(shown_hour())
        state["minute_text"] = f"{int(state['minute']):02d}"

    sync()

    def commit_typed() -> None:
        if h12:
            typed = _parse(state.get("hour_text"), 1, 12)
            if typed is not None:
                pm = int(state["hour"]) >= 12
                state["hour"] = typed % 12 + (12 if pm else 0)
        else:
            typed = _parse(state.get("hour_text"), 0, 23)
            if typed is not None:
                state["hour"] = typed
        m = _parse(state.get("minute_text"), 0, 59)
        if m is not None:
            state["minute"] = m

    def bump(field: str, delta: int) -> None:
        commit_typed()
        if field == "hour":
            state["hour"] = (int(state["hour"]) + delta) % 24
        else:
            total = int(state["minute"]) + delta
            state["minute"] = total % 60
            # as the real TimePicker: the minute wheel wrapping past 59 or 0 carries into the hour
            state["hour"] = (int(state["hour"]) + total // 60) % 24
        sync()

    def neighbour(field: str, delta: int) -> str:
        """The value the wheel shows ``delta`` steps away (what a tap on that side turns to)."""
        if field == "minute":
            return f"{(int(state['minute']) + delta) % 60:02d}"
        h = (int(state["hour"]) + delta) % 24
        return str(h % 12 or 12) if h12 else f"{h:02d}"

    def spin(field: str, steps: int) -> str:
        bump(field, steps)
        return f"the {field} wheel turned to {state[f'{field}_text']}"

    def set_pm(pm: bool) -> None:
        commit_typed()
        h = int(state["hour"]) % 12
        state["hour"] = h + (12 if pm else 0)
        sync()

    def ok() -> None:
        commit_typed()
        phone.dismiss()
        on_set(int(state["hour"]), int(state["minute"]))

    def column_for(field: str, label_key: str) -> View:
        label = phone.t(label_key)
        col = v.column(
            View(
                v.BUTTON,
                text=neighbour(field, 1),
                content_description=phone.t("pick.increase", what=label),
                on_click=partial(bump, field, 1),
                resource_id=f"android:id/{field}_increment",
                height=48,
                style="wheel",
            ),
            View(
                v.EDIT,
                text=str(state[f"{field}_text"]),
                content_description=label,
                editable=True,
                field=f"{field}_text",
                resource_id=f"android:id/{field}",
                height=56,
                style="picker",
            ),
            View(
                v.BUTTON,
                text=neighbour(field, -1),
                content_description=phone.t("pick.decrease", what=label),
                on_click=partial(bump, field, -1),
                resource_id=f"android:id/{field}_decrement",
                height=48,
                style="wheel",
            ),
        )
        col.class_name = v.NUMBER_PICKER
        col.on_spin = partial(spin, field)
        return col

    def body(d: Dialog) -> list[View]:
        cols = [column_for("hour", "pick.hour"), column_for("minute", "pick.minute")]
        if h12:
            pm = int(state["hour"]) >= 12
            cols.append(
                v.column(
                    View(
                        v.BUTTON,
                        text=phone.t("pick.am"),
                        checkable=True,
                        checked=not pm,
                        selected=not pm,
                        on_click=partial(set_pm, False),
                        resource_id="android:id/am_label",
                        height=76,
                    ),
                    View(
                        v.BUTTON,
                        text=phone.t("pick.pm"),
                        checkable=True,
                        checked=pm,
                        selected=pm,
                        on_click=partial(set_pm, True),
                        resource_id="android:id/pm_label",
                        height=76,
                    ),
                )
            )
        return [v.row(*cols, height=152, rid="android:id/timePicker")]

    def buttons(d: Dialog) -> list[View]:
        return [
            v.button(phone.t("sys.cancel"), phone.dismiss, rid="android:id/button2"),
            v.button(phone.t("sys.ok"), ok, rid="android:id/button1"),
        ]

    return Dialog(
        title=phone.t("pick.select_time"),
        body=body,
        buttons=buttons,
        state=state,
        resource_id="android:id/time_picker_dialog",
    )


def date_picker(phone: Phone, day: date, on_set: Callable[[date], None]) -> Dialog:
    state: dict[str, Any] = {"sel": day, "year": day.year, "month": day.month}
    months = phone.t("cal.months").split(",")
    weekdays = phone.t("ck.days").split(",")

    def shift(delta: int) -> None:
        m = int(state["month"]) - 1 + delta
        state["year"] = int(state["year"]) + m // 12
        state["month"] = m % 12 + 1

    def choose(d: date) -> None:
        state["sel"] = d

    def year_mode() -> None:
        state["years"] = not state.get("years")

    def choose_year(year: int) -> None:
        sel: date = state["sel"]
        last = calendar.monthrange(year, sel.month)[1]
        state["sel"] = sel.replace(year=year, day=min(sel.day, last))
        state["year"], state["month"], state["years"] = year, sel.month, False

    def ok() -> None:
        phone.dismiss()
        on_set(state["sel"])

    def body(_: Dialog) -> list[View]:
        y, m = int(state["year"]), int(state["month"])
        sel_day: date = state["sel"]
        summary = View(
            v.TEXT,
            text=f"{sel_day.day} {months[sel_day.month - 1]} {sel_day.year}",
            content_description=phone.t("pick.choose_year"),
            on_click=year_mode,  # as the real picker's header: tap it for the list of years
            resource_id="android:id/date_picker_header_date",
            height=40,
            style="item_title",
        )
        if state.get("years"):
            years = [
                v.button(str(yr), partial(choose_year, yr), rid="android:id/year_item")
                for yr in range(sel_day.year - 3, sel_day.year + 4)
            ]
            return [summary, *years]
        header = v.row(
            v.icon_button(phone.t("pick.prev_month"), partial(shift, -1), rid="android:id/prev", weight=1),
            v.text(f"{months[m - 1]} {y}", rid="android:id/month_view", height=48, style="title"),
            v.icon_button(phone.t("pick.next_month"), partial(shift, 1), rid="android:id/next", weight=1),
            height=48,
        )
        header.children[1].weight = 4
        rows = [v.row(*[v.text(w, height=28, style="dim") for w in weekdays], height=28)]
        cal = calendar.Calendar(firstweekday=6)
        for week in cal.monthdatescalendar(y, m):
            cells = []
            for day_ in week:
                if day_.month != m:
                    cells.append(View(v.FRAME, height=40))
                    continue
                sel = day_ == state["sel"]
                cells.append(
                    View(
                        v.TEXT,
                        text=str(day_.day),
                        content_description=f"{day_.day} {months[m - 1]} {y}",
                        on_click=partial(choose, day_),
                        selected=sel,
                        checked=sel,
                        height=40,
                        resource_id="android:id/day",
                        style="day_selected" if sel else "day",
                    )
                )
            rows.append(v.row(*cells, height=40))
        return [summary, header, *rows]

    def buttons(d: Dialog) -> list[View]:
        return [
            v.button(phone.t("sys.cancel"), phone.dismiss, rid="android:id/button2"),
            v.button(phone.t("sys.ok"), ok, rid="android:id/button1"),
        ]

    return Dialog(
        title=phone.t("pick.select_date"),
        body=body,
        buttons=buttons,
        state=state,
        resource_id="android:id/date_picker_dialog",
    )


def format_time(phone: Phone, hour: int, minute: int) -> str:
    if phone.time_24h:
        return f"{hour:02d}:{minute:02d}"
    suffix = phone.t("pick.pm") if hour >= 12 else phone.t("pick.am")
    return f"{hour % 12 or 12}:{minute:02d} {suffix}"
