"""The phone part of ``smoke``, written in ``tasks/data/handwritten/smoke-android.yaml``.

Single-phone tasks across the apps, two-phone hand-offs and phone + home; the
solutions are written by meaning with the phone's macros
(:mod:`devicesworld.devices.android.macros`) and recorded on the simulator when the
file is compiled. This module only compiles the data file.
"""

from __future__ import annotations

from devicesworld.spec.models import Task
from devicesworld.tasks.handwritten.suites import compile_part


def build_android_smoke() -> list[Task]:
    """The phone smoke tasks, compiled from their data file (records every solution)."""
    return compile_part("smoke-android.yaml")
