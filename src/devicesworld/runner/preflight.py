"""Checks and estimates said before a run starts, so a mistake costs seconds, not a suite.

An ``--base-url`` nothing listens on used to run every episode into an error; a run
with ``--screenshots`` on the test split wrote 495 MB without a word. Both are now
said before the first episode.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

from devicesworld.devices.base import traits_of
from devicesworld.spec.models import Task


class PreflightError(ValueError):
    """The run would fail for a reason the user can fix now; the message says which."""


def check_endpoint(agent: str, base_url: str | None) -> None:
    """Refuse ``--base-url`` (or, for built-in LLM agents, ``DEVICESWORLD_BASE_URL``) if nothing listens."""
    if base_url:
        _check_url(base_url, "--base-url")
    elif agent in LLM_AGENTS and os.environ.get("DEVICESWORLD_BASE_URL"):
        _check_url(os.environ["DEVICESWORLD_BASE_URL"], "DEVICESWORLD_BASE_URL")


def screenshot_estimate(tasks: list[Task]) -> str:
    """What --screenshots will write, said before the run: phones give one PNG (~70 kB) per step.

    Which devices screenshot when is their kind's ``KindTraits.screenshots``: every step
    (phones) or while a browser page is open (desktops).
    """
    phones = [sum(traits_of(d.kind).screenshots == "every_step" for d in t.devices) for t in tasks]
    typical = sum(n * max(1, len(t.solution)) for n, t in zip(phones, tasks, strict=True))
    budget = sum(n * t.limits.max_steps for n, t in zip(phones, tasks, strict=True))
    desktops = sum(traits_of(d.kind).screenshots == "while_browsing" for t in tasks for d in t.devices)
    line = (
        f"--screenshots: about {typical:,} phone PNGs (~{_mb(typical)}) if episodes take "
        f"as many steps as the reference solutions, up to {budget:,} (~{_mb(budget)}) "
        "if every episode uses its whole step budget"
    )
    if desktops:
        line += "; desktops add one PNG per step while a browser page is open"
    return line


PNG_KB = 70
"""Measured mean size of a phone screenshot (smoke, oracle): 69 kB."""


def _mb(shots: int) -> str:
    mb = shots * PNG_KB / 1024
    return f"{mb:,.1f} MB" if mb < 10 else f"{mb:,.0f} MB"


LLM_AGENTS = ("llm", "hierarchical", "planner-grounder", "tracked")
"""Built-in agents that read DEVICESWORLD_BASE_URL when --base-url is not given."""


def _check_url(base_url: str, label: str) -> None:
    """Refuse an --base-url nothing listens on, before any episode runs."""
    parts = urlsplit(base_url)
    try:
        explicit = parts.port
    except ValueError:
        explicit = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or explicit == -1:
        raise PreflightError(f"{label} {base_url!r}: expected http(s)://HOST[:PORT]/PATH")
    port = explicit or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=10):
            pass
    except OSError as exc:
        raise PreflightError(
            f"{label} {base_url}: cannot connect to {parts.hostname}:{port} ({exc.strerror or exc}); "
            "is the server running?"
        ) from None
