"""Time spent waiting for a model, counted apart from the episode's wall-time budget.

Why: a task's ``limits.max_seconds`` is the environment's budget, not the model's. A
model that takes 12 s a step must still be able to use its 50 steps, and a hung
agent must still end within ``max_seconds``. So the runner needs to know, *while* an
agent call is still running, how much of it was spent waiting for model replies.

The runner installs a :class:`ModelClock` for each agent call (in a context variable
of the thread that runs the agent); whatever waits for a model wraps the wait in
:func:`waiting_for_model` — the built-in LLM client does, and a custom agent that
calls its own model can do the same. Outside a run the context manager does nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class ModelClock:
    """Seconds spent inside :func:`waiting_for_model`, including a wait still in progress.

    Thread-safe: the agent's thread adds, the runner's thread reads.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done = 0.0
        self._open: dict[int, float] = {}
        self._next = 0

    def begin(self) -> int:
        with self._lock:
            self._next += 1
            self._open[self._next] = time.monotonic()
            return self._next

    def end(self, token: int) -> None:
        with self._lock:
            started = self._open.pop(token, None)
            if started is not None:
                self._done += time.monotonic() - started

    def seconds(self) -> float:
        """Model time so far; overlapping waits (parallel requests) count once, from the earliest."""
        with self._lock:
            running = time.monotonic() - min(self._open.values()) if self._open else 0.0
            return self._done + running


_current: ContextVar[ModelClock | None] = ContextVar("devicesworld_model_clock", default=None)


def install(clock: ModelClock | None) -> None:
    """Make ``clock`` the one :func:`waiting_for_model` adds to, in this thread's context."""
    _current.set(clock)


@contextmanager
def waiting_for_model() -> Iterator[None]:
    """Wrap a wait for a model reply: the runner does not count it against ``max_seconds``."""
    clock = _current.get()
    if clock is None:
        yield
        return
    token = clock.begin()
    try:
        yield
    finally:
        clock.end(token)
