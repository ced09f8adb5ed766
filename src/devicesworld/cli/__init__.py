"""The ``devicesworld`` command: one module per command group, each loaded when called.

Every expected failure (a malformed task file, an unknown agent, a run directory that
would be overwritten) is printed as a clear message with exit status 2; tracebacks
are for bugs only. ``run`` exits 0 whenever the harness worked, whatever the score;
it exits 1 when it stopped early on consecutive errors or every episode errored.

This module holds only the top group: ``devicesworld --version`` imports it and
:mod:`devicesworld.cli.common`, nothing else of the project. The helpers other command groups
(``serve``, ``androidworld``) read, ``UserError``, ``console``, ``find_task``, ``load_source``,
are in ``common`` and reachable from here by name.
"""

from __future__ import annotations

from typing import Any

import click

from devicesworld.cli.common import LazyGroup

COMMANDS = {
    "run": "devicesworld.cli.run:run",
    "report": "devicesworld.cli.results:report",
    "view": "devicesworld.cli.results:view",
    "play": "devicesworld.cli.play:play",
    "clean": "devicesworld.cli.admin:clean",
    "kinds": "devicesworld.cli.admin:kinds",
    "tasks": "devicesworld.cli.tasks:tasks",
    "serve": "devicesworld.serve.cli:serve",
    "androidworld": "devicesworld.compat.androidworld.cli:androidworld",
}
"""Each top-level command and the module that defines it (``module:attribute``)."""


@click.group(cls=LazyGroup, lazy=COMMANDS)
@click.version_option(package_name="devicesworld")
def main() -> None:
    """DevicesWorld: an executable benchmark for agents that work across phones, desktops and a smart home."""


def __getattr__(name: str) -> Any:
    """The shared helpers by name (``from devicesworld.cli import UserError``), from ``common``."""
    from devicesworld.cli import common

    try:
        return getattr(common, name)
    except AttributeError:
        raise AttributeError(f"module 'devicesworld.cli' has no attribute {name!r}") from None
