"""Named suites: ``--suite NAME`` resolves here to a deterministic list of tasks.

``smoke`` and ``bmoca`` are handwritten, as data files
(``tasks/data/handwritten/*.yaml``, :mod:`devicesworld.tasks.handwritten`); ``smoke``
also takes the kinds' GUI smoke tasks, shipped apart as ``smoke-gui`` (drawn from the
kinds' task sources, :mod:`devicesworld.tasks.kind_sources`) so that the handwritten
file stays what ``tasks compile --check`` compares; ``full`` is
the shipped, built suite (version 2, from the scenario families in
``tasks/data/scenarios``, :mod:`devicesworld.tasks.full`; ``full-v1`` is the first
version, frozen); ``test`` is its frozen evaluation split: the newest manifest
``tasks/data/manifests/test-v<version>.json`` (:mod:`devicesworld.tasks.manifest`), ids and
content hashes chosen once by coverage-driven stratified selection; every shipped manifest
also loads by its label (``test-v2.1``), so an old version stays runnable. A retired suite
(:data:`RETIRED`: ``gui``, ``gui-smoke``) is refused with what replaces it.

Loading a suite never runs a device setup: every suite ships built
(:mod:`devicesworld.tasks.shipped`) and :func:`load_suite` parses the file. Compiling
the data files runs only in :func:`build_suite` — ``devicesworld tasks build --suite
NAME``, ``devicesworld tasks compile`` and the test that keeps each shipped file equal
to its data files.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from devicesworld.tasks.manifest import load_manifest, manifest_labels
from devicesworld.tasks.shipped import read_suite

if TYPE_CHECKING:  # names and the index need no pydantic; `tasks show` stays fast
    from devicesworld.spec.models import Task

SuiteLoader = Callable[[], "list[Task]"]


def _compiled(name: str) -> SuiteLoader:
    def build() -> list[Task]:
        from devicesworld.tasks.handwritten.suites import compile_suite

        return compile_suite(name)

    return build


def _full() -> list[Task]:
    return read_suite("full")


def _frozen(label: str) -> SuiteLoader:
    def load() -> list[Task]:
        """A manifest's tasks, read from its source suite in the manifest's order (a superseded
        version from its archive: the tasks as they were frozen)."""
        from devicesworld.tasks.manifest import archived_tasks, resolve
        from devicesworld.tasks.shipped import index_rows, read_rows

        path = resolve(label)
        archived = archived_tasks(path.stem) if path is not None else None
        if archived is not None:
            return archived
        rows = index_rows(label)
        if rows:
            return read_rows(rows)
        manifest = load_manifest(label)
        by_id = {t.id: t for t in load_suite(manifest.source)}
        return [by_id[i] for i in manifest.ids if i in by_id]

    return load


def _smoke() -> list[Task]:
    """``smoke``: the handwritten tasks, then the kinds' own GUI smoke tasks (``smoke-gui``)."""
    return read_suite("smoke") + read_suite("smoke-gui")


def _smoke_gui() -> list[Task]:
    from devicesworld.tasks.kind_sources import smoke_tasks

    return smoke_tasks()


SUITES: dict[str, SuiteLoader] = {
    "smoke": _smoke,
    "smoke-gui": lambda: read_suite("smoke-gui"),
    "full": _full,
    "full-v1": lambda: read_suite("full-v1"),
    "test": _frozen("test"),
    "bmoca": lambda: read_suite("bmoca"),
}
ABOUT: dict[str, tuple[str, bool]] = {
    "smoke": ("quick check of every kind: the handwritten tasks, then smoke-gui's", False),
    "smoke-gui": ("one GUI task per Linux and Windows source family (drawn from tasks/data/sources)", False),
    "full": ("every task the scenario and source families build (version 2); `test` is drawn from it", False),
    "full-v1": ("the first full suite, from the retired v1 composition engine", True),
    "test": ("the evaluation split: the newest test manifest's ids, chosen once from full", True),
    "bmoca": ("phone tasks in the style of B-MoCA's (handwritten)", False),
}
"""One line per named suite for ``devicesworld tasks list``: what it is for, and whether it is frozen
(its tasks never change) — a manifest label (``test-v2.1``) is always a frozen ``test`` version."""
RETIRED: dict[str, str] = {
    "gui": "its 188 tasks were an older draw of the 16 Linux GUI families that now feed `full`: "
    "use --suite full --filter 'id=dw-gui-lx-*' (those families and the newer ones) or --suite smoke-gui",
    "gui-smoke": "its 16 tasks are smoke-gui's Linux draws under older ids: "
    "use --suite smoke-gui (--filter 'id=smoke-gui-lx-*' for the Linux ones)",
}
"""Suites that no longer ship, with what replaces each (asked for by name, the user gets this)."""
RETIRED_AFTER = "0.1.0"
BUILDERS: dict[str, SuiteLoader] = {
    "smoke": _compiled("smoke"),
    "bmoca": _compiled("bmoca"),
    "smoke-gui": _smoke_gui,
}
"""Suites compiled from data files (each task's setup runs once) or, ``smoke-gui``, drawn from the
kinds' task sources (phone steps recorded); ``full`` has its own build."""
_BUILT: dict[str, list[Task]] = {}


def suite_names() -> list[str]:
    """The named suites and every shipped manifest's label (``test-v2.1``)."""
    return sorted(set(SUITES) | set(manifest_labels()))


def unknown_suite(name: str) -> str:
    """Why ``name`` is no suite: retired (and what replaces it), or unknown (and the known names)."""
    if name in RETIRED:
        return f"suite {name!r} was retired after v{RETIRED_AFTER}; {RETIRED[name]}"
    return f"unknown suite {name!r}; known suites: {', '.join(suite_names())}"


def suite_summaries() -> list[tuple[str, int, str, bool]]:
    """(name, tasks, what it is for, frozen) for every suite, sized from the task index or the
    manifest without parsing a task."""
    from devicesworld.tasks.shipped import index_rows

    out = []
    for name in suite_names():
        if name in ABOUT:
            about, frozen = ABOUT[name]
        else:
            about, frozen = f"a frozen version of `{name.split('-v')[0]}` (its manifest)", True
        size = len(index_rows(name))
        if not size:  # an archived manifest version, or a suite outside the index
            size = len(load_manifest(name).ids) if name in manifest_labels() else len(load_suite(name))
        out.append((name, size, about, frozen))
    return out


def load_suite(name: str) -> list[Task]:
    """The named suite from its shipped file (once per process); never runs a setup.

    ``KeyError`` with the known names (or what replaces a retired suite) when it does not exist.
    Callers get their own list.
    """
    if name not in SUITES and name not in manifest_labels():
        raise KeyError(unknown_suite(name))
    if name not in _BUILT:
        _BUILT[name] = SUITES[name]() if name in SUITES else _frozen(name)()
    return list(_BUILT[name])


def build_suite(name: str) -> list[Task]:
    """Compile ``smoke`` or ``bmoca`` from its data files, or draw ``smoke-gui`` (runs each task's setup once)."""
    if name not in BUILDERS:
        raise KeyError(f"suite {name!r} has no builder here; buildable: {', '.join(sorted(BUILDERS))}")
    return BUILDERS[name]()
