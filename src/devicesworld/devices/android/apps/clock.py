"""Clock (Google Clock): alarms set through the time picker, repeat days, labels; a countdown timer.

Adding an alarm opens the time picker first; the alarm exists only after its *OK*.
An alarm's own screen changes it in place (time, label dialog, repeat days, on/off,
delete, and *Schedule alarm*: a date picker that makes it a one-time alarm on that
date), as the real app saves every change at once. A date and repeat days exclude
each other: picking a day clears the date and scheduling a date clears the days. The timer counts down in
virtual time: ``wait`` lets it run.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.providers import ALARMS_DB, WEEKDAYS
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.pickers import date_picker, format_time, time_picker
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.google.android.deskclock"


class ClockApp(App):
    package = PACKAGE
    label_key = "app.clock"
    tabs = (("alarm", "ck.alarm"), ("timer", "ck.timer"))

    def screen_main(self, screen: Screen) -> View:
        if self.tab(screen) == "timer":
            return self._timer(screen)
        rows = []
        for a in p.alarms(self.storage):
            days = self.t("ck.dayn").split(",")
            repeat = ", ".join(days[WEEKDAYS.index(d)][:3] for d in a["days"])
            when = self.date_text(date.fromisoformat(a["date"])) if a["date"] else repeat
            sub = " · ".join(x for x in (a["label"], when) if x)
            rows.append(
                v.row(
                    v.item(
                        format_time(self.phone, a["hour"], a["minute"]),
                        sub,
                        on_click=partial(self.phone.start, PACKAGE, "alarm", aid=a["id"]),
                        rid=self.rid("digital_clock"),
                    ),
                    View(
                        v.SWITCH,
                        checkable=True,
                        checked=a["enabled"],
                        on_click=partial(self._toggle, a["id"]),
                        resource_id=self.rid("onoff"),
                        content_description=format_time(self.phone, a["hour"], a["minute"]),
                        height=64,
                        weight=0.35,
                    ),
                    height=64,
                )
            )
        return self.page(
            self.appbar(self.t("app.clock"), up=False),
            self.tab_row(screen),
            self.scroll("alarms", rows, screen.state, rid="alarm_recycler_view", empty="ck.no_alarms"),
            v.button(self.t("ck.add_alarm"), self._add, rid=self.rid("fab"), style="primary"),
        )

    def date_text(self, day: date) -> str:
        """Today, Tomorrow, or the weekday and date, as the Clock shows a scheduled alarm."""
        today = self.phone.clock.now.date()
        if day == today:
            return self.t("ck.today")
        if day == today + timedelta(days=1):
            return self.t("ck.tomorrow")
        names = self.t("ck.dayn").split(",")
        months = self.t("cal.months").split(",")
        return f"{names[(day.weekday() + 1) % 7]}, {day.day} {months[day.month - 1]} {day.year}"

    def _toggle(self, aid: int) -> None:
        self.storage.execute(
            *ALARMS_DB, "UPDATE alarm_templates SET enabled = 1 - enabled WHERE _id=?", (aid,)
        )

    def _add(self) -> None:
        now = self.phone.clock.now

        def create(hour: int, minute: int) -> None:
            p.add_alarm(self.storage, hour, minute)
            self.phone.show_toast(self.t("ck.alarm_set", time=format_time(self.phone, hour, minute)))

        self.phone.show_dialog(time_picker(self.phone, now.hour, 0, create))

    # --- one alarm -----------------------------------------------------------------------
    def screen_alarm(self, screen: Screen) -> View:
        aid = int(screen.state["aid"])
        alarm = next((a for a in p.alarms(self.storage) if a["id"] == aid), None)
        if alarm is None:
            return self.page(self.appbar(self.t("ck.alarm")), v.text(self.t("ck.no_alarms"), style="dim"))

        def set_time(hour: int, minute: int) -> None:
            self.storage.execute(
                *ALARMS_DB,
                "UPDATE alarm_templates SET hour=?, minutes=?, enabled=1 WHERE _id=?",
                (hour, minute, aid),
            )

        def pick_time() -> None:
            self.phone.show_dialog(time_picker(self.phone, alarm["hour"], alarm["minute"], set_time))

        def toggle_day(day: str) -> None:
            days = set(alarm["days"])
            days ^= {day}
            self.storage.execute(
                *ALARMS_DB,
                "UPDATE alarm_templates SET daysofweek=?, date='' WHERE _id=?",
                (p.days_mask([d for d in WEEKDAYS if d in days]), aid),
            )

        def set_date(day: date) -> None:
            self.storage.execute(
                *ALARMS_DB,
                "UPDATE alarm_templates SET date=?, daysofweek=0, enabled=1 WHERE _id=?",
                (day.isoformat(), aid),
            )

        def pick_date() -> None:
            now = self.phone.clock.now
            start = date.fromisoformat(alarm["date"]) if alarm["date"] else now.date()
            self.phone.show_dialog(date_picker(self.phone, start, set_date))

        def delete() -> None:
            self.storage.execute(*ALARMS_DB, "DELETE FROM alarm_templates WHERE _id=?", (aid,))
            self.phone.finish()

        letters = self.t("ck.days").split(",")
        names = self.t("ck.dayn").split(",")
        day_row = v.row(
            *[
                View(
                    v.CHECKBOX,
                    text=letters[i],
                    content_description=names[i],
                    checkable=True,
                    checked=d in alarm["days"],
                    on_click=partial(toggle_day, d),
                    resource_id=self.rid(f"day_button_{i}"),
                    height=48,
                )
                for i, d in enumerate(WEEKDAYS)
            ],
            height=48,
        )
        return self.page(
            self.appbar(self.t("ck.alarm")),
            v.column(
                v.button(
                    format_time(self.phone, alarm["hour"], alarm["minute"]),
                    pick_time,
                    rid=self.rid("digital_clock"),
                    height=72,
                    style="headline",
                ),
                v.switch(
                    self.t("ck.alarm"), alarm["enabled"], partial(self._toggle, aid), rid=self.rid("onoff")
                ),
                v.text(self.t("ck.repeat"), height=32, style="label"),
                day_row,
                v.item(
                    alarm["label"] or self.t("ck.add_label"),
                    self.t("ck.label"),
                    on_click=partial(self._label_dialog, aid, alarm["label"]),
                    rid=self.rid("edit_label"),
                ),
                v.button(self.t("ck.delete_alarm"), delete, rid=self.rid("delete")),
                # after Delete so the indexes of the older elements stay as recorded solutions have them
                v.item(
                    self.date_text(date.fromisoformat(alarm["date"]))
                    if alarm["date"]
                    else self.t("ck.not_scheduled"),
                    self.t("ck.schedule"),
                    on_click=pick_date,
                    rid=self.rid("schedule_alarm"),
                ),
                fill=True,
            ),
        )

    def _label_dialog(self, aid: int, current: str) -> None:
        def ok(d: Dialog) -> None:
            self.storage.execute(
                *ALARMS_DB,
                "UPDATE alarm_templates SET label=? WHERE _id=?",
                (str(d.state.get("label", "")).strip(), aid),
            )
            self.phone.dismiss()

        self.ask_text(self.t("ck.label"), "label", current, hint="ck.label", rid="label_input", on_ok=ok)

    # --- timer ---------------------------------------------------------------------------
    def _timer(self, screen: Screen) -> View:
        timer = next(iter(p.timers(self.storage)), None)
        kids: list[View] = []
        if timer is None:
            kids.append(
                self.edit_field(screen.state, "minutes", hint="ck.timer_hint", rid="timer_setup_digits")
            )
            kids.append(
                v.button(
                    self.t("ck.start"),
                    partial(self._start_timer, screen),
                    rid=self.rid("fab"),
                    style="primary",
                    enabled=bool(str(screen.state.get("minutes", "")).strip()),
                )
            )
        else:
            left = remaining(timer, self.phone.clock.now)
            kids.append(
                v.text(
                    f"{left // 60:02d}:{left % 60:02d}",
                    rid=self.rid("timer_time_text"),
                    height=96,
                    style="headline",
                )
            )
            running = timer["state"] == "running"
            kids.append(
                v.row(
                    v.button(
                        self.t("ck.pause") if running else self.t("ck.start"),
                        partial(self._pause_resume, timer),
                        rid=self.rid("fab"),
                        style="primary",
                    ),
                    v.button(self.t("ck.reset"), self._reset_timer, rid=self.rid("reset")),
                    height=48,
                )
            )
        return self.page(
            self.appbar(self.t("app.clock"), up=False), self.tab_row(screen), v.column(*kids, fill=True)
        )

    def _start_timer(self, screen: Screen) -> None:
        try:
            minutes = float(str(screen.state.get("minutes", "")).strip())
        except ValueError:
            return
        if minutes <= 0:
            return
        secs = round(minutes * 60)
        self.storage.execute(
            *ALARMS_DB,
            "INSERT INTO timers (length_s, remaining_s, state, started_at) VALUES (?,?,?,?)",
            (secs, secs, "running", self.phone.clock.now.isoformat()),
        )
        screen.state["minutes"] = ""

    def _pause_resume(self, timer: dict[str, Any]) -> None:
        now = self.phone.clock.now
        if timer["state"] == "running":
            self.storage.execute(
                *ALARMS_DB,
                "UPDATE timers SET state='paused', remaining_s=? WHERE _id=?",
                (remaining(timer, now), timer["_id"]),
            )
        else:
            self.storage.execute(
                *ALARMS_DB,
                "UPDATE timers SET state='running', started_at=? WHERE _id=?",
                (now.isoformat(), timer["_id"]),
            )

    def _reset_timer(self) -> None:
        self.storage.execute(*ALARMS_DB, "DELETE FROM timers")


def remaining(timer: dict[str, Any], now: datetime) -> int:
    if timer["state"] != "running":
        return int(timer["remaining_s"])
    elapsed = (now - datetime.fromisoformat(str(timer["started_at"]))).total_seconds()
    return max(int(timer["remaining_s"] - elapsed), 0)
