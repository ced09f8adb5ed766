"""Calls into agent code with a deadline, on a thread of their own.

Why: an agent is someone else's code. A call that never returns used to stall the
whole run (the task's ``max_seconds`` was checked only after a step came back), and
an agent's ``sys.exit()`` ended a one-worker run with nothing recorded. So every call
into the agent (its factory, ``start`` and each ``act``) runs on one thread per
episode while the runner waits with a deadline:

* the **agent's own time** (the call's wall time minus the time it spent waiting
  for model replies, as :mod:`devicesworld.modelclock` reports it *while* the call
  runs) may not exceed what is left of the task's ``max_seconds``;
* the **whole call**, model included, may not exceed ``call_timeout``
  (``--agent-call-timeout``, default :data:`DEFAULT_CALL_TIMEOUT_S`).

Either one raises :class:`AgentTimeout` (the episode ends as ``time_limit``); the
thread is abandoned (Python cannot kill a thread; it is a daemon, so it never keeps
the process alive, and a worker process that abandoned one is replaced). Anything
the agent raises — ``SystemExit`` and ``KeyboardInterrupt`` raised by its code
included — comes back as an :class:`AgentCrash` (an ``Exception``): the episode's
agent error, never the run's end. A real Ctrl-C or SIGTERM arrives in the runner's
own thread and still stops the run.
"""

from __future__ import annotations

import contextvars
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

from devicesworld import modelclock
from devicesworld.modelclock import ModelClock

T = TypeVar("T")

DEFAULT_CALL_TIMEOUT_S: Final = 300.0
"""The longest one agent call (model replies included) may take before its episode ends."""


ABANDONED: Final = "dw-agent-abandoned"
"""The name an agent thread gets when its call passed the deadline and it was left running."""


def abandoned_threads() -> int:
    """Agent threads left running in this process after their deadline."""
    return sum(1 for t in threading.enumerate() if t.name == ABANDONED and t.is_alive())


class AgentTimeout(Exception):
    """An agent call passed its deadline; the message says which one."""


class AgentCrash(Exception):
    """The agent raised something that is not an ``Exception`` (``SystemExit``, ...)."""

    def __init__(self, original: BaseException) -> None:
        code = f"({original.code!r})" if isinstance(original, SystemExit) else f": {original}"
        super().__init__(f"{type(original).__name__}{code}")
        self.original = original


class AgentThread:
    """One episode's thread for agent code; :meth:`call` runs a function there with deadlines."""

    def __init__(self, *, call_timeout: float | None = DEFAULT_CALL_TIMEOUT_S) -> None:
        self.call_timeout = call_timeout
        self.model_seconds = 0.0
        """Model time of every finished call, summed."""
        self.abandoned = False
        """A call passed its deadline and its thread was left running."""
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], _Reply] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def call(self, fn: Callable[[], T], *, budget: float | None = None) -> tuple[T, float]:
        """``fn()`` on the agent's thread; returns ``(value, model seconds of this call)``.

        ``budget``: seconds of the agent's own time (model waits excluded) this call may use.
        """
        if self.abandoned:
            raise AgentTimeout("an earlier agent call never returned")
        if budget is not None and budget <= 0:
            raise AgentTimeout("the task's max_seconds was used up before the agent was asked")
        clock = ModelClock()
        reply = _Reply()
        self._ensure_thread()

        def job() -> Any:
            modelclock.install(clock)
            return fn()

        started = time.monotonic()
        self._jobs.put((job, reply))
        while True:
            elapsed = time.monotonic() - started
            waits = [1.0]
            if budget is not None:
                waits.append(budget - (elapsed - clock.seconds()))
            if self.call_timeout is not None:
                waits.append(self.call_timeout - elapsed)
            if reply.done.wait(max(0.0, min(waits))):
                break
            elapsed = time.monotonic() - started
            own = elapsed - clock.seconds()
            if budget is not None and own >= budget:
                self._abandon()
                raise AgentTimeout(
                    f"the agent used the rest of the task's max_seconds ({budget:.1f} s of its own time, "
                    "model replies not counted) without answering"
                )
            if self.call_timeout is not None and elapsed >= self.call_timeout:
                self._abandon()
                raise AgentTimeout(f"an agent call did not return within {self.call_timeout:g} s")
        model = clock.seconds()
        self.model_seconds += model
        if reply.error is not None:
            if isinstance(reply.error, Exception):
                raise reply.error
            raise AgentCrash(reply.error)
        return reply.value, model

    def close(self) -> None:
        """Let the thread end (an abandoned one ends when its call returns, if ever)."""
        if self._thread is not None and not self.abandoned:
            self._jobs.put(None)
        self._thread = None

    def _abandon(self) -> None:
        self.abandoned = True
        if self._thread is not None:
            self._thread.name = ABANDONED  # a worker process seeing one is replaced after its episode
        self._thread = None

    def _ensure_thread(self) -> None:
        if self._thread is None:
            context = contextvars.copy_context()
            self._thread = threading.Thread(
                target=context.run, args=(_serve, self._jobs), name="dw-agent", daemon=True
            )
            self._thread.start()


class _Reply:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


def _serve(jobs: queue.SimpleQueue[tuple[Callable[[], Any], _Reply] | None]) -> None:
    while True:
        item = jobs.get()
        if item is None:
            return
        fn, reply = item
        try:
            reply.value = fn()
        except BaseException as exc:  # SystemExit too: the runner's thread decides what it means
            reply.error = exc
        finally:
            reply.done.set()
