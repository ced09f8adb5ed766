"""The Linux part of ``smoke``, written in ``tasks/data/handwritten/smoke-linux.yaml``."""

from __future__ import annotations

from devicesworld.spec.models import Task
from devicesworld.tasks.handwritten.suites import compile_part


def build_linux_smoke() -> list[Task]:
    """The Linux smoke tasks, compiled from their data file (runs each setup once)."""
    return compile_part("smoke-linux.yaml")
