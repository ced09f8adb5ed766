"""The local backend: episodes in this process, or in worker processes on this machine.

``InProcessPool`` (one worker, no timeout) runs the episode in the calling process —
cheapest, and tracebacks and debuggers work as usual. ``ProcessPool`` keeps ``size``
long-lived processes, each running one :class:`~devicesworld.runner.worker.EpisodeWorker`,
and talks to each over its own pipe with JSON text. A process can be killed (on a
timeout) and replaced without disturbing the others, and a process that dies is
noticed through its sentinel. Processes are *spawned*, not forked, so they never
inherit a lock held by one of the parent's threads (the progress bar's, for one);
device kinds the tasks need are imported by module name in each worker. A worker dies
with the parent, also after ``kill -9`` (:mod:`devicesworld.runner.lifeline`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from devicesworld.runner import lifeline
from devicesworld.runner.backends.base import Completion
from devicesworld.runner.worker import MIN_SETUP_S, EpisodeWorker


class InProcessPool:
    """One worker, in this process: jobs run inside :meth:`wait`."""

    size = 1

    def __init__(self, *, prewarm: bool, min_setup_s: float = MIN_SETUP_S) -> None:
        self._worker = EpisodeWorker(prewarm=prewarm, min_setup_s=min_setup_s)
        self._pending: tuple[str, str | None] | None = None

    def submit(self, slot: int, job_json: str, next_job_json: str | None) -> None:
        self._pending = (job_json, next_job_json)

    def wait(self, timeout: float | None) -> list[Completion]:
        if self._pending is None or timeout == 0.0:
            return []
        job, upcoming = self._pending
        self._pending = None
        return [Completion(slot=0, outcome_json=self._worker.run(job, upcoming))]

    def restart(self, slot: int) -> None:
        self._worker.close()
        self._pending = None

    def close(self) -> None:
        self._worker.close()


READY = b"ready"
BEGAN = b"began"
"""Sent by a worker when its episode begins, before the outcome (the timeout counts from it)."""
PHASES = {b"agent": True, b"env": False}
"""Sent by a worker around each call into agent code: a worker that dies in between died
of the agent (``os._exit``), which is that episode's agent error, not a machine failure."""
START_TIMEOUT_S = 120.0
"""How long a new worker process may take to import everything before it counts as dead."""


def _worker_main(conn: Connection, prewarm: bool, min_setup_s: float, parent_pid: int) -> None:
    """A worker process: run jobs from the pipe until it closes or says stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    lifeline.install(parent_pid)  # a parent killed with -9 takes this worker (and its children) along
    worker = EpisodeWorker(prewarm=prewarm, min_setup_s=min_setup_s)
    try:
        conn.send_bytes(READY)  # imports are done: from here on, time is the episodes'
        while True:
            try:
                message: dict[str, Any] | None = json.loads(conn.recv_bytes())
            except (EOFError, OSError):
                return  # the parent is gone
            if message is None:
                return
            outcome = worker.run(
                message["job"],
                message.get("next"),
                lambda: conn.send_bytes(BEGAN),
                lambda phase: conn.send_bytes(phase.encode("ascii")),
            )
            conn.send_bytes(outcome.encode("utf-8"))
    finally:
        worker.close()


@dataclass
class _Proc:
    process: BaseProcess
    conn: Connection
    busy: bool = False
    died: str | None = None
    in_agent: bool = False


class ProcessPool:
    """``size`` spawned worker processes on this machine.

    The pool returns (and a replaced worker is used) only once each process has
    imported everything and said it is ready, so start-up is never charged to an
    episode's timeout.
    """

    def __init__(self, size: int, *, prewarm: bool, min_setup_s: float = MIN_SETUP_S) -> None:
        self._ctx = multiprocessing.get_context("spawn")
        self._prewarm = prewarm
        self._min_setup_s = min_setup_s
        self._procs: list[_Proc] = []
        try:
            for _ in range(size):
                self._procs.append(self._spawn())
            for proc in self._procs:
                self._await_ready(proc)
        except BaseException:
            self.close()
            raise

    @property
    def size(self) -> int:
        return len(self._procs)

    def pids(self) -> list[int | None]:
        return [p.process.pid for p in self._procs]

    def _spawn(self) -> _Proc:
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=_worker_main,
            args=(child, self._prewarm, self._min_setup_s, os.getpid()),
            name="dw-worker",
        )
        process.start()
        child.close()
        return _Proc(process=process, conn=parent)

    def submit(self, slot: int, job_json: str, next_job_json: str | None) -> None:
        proc = self._procs[slot]
        proc.busy = True
        proc.in_agent = False
        try:
            proc.conn.send_bytes(json.dumps({"job": job_json, "next": next_job_json}).encode("utf-8"))
        except (OSError, ValueError) as exc:
            proc.died = f"could not send the job: {exc}"

    def wait(self, timeout: float | None) -> list[Completion]:
        busy = [(slot, p) for slot, p in enumerate(self._procs) if p.busy]
        done = [Completion(slot=slot, died=p.died) for slot, p in busy if p.died is not None]
        if done:
            for c in done:
                self._procs[c.slot].busy = False
            return done
        if not busy:
            return []
        handles: list[Any] = [p.conn for _, p in busy] + [p.process.sentinel for _, p in busy]
        ready = wait(handles, timeout)
        completions: list[Completion] = []
        for slot, p in busy:
            if p.conn in ready:
                try:
                    message = p.conn.recv_bytes()
                except (EOFError, OSError):
                    completions.append(Completion(slot=slot, died=self._death(p), in_agent=p.in_agent))
                else:
                    if message in PHASES:
                        p.in_agent = PHASES[message]
                        continue
                    if message == BEGAN:
                        completions.append(Completion(slot=slot, began=True))
                        continue  # still busy: the outcome comes later
                    completions.append(Completion(slot=slot, outcome_json=message.decode("utf-8")))
            elif p.process.sentinel in ready:
                completions.append(Completion(slot=slot, died=self._death(p), in_agent=p.in_agent))
            else:
                continue
            p.busy = False
        return completions

    @staticmethod
    def _await_ready(p: _Proc) -> None:
        try:
            if p.conn.poll(START_TIMEOUT_S) and p.conn.recv_bytes() == READY:
                return
        except (EOFError, OSError):
            pass
        p.died = f"worker process {p.process.pid} did not start (exit status {p.process.exitcode})"

    @staticmethod
    def _death(p: _Proc) -> str:
        p.process.join(timeout=1.0)
        return f"worker process {p.process.pid} exited with status {p.process.exitcode}"

    def restart(self, slot: int) -> None:
        self._stop(self._procs[slot], kill=True)
        self._procs[slot] = self._spawn()
        self._await_ready(self._procs[slot])

    def close(self) -> None:
        for p in self._procs:
            self._stop(p, kill=p.busy)

    @staticmethod
    def _stop(p: _Proc, *, kill: bool) -> None:
        if not kill and p.process.is_alive():
            try:
                p.conn.send_bytes(b"null")
            except (OSError, ValueError):
                kill = True
            else:
                p.process.join(timeout=5.0)
        if p.process.is_alive():
            p.process.kill()
            p.process.join(timeout=5.0)
        p.conn.close()
