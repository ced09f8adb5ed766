"""Tasks of the frozen ``full-v1`` suite, for tests that need a built task of a given shape.

The v1 engine that built them is gone; its tasks ship as data and serve as fixtures.
"""

from __future__ import annotations

from functools import cache

from devicesworld.spec.models import Task
from devicesworld.tasks.suites import load_suite


@cache
def full_v1() -> tuple[Task, ...]:
    return tuple(load_suite("full-v1"))


def of_pattern(pattern: str) -> list[Task]:
    """The ``full-v1`` tasks of one workflow pattern, in suite order."""
    return [t for t in full_v1() if t.metadata.pattern == pattern]
