"""Progress for long commands: a rich bar on a terminal, periodic plain lines elsewhere.

``tasks validate --suite full`` once printed nothing for 24 minutes. Every long
command now reports through :func:`progress_bar`: on a terminal (rich's own
detection, so ``FORCE_COLOR``/``TERM=dumb`` behave as rich documents) a bar with the
count, rate-based ETA and the command's own fields; when output is a file, a pipe or
a test's captured stream, one plain line at every tenth of the work (and at least
every ``plain_every_s`` seconds while work advances), so logs stay readable and
nothing depends on the terminal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def _fmt_seconds(seconds: float) -> str:
    if seconds < 1:
        return "<1 s"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Ticker:
    """What a command calls as work finishes: ``advance(n, **fields)``."""

    def __init__(self, console: Console, description: str, total: int, plain_every_s: float) -> None:
        self.console = console
        self.description = description
        self.total = total
        self.done = 0
        self.fields: dict[str, Any] = {}
        self.started = time.monotonic()
        self._bar: Progress | None = None
        self._task: Any = None
        self._plain_every_s = plain_every_s
        self._last_plain = self.started
        self._next_tenth = 1

    def set_total(self, total: int) -> None:
        """Change how much work there is (a resumed run has less than it was asked for)."""
        self.total = total
        if self._bar is not None:
            self._bar.update(self._task, total=total)

    def advance(self, n: int = 1, **fields: Any) -> None:
        self.done += n
        self.fields.update(fields)
        if self._bar is not None:
            self._bar.update(self._task, advance=n, extra=self._extra())
            return
        now = time.monotonic()
        tenth = (self.done * 10) // self.total if self.total else 10
        if (
            tenth >= self._next_tenth
            or self.done >= self.total
            or now - self._last_plain >= self._plain_every_s
        ):
            self._next_tenth = tenth + 1
            self._last_plain = now
            self.console.print(self.plain_line(now), highlight=False, markup=False, soft_wrap=True)

    def plain_line(self, now: float) -> str:
        elapsed = now - self.started
        pct = f" ({100 * self.done // self.total}%)" if self.total else ""
        line = f"{self.description}: {self.done}/{self.total}{pct}"
        extra = self._extra()
        if extra:
            line += f", {extra}"
        line += f", {_fmt_seconds(elapsed)} elapsed"
        if 0 < self.done < self.total:
            line += f", ~{_fmt_seconds(elapsed / self.done * (self.total - self.done))} left"
        return line

    def _extra(self) -> str:
        return ", ".join(f"{v} {k}" for k, v in self.fields.items())


@contextmanager
def progress_bar(
    console: Console, description: str, total: int, *, plain_every_s: float = 30.0
) -> Iterator[Ticker]:
    """A :class:`Ticker` for ``total`` units of work, shown as suits ``console``."""
    ticker = Ticker(console, description, total, plain_every_s)
    if not console.is_terminal:
        yield ticker
        return
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[extra]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as bar:
        ticker._bar = bar
        ticker._task = bar.add_task(description, total=total, extra="")
        yield ticker
