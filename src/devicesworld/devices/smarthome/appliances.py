"""State machines of the long-running appliances: washer/dryer cycles and the robot vacuum.

They know nothing about queues or rooms: each transition takes the current time and
returns when the next transition is due (or None), and the home turns that into a
queue entry tagged with the machine's generation. Pausing or stopping bumps the
generation, which is how a pending transition is cancelled without searching the heap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MINUTE = 60.0
RVC_MIN_START_BATTERY = 20.0
RVC_LOW_BATTERY = 10.0
RVC_MINUTES_PER_ROOM = 15.0
RVC_RETURN_MINUTES = 2.0
RVC_DRAIN_PER_MIN = {"vacuum": 0.8, "mop": 0.6, "vacuum_and_mop": 1.0}
RVC_RETURN_DRAIN_PER_MIN = 0.5
RVC_CHARGE_PER_MIN = 1.0


@dataclass(slots=True)
class Cycle:
    """A washer or dryer program: a list of (phase, seconds) run one after another."""

    state: str = "idle"
    plan: list[tuple[str, float]] = field(default_factory=list)
    """Phases still to run; the first is the current one, its duration counted from ``seg_start``."""
    seg_start: float = 0.0
    gen: int = 0

    def phase(self) -> str:
        if self.state in ("idle", "completed"):
            return self.state
        return self.plan[0][0]

    def remaining_s(self, now: float) -> float:
        if self.state not in ("running", "paused"):
            return 0.0
        total = sum(d for _, d in self.plan)
        if self.state == "running":
            total -= now - self.seg_start
        return max(0.0, total)

    def start(self, now: float, minutes: float, phases: tuple[tuple[str, float], ...]) -> float:
        self.plan = [(name, share * minutes * MINUTE) for name, share in phases]
        return self.resume(now)

    def pause(self, now: float) -> None:
        name, dur = self.plan[0]
        self.plan[0] = (name, max(0.0, dur - (now - self.seg_start)))
        self.state = "paused"
        self.gen += 1

    def resume(self, now: float) -> float:
        self.state = "running"
        self.seg_start = now
        self.gen += 1
        return now + self.plan[0][1]

    def stop(self) -> None:
        self.state = "idle"
        self.plan = []
        self.gen += 1

    def advance_phase(self, now: float) -> float | None:
        """The current phase ended at ``now``: start the next one, or complete (returns None)."""
        self.plan.pop(0)
        if not self.plan:
            self.state = "completed"
            self.gen += 1
            return None
        self.seg_start = now
        return now + self.plan[0][1]


@dataclass(slots=True)
class Rvc:
    """Robot vacuum: docked (charging) -> cleaning -> returning -> docked, with a linear battery."""

    state: str = "docked"
    battery0: float = 100.0
    t0: float = 0.0
    rate_per_s: float = 0.0
    """Battery change per second in the current state (negative while driving)."""
    clean_left: float = 0.0
    return_left: float = 0.0
    seg_start: float = 0.0
    paused_from: str = ""
    gen: int = 0

    def battery(self, now: float) -> float:
        value = self.battery0 + self.rate_per_s * (now - self.t0)
        return max(0.0, min(100.0, value))

    def _anchor(self, now: float, rate_per_min: float) -> None:
        self.battery0 = self.battery(now)
        self.t0 = now
        self.rate_per_s = rate_per_min / MINUTE

    def remaining_clean_s(self, now: float) -> float:
        if self.state == "cleaning":
            return max(0.0, self.clean_left - (now - self.seg_start))
        if self.state == "paused" and self.paused_from == "cleaning":
            return self.clean_left
        return 0.0

    def set_battery(self, now: float, value: float) -> None:
        self.battery0 = value
        self.t0 = now

    def start(self, now: float, rooms: int, mode: str) -> float:
        self.clean_left = max(1, rooms) * RVC_MINUTES_PER_ROOM * MINUTE
        return self._clean(now, mode)

    def _clean(self, now: float, mode: str) -> float:
        self._anchor(now, -RVC_DRAIN_PER_MIN[mode])
        self.state = "cleaning"
        self.seg_start = now
        self.gen += 1
        until_low = (self.battery0 - RVC_LOW_BATTERY) / -self.rate_per_s
        return now + max(0.0, min(self.clean_left, until_low))

    def pause(self, now: float) -> None:
        if self.state == "cleaning":
            self.clean_left = self.remaining_clean_s(now)
        else:
            self.return_left = max(0.0, self.return_left - (now - self.seg_start))
        self.paused_from = self.state
        self._anchor(now, 0.0)
        self.state = "paused"
        self.gen += 1

    def resume(self, now: float, mode: str) -> float:
        if self.paused_from == "cleaning":
            return self._clean(now, mode)
        return self._drive_home(now, self.return_left)

    def go_home(self, now: float) -> float:
        if self.state == "cleaning":
            self.clean_left = self.remaining_clean_s(now)
        return self._drive_home(now, RVC_RETURN_MINUTES * MINUTE)

    def _drive_home(self, now: float, seconds: float) -> float:
        self._anchor(now, -RVC_RETURN_DRAIN_PER_MIN)
        self.state = "returning"
        self.return_left = seconds
        self.seg_start = now
        self.gen += 1
        return now + seconds

    def dock(self, now: float) -> None:
        self._anchor(now, RVC_CHARGE_PER_MIN)
        self.state = "docked"
        self.clean_left = 0.0
        self.gen += 1

    def cleaning_done(self, now: float) -> bool:
        """Called when a cleaning stint ends: True if the job is finished, False if the battery ran low."""
        self.clean_left = self.remaining_clean_s(now)
        return self.clean_left <= 1e-6
