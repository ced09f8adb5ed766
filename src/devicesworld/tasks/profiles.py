"""Device profiles a task runs with: GUI-only, hybrid or tool-style desktops (issue #34).

Why this module: a desktop's ``desktop`` profile decides its action space — ``gui`` is the
GUI space alone (the terminal is an app whose window is typed into), ``hybrid`` adds
``run_command`` (the paper's Linux setting), ``api`` is the tool-style space. A task of
``schema_version: 1`` was written when a ``gui`` desktop (and every Windows one) had a
shell, so it keeps that reading (``DeviceKind.legacy_profile``); results are reported
apart per profile, so GUI-only and hybrid numbers never mix.

* :func:`desktop_profile` — the label a result is reported under (``gui``, ``hybrid``,
  ``api`` or ``none`` for a task without a desktop).
* :func:`declare_profiles` — a version-1 task rewritten as version 2 with every desktop's
  profile stated: ``gui`` where its reference solution uses no shell on it, ``hybrid``
  where it does. Builders and the shipped files use it (``python -m
  devicesworld.tasks.profiles FILE…`` rewrites files in place); nothing else changes, so a
  task's checks and setup stay byte for byte.
* :func:`every_desktop_gui` — whether a task runs every desktop GUI-only (the share issue #34
  asks of ``test``: at least 80% of the tasks that have a desktop).

At integration the shipped ``full`` is declared in one command, ``devicesworld tasks
declare-profiles`` (``--count`` only counts); docs/scenarios.md has the sequence.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from devicesworld import jsonl
from devicesworld.devices.base import get_kind
from devicesworld.spec.models import PROFILES_SCHEMA_VERSION, Task
from devicesworld.tasks.semantic import run_profiles
from devicesworld.tasks.shipped import write_tasks

DESKTOP_KEY = "desktop"
"""The profile key a desktop kind's action space follows (``api`` / ``gui`` / ``hybrid``)."""


def desktop_profile(task: Task) -> str:
    """The profile a task's result is reported under: ``hybrid`` if any desktop has a shell next to
    its GUI, else ``gui`` if any desktop is GUI-only, else ``api`` for tool-style desktops, else
    ``none`` (no desktop: phones and homes only)."""
    seen = {
        _desktop_of(dev.kind, profile)
        for dev, profile in zip(
            task.devices, run_profiles(task.devices, task.schema_version).values(), strict=True
        )
    }
    for label in ("hybrid", "gui", "api"):
        if label in seen:
            return label
    return "none"


def _desktop_of(kind_name: str, profile: dict[str, Any]) -> str | None:
    """The ``desktop`` value a device runs with, its kind's default filled in (None: not a desktop)."""
    kind = get_kind(kind_name)
    if kind is None or kind.profile_model is None or DESKTOP_KEY not in kind.profile_model.model_fields:
        return None
    if DESKTOP_KEY in profile:
        return str(profile[DESKTOP_KEY])
    default = kind.profile_model.model_fields[DESKTOP_KEY].default
    return str(default) if isinstance(default, str) else None


def _desktops(task: Task) -> list[str]:
    """The ``desktop`` value of each desktop device of ``task``, as it runs (its schema's reading)."""
    return [
        label
        for dev, profile in zip(
            task.devices, run_profiles(task.devices, task.schema_version).values(), strict=True
        )
        if (label := _desktop_of(dev.kind, profile)) is not None
    ]


def every_desktop_gui(task: Task) -> bool | None:
    """True when every desktop of ``task`` runs GUI-only (``desktop: gui``), False when one has a shell
    or is tool-style, None for a task without a desktop."""
    desktops = _desktops(task)
    return None if not desktops else all(d == "gui" for d in desktops)


def _uses(task: Task) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for step in task.solution:
        if step.device is not None:
            out.setdefault(step.device, set()).add(step.action)
    return out


def declare_profiles(task: Task) -> Task:
    """``task`` as a version-2 document whose desktops state the narrowest profile its reference
    solution fits: the profile as written when read as version 2 (``gui``: no shell) if the
    solution's steps on that device are all in its action space, else the version-1 reading
    (``hybrid``). Idempotent; a version-2 task is returned unchanged."""
    if task.schema_version >= PROFILES_SCHEMA_VERSION:
        return task
    uses = _uses(task)
    devices = []
    for dev in task.devices:
        kind = get_kind(dev.kind)
        profile = dict(dev.profile)
        if kind is not None and kind.legacy_profile is not None:
            strict = kind.profile_of(profile, PROFILES_SCHEMA_VERSION)
            legacy = kind.profile_of(profile, 1)
            if strict != legacy:
                fits = uses.get(dev.id, set()) <= set(kind.actions_for(strict))
                profile = strict if fits else legacy
                desktop = _desktop_of(dev.kind, profile)
                if desktop is not None:  # stated, not left to the kind's default
                    profile = {**profile, DESKTOP_KEY: desktop}
        devices.append(dev if profile == dev.profile else dev.model_copy(update={"profile": profile}))
    return task.model_copy(update={"schema_version": PROFILES_SCHEMA_VERSION, "devices": devices})


def read_tasks(path: Path) -> list[Task]:
    """The tasks of a ``.jsonl`` / ``.jsonl.gz`` file; ValueError naming the line that is not a task."""
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    tasks = []
    for number, line in jsonl.split_lines(raw):
        try:
            tasks.append(Task.model_validate_json(line))
        except ValueError as exc:
            first = str(exc).splitlines()
            raise ValueError(f"line {number} is not a task: {first[0] if first else exc}") from None
    return tasks


def declare_file(path: Path) -> Counter[str]:
    """Rewrite a ``.jsonl`` / ``.jsonl.gz`` task file in place with :func:`declare_profiles` (gzip
    with the shipped fixed header); returns the count of tasks per reported profile."""
    tasks = [declare_profiles(t) for t in read_tasks(path)]
    write_tasks(path, tasks)
    return Counter(desktop_profile(t) for t in tasks)


def count_file(path: Path) -> Counter[str]:
    """Tasks per reported profile, as the file reads now and as :func:`declare_profiles` would declare it,
    and ``with_desktop`` / ``every_desktop_gui``: tasks with a desktop, and those of them whose every
    desktop would run GUI-only."""
    return count_tasks(read_tasks(path))


def count_tasks(tasks: list[Task]) -> Counter[str]:
    """:func:`count_file` of tasks already read."""
    out: Counter[str] = Counter()
    for task in tasks:
        declared = declare_profiles(task)
        out[f"now:{desktop_profile(task)}"] += 1
        out[f"declared:{desktop_profile(declared)}"] += 1
        gui_only = every_desktop_gui(declared)
        if gui_only is not None:
            out["with_desktop"] += 1
            out["every_desktop_gui"] += int(gui_only)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="State every desktop's profile (gui where the reference solution needs no shell, else "
        "hybrid) and write the tasks as schema_version 2."
    )
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--count", action="store_true", help="only count tasks per profile, write nothing")
    args = parser.parse_args(argv)
    for path in args.files:
        try:
            counts = count_file(path) if args.count else declare_file(path)
        except (OSError, ValueError) as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            return 2
        print(f"{path}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
