"""Which tasks can run on this machine: a device kind says when a system tool it needs is missing.

``make run`` validates and runs ``smoke``, which holds GUI desktops and Windows (Wine)
tasks; on a machine without the X/AT-SPI stack or Wine those would fail one by one with
``UNAVAILABLE``. Each kind answers ``KindTraits.unavailable(profile)`` instead, and the
run and validate commands leave such tasks out with the reason — unless
``DEVICESWORLD_REQUIRE_SYSTEM=1`` (CI), where a missing tool is an error, as in the tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from devicesworld.devices.base import traits_of
from devicesworld.spec.models import Task

REQUIRE_ENV = "DEVICESWORLD_REQUIRE_SYSTEM"


def unavailable(task: Task) -> str | None:
    """Why ``task`` cannot run here (the first device whose kind lacks a system tool), or None."""
    for d in task.devices:
        check = traits_of(d.kind).unavailable
        problem = check(d.profile) if check is not None else None
        if problem:
            return f"{d.id}: {problem}"
    return None


def required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def split_runnable(tasks: Iterable[Task]) -> tuple[list[Task], dict[str, list[str]]]:
    """The tasks that can run here, and the ids of the others by reason (reasons asked once per kind+profile)."""
    runnable: list[Task] = []
    skipped: dict[str, list[str]] = {}
    cache: dict[str, str | None] = {}
    for t in tasks:
        key = repr([(d.kind, sorted(d.profile.items())) for d in t.devices])
        if key not in cache:
            cache[key] = unavailable(t)
        problem = cache[key]
        if problem is None:
            runnable.append(t)
        else:
            skipped.setdefault(problem.split(": ", 1)[1], []).append(t.id)
    return runnable, skipped
