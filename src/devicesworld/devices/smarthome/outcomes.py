"""The home's outcome over time: what happened in the episode and what its plan will still do.

Issue 32: a verifier that reads the schedule list judges the *encoding* of a plan — the
dryer "after the washer completes + 55 min" passes while the same plan as the clock time
that moment falls on (10:40), or as a 100-minute delay, fails; and a plan that already ran
because the agent let virtual time pass fails as "no pending schedule". The home advances
24 hours in well under a millisecond, so verifiers instead read a *timeline*: every command
run so far (with the device's stored attributes right after it) followed by the commands a
copy of the home runs when it is let run forward through the window the task is about.
Any encoding that produces the outcome passes; the episode's own home is never moved.
"""

from __future__ import annotations

from typing import Any

from devicesworld.devices.smarthome.home import HistoryEntry, Home
from devicesworld.devices.smarthome.timefmt import to_iso
from devicesworld.devices.smarthome.views import command_run

DEFAULT_HOURS = 24.0
"""How far ahead a timeline looks when the check names no window: a day covers every plan a
household task makes ("tonight", "tomorrow morning", "after the wash")."""


def _entry(home: Home, h: HistoryEntry, simulated: bool) -> dict[str, Any]:
    sched = home.schedules.get(h.schedule_id or "")
    return {
        **command_run(home, h),
        "source": h.source,
        "schedule_id": h.schedule_id,
        "created_by": sched.created_by if sched is not None else h.source,
        "simulated": simulated,
        "before": dict(h.before) if h.before is not None else None,
        "after": dict(h.after) if h.after is not None else None,
    }


def timeline(home: Home, hours: float = DEFAULT_HOURS) -> dict[str, Any]:
    """Past and forecast commands and device events, in time order, and the window judged."""
    twin = home.forecast(hours * 3600.0)
    past = len(home.history)
    entries = [_entry(home, h, False) for h in home.history]
    entries += [_entry(twin, h, True) for h in twin.history[past:]]
    seen = len(home.events)
    events = [
        {"time": to_iso(home.epoch, t), "device_id": d, "event": e, "simulated": i >= seen}
        for i, (t, d, e) in enumerate(twin.events)
    ]
    return {
        "now": to_iso(home.epoch, home.now),
        "until": to_iso(home.epoch, twin.now),
        "entries": entries,
        "events": events,
        "final": {d.id: dict(d.attrs) for d in twin.devices.values()},
        "needs_power": {
            d.id: sorted(
                name
                for name, attr in d.category.attributes.items()
                if attr.setter in d.category.commands
                and d.category.commands[attr.setter].needs_power
                and d.category.has_power
            )
            for d in home.devices.values()
        },
    }
