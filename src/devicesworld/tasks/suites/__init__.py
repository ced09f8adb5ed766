"""Named suites: ``--suite NAME`` resolves here to a deterministic list of tasks.

The ``smoke`` suite is assembled from one part per device family, each a module in
this package with a ``build_*`` function, so that families grow independently.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from devicesworld.spec.models import Task

SuiteLoader = Callable[[], list[Task]]

SMOKE_PARTS: list[tuple[str, str]] = [
    ("devicesworld.tasks.suites.smoke", "build_smoke_suite"),
    ("devicesworld.tasks.suites.smoke_linux", "build_linux_smoke"),
    ("devicesworld.tasks.suites.smoke_android", "build_android_smoke"),
]
"""``(module, function)`` pairs whose tasks make up ``smoke``, in order."""


def _smoke() -> list[Task]:
    tasks: list[Task] = []
    for module, function in SMOKE_PARTS:
        build: SuiteLoader = getattr(importlib.import_module(module), function)
        tasks += build()
    return tasks


SUITES: dict[str, SuiteLoader] = {"smoke": _smoke}


def suite_names() -> list[str]:
    return sorted(SUITES)


def load_suite(name: str) -> list[Task]:
    """Build the named suite; raises ``KeyError`` with the known names when it does not exist."""
    try:
        loader = SUITES[name]
    except KeyError:
        raise KeyError(f"unknown suite {name!r}; known suites: {', '.join(suite_names())}") from None
    return loader()
