"""Schedules and the event queue that makes time jumps exact.

Everything that happens "later" — a phase change, a room crossing a thermostat
target, a schedule firing — is one entry in a heap keyed by (time, sequence). The
home pops entries in order while advancing, so jumping 24 hours costs one step per
event, not per minute. Entries carry a generation number; when an appliance is
paused or a room re-anchored its generation moves on and stale entries are dropped.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Literal

TriggerKind = Literal["at", "delay", "after_event"]
ScheduleStatus = Literal["pending", "fired", "failed", "cancelled"]
EventKind = Literal["cycle", "room", "schedule"]


@dataclass(slots=True)
class Schedule:
    """A command to run later: at a time, after a delay, or after a device event."""

    id: str
    device_id: str
    command: str
    params: dict[str, Any]
    trigger: TriggerKind
    created_at: float
    created_by: str
    due_at: float | None = None
    """Seconds since the home epoch; None for an after-event schedule not yet armed."""
    delay_minutes: float | None = None
    event_device: str | None = None
    event: str | None = None
    status: ScheduleStatus = "pending"
    fired_at: float | None = None
    error_code: str | None = None
    error: str | None = None


@dataclass(order=True, slots=True)
class _Entry:
    time: float
    seq: int
    kind: EventKind = field(compare=False)
    key: str = field(compare=False)
    gen: int = field(compare=False)


class EventQueue:
    """A min-heap of future events; ``pop_due`` yields them in time order, FIFO on ties."""

    def __init__(self) -> None:
        self._heap: list[_Entry] = []
        self._seq = 0

    def push(self, time: float, kind: EventKind, key: str, gen: int = 0) -> None:
        self._seq += 1
        heapq.heappush(self._heap, _Entry(time, self._seq, kind, key, gen))

    def pop_due(self, until: float) -> _Entry | None:
        if self._heap and self._heap[0].time <= until:
            return heapq.heappop(self._heap)
        return None

    def __len__(self) -> int:
        return len(self._heap)

    def clear(self) -> None:
        self._heap.clear()
