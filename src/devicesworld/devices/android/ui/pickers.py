"""Date and time pickers: the dialogs agents find hard on real phones, made just as demanding.

The time picker is Android's TimePicker in its spinner mode: two wheels, hour and minute (plus
AM/PM in 12-hour locales), each a NumberPicker showing the value above and below the current one
(buttons: tapping one turns the wheel a step), turned by scrolling or swiping on it (two values a
fling, one a half page), with an editable centre value that takes typed digits. As the real
TimePicker, the minute wheel wrapping past 59 or 0 carries into the hour, and the hour wheel
passing 11/12 flips AM/PM. Nothing takes effect until the dialog's *OK* is pressed (issue #34: the
picker took typed digits only and showed no neighbouring values). A toggle after *OK* turns it to
Google Clock's clock face (:func:`dial`): the hours round a face (24-hour: 13-00 on an inner ring),
then the minutes in fives, the header choosing which. The element order is the one
every recorded solution was written against (wheel above, value, wheel below; AM, PM; Cancel, OK),
so index-based solutions of shipped and frozen suites replay unchanged. The date picker shows one month
as a grid of day cells with previous/next-month buttons; its header (the chosen
date) opens the list of years, as the real picker's does. Both call ``on_set`` only on *OK*; *Cancel* and
Back leave everything as it was.
"""

from __future__ import annotations

import calendar
import math
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


def dial(items: list[View], places: list[tuple[float, int]]) -> View:
    """A round clock face from rows: each item at ``(radius, position)``, position 0 at the top and
    11 at eleven o'clock; rows by height, spacers across (the layout has rows and columns only)."""
    slots = 9.0  # the face is nine number widths across
    rows: dict[float, list[tuple[float, View]]] = {}
    for item, (radius, pos) in zip(items, places, strict=True):
        angle = math.radians(pos * 30)
        x = 4.5 + 4.0 * radius * math.sin(angle)  # centre of the item, in number widths
        y = round(-radius * math.cos(angle), 2)
        rows.setdefault(y, []).append((x, item))
    out: list[View] = []
    for y in sorted(rows):
        cells: list[View] = []
        at = 0.0
        for x, item in sorted(rows[y], key=lambda p: p[0]):
            gap = max(x - 0.5 - at, 0.0)
            if gap > 0.01:
                cells.append(View(v.FRAME, weight=gap))
            item.weight = 1.0
            cells.append(item)
            at = x + 0.5
        if slots - at > 0.01:
            cells.append(View(v.FRAME, weight=slots - at))
        out.append(v.row(*cells, height=30))
    face = v.column(*out)
    face.resource_id = "android:id/radial_picker"
    return face


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

    def toggle_mode() -> None:
        commit_typed()
        state["mode"] = "wheels" if state.get("mode") == "clock" else "clock"
        state["face"] = "hour"
        sync()

    def choose(field: str, value: int) -> None:
        if field == "hour":
            if h12:
                state["hour"] = value % 12 + (12 if int(state["hour"]) >= 12 else 0)
            else:
                state["hour"] = value
            state["face"] = "minute"  # as the real clock: after the hour, the minutes
        else:
            state["minute"] = value
        sync()

    def show_face(face: str) -> None:
        state["face"] = face

    def clock_body() -> list[View]:
        face = str(state.get("face", "hour"))
        header: list[View] = [
            View(
                v.TEXT,
                text=str(shown_hour()) if h12 else f"{int(state['hour']):02d}",
                content_description=phone.t("pick.hour"),
                on_click=partial(show_face, "hour"),
                selected=face == "hour",
                resource_id="android:id/hours",
                style="title",
            ),
            View(v.TEXT, text=":", weight=0.3, style="title"),
            View(
                v.TEXT,
                text=f"{int(state['minute']):02d}",
                content_description=phone.t("pick.minute"),
                on_click=partial(show_face, "minute"),
                selected=face == "minute",
                resource_id="android:id/minutes",
                style="title",
            ),
        ]
        if h12:
            pm = int(state["hour"]) >= 12
            for label, is_pm in (("pick.am", False), ("pick.pm", True)):
                header.append(
                    View(
                        v.BUTTON,
                        text=phone.t(label),
                        checkable=True,
                        checked=pm == is_pm,
                        selected=pm == is_pm,
                        on_click=partial(set_pm, is_pm),
                        resource_id="android:id/pm_label" if is_pm else "android:id/am_label",
                    )
                )
        if face == "hour":
            marks = [(str(h), h, 1.0, h % 12) for h in range(1, 13)]
            if not h12:  # 24 hours: 1-12 on the outer ring, 13-00 on the inner one, as Android's
                marks = [(str(h), h, 1.0, h % 12) for h in range(1, 13)]
                marks += [
                    (f"{h % 24:02d}" if h == 24 else str(h), h % 24, 0.6, h % 12) for h in range(13, 25)
                ]
            current = shown_hour() if h12 else int(state["hour"])
        else:
            marks = [(f"{m:02d}", m, 1.0, m // 5) for m in range(0, 60, 5)]
            current = int(state["minute"])
        items = [
            View(
                v.TEXT,
                text=label,
                on_click=partial(choose, face, value),
                selected=value == current,
                checked=value == current,
                style="day_selected" if value == current else "day",
            )
            for label, value, _, _ in marks
        ]
        return [v.row(*header, height=64), dial(items, [(r, pos) for _, _, r, pos in marks])]

    def body(d: Dialog) -> list[View]:
        if state.get("mode") == "clock":
            return clock_body()
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
        # the mode toggle comes after OK in the element order (recorded solutions index Cancel and
        # OK), on the right of the row
        to = "pick.to_wheels" if state.get("mode") == "clock" else "pick.to_clock"
        return [
            *v.dialog_buttons(phone.t("sys.cancel"), phone.dismiss, phone.t("sys.ok"), ok),
            v.icon_button(phone.t(to), toggle_mode, rid="android:id/toggle_mode", weight=0.5),
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
        return v.dialog_buttons(phone.t("sys.cancel"), phone.dismiss, phone.t("sys.ok"), ok)

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
