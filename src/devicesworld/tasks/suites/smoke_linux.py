"""The Linux part of ``smoke``, written in ``tasks/data/handwritten/smoke-linux.yaml``.

Also the two browser helpers that composed-task builders use — :func:`idx` (the number
the browser gives a labelled element) and :func:`fill` (a form filled by labels) — now
the desktop's macros (:mod:`devicesworld.devices.linux.macros`), as agent steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from devicesworld.devices.linux.macros import element_index, fill_steps
from devicesworld.devices.linux.sites.model import Site
from devicesworld.spec.models import Step, Task
from devicesworld.tasks.handwritten.suites import compile_part

idx = element_index


def fill(site: Site, path: str, values: Sequence[tuple[str, str]], device: str) -> list[Step]:
    """Open a form page, type/select each labelled value, submit."""
    return [Step(device=device, **step) for step in fill_steps(site, path, values)]


def build_linux_smoke() -> list[Task]:
    """The Linux smoke tasks, compiled from their data file (runs each setup once)."""
    return compile_part("smoke-linux.yaml")
