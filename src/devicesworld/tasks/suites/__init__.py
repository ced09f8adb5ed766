"""Named suites: ``--suite NAME`` resolves here to a deterministic list of tasks."""

from __future__ import annotations

from collections.abc import Callable

from devicesworld.spec.models import Task

SuiteLoader = Callable[[], list[Task]]


def _smoke() -> list[Task]:
    from devicesworld.tasks.suites.smoke import build_smoke_suite

    return build_smoke_suite()


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
