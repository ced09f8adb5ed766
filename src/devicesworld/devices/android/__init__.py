"""Android: a simulated phone in pure Python — system UI, apps, view tree, SQLite state, screenshots.

The package exports :data:`KIND`; see ``docs/android.md`` for the model.
"""

from __future__ import annotations

from devicesworld.devices.android import macros as _macros  # noqa: F401  (registers the task-file macros)
from devicesworld.devices.android.kind import KIND

__all__ = ["KIND"]
