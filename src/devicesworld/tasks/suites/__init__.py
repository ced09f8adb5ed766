"""Named suites: ``--suite NAME`` resolves here to a deterministic list of tasks.

The ``smoke`` suite is assembled from one part per device family, each a module in
this package with a ``build_*`` function, so that families grow independently.
``full`` is the shipped, built suite (6,200 tasks, :mod:`devicesworld.tasks.full`);
``test`` is its fixed evaluation split, chosen by coverage-driven stratified selection.
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


def _full() -> list[Task]:
    from devicesworld.tasks.full import load_full

    return load_full()


def _test_split() -> list[Task]:
    """The evaluation split: the tasks of ``full`` whose ``metadata.split`` is ``test``."""
    return [t for t in load_suite("full") if t.metadata.split == "test"]


def _bmoca() -> list[Task]:
    from devicesworld.tasks.suites.bmoca import build_bmoca

    return build_bmoca()


SUITES: dict[str, SuiteLoader] = {"smoke": _smoke, "full": _full, "test": _test_split, "bmoca": _bmoca}
_BUILT: dict[str, list[Task]] = {}


def suite_names() -> list[str]:
    return sorted(SUITES)


def load_suite(name: str) -> list[Task]:
    """Build the named suite (once per process); ``KeyError`` with the known names when it does not exist.

    Building runs each task's setup once (guards, recorded phone solutions), so the
    result is kept: a second request costs nothing. Callers get their own list.
    """
    if name not in SUITES:
        raise KeyError(f"unknown suite {name!r}; known suites: {', '.join(suite_names())}")
    if name not in _BUILT:
        _BUILT[name] = SUITES[name]()
    return list(_BUILT[name])
