"""The SmartHome part of ``smoke``, written in ``tasks/data/handwritten/smoke-sh.yaml``.

Small deterministic tasks over the whole SmartHome stack: state queries that feed a
decision, control of all 11 categories, schedules, conditional decisions in both
branches, infeasible requests. This module only compiles the data file.
"""

from __future__ import annotations

from devicesworld.spec.models import Task
from devicesworld.tasks.handwritten.suites import compile_part


def build_smoke_suite() -> list[Task]:
    """The SmartHome smoke tasks, compiled from their data file (runs each setup once)."""
    return compile_part("smoke-sh.yaml")
